#!/usr/bin/env python3
"""check-sptc-report: matching never issues more mma.sp than strided swap.

Runs `stencil-opt FILE --stencil-linearize --stencil-sptc-report` on every
FILE, prints the reports, and checks each stencil: the cheapest matched
layout issues at most as many mma.sp per tile as the strided swap, and
strictly fewer on the 2-D and 3-D stars (functions or files whose name
starts with `star`, `heat-2d` or `heat-3d`). Ends with

    N stencils: matching <= strided swap on all, < on M stars

or a FAIL line per violation (exit 1).

Usage: check-sptc-report.py --stencil-opt BIN FILE...
"""

import argparse
import os
import re
import subprocess
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--stencil-opt", required=True)
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    count = stars = 0
    failures = []
    for path in args.files:
        proc = subprocess.run([args.stencil_opt, path, "--stencil-linearize",
                               "--stencil-sptc-report", "-o", os.devnull],
                              capture_output=True, text=True)
        if proc.returncode:
            failures.append("FAIL %s: %s" % (path, proc.stderr.strip()))
            continue
        sys.stdout.write(proc.stdout)
        name = os.path.splitext(os.path.basename(path))[0]
        swap = best = None
        for line in proc.stdout.splitlines() + ["stencil in @end"]:
            if line.startswith("stencil in @"):
                if swap is not None:
                    count += 1
                    star = re.match(r"(star|heat-2d|heat-3d)", name) and \
                        not name.startswith("star-1d")
                    if best is None or best > swap:
                        failures.append("FAIL %s: matching %s, strided swap %d"
                                        % (name, best, swap))
                    elif star:
                        stars += 1
                        if best >= swap:
                            failures.append(
                                "FAIL %s: a star, matching %d not fewer than "
                                "strided swap %d" % (name, best, swap))
                swap = best = None
                continue
            m = re.match(r"\s+(strided-swap|matching \[\d+, \d+\])\s+(\d+) "
                         r"mma\.sp/tile", line)
            if not m:
                continue
            mmas = int(m.group(2))
            if m.group(1) == "strided-swap":
                swap = mmas
            else:
                best = mmas if best is None else min(best, mmas)
    for failure in failures:
        print(failure)
    print("%d stencils: matching <= strided swap on all, < on %d stars"
          % (count, stars))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
