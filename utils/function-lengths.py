#!/usr/bin/env python3
"""Lists the C/C++ function definitions whose body is longer than N lines.

  utils/function-lengths.py [-n N] [--allow FILE | --no-allow] [--all] PATH...

PATH is a folder (its .cpp, .cc, .h, .hpp and .cu files, recursively) or a
file. A function definition is a `{` at namespace or class scope that
follows a parameter list `)` (optionally followed by const, override,
noexcept, a trailing `-> type` or a constructor's initializer list); not a
lambda, a struct, a namespace or an initializer. Its length is counted from
the line of the `{` to the line of the matching `}`, both included, so the
lambdas and local classes in a function count towards it. Comments, string
and character literals (raw strings too) and preprocessor lines are skipped.

Each function longer than N lines (default 120) is printed as
`path:line: name: L lines` (path relative to the repository when it is in
it, line that of the name); the exit status is 1 if any is, 0 otherwise.
The allowlist (default utils/function-lengths-allow.txt) names the
table-like functions that may be longer, one `path:function  # why` a line;
an entry that names a scanned file but no long function there is an error,
so that the list does not outlive its reasons. --all prints every function
with its length and always exits 0.
"""

import argparse
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_ALLOW = os.path.join(ROOT, "utils", "function-lengths-allow.txt")
SUFFIXES = (".cpp", ".cc", ".h", ".hpp", ".cu", ".cuh")


def blank(text):
    """Returns text with comments, literals and preprocessor lines replaced
    by spaces (newlines kept, so that offsets and line numbers stay)."""
    out = list(text)
    n = len(text)
    i = 0
    line_start = True  # only whitespace since the last newline

    def wipe(a, b):
        for k in range(a, b):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        c = text[i]
        if c == "\n":
            line_start = True
            i += 1
            continue
        if line_start and c == "#":
            # A preprocessor line, with its continuations (and comments).
            j = i
            while j < n and text[j] != "\n":
                if text.startswith("/*", j):
                    e = text.find("*/", j + 2)
                    j = n if e < 0 else e + 2
                    continue
                if text[j] == "\\" and j + 1 < n and text[j + 1] == "\n":
                    j += 2
                    continue
                j += 1
            wipe(i, j)
            i = j
            continue
        if c in " \t\r\f\v":
            i += 1
            continue
        line_start = False
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            wipe(i, j)
            i = j
            continue
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            wipe(i, j)
            i = j
            continue
        m = re.compile(r'(?:u8|u|U|L)?R"([^()\\ \t\n]{0,16})\(').match(text, i)
        if m and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            end = text.find(")" + m.group(1) + '"', m.end())
            j = n if end < 0 else end + len(m.group(1)) + 2
            wipe(i + 1, j - 1)
            i = j
            continue
        if c == '"' or (c == "'" and not (i > 0 and text[i - 1].isalnum())):
            # A string or character literal (a ' after a digit or letter is
            # a digit separator, as in 1'000).
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            wipe(i + 1, min(j, n))
            i = j + 1
            continue
        i += 1
    return "".join(out)


def flatten(header):
    """Blanks what stands inside (), [] and {} of a declaration's text,
    keeping the brackets: `f(int a) : x{1}` becomes `f(     ) : x{ }`."""
    out = []
    depth = 0
    for ch in header:
        if ch in "([{":
            if depth == 0:
                out.append(ch)
            else:
                out.append(" ")
            depth += 1
        elif ch in ")]}":
            depth = max(depth - 1, 0)
            out.append(ch if depth == 0 else " ")
        else:
            out.append(ch if depth == 0 or ch == "\n" else " ")
    return "".join(out)


QUALIFIERS = (r"(?:\s|const\b|volatile\b|&|override\b|final\b|mutable\b|"
              r"noexcept\b(?:\s*\(\s*\))?|try\b|throw\s*\(\s*\)|"
              r"LLVM_\w+\b|__attribute__\s*\(\s*\)|\[\s*\])*")
# A declarator's end: `)` and its qualifiers, then a trailing return type.
FUNCTION_END = re.compile(r"\)" + QUALIFIERS + r"(?:->[^;=]*)?$")
# A constructor's initializer list after its `)`: `) : a(x), b{y}`.
INIT_LIST = re.compile(r"\)" + QUALIFIERS + r":(?!:)")
SCOPE_KEYWORD = re.compile(r"\b(namespace|struct|class|union|enum)\b")
CONTROL = re.compile(r"\b(if|for|while|switch|catch|return|sizeof|decltype|"
                     r"alignas|requires)\s*\(\s*\)\s*$")
NAME = re.compile(
    r"((?:~?\w+(?:\s*<[^<>;{}]*>)?\s*::\s*)*"
    r"(?:operator\s*(?:\(\s*\)|\[\s*\]|[^\s\w(]+|\w[\w:\s*&<>]*?)|~?\w+))"
    r"\s*\(\s*\)\s*$")


def strip_template(header):
    """Drops the leading `template <...>` clauses of a declaration."""
    while True:
        m = re.match(r"\s*template\s*<", header)
        if not m:
            return header
        depth, j = 1, m.end()
        while j < len(header) and depth:
            if header[j] == "<":
                depth += 1
            elif header[j] == ">":
                depth -= 1
            j += 1
        header = header[j:]


def classify(header):
    """What a `{` opens, from the declaration text before it at namespace or
    class scope: ("function", name, name_offset), ("class", name, 0),
    ("namespace", None, 0) or ("other", None, 0)."""
    flat = flatten(header)
    body = strip_template(flat)
    offset = len(flat) - len(body)
    init = INIT_LIST.search(body)
    decl = body[:init.start() + 1] if init else body
    if init or FUNCTION_END.search(body):
        if not init:
            decl = re.sub(r"->[^;=]*$", "", decl)
            decl = re.sub(r"\)" + QUALIFIERS + "$", ")", decl)
        lambda_intro = re.search(r"\]\s*\(\s*\)$", decl.rstrip())
        is_lambda = lambda_intro or re.search(r"=\s*\[", decl)
        if not is_lambda and not CONTROL.search(decl):
            # the name before the last parameter list
            m = NAME.search(decl.rstrip())
            if m:
                name = re.sub(r"\s+", "", m.group(1))
                return ("function", name, offset + m.start(1))
        return ("other", None, 0)
    if re.search(r"\bextern\s*\"\s*\"\s*$", body):
        return ("namespace", None, 0)
    m = SCOPE_KEYWORD.search(body)
    if m and "=" not in body[m.end():] and not re.search(r"\)\s*$", body):
        if m.group(1) == "namespace":
            return ("namespace", None, 0)
        if m.group(1) == "enum":
            return ("other", None, 0)
        rest = body[m.end():]
        cm = re.match(r"(?:\s|\[\s*\]|alignas\s*\(\s*\)|LLVM_\w+|\w+\s*\(\s*\))*"
                      r"(\w+)", rest)
        return ("class", cm.group(1) if cm else None, 0)
    return ("other", None, 0)


def functions(text):
    """Yields (name, name_line, lines) for each function definition."""
    code = blank(text)
    line_of = []
    line = 1
    for ch in code:
        line_of.append(line)
        if ch == "\n":
            line += 1
    # stack of (kind, name, offset of the `{`, name offset)
    stack = []
    header_start = 0
    for i, ch in enumerate(code):
        in_scope = not stack or stack[-1][0] in ("namespace", "class")
        if ch == ";" and in_scope:
            header_start = i + 1
        elif ch == "{":
            if in_scope:
                kind, name, at = classify(code[header_start:i])
                if kind == "function":
                    classes = [s[1] for s in stack if s[0] == "class" and s[1]]
                    if classes and "::" not in name:
                        name = "::".join(classes + [name])
                    stack.append((kind, name, i, header_start + at))
                else:
                    stack.append((kind, name, i, None))
                if kind != "other":
                    header_start = i + 1
            else:
                stack.append(("other", None, i, None))
        elif ch == "}":
            if not stack:
                continue
            kind, name, start, at = stack.pop()
            if kind == "function":
                yield name, line_of[at], line_of[i] - line_of[start] + 1
            if kind != "other":
                header_start = i + 1
        elif ch == ":" and in_scope and stack and stack[-1][0] == "class":
            # `public:` and friends end a class's declaration text.
            if re.search(r"\b(public|private|protected)\s*$",
                         code[header_start:i]):
                header_start = i + 1


def files(paths):
    for path in paths:
        if os.path.isdir(path):
            for dirpath, dirnames, filenames in os.walk(path):
                dirnames.sort()
                for f in sorted(filenames):
                    if f.endswith(SUFFIXES):
                        yield os.path.join(dirpath, f)
        else:
            yield path


def shown(path):
    full = os.path.abspath(path)
    if full.startswith(ROOT + os.sep):
        return os.path.relpath(full, ROOT)
    return path


def read_allow(path):
    allow = {}
    with open(path) as f:
        for number, raw in enumerate(f, 1):
            entry = raw.split("#", 1)[0].strip()
            if not entry:
                continue
            if ":" not in entry or "#" not in raw:
                sys.exit("%s:%d: expected `path:function  # why`" %
                         (path, number))
            file, function = entry.split(":", 1)
            allow[(file.strip(), function.strip())] = number
    return allow


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="+", metavar="PATH")
    parser.add_argument("-n", "--max-lines", type=int, default=120)
    parser.add_argument("--allow", default=DEFAULT_ALLOW)
    parser.add_argument("--no-allow", action="store_true")
    parser.add_argument("--all", action="store_true")
    args = parser.parse_args()

    allow = {}
    if not args.no_allow and os.path.exists(args.allow):
        allow = read_allow(args.allow)
    used = set()
    scanned = set()
    failed = False
    for path in files(args.paths):
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        where = shown(path)
        scanned.add(where)
        for name, line, lines in functions(text):
            if args.all:
                print("%s:%d: %s: %d lines" % (where, line, name, lines))
                continue
            if lines <= args.max_lines:
                continue
            key = (where, name)
            if key in allow:
                used.add(key)
                continue
            print("%s:%d: %s: %d lines" % (where, line, name, lines))
            failed = True
    if not args.all:
        for key, number in sorted(allow.items()):
            if key[0] in scanned and key not in used:
                print("%s:%d: stale entry: %s:%s is not longer than %d lines"
                      % (shown(args.allow), number, key[0], key[1],
                         args.max_lines))
                failed = True
    if failed:
        print("function-lengths: functions longer than %d lines; split them "
              "into named steps (or, for table-like code, list them with a "
              "reason in %s)" % (args.max_lines, shown(args.allow)),
              file=sys.stderr)
    return 1 if failed and not args.all else 0


if __name__ == "__main__":
    sys.exit(main())
