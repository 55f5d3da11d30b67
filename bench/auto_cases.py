#!/usr/bin/env python3
"""The stencils of the --lower-to-auto benchmark (issue #15).

    python3 bench/auto_cases.py DIR [STEPS]

Writes DIR/NAME.mlir for every case and prints "NAME SET" per line, SET being
`fit` (the examples, which bench/calibrate.py fits the model's constants on)
or `check` (stencils the fit never sees: stars of radius 2 and 4-7 and boxes
of radius 4-6 in 2-D, 3-D stars of radius 2-3, a 3-D box of radius 2, random
irregular patterns from utils/gen-sparstencil-suite.py). Every stencil comes
in f16 and f64 (general-2d, an f32 example, in f32 and f64), NAME being
STENCIL-TYPE, with `steps STEPS` (default 120, a multiple of every fused-step
count the candidates take) on its op, so that the fused candidates are
considered.
"""
import importlib
import os
import random
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "utils"))
suite_module = importlib.import_module("gen-sparstencil-suite")


def with_steps(text, steps):
    """`text` with `steps STEPS` on its stencil op."""
    text, n = re.subn(r"(stencil\.linear[^:]*?\])(\s*:\s*memref)",
                      r"\1 steps %d\2" % steps, text, count=1, flags=re.S)
    if n == 0:
        text, n = re.subn(r"(stencil\.apply %\w+ -> %\w+)(\s*:)",
                          r"\1 steps %d\2" % steps, text, count=1)
    if n != 1:
        sys.exit("auto_cases.py: no stencil op to add steps to")
    return text


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    out = sys.argv[1]
    steps = int(sys.argv[2]) if len(sys.argv) == 3 else 120
    os.makedirs(out, exist_ok=True)
    cases = []
    examples = os.path.join(ROOT, "examples")
    for f in sorted(f for f in os.listdir(examples) if f.endswith(".mlir")):
        text = open(os.path.join(examples, f)).read()
        base = "f32" if "xf32>" in text else "f16"
        cases.append((f[:-5], text, base, "fit"))
    rng = random.Random(1515)
    specs = [("star-2d-r%d" % r, ("star", 2, r)) for r in (2, 4, 5, 6, 7)]
    specs += [("box-2d-r%d" % r, ("box", 2, r)) for r in (4, 5, 6)]
    specs += [("star-3d-r%d" % r, ("star", 3, r)) for r in (2, 3)]
    specs += [("box-3d-r2", ("box", 3, 2))]
    specs += [(name, spec) for name, spec in suite_module.suite(
        random.Random(2002)) if name.startswith("random-")]
    for name, spec in specs:
        cases.append((name, suite_module.source(spec, rng), "f16", "check"))
    for name, text, base, which in cases:
        for type in (base, "f64"):
            case = "%s-%s" % (name, type)
            with open(os.path.join(out, case + ".mlir"), "w") as f:
                f.write(with_steps(text.replace(base, type), steps))
            print(case, which)


if __name__ == "__main__":
    main()
