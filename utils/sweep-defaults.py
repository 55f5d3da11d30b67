#!/usr/bin/env python3
"""sweep-defaults: every star and box compiles with a pipeline's default options.

Generates the 1-3-D stars and boxes of the requested radii (f16 by default,
random asymmetric weights from a fixed seed), and optionally every example
of a directory, runs each through `stencil-opt --<pipeline>` with no options
(the chip's default), `stencil-translate --to-ptx`, and `ptxas` when given,
and prints one line per case:

    PASS <stencil> <pipeline>
    FAIL <stencil> <pipeline>: <first line of the error>

then `N passed, M failed`. Exits 1 when a case fails. Examples the pipeline
cannot take by design (non-linear bodies on the Tensor Core pipelines) are
listed with --skip.

Usage (test/Examples/default-options.test):
    sweep-defaults.py --stencil-opt BIN --stencil-translate BIN
        [--ptxas PTXAS --arch sm_90] --pipelines lower-to-sptc,lower-to-tc
        [--radii 1-4] [--type f16] [--examples DIR --skip general-2d]
        --workdir DIR
"""

import argparse
import importlib
import os
import random
import subprocess
import sys


# utils/stencil-ref.py's pattern_offsets: the dialect's canonical offset
# order of a star or box (this script's folder is on sys.path).
pattern_offsets = importlib.import_module("stencil-ref").pattern_offsets


def stencil_source(shape, rank, radius, elem, rng):
    points = len(pattern_offsets(shape, rank, radius))
    weights = ", ".join("%.6e" % rng.uniform(0.05, 1.0) for _ in range(points))
    dims = "x".join("?" * rank)
    grid = "memref<%sx%s>" % (dims, elem)
    return (
        "func.func @k(%%in: %s, %%out: %s) {\n"
        "  stencil.linear %%in -> %%out pattern <%s, rank = %d, radius = %d> "
        "weights [%s] : %s\n"
        "  return\n}\n" % (grid, grid, shape, rank, radius, weights, grid))


def run(cmd, stdin=None):
    proc = subprocess.run(cmd, input=stdin, capture_output=True)
    return proc.returncode, proc.stdout, proc.stderr.decode(errors="replace")


def first_error(text):
    for line in text.splitlines():
        if "error" in line:
            return line.strip()
    lines = text.strip().splitlines()
    return lines[0] if lines else "(no message)"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--stencil-opt", required=True)
    parser.add_argument("--stencil-translate", required=True)
    parser.add_argument("--ptxas")
    parser.add_argument("--arch", default="sm_90")
    parser.add_argument("--pipelines", required=True)
    parser.add_argument("--radii", default="1-4")
    parser.add_argument("--type", default="f16")
    parser.add_argument("--examples")
    parser.add_argument("--skip", default="")
    parser.add_argument("--workdir", required=True)
    args = parser.parse_args()

    lo, _, hi = args.radii.partition("-")
    radii = range(int(lo), int(hi or lo) + 1)
    os.makedirs(args.workdir, exist_ok=True)
    rng = random.Random(2026)
    cases = []
    for rank in (1, 2, 3):
        for shape in (("star",) if rank == 1 else ("star", "box")):
            for radius in radii:
                name = "%s-%dd-r%d-%s" % (shape, rank, radius, args.type)
                path = os.path.join(args.workdir, name + ".mlir")
                with open(path, "w") as f:
                    f.write(stencil_source(shape, rank, radius, args.type, rng))
                cases.append((name, path))
    if args.examples:
        skip = set(s for s in args.skip.split(",") if s)
        for entry in sorted(os.listdir(args.examples)):
            stem, ext = os.path.splitext(entry)
            if ext == ".mlir" and stem not in skip:
                cases.append((stem, os.path.join(args.examples, entry)))

    passed = failed = 0
    for pipeline in args.pipelines.split(","):
        for name, path in cases:
            rc, lowered, err = run([args.stencil_opt, path, "--" + pipeline])
            if rc == 0:
                rc, ptx, err = run([args.stencil_translate, "--to-ptx"],
                                   stdin=lowered)
            if rc == 0 and args.ptxas:
                ptx_path = os.path.join(args.workdir,
                                        "%s.%s.ptx" % (name, pipeline))
                with open(ptx_path, "wb") as f:
                    f.write(ptx)
                rc, _, err = run([args.ptxas, "-arch=" + args.arch, ptx_path,
                                  "-o", ptx_path + ".cubin"])
            if rc == 0:
                passed += 1
                print("PASS %s %s" % (name, pipeline))
            else:
                failed += 1
                print("FAIL %s %s: %s" % (name, pipeline, first_error(err)))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
