#!/usr/bin/env python3
"""Checks that two builds of the compiler emit the same code.

The kernels must not depend on the host compiler that built the compiler
(the order in which it evaluates a call's arguments, say): every bundled
example goes through every pipeline with both builds' stencil-opt, and the
outputs (IR, PTX inside it, launch records) and diagnostics must be
byte-identical.

  compare-builds.py --tools DIR --reference DIR --examples DIR [--jobs N]

Prints one line per difference and a summary; exits 1 on any difference.
"""
import argparse
import concurrent.futures
import os
import re
import subprocess
import sys

# What differs from run to run whatever built the compiler: the time
# gpu-module-to-binary records for the PTX emission.
VOLATILE = re.compile(rb"LLVMIRToISATimeInMs = [0-9]+")

# Every pipeline and the schedules with their own code paths; an option
# set a stencil does not support gives a diagnostic, compared all the same.
PIPELINES = [
    ["--lower-to-cpu"],
    ["--lower-to-cpu=linearize=true"],
    ["--lower-to-cuda-core"],
    ["--lower-to-cuda-core=fused-steps=2"],
    ["--lower-to-cuda-core=stream=on"],
    ["--lower-to-cuda-core=stream=on fused-steps=2"],
    ["--lower-to-cuda-core=stream=on plane-sums=true vector-width=4"],
    ["--lower-to-cuda-core=stream=on row-phases=3"],
    ["--lower-to-cuda-core=boundary-tiles=true"],
    ["--lower-to-tc"],
    ["--lower-to-tc=fused-steps=2"],
    ["--lower-to-tc=low-rank=true"],
    ["--lower-to-sptc"],
    ["--lower-to-sptc=fused-steps=2"],
    ["--lower-to-sptc=layout=matching"],
    ["--lower-to-sptc=chip=sm_90a mma=warpgroup"],
    ["--lower-to-fft"],
    ["--lower-to-fft=fused-steps=2"],
    ["--lower-to-auto=ptxas=none"],
]

# Element types the examples are also run in (the TC and FFT paths differ
# by type).
TYPES = ["f16", "f64"]


def run(tool, source, flags):
    proc = subprocess.run([tool, "-", *flags], input=source,
                          capture_output=True, timeout=600)
    return (proc.returncode, VOLATILE.sub(b"LLVMIRToISATimeInMs = ?",
                                          proc.stdout), proc.stderr)


def compare(args, example, element_type, flags):
    with open(example, "rb") as f:
        source = f.read()
    for t in TYPES:
        source = source.replace(t.encode(), element_type.encode())
    tool = os.path.join(args.tools, "stencil-opt")
    ref = os.path.join(args.reference, "stencil-opt")
    got, want = run(tool, source, flags), run(ref, source, flags)
    name = "%s (%s) %s" % (os.path.basename(example), element_type,
                           " ".join(flags))
    if got == want:
        return name, None
    what = []
    if got[0] != want[0]:
        what.append("exit %d against %d" % (got[0], want[0]))
    if got[1] != want[1]:
        lines = zip(got[1].splitlines(), want[1].splitlines())
        first = next((i for i, (a, b) in enumerate(lines) if a != b),
                     min(len(got[1].splitlines()), len(want[1].splitlines())))
        what.append("output differs from line %d" % (first + 1))
    if got[2] != want[2]:
        what.append("diagnostics differ")
    return name, "; ".join(what)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tools", required=True)
    parser.add_argument("--reference", required=True)
    parser.add_argument("--examples", required=True)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    examples = sorted(
        os.path.join(args.examples, f) for f in os.listdir(args.examples)
        if f.endswith(".mlir"))
    work = [(e, t, p) for e in examples for t in TYPES for p in PIPELINES]
    differences = 0
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for name, diff in pool.map(lambda w: compare(args, *w), work):
            if diff:
                differences += 1
                print("DIFFERENT: %s: %s" % (name, diff))
    print("%d of %d compilations identical" % (len(work) - differences,
                                                len(work)))
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
