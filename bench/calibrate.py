#!/usr/bin/env python3
"""Calibration and evaluation of the cost model behind --lower-to-auto
(issue #15).

    python3 bench/calibrate.py fit ART LOG [LOG ...]
    python3 bench/calibrate.py report ART LOG [LOG ...]

ART is the folder of bench/compile-auto.sh, LOG the table logs of
bench/run-auto.sh (RESULT lines "CASE SLUG seed: RESULT ... gstencil_s=X",
one device). The device profile is the one the run measured (LOG's folder
profile.txt, or --profile FILE).

fit     fits the constants of Analysis/CostModel.h,
            1 / G = max(t_mem, t_unit) + gamma min(t_mem, t_unit),
            t_mem = M' / (eta_mem B), t_unit = C_u / (eta_unit P_unit),
            M' = D (1 + A) / t (A: inputs read per output, halo included),
        by least squares on log(G_pred / G_measured) per group of kernels,
        for three groupings (pipeline; pipeline x element size; pipeline x
        element size x rank; a pipeline being a candidate with its fused
        steps). It chooses the grouping whose leave-one-stencil-out
        cross-validation (fit on the other stencils, rank the one left out)
        puts auto within 5% of the best candidate most often, prints that
        validation (for the examples, `fit` in cases.txt, and the others,
        `check`), fits the chosen grouping on every case and prints its
        constants as the table of lib/Analysis/ModelConstants.cpp.
report  the table of the issue: per case every candidate's measured
        GStencil/s, the choice of --lower-to-auto as ART/explain/CASE.txt
        records it (rerun compile-auto.sh with EXPLAIN_ONLY=1 and the
        run's profile after changing the constants), auto's measured speed,
        its ratio to the best candidate, and the C++ model's prediction
        error; then the summary: cases within 5% of the best, the worst
        ratio, and the prediction error over every candidate.
"""
import argparse
import collections
import math
import os
import re
import statistics
import sys

import numpy as np

ELEMENT_BYTES = {"f16": 2, "bf16": 2, "f32": 4, "f64": 8}


def read_kv(path):
    kv = {}
    for line in open(path):
        line = line.split("#", 1)[0].strip()
        if "=" in line:
            k, v = line.split("=", 1)
            kv[k.strip()] = v.strip()
    return kv


def read_profile(path):
    kv = read_kv(path)
    peaks = {k[5:]: float(v) for k, v in kv.items() if k.startswith("peak.")}
    return float(kv["bandwidth_gbs"]), peaks, kv.get("name", "?")


def family(slug):
    """The model's pipeline name (getModelConstants): the slug, whose -fT
    names the fused steps of the CUDA-core and FFT candidates."""
    return slug


def read_results(logs):
    """{(case, slug): gstencil_s}, the device name."""
    results, devices = {}, set()
    pat = re.compile(r"^(\S+) (\S+) seed: RESULT .*device=\"([^\"]+)\".* "
                     r"gstencil_s=([0-9.]+)")
    for log in logs:
        for line in open(log):
            m = pat.match(line)
            if m:
                key = (m.group(1), m.group(2))
                if key in results:
                    sys.exit("calibrate.py: %s %s measured twice" % key)
                results[key] = float(m.group(4))
                devices.add(m.group(3))
            elif " seed: " in line and ("FAIL" in line or "error" in line):
                sys.exit("calibrate.py: failed run: " + line.strip())
    if len(devices) != 1:
        sys.exit("calibrate.py: results from %d devices: %s" %
                 (len(devices), sorted(devices)))
    return results, devices.pop()


class Kernel:
    def __init__(self, art, case, slug, gs, bw, peaks):
        d = read_kv(os.path.join(art, "k", case, slug + ".launch"))
        self.case, self.slug, self.family = case, slug, family(slug)
        self.stencil = case.rsplit("-", 1)[0]
        self.rank = int(d["rank"])
        self.bytes = ELEMENT_BYTES[d["element_type"]]
        t = int(d.get("steps_per_launch", "1"))
        self.unit = d["unit"]
        # A: input elements a block reads per output and launch, the halo of
        # t r_d per side included (tile is innermost first, offsets
        # outermost first).
        tile = [int(v) for v in d["tile"].split(",")][::-1]
        radii = [0] * self.rank
        for point in filter(None, d.get("offsets", "").split(";")):
            for i, c in enumerate(point.split(",")):
                radii[i] = max(radii[i], abs(int(c)))
        self.staged = 1.0
        for n, r in zip(tile, radii):
            self.staged *= (n + 2.0 * r * t) / n
        self.bw_bound = bw / (self.bytes * (1.0 + self.staged) / t)
        self.unit_bound = peaks[self.unit] * 1e3 / float(d["unit_flops_per_point"])
        self.measured = gs

    def key(self, grouping):
        return {"pipeline": (self.family, 0, 0),
                "bytes": (self.family, 0, self.bytes),
                "rank": (self.family, self.rank, self.bytes)}[grouping]


def predict(k, c):
    em, eu, g = c
    tm, tu = 1.0 / (em * k.bw_bound), 1.0 / (eu * k.unit_bound)
    return 1.0 / (max(tm, tu) + g * min(tm, tu))


ETA = np.arange(0.02, 1.0001, 0.01)
GAMMA = np.arange(0.0, 1.0001, 0.1)


def fit_group(kernels):
    """The (eta_mem, eta_unit, gamma) minimising the squared log error."""
    bw = np.array([k.bw_bound for k in kernels])
    ub = np.array([k.unit_bound for k in kernels])
    meas = np.log(np.array([k.measured for k in kernels]))
    tm = 1.0 / (ETA[:, None, None, None] * bw)           # [em, 1, 1, n]
    tu = 1.0 / (ETA[None, :, None, None] * ub)           # [1, eu, 1, n]
    hi, lo = np.maximum(tm, tu), np.minimum(tm, tu)
    pred = -np.log(hi + GAMMA[None, None, :, None] * lo)
    err = ((pred - meas) ** 2).sum(axis=-1)
    i, j, l = np.unravel_index(np.argmin(err), err.shape)
    return (round(float(ETA[i]), 2), round(float(ETA[j]), 2),
            round(float(GAMMA[l]), 1))


def fit(kernels, grouping):
    groups = collections.defaultdict(list)
    for k in kernels:
        groups[k.key(grouping)].append(k)
    return {key: fit_group(ks) for key, ks in groups.items()}


def lookup(constants, k):
    for key in (k.key("rank"), k.key("bytes"), k.key("pipeline")):
        if key in constants:
            return constants[key]
    for key in (k.key("rank"), k.key("bytes"), k.key("pipeline")):
        key = (re.sub(r"-f\d+$", "", key[0]),) + key[1:]
        if key in constants:
            return constants[key]
    return (1.0, 1.0, 0.0)


def choose(kernels, constants):
    return max(kernels, key=lambda k: predict(k, lookup(constants, k)))


def evaluate(by_case, constants_for):
    """Per case: (chosen kernel, best kernel); constants_for(case)."""
    out = {}
    for case, ks in by_case.items():
        out[case] = (choose(ks, constants_for(case)),
                     max(ks, key=lambda k: k.measured))
    return out


def summary(label, picks):
    ratios = [c.measured / b.measured for c, b in picks.values()]
    if not ratios:
        return
    within = sum(r >= 0.95 for r in ratios)
    print("%s: %d cases, auto within 5%% of the best on %d (%.0f%%), worst "
          "%.3f, mean %.3f" % (label, len(ratios), within,
                               100.0 * within / len(ratios), min(ratios),
                               statistics.mean(ratios)))


def load(art, logs, profile):
    results, device = read_results(logs)
    bw, peaks, name = read_profile(profile)
    sets = dict(line.split() for line in open(os.path.join(art, "cases.txt")))
    by_case = collections.defaultdict(list)
    for (case, slug), gs in sorted(results.items()):
        by_case[case].append(Kernel(art, case, slug, gs, bw, peaks))
    return by_case, sets, device


def cmd_fit(args):
    by_case, sets, device = load(args.art, args.logs, args.profile)
    kernels = [k for ks in by_case.values() for k in ks]
    print("device: %s; %d cases (%d kernels)" % (device, len(by_case),
                                                len(kernels)))
    # Leave one stencil (both of its element types) out: the constants are
    # fitted on the other stencils, then rank the one left out.
    best, best_score = None, None
    for grouping in ("pipeline", "bytes", "rank"):
        cache = {}
        def constants_for(case, grouping=grouping):
            stencil = case.rsplit("-", 1)[0]
            if stencil not in cache:
                cache[stencil] = fit([k for k in kernels
                                      if k.stencil != stencil], grouping)
            return cache[stencil]
        picks = evaluate(by_case, constants_for)
        ratios = [c.measured / b.measured for c, b in picks.values()]
        score = (sum(r >= 0.95 for r in ratios), statistics.mean(ratios))
        summary("grouping %-8s leave-one-stencil-out" % grouping, picks)
        if best_score is None or score > best_score:
            best, best_score, best_picks = grouping, score, picks
    constants = fit(kernels, best)
    print("chosen grouping: %s" % best)
    for which in ("fit", "check"):
        summary("  leave-one-stencil-out, %s cases" % which,
                {c: p for c, p in best_picks.items() if sets[c] == which})
    summary("in-sample, all cases", evaluate(by_case, lambda c: constants))
    errs = [abs(predict(k, lookup(constants, k)) / k.measured - 1)
            for k in kernels]
    print("in-sample prediction error |pred/meas - 1| over %d kernels: "
          "median %.1f%%, mean %.1f%%, 90th percentile %.1f%%" %
          (len(errs), 100 * statistics.median(errs), 100 * statistics.mean(errs),
           100 * sorted(errs)[int(0.9 * (len(errs) - 1))]))
    print("\n// lib/Analysis/ModelConstants.cpp table (%s)" % device)
    for (fam, rank, nbytes), (em, eu, g) in sorted(constants.items()):
        print('    {"%s", %d, %d, {%.2f, %.2f, %.1f}},' %
              (fam, rank, nbytes, em, eu, g))


def read_explain(path):
    """{slug: predicted}, chosen slug, from a compile-auto.sh explain file."""
    preds, chosen = {}, None
    slug_of = lambda p: (re.sub(r"\{.*", "", p).replace("lower-to-", "") +
                         ("-lowrank" if "low-rank=true" in p else "") +
                         ("-f" + re.search(r"fused-steps=(\d+)", p).group(1)
                          if "fused-steps=" in p else ""))
    for line in open(path):
        m = re.match(r"^\s+\d+\s+(lower-to-\S+(?: [^ ]+=[^ ]+)*)\s+\S+\s+"
                     r"[0-9.]+\s+[0-9.]+\s+[0-9.]+\s+[0-9.]+\s+\S+\s+([0-9.]+)",
                     line)
        if m:
            preds[slug_of(m.group(1))] = float(m.group(2))
        if line.startswith("chosen: "):
            chosen = slug_of(line[8:].strip())
    return preds, chosen


def cmd_report(args):
    by_case, sets, device = load(args.art, args.logs, args.profile)
    rows, picks, errs = [], {}, []
    for case in sorted(by_case, key=lambda c: (sets[c], c)):
        ks = {k.slug: k for k in by_case[case]}
        preds, chosen = read_explain(os.path.join(args.art, "explain",
                                                  case + ".txt"))
        best = max(ks.values(), key=lambda k: k.measured)
        if chosen not in ks:
            sys.exit("calibrate.py: %s: auto's %s was not measured" %
                     (case, chosen))
        picks[case] = (ks[chosen], best)
        for slug, k in ks.items():
            if slug in preds:
                errs.append(abs(preds[slug] / k.measured - 1))
        cells = " ".join("%s %.0f" % (s, k.measured) for s, k in
                         sorted(ks.items(), key=lambda x: -x[1].measured))
        rows.append("| %s | %s | %s | %s %.1f | %.2f | %.0f (%+.0f%%) |" % (
            case, sets[case], cells, chosen, ks[chosen].measured,
            ks[chosen].measured / best.measured, preds.get(chosen, 0),
            100 * (preds.get(chosen, 0) / ks[chosen].measured - 1)))
    print("device: %s\n" % device)
    print("| case | set | measured GStencil/s, best first | auto | auto/best "
          "| auto predicted (error) |")
    print("| --- | --- | --- | --- | --- | --- |")
    print("\n".join(rows))
    print()
    summary("all", picks)
    summary("fit", {c: p for c, p in picks.items() if sets[c] == "fit"})
    summary("check", {c: p for c, p in picks.items() if sets[c] == "check"})
    print("prediction error |pred/meas - 1| over all %d kernels: median %.1f%%,"
          " mean %.1f%%, 90th percentile %.1f%%" %
          (len(errs), 100 * statistics.median(errs), 100 * statistics.mean(errs),
           100 * sorted(errs)[int(0.9 * (len(errs) - 1))]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("mode", choices=["fit", "report"])
    ap.add_argument("art")
    ap.add_argument("logs", nargs="+")
    ap.add_argument("--profile", help="device profile of the run (default: "
                    "profile.txt beside the first LOG)")
    args = ap.parse_args()
    if not args.profile:
        args.profile = os.path.join(os.path.dirname(args.logs[0]),
                                    "profile.txt")
    (cmd_fit if args.mode == "fit" else cmd_report)(args)


if __name__ == "__main__":
    main()
