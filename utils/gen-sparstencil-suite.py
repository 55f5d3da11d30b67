#!/usr/bin/env python3
"""gen-sparstencil-suite: the stencils of SparStencil's benchmark families.

Writes one f16 `stencil.linear` program per stencil into DIR (NAME.mlir):
stars (1-D radius 1-4, 2-D and 3-D radius 1-4), boxes (2-D radius 1-3, 3-D
radius 1-2), diamonds and crosses (2-D radius 1-3; SparStencil,
Table 2) and random irregular patterns (2-D and 3-D, holding the centre).
Weights are random and asymmetric (fixed seed), normalised to sum to 1 so
that many time steps stay bounded. Prints the names, one per line.

Used by the SpTC report test (test/Examples/sptc-report.test) and the
SpTC layout benchmark (bench/compile-sptc-layouts.sh).

Usage: gen-sparstencil-suite.py DIR
"""

import importlib
import itertools
import os
import random
import sys


# utils/stencil-ref.py's pattern_offsets: the dialect's canonical offset
# order of a star or box (this script's folder is on sys.path).
pattern_offsets = importlib.import_module("stencil-ref").pattern_offsets


def box(rank, radius, keep):
    return [o for o in itertools.product(range(-radius, radius + 1),
                                         repeat=rank) if keep(o)]


def suite(rng):
    cases = []
    for r in range(1, 5):
        cases.append(("star-1d-r%d" % r, ("star", 1, r)))
    for r in range(1, 5):
        cases.append(("star-2d-r%d" % r, ("star", 2, r)))
    for r in range(1, 4):
        cases.append(("box-2d-r%d" % r, ("box", 2, r)))
        cases.append(("diamond-2d-r%d" % r,
                      box(2, r, lambda o, r=r: abs(o[0]) + abs(o[1]) <= r)))
        cases.append(("cross-2d-r%d" % r,
                      box(2, r, lambda o: o[0] == 0 or o[1] == 0 or
                          abs(o[0]) == abs(o[1]))))
    for r in range(1, 5):
        cases.append(("star-3d-r%d" % r, ("star", 3, r)))
    for r in range(1, 3):
        cases.append(("box-3d-r%d" % r, ("box", 3, r)))
    for i, (rank, r, keep) in enumerate([(2, 3, 0.35), (2, 4, 0.2),
                                         (3, 2, 0.25)]):
        offsets = box(rank, r, lambda o: not any(o) or rng.random() < keep)
        cases.append(("random-%dd-%d" % (rank, i), offsets))
    return cases


def source(spec, rng):
    if isinstance(spec, tuple):
        shape, rank, radius = spec
        points = len(pattern_offsets(shape, rank, radius))
        pattern = "<%s, rank = %d, radius = %d>" % (shape, rank, radius)
    else:
        rank, points = len(spec[0]), len(spec)
        pattern = "<[%s]>" % ", ".join(
            "[%s]" % ", ".join(str(c) for c in o) for o in spec)
    weights = [rng.uniform(0.05, 1.0) for _ in range(points)]
    total = sum(weights)
    grid = "memref<%sxf16>" % "x".join("?" * rank)
    return ("func.func @k(%%in: %s, %%out: %s) {\n"
            "  stencil.linear %%in -> %%out pattern %s weights [%s] : %s\n"
            "  return\n}\n" % (grid, grid, pattern,
                               ", ".join("%.6e" % (w / total) for w in weights),
                               grid))


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    rng = random.Random(2002)
    for name, spec in suite(rng):
        with open(os.path.join(out, name + ".mlir"), "w") as f:
            f.write(source(spec, rng))
        print(name)


if __name__ == "__main__":
    main()
