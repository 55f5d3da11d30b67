#!/usr/bin/env python3
"""Lists the calls whose arguments create ops in an order the C++ standard
leaves to the host compiler.

C++ does not sequence a call's arguments: gcc evaluates them right to left,
clang left to right. A call such as

    arith::AndIOp::create(b, arith::CmpIOp::create(b, ...),
                             arith::CmpIOp::create(b, ...))

creates its two comparisons in one order in a gcc-built compiler and in the
other in a clang-built one, so the emitted kernel depends on the compiler
that built the compiler (utils/compare-builds.py finds such differences;
this finds their sources). Each call listed has two or more arguments that
create ops: a static `Op::create(builder, ...)`, a function taking an
OpBuilder, a builder's create/createOrFold/insert/clone, or a non-const member of a kernel builder
class (`*KernelBuilder`, whose helpers `cst`, `add`, `mul`, ... create ops).
The fix is one op per statement, in gcc's order (the last argument first),
which keeps the kernels that the tests and the measurements were made with.

  find-unsequenced-builders.py BUILD_DIR [FILE.cpp...]

BUILD_DIR is a Ninja build of the project (its compile commands); the files
default to every .cpp under lib/ that creates ops. Needs clang-query
(Debian: clang-tools-22). One clang-query per file, $JOBS (default: the
cores) at a time (each parses MLIR's headers: about 30 s a file). Prints `file:line:col` per call; exits 1 when
there is any.
"""
import concurrent.futures
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

CLANG_QUERY = os.environ.get("CLANG_QUERY", "/usr/lib/llvm-22/bin/clang-query")

BUILDER = 'cxxRecordDecl(isSameOrDerivedFrom("::mlir::OpBuilder"))'
CREATES = ("expr(anyOf("
           f"cxxMemberCallExpr(on(hasType(hasUnqualifiedDesugaredType("
           f"recordType(hasDeclaration({BUILDER}))))), callee(cxxMethodDecl("
           'hasAnyName("create", "createOrFold", "insert", "clone")))),'
           f"callExpr(callee(functionDecl(hasAnyParameter(hasType("
           f"references({BUILDER})))))),"
           'cxxMemberCallExpr(thisPointerType(cxxRecordDecl(isSameOrDerivedFrom('
           'matchesName("KernelBuilder$")))), '
           "unless(callee(cxxMethodDecl(isConst())))),"
           "cxxOperatorCallExpr(callee(cxxMethodDecl(ofClass(isLambda()))))"
           "))")


def query():
    # An argument that is (or holds) a lambda is not evaluated as an
    # argument: its body runs later.
    pairs = ",".join(f"allOf(hasArgument({i}, Y), hasArgument({j}, Y))"
                     for i in range(8) for j in range(i + 1, 8))
    return "\n".join([
        "set output diag",
        f"let X {CREATES}",
        "let Y expr(unless(hasDescendant(lambdaExpr())), unless(lambdaExpr()),"
        " anyOf(X, hasDescendant(X)))",
        f"let P anyOf({pairs})",
        # A braced list (ValueRange{a, b}) sequences its elements, but a
        # call inside an element still has unsequenced arguments.
        "m expr(anyOf(callExpr(P), cxxConstructExpr("
        "unless(isListInitialization()), P)), isExpansionInMainFile())"
        '.bind("call")',
    ]) + "\n"


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    build = sys.argv[1]
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    commands = json.loads(subprocess.run(
        ["ninja", "-C", build, "-t", "compdb"], check=True,
        capture_output=True).stdout)
    entries = []
    for entry in commands:
        args = shlex.split(entry.get("command", ""))
        if not args or not entry["file"].endswith(".cpp"):
            continue
        if os.path.basename(args[0]) == "ccache":
            args = args[1:]
        args[0] = "clang++"
        entries.append({"directory": entry["directory"], "file": entry["file"],
                        "arguments": args})
    files = sys.argv[2:]
    if not files:
        for entry in entries:
            f = entry["file"]
            if f.startswith(os.path.join(root, "lib")) and f.endswith(".cpp"):
                with open(f, encoding="utf-8") as source:
                    if "create" in source.read():
                        files.append(f)
    found = 0
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "compile_commands.json"), "w") as db:
            json.dump(entries, db)
        with open(os.path.join(tmp, "query.txt"), "w") as q:
            q.write(query())
        def sites_of(f):
            out = subprocess.run(
                [CLANG_QUERY, "-p", tmp, "-f", os.path.join(tmp, "query.txt"),
                 f], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                text=True).stdout
            # clang-query ends with "N matches." (or "1 match."); without
            # it the query did not run (a malformed matcher is not an error
            # of the process).
            if not re.search(r"^[0-9]+ match(es)?\.$", out, re.M):
                sys.exit(f"clang-query did not run the query on {f}:\n" +
                         out[-2000:])
            return sorted({line.split(": note:")[0]
                           for line in out.splitlines()
                           if '"call" binds here' in line})

        jobs = int(os.environ.get("JOBS", os.cpu_count() or 1))
        with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
            for sites in pool.map(
                    sites_of, sorted(set(os.path.abspath(f) for f in files))):
                for site in sites:
                    print(os.path.relpath(site, root), flush=True)
                found += len(sites)
    print(f"{found} calls whose arguments create ops in an unspecified order",
          file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
