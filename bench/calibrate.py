#!/usr/bin/env python3
"""Calibration and evaluation of the cost model behind --lower-to-auto
(issue #15).

    python3 bench/calibrate.py fit ART LOG [LOG ...]
    python3 bench/calibrate.py report ART LOG [LOG ...]

ART is the folder of bench/compile-auto.sh, LOG the table logs of
bench/run-auto.sh (RESULT lines "CASE SLUG seed: RESULT ... gstencil_s=X",
one device). The device profile is the one the run measured (LOG's folder
profile.txt, or --profile FILE).

fit     (with --only REGEX: only the families it matches, by rank and
        element size, the globals of --globals, the other families'
        constants from lib/Analysis/ModelConstants.cpp; it prints the
        leave-one-stencil-out and in-sample choices and the new entries)
        fits the constants of Analysis/CostModel.h,
            1 / G = max(t_mem, t_unit) + gamma min(t_mem, t_unit) + t_edge,
            t_mem = M_eff / (eta_mem B), M_eff = max(2 D / t, M' / rho),
            M' = D (1 + A) / t (A: inputs read per output, halo included),
            t_unit = C_u / (eta_unit o P_unit), o = min(1, W / W_sat)
            (W: resident warps per SM from ptxas's registers and shared
            memory, ART/k/CASE/SLUG.ptxas),
            t_edge = s E / (eta_edge P_fma.f64) (the FFT kernel's edge
            blocks: share s of the blocks on the run's grid, E flops per
            output and step),
        by least squares on log(G_pred / G_measured) per group of kernels,
        for three groupings (pipeline; pipeline x element size; pipeline x
        element size x rank; a pipeline being a candidate with its fused
        steps), and for each (rho, W_sat, eta_edge) of a small grid. It
        takes the globals whose in-sample fit puts auto within 5% of the
        best candidate most often (then the best worst case, then the
        smallest median error), chooses the grouping whose
        leave-one-stencil-out cross-validation (fit on the other stencils,
        rank the one left out) does best, prints that validation (for the
        examples, `fit` in cases.txt, and the others, `check`), fits the
        chosen grouping on every case and prints its constants as the table
        of lib/Analysis/ModelConstants.cpp and the globals of
        getModelGlobals.
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


def family(slug, desc):
    """The model's pipeline name (getModelConstants): the slug, whose -fT
    names the fused steps of the CUDA-core and FFT candidates; the CUDA-core
    row sweep (`schedule = rows`) is "cuda-core-rows-fT", the plane sums
    with vector columns of W "cuda-core-vsums-wW-fT" (the slug)."""
    if desc.get("schedule") == "rows" and slug.startswith("cuda-core"):
        return "cuda-core-rows" + slug[len("cuda-core"):]
    return slug  # cuda-core-sums-f1: the 3-D plane sums (schedule plane-sums)


def read_model(path):
    """The table of lib/Analysis/ModelConstants.cpp, {(pipeline, rank,
    bytes): (eta_mem, eta_unit, gamma)}, and its getModelGlobals, (rho,
    W_sat, eta_edge); `path` is read once (it may be a pipe)."""
    text = open(path).read()
    pat = re.compile(r'\{"([^"]+)", (\d+), (\d+), \{([0-9.]+), ([0-9.]+), '
                     r'([0-9.]+)\}\}')
    table = {(m.group(1), int(m.group(2)), int(m.group(3))):
             (float(m.group(4)), float(m.group(5)), float(m.group(6)))
             for m in pat.finditer(text)}
    get = lambda name: re.search(r"globals\.%s = ([0-9.]+);" % name,
                                 text).group(1)
    return table, (float(get("l2BandwidthRatio")), int(get("saturatingWarps")),
                   float(get("edgeEfficiency")))


def read_results(logs):
    """{(case, slug): (gstencil_s, grid outermost first)}, the device
    name."""
    results, devices = {}, set()
    pat = re.compile(r"^(\S+) (\S+) seed: RESULT .*device=\"([^\"]+)\" "
                     r"grid=([0-9x]+) .*gstencil_s=([0-9.]+)")
    for log in logs:
        for line in open(log):
            m = pat.match(line)
            if m:
                key = (m.group(1), m.group(2))
                if key in results:
                    sys.exit("calibrate.py: %s %s measured twice" % key)
                results[key] = (float(m.group(5)),
                                [int(n) for n in m.group(4).split("x")])
                devices.add(m.group(3))
            elif " seed: " in line and ("FAIL" in line or "error" in line):
                sys.exit("calibrate.py: failed run: " + line.strip())
    if len(devices) != 1:
        sys.exit("calibrate.py: results from %d devices: %s" %
                 (len(devices), sorted(devices)))
    return results, devices.pop()


# SelectPipeline.cpp's kMaxSpillStoreBytes: candidates whose kernels spill
# more are rejected.
MAX_SPILL_STORE_BYTES = 1024


def read_ptxas(path, kernel):
    """(registers, static shared bytes, spill store bytes) of `kernel` in a
    `ptxas -v` report, (0, 0, 0) when there is none."""
    if not os.path.exists(path):
        return 0, 0, 0
    regs = smem = spill = 0
    current = None
    for line in open(path):
        m = re.search(r"Compiling entry function '([^']+)'", line)
        if m:
            current = m.group(1)
            continue
        if current != kernel:
            continue
        m = re.search(r"Used (\d+) registers", line)
        if m:
            regs = int(m.group(1))
        m = re.search(r"(\d+) bytes smem", line)
        if m:
            smem = int(m.group(1))
        m = re.search(r"(\d+) bytes spill stores", line)
        if m:
            spill = int(m.group(1))
    return regs, smem, spill


class Kernel:
    """A measured candidate and the figures CostModel.cpp takes from its
    launch record (getKernelWork), ptxas (getResidentWarps) and the run's
    grid (getEdgeBlockShare)."""

    def __init__(self, art, case, slug, gs, grid, profile):
        base = os.path.join(art, "k", case, slug)
        d = read_kv(base + ".launch")
        self.case, self.slug, self.family = case, slug, family(slug, d)
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
        self.block_bytes = self.bytes * (1.0 + self.staged) / t
        self.dram_bytes = 2.0 * self.bytes / t
        self.bw = profile["bw"]
        self.unit_bound = (profile["peaks"][self.unit] * 1e3 /
                           float(d["unit_flops_per_point"]))
        # W: resident warps per SM (0: unknown).
        regs, smem, self.spill = read_ptxas(base + ".ptxas", d["kernel"])
        threads = int(d["block"].split(",")[0])
        self.warps = 0
        if regs and profile["registers"]:
            warps = (threads + 31) // 32
            per_warp = (regs * 32 + 255) // 256 * 256
            blocks = profile["registers"] // (per_warp * warps)
            shared = int(d.get("shared_bytes", "0")) + smem
            if shared and profile["shared"]:
                blocks = min(blocks, profile["shared"] // (shared + 1024))
            self.warps = min(blocks * warps, 64)
        # s E: the FFT edge blocks' flops per output and step, over the run.
        self.edge_flops = 0.0
        if "edge_flops_per_point" in d:
            interior = 1.0
            for dim in range(self.rank):
                last = dim == self.rank - 1
                valid = tile[dim] // (2 if last else 1)
                span = grid[dim] - 2 * t * radii[dim]
                tiles = -(-span // valid) if span > 0 else 1
                blocks = (tiles + 1) // 2 if last else tiles
                interior *= max(blocks - 2, 0) / blocks
            self.edge_flops = ((1.0 - interior) *
                               float(d["edge_flops_per_point"]) /
                               (profile["peaks"][d["edge_unit"]] * 1e3))
        self.measured = gs
        self.set_globals((1.0, 0.0, 0.0))

    def set_globals(self, g):
        """The terms that depend on (rho, W_sat, eta_edge)."""
        rho, wsat, eta_edge = g
        self.bw_bound = self.bw / max(self.dram_bytes, self.block_bytes / rho)
        occupancy = 1.0
        if wsat > 0 and self.warps > 0:
            occupancy = min(1.0, self.warps / wsat)
        self.unit_eff_bound = self.unit_bound * occupancy
        self.edge = self.edge_flops / eta_edge if eta_edge > 0 else 0.0

    def key(self, grouping):
        return {"pipeline": (self.family, 0, 0),
                "bytes": (self.family, 0, self.bytes),
                "rank": (self.family, self.rank, self.bytes)}[grouping]


def predict(k, c):
    em, eu, g = c
    tm, tu = 1.0 / (em * k.bw_bound), 1.0 / (eu * k.unit_eff_bound)
    return 1.0 / (max(tm, tu) + g * min(tm, tu) + k.edge)


# The grid of globals fit searches: rho, W_sat (0: no occupancy), eta_edge
# (0: no edge term).
GLOBALS = [(rho, wsat, ee) for rho in (1.0, 1.25, 1.5, 2.0, 2.5)
           for wsat in (0, 8, 12, 16, 24)
           for ee in (0.0, 0.05, 0.07, 0.1, 0.15)]


ETA = np.arange(0.02, 1.0001, 0.01)
GAMMA = np.arange(0.0, 1.0001, 0.1)


def fit_group(kernels):
    """The (eta_mem, eta_unit, gamma) minimising the squared log error."""
    bw = np.array([k.bw_bound for k in kernels])
    ub = np.array([k.unit_eff_bound for k in kernels])
    edge = np.array([k.edge for k in kernels])
    meas = np.log(np.array([k.measured for k in kernels]))
    tm = 1.0 / (ETA[:, None, None, None] * bw)           # [em, 1, 1, n]
    tu = 1.0 / (ETA[None, :, None, None] * ub)           # [1, eu, 1, n]
    hi, lo = np.maximum(tm, tu), np.minimum(tm, tu)
    pred = -np.log(hi + GAMMA[None, None, :, None] * lo + edge)
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
    # The plane sums with vector columns without constants take the plane
    # sums', the row sweep and the plane sums the CUDA-core kernels'
    # (getModelConstants).
    for sub, to in ((r"cuda-core-vsums-w\d+", "cuda-core-sums"),
                    (r"cuda-core-vsums-w\d+", "cuda-core"),
                    ("cuda-core-rows", "cuda-core"),
                    ("cuda-core-sums", "cuda-core")):
        if re.match(sub, k.family):
            for key in (k.key("rank"), k.key("bytes"), k.key("pipeline")):
                key = (re.sub("^" + sub, to, key[0]),) + key[1:]
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


def print_misses(picks):
    """The cases where auto's pick ran below 95% of the best candidate."""
    for case, (c, b) in sorted(picks.items()):
        if c.measured < 0.95 * b.measured:
            print("  left out, missed: %s: %s %.1f, best %s %.1f (%.2f)" %
                  (case, c.slug, c.measured, b.slug, b.measured,
                   c.measured / b.measured))


def error_stats(errs):
    """Median, mean and 90th percentile of prediction errors, in words."""
    return ("median %.1f%%, mean %.1f%%, 90th percentile %.1f%%" %
            (100 * statistics.median(errs), 100 * statistics.mean(errs),
             100 * sorted(errs)[int(0.9 * (len(errs) - 1))]))


def load(art, logs, profile):
    results, device = read_results(logs)
    kv = read_kv(profile)
    bw, peaks, name = read_profile(profile)
    prof = {"bw": bw, "peaks": peaks,
            "registers": int(kv.get("registers_per_sm", "0")),
            "shared": int(kv.get("shared_bytes_per_sm", "0"))}
    sets = dict(line.split() for line in open(os.path.join(art, "cases.txt")))
    by_case = collections.defaultdict(list)
    for (case, slug), (gs, grid) in sorted(results.items()):
        k = Kernel(art, case, slug, gs, grid, prof)
        if k.spill <= MAX_SPILL_STORE_BYTES:  # else auto rejects it
            by_case[case].append(k)
    return by_case, sets, device


def fit_score(picks, kernels, constants):
    """(cases within 5%, worst ratio, -median prediction error)."""
    ratios = [c.measured / b.measured for c, b in picks.values()]
    errs = [abs(predict(k, lookup(constants, k)) / k.measured - 1)
            for k in kernels]
    return (sum(r >= 0.95 for r in ratios), min(ratios),
            -statistics.median(errs))


def cmd_fit_only(args, by_case, sets, kernels):
    """fit --only: the families matching the regex, grouped by rank and
    element size, with the globals of --globals; every other family keeps
    the constants of --table."""
    table, g = read_model(args.table)
    if args.globals:
        g = tuple(float(v) for v in args.globals.split(","))
        g = (g[0], int(g[1]), g[2])
    for k in kernels:
        k.set_globals(g)
    only = re.compile(args.only)
    mine = [k for k in kernels if only.search(k.family)]
    if not mine:
        sys.exit("calibrate.py: no kernel of a family matching " + args.only)
    print("globals: rho %.2f, W_sat %d, eta_edge %.2f; %d kernels "
          "of %s" % (g + (len(mine), sorted({k.family for k in mine}))))
    summary("before (--table)", evaluate(by_case, lambda c: table))
    constants = dict(table)
    constants.update(fit(mine, "rank"))
    cache = {}
    def constants_for(case):
        stencil = case.rsplit("-", 1)[0]
        if stencil not in cache:
            cache[stencil] = dict(table)
            cache[stencil].update(fit([k for k in mine
                                       if k.stencil != stencil], "rank"))
        return cache[stencil]
    picks = evaluate(by_case, constants_for)
    summary("leave-one-stencil-out", picks)
    print_misses(picks)
    summary("in-sample", evaluate(by_case, lambda c: constants))
    for label, ks in (("fitted families", mine), ("all", kernels)):
        errs = [abs(predict(k, lookup(constants, k)) / k.measured - 1)
                for k in ks]
        print("in-sample prediction error, %s (%d kernels): %s" %
              (label, len(errs), error_stats(errs)))
    print("\n// new entries of lib/Analysis/ModelConstants.cpp")
    for key in sorted(set(constants) - set(table) |
                      {key for key in constants if only.search(key[0])}):
        em, eu, gm = constants[key]
        print('    {"%s", %d, %d, {%.2f, %.2f, %.1f}},' % (key + (em, eu, gm)))


def cmd_fit(args):
    by_case, sets, device = load(args.art, args.logs, args.profile)
    kernels = [k for ks in by_case.values() for k in ks]
    print("device: %s; %d cases (%d kernels)" % (device, len(by_case),
                                                len(kernels)))
    if args.only:
        return cmd_fit_only(args, by_case, sets, kernels)
    # The globals: the in-sample fit of the finest grouping on each.
    best_g, best_g_score = None, None
    for g in GLOBALS:
        for k in kernels:
            k.set_globals(g)
        constants = fit(kernels, "rank")
        sc = fit_score(evaluate(by_case, lambda c: constants), kernels,
                       constants)
        if best_g_score is None or sc > best_g_score:
            best_g, best_g_score = g, sc
    for k in kernels:
        k.set_globals(best_g)
    print("globals: rho %.2f, W_sat %d, eta_edge %.2f (in-sample: %d cases "
          "within 5%%, worst %.3f, median error %.1f%%)" %
          (best_g + (best_g_score[0], best_g_score[1],
                     -100 * best_g_score[2])))
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
    print_misses(best_picks)
    for which in ("fit", "check"):
        summary("  leave-one-stencil-out, %s cases" % which,
                {c: p for c, p in best_picks.items() if sets[c] == which})
    summary("in-sample, all cases", evaluate(by_case, lambda c: constants))
    errs = [abs(predict(k, lookup(constants, k)) / k.measured - 1)
            for k in kernels]
    print("in-sample prediction error |pred/meas - 1| over %d kernels: %s" %
          (len(errs), error_stats(errs)))
    print("\n// lib/Analysis/ModelConstants.cpp table (%s)" % device)
    for (fam, rank, nbytes), (em, eu, g) in sorted(constants.items()):
        print('    {"%s", %d, %d, {%.2f, %.2f, %.1f}},' %
              (fam, rank, nbytes, em, eu, g))
    print("// getModelGlobals: l2BandwidthRatio %.2f, saturatingWarps %d, "
          "edgeEfficiency %.2f" % best_g)


def read_explain(path):
    """{slug: predicted}, chosen slug, from a compile-auto.sh explain file."""
    preds, chosen = {}, None
    slug_of = lambda p: (re.sub(r"\{.*", "", p).replace("lower-to-", "") +
                         ("-lowrank" if "low-rank=true" in p else "") +
                         ("-vsums-w" + re.search(r"vector-width=(\d+)",
                                                 p).group(1)
                          if "vector-width=" in p else
                          "-sums" if "plane-sums=true" in p else "") +
                         ("-f" + re.search(r"fused-steps=(\d+)", p).group(1)
                          if "fused-steps=" in p else ""))
    for line in open(path):
        m = re.match(r"^\s+\d+\s+(lower-to-\S+(?: [^ ]+=[^ ]+)*)\s+\S+\s+"
                     r"[0-9.]+\s+[0-9.]+\s+[0-9.]+\s+[0-9.]+\s+\S+\s+(?:\d+|-)\s+"
                     r"([0-9.]+)",
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
    print("prediction error |pred/meas - 1| over all %d kernels: %s" %
          (len(errs), error_stats(errs)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("mode", choices=["fit", "report"])
    ap.add_argument("art")
    ap.add_argument("logs", nargs="+")
    ap.add_argument("--profile", help="device profile of the run (default: "
                    "profile.txt beside the first LOG)")
    ap.add_argument("--only", help="fit: only the families matching this "
                    "regex (e.g. cuda-core-rows), by rank and element size; "
                    "the others keep the constants of --table")
    ap.add_argument("--globals",
                    help="fit --only: rho,W_sat,eta_edge (default: those of "
                    "getModelGlobals in --table)")
    ap.add_argument("--table", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "lib", "Analysis",
        "ModelConstants.cpp"), help="fit --only: the constants of the other "
                    "families (default: lib/Analysis/ModelConstants.cpp)")
    args = ap.parse_args()
    if not args.profile:
        args.profile = os.path.join(os.path.dirname(args.logs[0]),
                                    "profile.txt")
    (cmd_fit if args.mode == "fit" else cmd_report)(args)


if __name__ == "__main__":
    main()
