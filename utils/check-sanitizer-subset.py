#!/usr/bin/env python3
"""Checks that the sanitizer subset of the tests runs every pass, pipeline
and translation of the compiler.

The subset (scripts/test.sh --sanitize --subset) is every test under
test/ but those a line of test/sanitizer-subset.txt matches. The
compiler's own flags are the passes, pipelines and translations of
`stencil-opt --help` and `stencil-translate --help` that the project's
sources define; each must appear as an option
(`--name`, `-name`) or a pass pipeline element (`name{`, `(name)`) in a test
that stays, or in a file such a test runs (a script of utils/, an input).

  check-sanitizer-subset.py --source DIR --stencil-opt BIN
      --stencil-translate BIN [--subset LIST]

Prints the tests kept and left out, one line per flag no kept test runs,
and `N of M flags run by the subset`; exits 1 if any flag is missing.
"""
import argparse
import os
import re
import subprocess
import sys


def flags_of(tool):
    out = subprocess.run([tool, "--help"], capture_output=True,
                         text=True).stdout
    # Passes, pipelines and translations: 6 spaces in (their options 8).
    return set(re.findall(r"^      --([a-z][a-z0-9-]*)", out, re.M))


def project_flags(root):
    """The passes (Pass<"name"> in a .td), pipelines (registerPipeline) and
    translations (TranslateFromMLIRRegistration) the project defines."""
    found = set()
    for top in ("include", "lib", "tools"):
        for dirpath, _, files in os.walk(os.path.join(root, top)):
            for name in files:
                if not name.endswith((".td", ".cpp")):
                    continue
                with open(os.path.join(dirpath, name), errors="replace") as f:
                    body = f.read()
                found.update(re.findall(r'Pass<"([a-z0-9-]+)"', body))
                found.update(re.findall(
                    r'(?:registerPipeline<\w+>|'
                    r'TranslateFromMLIRRegistration\s+\w+)\(\s*"([a-z0-9-]+)"',
                    body))
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--source", required=True)
    parser.add_argument("--stencil-opt", required=True)
    parser.add_argument("--stencil-translate", required=True)
    parser.add_argument("--subset", help="the list of tests left out "
                        "(default: test/sanitizer-subset.txt)")
    args = parser.parse_args()

    root = args.source
    test_dir = os.path.join(root, "test")
    with open(args.subset or
              os.path.join(test_dir, "sanitizer-subset.txt")) as f:
        patterns = [re.compile(line.split("#")[0].strip()) for line in f
                    if line.split("#")[0].strip()]

    ours = project_flags(root)
    flags = sorted((flags_of(args.stencil_opt) |
                    flags_of(args.stencil_translate)) & ours)

    kept, left = [], []
    for dirpath, dirs, files in os.walk(test_dir):
        # (Not the tests of this check, which name flags they do not run.)
        dirs[:] = [d for d in dirs
                   if d not in ("Inputs", "corpus", "Output", "__pycache__",
                                "Sanitizer")]
        for name in files:
            if not name.endswith((".mlir", ".test")):
                continue
            rel = os.path.relpath(os.path.join(dirpath, name), test_dir)
            (left if any(p.search(rel) for p in patterns) else kept).append(
                rel)
    for p in patterns:
        if not any(p.search(rel) for rel in left):
            print("pattern %r leaves out no test" % p.pattern)
            return 1

    # The text a kept test runs: its own and that of the files it names.
    text = []
    for rel in kept:
        path = os.path.join(test_dir, rel)
        with open(path, errors="replace") as f:
            body = f.read()
        text.append(body)
        # Scripts of utils/ and inputs the test runs (not documents, which
        # name flags without running them).
        for named in re.findall(
                r"(%stencil_src/utils/[\w./-]+|%S/[\w./-]*Inputs/[\w./-]+)",
                body):
            resolved = named.replace("%stencil_src", root).replace(
                "%S", os.path.dirname(path))
            if os.path.isfile(resolved):
                with open(resolved, errors="replace") as f:
                    text.append(f.read())
    text = "\n".join(text)

    missing = []
    for flag in flags:
        name = re.escape(flag)
        if not re.search(r"(?:(?<![\w-])-{1,2}%s|[(,]\s*%s\s*[{),])(?![\w-])"
                         % (name, name), text):
            missing.append(flag)
    print("%d tests kept, %d left out" % (len(kept), len(left)))
    for flag in missing:
        print("no kept test runs --%s" % flag)
    print("%d of %d flags run by the subset" % (len(flags) - len(missing),
                                                len(flags)))
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
