#!/usr/bin/env python3
"""check-targets: every GPU pipeline on every chip it takes, through ptxas.

Runs each GPU pipeline (SpTC, the sm_90a warpgroup SpTC kernel, dense TC on
f16, bf16 and f64 grids, the low-rank TC chain, CUDA cores, FFT, auto) on
every example of --examples (the element type changed where the case says;
auto on Heat-2D only: its kernel is one of the others'), for each chip
given, takes the PTX out of the module's gpu.binary (what `stencil-translate
--to-ptx` writes: ptx_of) and assembles it with
`ptxas -arch=<chip>`. Per case and example, one line:

    PASS <case> <example>: <chip> <PTX ISA>, ... (every chip assembled)
    PASS <case> <example>: ..., <chip> refused, ... (refused where --refuse
        says so: `case@chip`, with a located error)
    REFUSED <case> <example>: <the first error> (on every chip: what the
        pipeline does not take, whatever the chip)
    FAIL <case> <example> <chip>: <why>

A refusal must be a located error (file:line:col: error:) and either the
same on every chip or on exactly the --refuse chips; the PTX's `.version`
must be the newest of what the chip and the pipeline's instructions need
(docs/Pipelines.md, "GPU targets"), `.target` the chip. Ends with
`N cases: P assembled, R refused on every chip, F failed (C compiles)` and
exits 1 when one fails. Runs --jobs compiles at a time.

Usage (test/Examples/targets-ptxas.test):
    check-targets.py --stencil-opt BIN --stencil-translate BIN --ptxas BIN
        --examples DIR --chips sm_80,sm_90a --workdir DIR [--jobs 2]
        [--only EXAMPLE,...]
"""

import argparse
import concurrent.futures
import os
import re
import subprocess
import sys

# name, element type (None: the example's), pipeline, options; auto runs
# on Heat-2D only.
CASES = [
    ("sptc", None, "lower-to-sptc"),
    ("sptc-warpgroup", None, "lower-to-sptc", "mma=warpgroup"),
    ("tc-f16", None, "lower-to-tc"),
    ("tc-bf16", "bf16", "lower-to-tc"),
    ("tc-f64", "f64", "lower-to-tc"),
    ("tc-low-rank", None, "lower-to-tc", "low-rank=true"),
    ("cuda-core", None, "lower-to-cuda-core"),
    ("fft", "f64", "lower-to-fft"),
    ("auto", None, "lower-to-auto", "ptxas=none fused-steps=1"),
]
AUTO_EXAMPLE = "heat-2d"

# The PTX ISA version each chip needs in LLVM 22 (GPUTarget.cpp), and what
# each pipeline's instructions need.
CHIP_PTX = {"sm_80": 70, "sm_86": 71, "sm_89": 78, "sm_90": 78,
            "sm_90a": 80, "sm_100a": 86, "sm_120": 87}
PIPELINE_PTX = {"lower-to-sptc": 85, "lower-to-tc": 70, "lower-to-fft": 70,
                "lower-to-cuda-core": 60}


def run(cmd, stdin=None):
    proc = subprocess.run(cmd, input=stdin, capture_output=True)
    return proc.returncode, proc.stdout, proc.stderr.decode(errors="replace")


ASSEMBLY = re.compile(rb'assembly = "((?:[^"\\]|\\.)*)"')
ESCAPE = re.compile(rb'\\([0-9A-Fa-f]{2}|\\)')


def ptx_of(lowered):
    """The PTX of the module's one gpu.binary, as `stencil-translate
    --to-ptx` writes it (its `assembly` string with MLIR's escapes undone:
    backslash and two hex digits, or a doubled backslash), or None."""
    found = ASSEMBLY.findall(lowered)
    if len(found) != 1:
        return None
    return ESCAPE.sub(lambda m: b"\\" if m.group(1) == b"\\"
                      else bytes([int(m.group(1), 16)]), found[0])


def first_error(text):
    for line in text.splitlines():
        if ": error: " in line:
            return line.strip()
    lines = text.strip().splitlines()
    return lines[0] if lines else "(no message)"


def check(args, chip, case, example):
    """One compile: ("PASS", version), ("REFUSED", error) or ("FAIL", why)."""
    name, elem, pipeline = case[:3]
    options = " ".join(["chip=" + chip] + list(case[3:]))
    source = os.path.join(args.examples, example + ".mlir")
    with open(source, "rb") as f:
        text = f.read()
    if elem:
        text = text.replace(b"f16", elem.encode())
    stem = os.path.join(args.workdir, "%s.%s.%s" % (name, example, chip))
    rc, lowered, err = run([args.stencil_opt, "-",
                            "--lower-to-%s=%s" % (pipeline[9:], options)],
                           stdin=text)
    if rc != 0:
        error = first_error(err)
        located = re.match(r"^(<stdin>|-):\d+:\d+: error: (.*)$", error)
        if located:
            return ("REFUSED", located.group(2))
        return ("FAIL", error)
    ptx = ptx_of(lowered)
    if ptx is None:
        # Not one gpu.binary holding PTX: what --to-ptx says of it.
        rc, _, err = run([args.stencil_translate, "--to-ptx"], stdin=lowered)
        return ("FAIL", "stencil-translate: " + first_error(err))
    with open(stem + ".ptx", "wb") as f:
        f.write(ptx)
    rc, _, err = run([args.ptxas, "-arch=" + chip, stem + ".ptx",
                      "-o", stem + ".cubin"])
    os.remove(stem + ".ptx")
    if rc != 0:
        return ("FAIL", "ptxas: " + first_error(err))
    os.remove(stem + ".cubin")
    ptx = ptx.decode(errors="replace")
    version = re.search(r"^\.version (\d+)\.(\d+)", ptx, re.M)
    target = re.search(r"^\.target (\S+)", ptx, re.M)
    if not version or not target:
        return ("FAIL", "no .version or .target in the PTX")
    got = int(version.group(1)) * 10 + int(version.group(2))
    # auto: the chosen pipeline's own version.
    chosen = re.search(r'stencil\.pipeline = "([a-z-]+)', lowered.decode())
    needs = PIPELINE_PTX.get(chosen.group(1) if chosen else pipeline, 60)
    want = max(CHIP_PTX.get(chip, 0), needs)
    if got != want or target.group(1) != chip:
        return ("FAIL", ".version %d.%d .target %s, expected %d.%d %s" % (
            got // 10, got % 10, target.group(1), want // 10, want % 10,
            chip))
    return ("PASS", "%s.%s" % (version.group(1), version.group(2)))


def summarize(args, case, example, results):
    """The line of one case and example from its results per chip."""
    name = case[0]
    label = "%s %s" % (name, example)
    fails = [(chip, why) for chip, (kind, why) in results if kind == "FAIL"]
    if fails:
        return ["FAIL %s %s: %s" % (label, chip, why) for chip, why in fails]
    refused = [(chip, why) for chip, (kind, why) in results
               if kind == "REFUSED"]
    listed = {chip for chip, _ in results
              if "%s@%s" % (name, chip) in args.refuse}
    if len(refused) == len(results):
        # The reason of a chip the case is for, if any.
        reason = next((why for chip, why in refused if chip not in listed),
                      refused[0][1])
        return ["REFUSED %s: %s" % (label, reason)]
    if {chip for chip, _ in refused} != listed:
        return ["FAIL %s %s: refused on %s only, expected on %s: %s" % (
            label, ",".join(c for c, _ in results),
            ",".join(c for c, _ in refused) or "no chip",
            ",".join(sorted(listed)) or "no chip",
            refused[0][1] if refused else "assembled")]
    return ["PASS %s: %s" % (label, ", ".join(
        "%s %s" % (chip, "refused" if kind == "REFUSED" else what)
        for chip, (kind, what) in results))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--stencil-opt", required=True)
    parser.add_argument("--stencil-translate", required=True)
    parser.add_argument("--ptxas", required=True)
    parser.add_argument("--examples", required=True)
    parser.add_argument("--only", default="",
                        help="comma-separated examples (default: all)")
    parser.add_argument("--chips", required=True)
    parser.add_argument("--refuse", default="",
                        help="comma-separated case@chip that must be "
                             "refused with a located error wherever the "
                             "case assembles on another chip")
    parser.add_argument("--workdir", required=True)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    args.refuse = set(filter(None, args.refuse.split(",")))
    os.makedirs(args.workdir, exist_ok=True)

    examples = sorted(f[:-5] for f in os.listdir(args.examples)
                      if f.endswith(".mlir"))
    if args.only:
        examples = [e for e in examples if e in args.only.split(",")]
    chips = args.chips.split(",")
    pairs = [(case, example) for case in CASES for example in examples
             if case[0] != "auto" or example == AUTO_EXAMPLE]
    work = [(chip, case, example) for case, example in pairs
            for chip in chips]
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda w: check(args, *w), work))
    counts = {"PASS": 0, "REFUSED": 0, "FAIL": 0}
    for i, (case, example) in enumerate(pairs):
        per_chip = list(zip(chips, results[i * len(chips):
                                           (i + 1) * len(chips)]))
        lines = summarize(args, case, example, per_chip)
        counts[lines[0].split()[0]] += 1
        for line in lines:
            print(line)
    print("%d cases: %d assembled, %d refused on every chip, %d failed "
          "(%d compiles)" % (len(pairs), counts["PASS"], counts["REFUSED"],
                             counts["FAIL"], len(work)))
    return 1 if counts["FAIL"] else 0


if __name__ == "__main__":
    sys.exit(main())
