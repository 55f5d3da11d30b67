#!/usr/bin/env python3
"""The measured kernels of a run on the per-unit roofline of its device, the
chart of seed 001 (Figures 7-9 and 14): one panel per arithmetic unit.

    python3 bench/plot_roofline.py ART OUT.png LOG [LOG ...] [--profile FILE]

ART is a folder of bench/compile-auto.sh (launch descriptions under
ART/k/CASE/SLUG.launch), LOG the table logs of bench/run-auto.sh, the
profile the one the run measured (default: profile.txt beside the first LOG).
Each kernel is a point at its arithmetic intensity on its unit,
I = C_unit / M' (flops the unit issues per point and step over the bytes
moved per point and step, M' = D (1 + A) / t as in Analysis/CostModel.h),
and at the rate it reached on that unit, measured GStencil/s x C_unit; the
lines are the unit's roof min(P_unit, B I). Needs matplotlib (Debian:
python3-matplotlib).
"""
import argparse
import importlib.util
import os
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

spec = importlib.util.spec_from_file_location(
    "calibrate", os.path.join(os.path.dirname(os.path.abspath(__file__)),
                              "calibrate.py"))
calibrate = importlib.util.module_from_spec(spec)
spec.loader.exec_module(calibrate)

UNITS = ["mma.sp.f16", "mma.f16", "mma.f64.m16n8k4", "fma.f32", "fma.f64"]
FAMILIES = ["sptc", "tc", "tc-lowrank", "fft", "cuda-core"]
MARKERS = dict(zip(FAMILIES, "o^vsD"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("art")
    ap.add_argument("out")
    ap.add_argument("logs", nargs="+")
    ap.add_argument("--profile")
    args = ap.parse_args()
    profile = args.profile or os.path.join(os.path.dirname(args.logs[0]),
                                           "profile.txt")
    by_case, _, device = calibrate.load(args.art, args.logs, profile)
    bw, peaks, _ = calibrate.read_profile(profile)
    kernels = [k for ks in by_case.values() for k in ks]
    units = [u for u in UNITS if any(k.unit == u for k in kernels)]
    fig, axes = plt.subplots(1, len(units), figsize=(4.2 * len(units), 4.2))
    for ax, unit in zip(np.atleast_1d(axes), units):
        peak = peaks[unit] * 1e3  # GFLOP/s
        ks = [k for k in kernels if k.unit == unit]
        flops = [peak / k.unit_bound for k in ks]          # C_unit
        bytes_ = [bw / k.bw_bound for k in ks]              # M'
        intensity = np.array([f / b for f, b in zip(flops, bytes_)])
        achieved = np.array([k.measured * f for k, f in zip(ks, flops)])
        x = np.logspace(np.log10(max(intensity.min() / 3, 0.05)),
                        np.log10(intensity.max() * 3), 200)
        ax.plot(x, np.minimum(peak, bw * x), "k-", lw=1.5,
                label="roof: min(P, B I)")
        for fam in FAMILIES:
            sel = [i for i, k in enumerate(ks)
                   if calibrate.re.sub(r"-f\d+$", "", k.family) == fam]
            if sel:
                ax.scatter(intensity[sel], achieved[sel], s=18,
                           marker=MARKERS[fam], label=fam, alpha=0.75)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_title("%s (P = %.1f TFLOP/s)" % (unit, peaks[unit]), fontsize=10)
        ax.set_xlabel("flops issued on the unit / byte")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7, loc="lower right")
    np.atleast_1d(axes)[0].set_ylabel("GFLOP/s on the unit (measured)")
    fig.suptitle("%s, bandwidth %.0f GB/s: %d kernels of %d cases" %
                 (device, bw, len(kernels), len(by_case)), fontsize=11)
    fig.tight_layout()
    fig.savefig(args.out, dpi=110)
    print("wrote %s" % args.out)


if __name__ == "__main__":
    sys.exit(main())
