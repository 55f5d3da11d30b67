#!/usr/bin/env python3
"""Checks the code blocks of the documentation against the code and the tools.

Two uses (python3, standard library only):

  check-doc-snippets.py ROOT DOC.md
      Every fenced block preceded by `<!-- file: PATH -->` must equal the file
      ROOT/PATH byte for byte (apart from the final newline). Exits 1 and
      prints a unified diff for the first block that differs, 2 if the
      document names no file at all. (docs/Embedding.md; test/Embedding.)

  check-doc-snippets.py --run --root ROOT --stencil-opt PATH
                        --stencil-translate PATH [--keep DIR] DOC.md...
      Runs every block marked for testing, in document order, each document
      in its own scratch directory (files a block writes are there for the
      blocks after it). Every fenced block must carry a marker: a line
      `<!-- test: KIND ARGS -->` (or `<!-- file: PATH -->`) right before
      the fence, blank lines allowed between. ARGS are split like a shell
      line. KIND is one of:

      sh [expect=TEXT]...   the block runs under `bash -euo pipefail` in the
                            scratch directory, which holds `examples`,
                            `utils`, `scripts`, `python`, `runtime` (links to
                            ROOT) and `build/bin` (the tools' folder); the
                            tools' folder is first on PATH. Exit status 0,
                            and each TEXT must appear in its output. A line
                            that starts with `stencil-run` needs a GPU: it is
                            not run, but the files it names must exist.
      opt [save=NAME] [expect=TEXT]... ARGS
                            the block is MLIR, saved as NAME (default
                            snippet-<line>.mlir); `stencil-opt NAME ARGS`
                            must exit 0 without an error, and print each
                            TEXT in the IR it writes.
      fails TEXT ARGS       as `opt`, but stencil-opt must fail and print TEXT.
      cpu GRID [save=NAME] [steps=T] [ref=ARGS]
                            the block is MLIR: a harness for GRID
                            (`--stencil-attach-cpu-harness`), `--lower-to-cpu`,
                            mlir-runner, then utils/stencil-ref.py against the
                            block itself (or against the stencil ARGS give,
                            e.g. `--dtype f32 --pattern box:2:1 --weights
                            ...`): it must print PASS.
      save NAME             the block is written to NAME, nothing else.
      excerpt PATH          the block's lines appear, consecutively, in
                            ROOT/PATH.
      cxx [fragment=PARAMS] C++ (CUDA host code) compiled, not run: the
                            block is a translation unit, or with `fragment`
                            the body of `void f(PARAMS)` (its #include
                            lines stay on top). Compiled with -fsyntax-only
                            against the scratch directory (headers an
                            earlier block wrote), the runtime's header and
                            CUDA's include folder; skipped, with a SKIP line,
                            when there is no cuda.h.
      python                compiled, not run (it needs a GPU), and every
                            `stencil_runtime` name it uses (`sr.X`, a
                            Kernel's methods) must exist, with the keyword
                            arguments it passes.
      skip REASON           not tested (say why: it builds the project, it
                            shows output).

      Prints one line per block (`PASS`, `SKIP` or `FAIL` with the
      document's line) and, on a failure, the commands and their output.
      Exits 1 if any block failed.
"""

import argparse
import ast
import difflib
import inspect
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

FENCE = re.compile(r"^(\s*)(```+)([^`\n]*)$")
MARKER = re.compile(r"^\s*<!--\s*(test|file):\s*(.*?)\s*-->\s*$")


class Block:
    def __init__(self, line, info, code, marker):
        self.line = line        # 1-based line of the opening fence
        self.info = info        # the fence's info string (language)
        self.code = code
        self.marker = marker    # (kind, text) or None


def parse_blocks(text):
    """The fenced blocks of a Markdown text with the marker before each."""
    lines = text.split("\n")
    blocks = []
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence, info = m.group(1), m.group(2), m.group(3).strip()
        start = i
        body = []
        i += 1
        while i < len(lines) and not (lines[i].strip().startswith(fence)
                                      and lines[i].strip().strip("`") == ""):
            body.append(lines[i][len(indent):] if lines[i].startswith(indent)
                        else lines[i])
            i += 1
        i += 1
        marker = None
        j = start - 1
        while j >= 0 and lines[j].strip() == "":
            j -= 1
        if j >= 0:
            mm = MARKER.match(lines[j])
            if mm:
                marker = (mm.group(1), mm.group(2))
        blocks.append(Block(start + 1, info, "\n".join(body) + "\n", marker))
    return blocks


# ---------------------------------------------------------------------------
# The original use: blocks that must equal files.

def check_files(root, doc):
    text = open(doc, encoding="utf-8").read()
    blocks = [b for b in parse_blocks(text) if b.marker and b.marker[0] == "file"]
    if not blocks:
        print(f"{doc}: no <!-- file: PATH --> code blocks", file=sys.stderr)
        return 2
    for b in blocks:
        ok, message = check_file_block(root, doc, b)
        if not ok:
            print(message)
            return 1
        print(f"{doc}: block for {b.marker[1]} matches")
    return 0


def check_file_block(root, doc, block):
    path = block.marker[1]
    actual = open(os.path.join(root, path), encoding="utf-8").read()
    if block.code.rstrip("\n") == actual.rstrip("\n"):
        return True, ""
    diff = difflib.unified_diff(actual.splitlines(), block.code.splitlines(),
                                path, f"{doc} (block for {path})", lineterm="")
    return False, "\n".join(diff)


# ---------------------------------------------------------------------------
# Running blocks.

class Runner:
    def __init__(self, args):
        self.root = os.path.abspath(args.root)
        self.opt = os.path.abspath(args.stencil_opt)
        self.translate = os.path.abspath(args.stencil_translate)
        self.tools = os.path.dirname(self.opt)
        self.runner = args.mlir_runner or shutil.which("mlir-runner") or \
            "/usr/lib/llvm-22/bin/mlir-runner"
        self.llvm_prefix = os.path.dirname(os.path.dirname(
            os.path.realpath(self.runner)))
        self.cuda = args.cuda
        self.cxx = args.cxx or shutil.which("c++") or shutil.which("g++")
        self.log = []

    # -- helpers ------------------------------------------------------------
    def run(self, cmd, cwd, shell=False, env=None):
        """Runs a command; returns (status, output) and logs both."""
        shown = cmd if shell else " ".join(shlex.quote(c) for c in cmd)
        done = subprocess.run(cmd, cwd=cwd, shell=shell, env=env,
                              executable="/bin/bash" if shell else None,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True, errors="replace")
        out = done.stdout.split("\n")
        if len(out) > 40:  # a harness prints a value per line
            out = out[:20] + [f"... ({len(out) - 30} lines)"] + out[-10:]
        self.log.append(f"$ {shown}\n" + "\n".join(out) +
                        f"[exit {done.returncode}]")
        return done.returncode, done.stdout

    def env(self):
        env = dict(os.environ)
        env["PATH"] = self.tools + os.pathsep + env.get("PATH", "")
        return env

    def setup_scratch(self, scratch):
        for name in ("examples", "utils", "scripts", "python", "runtime",
                     "include", "docs"):
            if os.path.exists(os.path.join(self.root, name)):
                os.symlink(os.path.join(self.root, name),
                           os.path.join(scratch, name))
        os.makedirs(os.path.join(scratch, "build"))
        os.symlink(self.tools, os.path.join(scratch, "build", "bin"))

    def localize(self, code):
        """Paths of the documentation's Debian install, made this machine's."""
        if self.llvm_prefix != "/usr/lib/llvm-22":
            code = code.replace("/usr/lib/llvm-22", self.llvm_prefix)
        return code

    # -- kinds --------------------------------------------------------------
    def k_excerpt(self, block, args, scratch):
        path = os.path.join(self.root, args[0])
        have = [l.rstrip() for l in open(path, encoding="utf-8").read().split("\n")]
        want = [l.rstrip() for l in block.code.rstrip("\n").split("\n")]
        for i in range(len(have) - len(want) + 1):
            if have[i:i + len(want)] == want:
                return True, ""
        return False, f"the block's lines are not consecutive lines of {args[0]}"

    def k_save(self, block, args, scratch):
        with open(os.path.join(scratch, args[0]), "w") as f:
            f.write(block.code)
        return True, ""

    def _save(self, block, opts, scratch):
        name = opts.get("save", f"snippet-{block.line}.mlir")
        path = os.path.join(scratch, name)
        with open(path, "w") as f:
            f.write(block.code)
        return name

    @staticmethod
    def _split_opts(args, keys):
        opts, rest = {}, []
        for a in args:
            key = a.split("=", 1)[0]
            if "=" in a and key in keys:
                opts.setdefault(key, []).append(a.split("=", 1)[1])
            else:
                rest.append(a)
        return {k: v[-1] for k, v in opts.items()}, opts, rest

    def k_opt(self, block, args, scratch):
        opts, multi, rest = self._split_opts(args, {"save", "expect"})
        name = self._save(block, opts, scratch)
        status, out = self.run([self.opt, name] + rest + ["-o", name + ".out"],
                               scratch)
        if status != 0 or "error:" in out:
            return False, "stencil-opt failed"
        result = open(os.path.join(scratch, name + ".out")).read()
        for text in multi.get("expect", []):
            if text not in result:
                self.log.append(result)
                return False, f"stencil-opt's output lacks {text!r}"
        return True, ""

    def k_fails(self, block, args, scratch):
        opts, _, rest = self._split_opts(args, {"save"})
        text, rest = rest[0], rest[1:]
        name = self._save(block, opts, scratch)
        status, out = self.run([self.opt, name] + rest + ["-o", os.devnull],
                               scratch)
        if status == 0:
            return False, "stencil-opt succeeded; the guide says it fails"
        if text not in out:
            return False, f"stencil-opt failed without printing {text!r}"
        return True, ""

    def k_cpu(self, block, args, scratch):
        opts, _, rest = self._split_opts(args, {"save", "steps", "ref"})
        grid = rest[0]
        name = self._save(block, opts, scratch)
        status, _ = self.run([self.opt, name,
                              f"--stencil-attach-cpu-harness=grid={grid}",
                              "--lower-to-cpu", "-o", name + ".cpu.mlir"],
                             scratch)
        if status != 0:
            return False, "stencil-opt --lower-to-cpu failed"
        libs = ",".join(os.path.join(self.llvm_prefix, "lib", l) for l in
                        ("libmlir_runner_utils.so", "libmlir_c_runner_utils.so"))
        status, out = self.run([self.runner, name + ".cpu.mlir", "-e", "main",
                                "-entry-point-result=void",
                                "-shared-libs=" + libs], scratch)
        if status != 0:
            return False, "mlir-runner failed"
        with open(os.path.join(scratch, name + ".result"), "w") as f:
            f.write(out)
        ref = [sys.executable, os.path.join(self.root, "utils", "stencil-ref.py"),
               "--result", name + ".result", "--grid", grid]
        ref += shlex.split(opts["ref"]) if "ref" in opts else ["--from-mlir", name]
        if "steps" in opts:
            ref += ["--steps", opts["steps"]]
        status, out = self.run(ref, scratch)
        if status != 0 or "PASS" not in out:
            return False, "the reference check did not PASS"
        return True, ""

    def k_sh(self, block, args, scratch):
        _, multi, _ = self._split_opts(args, {"expect"})
        script = []
        for line in self.localize(block.code).split("\n"):
            if line.lstrip().startswith("stencil-run"):
                # Needs a GPU: check only that its inputs exist.
                words = shlex.split(line.split("#", 1)[0])
                files = [w for w in words[1:] if not w.startswith("-") and
                         re.search(r"\.(launch|ptx|npy)$", w)]
                script.append("# (GPU) " + line)
                for f in files:
                    script.append(f"test -f {shlex.quote(f)} || "
                                  f"{{ echo 'stencil-run input {f} missing'; exit 1; }}")
            else:
                script.append(line)
        status, out = self.run("set -euo pipefail\n" + "\n".join(script),
                               scratch, shell=True, env=self.env())
        if status != 0:
            return False, "the commands failed"
        for text in multi.get("expect", []):
            if text not in out:
                return False, f"the output lacks {text!r}"
        return True, ""

    def k_cxx(self, block, args, scratch):
        opts, _, _ = self._split_opts(args, {"fragment"})
        include = None
        for d in ([self.cuda] if self.cuda else []) + [
                os.environ.get("CUDA_HOME", ""), "/usr/local/cuda"]:
            if d and os.path.exists(os.path.join(d, "include", "cuda.h")):
                include = os.path.join(d, "include")
                break
        if include is None or not self.cxx:
            return None, "no cuda.h or no C++ compiler: not compiled"
        code = block.code
        if "fragment" in opts:
            lines = code.split("\n")
            head = [l for l in lines if l.lstrip().startswith("#include")]
            body = [l for l in lines if not l.lstrip().startswith("#include")]
            code = "\n".join(head) + \
                f"\n#include <cstdint>\nvoid snippet({opts['fragment']}) {{\n" + \
                "\n".join(body) + "\n}\n"
        name = f"snippet-{block.line}.cpp"
        with open(os.path.join(scratch, name), "w") as f:
            f.write(code)
        status, _ = self.run([self.cxx, "-std=c++17", "-fsyntax-only", "-Wall",
                              "-I", scratch, "-I",
                              os.path.join(self.root, "runtime", "include"),
                              "-I", include, name], scratch)
        if status != 0:
            return False, "the C++ does not compile"
        return True, ""

    def k_python(self, block, args, scratch):
        try:
            tree = ast.parse(block.code)
        except SyntaxError as e:
            return False, f"not Python: {e}"
        sys.path.insert(0, os.path.join(self.root, "python"))
        try:
            import stencil_runtime as sr  # no GPU or library needed to import
        finally:
            sys.path.pop(0)
        aliases = {"stencil_runtime"}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    if a.name == "stencil_runtime":
                        aliases.add(a.asname or a.name)
        problems = []

        def check_call(fn, call, what):
            try:
                sig = inspect.signature(fn)
                params = list(sig.parameters.values())
                if params and params[0].name == "self":
                    params = params[1:]
                sig = sig.replace(parameters=params)
                sig.bind(*[None] * len(call.args),
                         **{k.arg: None for k in call.keywords if k.arg})
            except TypeError as e:
                problems.append(f"line {call.lineno}: {what}: {e}")

        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and \
                    isinstance(node.value, ast.Name) and node.value.id in aliases:
                if not hasattr(sr, node.attr):
                    problems.append(f"line {node.lineno}: stencil_runtime has "
                                    f"no {node.attr}")
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                f = node.func
                if isinstance(f.value, ast.Name) and f.value.id in aliases and \
                        hasattr(sr, f.attr):
                    check_call(getattr(sr, f.attr), node, f"{f.attr}()")
                elif f.attr in ("run", "set_weights") and \
                        not (isinstance(f.value, ast.Name) and
                             f.value.id in ("subprocess", "torch")):
                    check_call(getattr(sr.Kernel, f.attr), node,
                               f"Kernel.{f.attr}()")
        if problems:
            self.log.append("\n".join(problems))
            return False, "; ".join(problems)
        return True, ""

    # -- driver -------------------------------------------------------------
    def check_doc(self, doc, keep):
        text = open(doc, encoding="utf-8").read()
        blocks = parse_blocks(text)
        scratch = tempfile.mkdtemp(prefix="doc-snippets-")
        self.setup_scratch(scratch)
        failures = 0
        rel = os.path.relpath(doc, self.root)
        for b in blocks:
            where = f"{rel}:{b.line}"
            self.log = []
            if b.marker is None:
                print(f"FAIL {where}: a ``` block without a "
                      f"<!-- test: ... --> marker")
                failures += 1
                continue
            kind, rest = b.marker
            if kind == "file":
                ok, msg = check_file_block(self.root, doc, b)
                label = f"file {rest}"
            else:
                args = shlex.split(rest)
                label = rest
                if not args:
                    ok, msg = False, "an empty test marker"
                elif args[0] == "skip":
                    print(f"SKIP {where}: {' '.join(args[1:]) or 'no reason given'}")
                    continue
                else:
                    fn = getattr(self, "k_" + args[0], None)
                    if fn is None:
                        ok, msg = False, f"unknown kind {args[0]!r}"
                    else:
                        start = time.time()
                        ok, msg = fn(b, args[1:], scratch)
                        label += f" ({time.time() - start:.1f} s)"
            if ok is None:
                print(f"SKIP {where}: {label}: {msg}")
            elif ok:
                print(f"PASS {where}: {label}")
            else:
                failures += 1
                print(f"FAIL {where}: {label}: {msg}")
                for entry in self.log:
                    print("    " + entry.replace("\n", "\n    "))
        if keep:
            dest = os.path.join(keep, os.path.basename(doc))
            shutil.rmtree(dest, ignore_errors=True)
            shutil.copytree(scratch, dest, symlinks=True)
        shutil.rmtree(scratch, ignore_errors=True)
        return failures


def main(argv):
    if len(argv) == 3 and not argv[1].startswith("-"):
        return check_files(argv[1], argv[2])
    parser = argparse.ArgumentParser(
        description="Run the documentation's code blocks (see the module "
                    "docstring for the markers).")
    parser.add_argument("--run", action="store_true", required=True)
    parser.add_argument("--root", required=True, help="the source tree")
    parser.add_argument("--stencil-opt", required=True)
    parser.add_argument("--stencil-translate", required=True)
    parser.add_argument("--mlir-runner", help="default: mlir-runner on PATH")
    parser.add_argument("--cuda", help="CUDA toolkit folder (for cuda.h)")
    parser.add_argument("--cxx", help="C++ compiler for the cxx blocks")
    parser.add_argument("--keep", help="copy each scratch folder here")
    parser.add_argument("docs", nargs="+")
    args = parser.parse_args(argv[1:])
    runner = Runner(args)
    failures = sum(runner.check_doc(os.path.abspath(d), args.keep)
                   for d in args.docs)
    print(f"{failures} failed" if failures else "all blocks passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
