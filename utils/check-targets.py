#!/usr/bin/env python3
"""check-targets: every GPU pipeline on every chip it takes, through ptxas.

Runs each GPU pipeline (SpTC, dense TC on f16, bf16 and f64 grids, the
low-rank TC chain, CUDA cores, FFT, auto) on one example for each chip
given, translates the module to PTX and assembles it with
`ptxas -arch=<chip>`, and prints one line per case:

    PASS <chip> <case> .version <PTX ISA> .target <chip>
    REFUSED <chip> <case>: <the pipeline's first error, without the file>
    FAIL <chip> <case>: <why>

A case listed in --refuse (`case@chip`) must be refused with a located
error (file:line:col: error:), any other must assemble; the PTX's
`.version` must be the newest of what the chip and the pipeline's
instructions need (docs/Pipelines.md, "GPU targets"), `.target` the chip.
Ends with `N passed, M refused, K failed` and exits 1 when a case fails.
Runs --jobs cases at a time.

Usage (test/Examples/targets-ptxas.test):
    check-targets.py --stencil-opt BIN --stencil-translate BIN --ptxas BIN
        --examples DIR --chips sm_80,sm_90a --workdir DIR [--jobs 2]
"""

import argparse
import concurrent.futures
import os
import re
import subprocess
import sys

# name -> (example, sed of the element type or None, pipeline and options)
CASES = [
    ("sptc", "heat-2d", None, "lower-to-sptc"),
    ("sptc-warpgroup", "box-2d49p", None, "lower-to-sptc", "mma=warpgroup"),
    ("tc-f16", "heat-2d", None, "lower-to-tc"),
    ("tc-bf16", "heat-2d", "bf16", "lower-to-tc"),
    ("tc-f64", "heat-2d", "f64", "lower-to-tc"),
    ("tc-low-rank", "heat-2d", None, "lower-to-tc", "low-rank=true"),
    ("cuda-core", "general-2d", None, "lower-to-cuda-core"),
    ("fft", "heat-2d", "f64", "lower-to-fft"),
    ("auto", "heat-2d", None, "lower-to-auto", "ptxas=none fused-steps=1"),
]

# The PTX ISA version each chip needs in LLVM 22 (GPUTarget.cpp), and what
# each pipeline's instructions need.
CHIP_PTX = {"sm_80": 70, "sm_86": 71, "sm_89": 78, "sm_90": 78,
            "sm_90a": 80, "sm_100a": 86, "sm_120": 87}
PIPELINE_PTX = {"lower-to-sptc": 85, "lower-to-tc": 70, "lower-to-fft": 70,
                "lower-to-cuda-core": 60}


def run(cmd, stdin=None):
    proc = subprocess.run(cmd, input=stdin, capture_output=True)
    return proc.returncode, proc.stdout, proc.stderr.decode(errors="replace")


def first_error(text):
    for line in text.splitlines():
        if ": error: " in line:
            return line.strip()
    lines = text.strip().splitlines()
    return lines[0] if lines else "(no message)"


def check(args, chip, case):
    name, example, elem, pipeline = case[:4]
    options = " ".join(["chip=" + chip] + list(case[4:]))
    label = "%s %s" % (chip, name)
    source = os.path.join(args.examples, example + ".mlir")
    with open(source, "rb") as f:
        text = f.read()
    if elem:
        text = text.replace(b"f16", elem.encode())
    stem = os.path.join(args.workdir, "%s.%s" % (name, chip))
    rc, lowered, err = run([args.stencil_opt, "-",
                            "--lower-to-%s=%s" % (pipeline[9:], options)],
                           stdin=text)
    refuse = "%s@%s" % (name, chip) in args.refuse
    if rc != 0:
        error = first_error(err)
        located = re.match(r"^(<stdin>|-):\d+:\d+: error: (.*)$", error)
        if refuse and located:
            return "REFUSED %s: %s" % (label, located.group(2))
        return "FAIL %s: %s" % (label, error)
    if refuse:
        return "FAIL %s: lowered, expected a refusal" % label
    rc, ptx, err = run([args.stencil_translate, "--to-ptx"], stdin=lowered)
    if rc != 0:
        return "FAIL %s: stencil-translate: %s" % (label, first_error(err))
    with open(stem + ".ptx", "wb") as f:
        f.write(ptx)
    rc, _, err = run([args.ptxas, "-arch=" + chip, stem + ".ptx",
                      "-o", stem + ".cubin"])
    if rc != 0:
        return "FAIL %s: ptxas: %s" % (label, first_error(err))
    ptx = ptx.decode(errors="replace")
    version = re.search(r"^\.version (\d+)\.(\d+)", ptx, re.M)
    target = re.search(r"^\.target (\S+)", ptx, re.M)
    if not version or not target:
        return "FAIL %s: no .version or .target in the PTX" % label
    got = int(version.group(1)) * 10 + int(version.group(2))
    # auto: the chosen pipeline's own version.
    chosen = re.search(r'stencil\.pipeline = "([a-z-]+)', lowered.decode())
    needs = PIPELINE_PTX.get(chosen.group(1) if chosen else pipeline, 60)
    want = max(CHIP_PTX.get(chip, 0), needs)
    if got != want or target.group(1) != chip:
        return "FAIL %s: .version %d.%d .target %s, expected %d.%d %s" % (
            label, got // 10, got % 10, target.group(1), want // 10,
            want % 10, chip)
    return "PASS %s .version %s.%s .target %s" % (
        label, version.group(1), version.group(2), target.group(1))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--stencil-opt", required=True)
    parser.add_argument("--stencil-translate", required=True)
    parser.add_argument("--ptxas", required=True)
    parser.add_argument("--examples", required=True)
    parser.add_argument("--chips", required=True)
    parser.add_argument("--refuse", default="",
                        help="comma-separated case@chip that must be "
                             "refused with a located error")
    parser.add_argument("--workdir", required=True)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    args.refuse = set(filter(None, args.refuse.split(",")))
    os.makedirs(args.workdir, exist_ok=True)

    work = [(chip, case) for chip in args.chips.split(",") for case in CASES]
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        lines = list(pool.map(lambda w: check(args, *w), work))
    counts = {"PASS": 0, "REFUSED": 0, "FAIL": 0}
    for line in lines:
        print(line)
        counts[line.split()[0]] += 1
    print("%d passed, %d refused, %d failed" % (
        counts["PASS"], counts["REFUSED"], counts["FAIL"]))
    return 1 if counts["FAIL"] else 0


if __name__ == "__main__":
    sys.exit(main())
