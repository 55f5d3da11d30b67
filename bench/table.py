#!/usr/bin/env python3
"""Same-run roofline table of the GPU pipelines (issue #4).

    python3 bench/table.py LOG ART_DIR [--details]

LOG is the output of `bench/run-pipelines.sh ART_DIR table`: the
`stencil-run --roofline` output (its `ROOFLINE unit=... gbs=|tflops=...`
lines), then one line per run,

    PIPELINE NAME: RESULT kernel=... device="..." grid=... type=f16 ... gstencil_s=... check=PASS ...
    cudnn-f16 NAME: RESULT kernel=cudnn:... type=float16 ... check=SKIPPED

ART_DIR holds the launch descriptions `PIPELINE/NAME[-TYPE].launch`
(docs/LaunchDescription.md); each must have `unit` and
`unit_flops_per_point`, and may have `steps_per_launch` (default 1). For every
compiled kernel's RESULT:

    bandwidth bound = steps_per_launch * BW / (2 * element bytes)  GStencil/s
                      (one read and one write of every point per launch)
    compute bound   = peak(unit) / unit_flops_per_point            GStencil/s
    bound           = min of the two; fraction = measured / bound

with BW and peak(unit) from the ROOFLINE lines of the same LOG. cuDNN results
have no launch description: their fraction is of the bandwidth bound (one
launch per step) only.

Prints a Markdown table: rows = stencil x type, columns = pipelines, cells
"GStencil/s (fraction% of BW|unit)" naming the bound that binds; "–" where
there is no result. With --details, also one row per result with both bounds.

Exits 1 with a message on a RESULT whose check is FAIL, a launch description
without the unit fields, a unit the roofline did not measure, a result from
another device than the roofline's, or a malformed or duplicated line.
"""
import argparse
import os
import re
import sys

STENCILS = ["heat-2d", "box-2d9p", "box-2d49p", "box-2d225p", "heat-3d",
            "box-3d27p"]
TYPES = ["f16", "f64"]
TYPE_ORDER = ["f16", "bf16", "f32", "f64"]
PIPELINE_ORDER = ["sptc", "tc", "tc-lowrank", "cuda-core", "cuda-core-tb"]
ELEMENT_BYTES = {"f16": 2, "bf16": 2, "f32": 4, "f64": 8}
# cudnn_baseline.py prints torch's dtype names.
TORCH_TYPES = {"float16": "f16", "bfloat16": "bf16", "float32": "f32",
               "float64": "f64"}
UNIT_ORDER = ["mma.sp.f16", "mma.f16", "mma.bf16", "mma.f64", "mma.f64.m16n8k4",
              "mma.f64.m16n8k8", "mma.f64.m16n8k16", "fma.f32", "fma.f64"]

ROOFLINE_RE = re.compile(r"^ROOFLINE unit=(\S+) (gbs|tflops)=(\S+)\s*$")
RESULT_RE = re.compile(r"^(\S+) (\S+): RESULT (.*)$")
DEVICE_RE = re.compile(r"^device: (.*) \((sm_\d+), (\d+) SMs\)\s*$")
KV_RE = re.compile(r'(\w+)=("[^"]*"|\S+)')


class TableError(Exception):
    pass


def number(text, what):
    try:
        x = float(text)
    except ValueError:
        raise TableError(f"{what}: '{text}' is not a number") from None
    if not x == x or x in (float("inf"), float("-inf")):
        raise TableError(f"{what}: '{text}' is not finite")
    return x


def parse_log(path):
    """Returns (device, roofline, results): device = (name, sm, SMs) or None,
    roofline = {unit: figure} ('bandwidth' in GB/s, the rest in TFLOP/s),
    results = list of dicts (pipeline, name, line number, RESULT fields)."""
    device = None
    roofline = {}
    results = []
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            line = line.rstrip("\n")
            where = f"{path}:{lineno}"
            m = DEVICE_RE.match(line)
            if m and device is None:
                device = (m.group(1), m.group(2), int(m.group(3)))
                continue
            if line.startswith("ROOFLINE"):
                m = ROOFLINE_RE.match(line)
                if not m:
                    raise TableError(f"{where}: malformed ROOFLINE line: {line}")
                unit, kind, value = m.groups()
                if (unit == "bandwidth") != (kind == "gbs"):
                    raise TableError(f"{where}: unit {unit} with {kind}=")
                if unit in roofline:
                    raise TableError(f"{where}: second ROOFLINE line for {unit} "
                                     "(one roofline run per log)")
                roofline[unit] = number(value, where)
                if roofline[unit] <= 0:
                    raise TableError(f"{where}: {unit} peak must be positive")
                continue
            if "RESULT" not in line:
                if re.search(r"\b(error|Error|FAIL)\b", line):
                    print(f"table.py: warning: {where}: {line}", file=sys.stderr)
                continue
            m = RESULT_RE.match(line)
            if not m:
                raise TableError(f"{where}: RESULT line without a "
                                 f"'PIPELINE NAME: ' prefix: {line}")
            fields = {k: v.strip('"') for k, v in KV_RE.findall(m.group(3))}
            for key in ("kernel", "device", "type", "gstencil_s", "check"):
                if key not in fields:
                    raise TableError(f"{where}: RESULT without {key}=")
            if fields["check"] == "FAIL":
                raise TableError(f"{where}: check=FAIL for {m.group(1)} "
                                 f"{m.group(2)} ({fields['kernel']}): a failing "
                                 "kernel's time means nothing; fix it first")
            if fields["check"] not in ("PASS", "SKIPPED"):
                raise TableError(f"{where}: unknown check={fields['check']}")
            results.append({"pipeline": m.group(1), "name": m.group(2),
                            "where": where, **fields})
    if "bandwidth" not in roofline:
        raise TableError(f"{path}: no 'ROOFLINE unit=bandwidth gbs=...' line "
                         "(the log must start with stencil-run --roofline "
                         "output of the same run)")
    if not results:
        raise TableError(f"{path}: no RESULT lines")
    return device, roofline, results


def parse_launch(path):
    kv = {}
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            if "=" not in line:
                raise TableError(f"{path}:{lineno}: expected 'key = value'")
            k, v = line.split("=", 1)
            kv[k.strip()] = v.strip()
    return kv


def is_cudnn(pipeline):
    return pipeline == "cudnn" or pipeline.startswith("cudnn-")


def find_launch(art_dir, res, rtype):
    """The launch description of a compiled kernel's RESULT: ART_DIR/PIPELINE/
    NAME.launch or NAME-TYPE.launch (run-pipelines.sh labels the f64
    cuda-core variant with the plain name), with the RESULT's element type and
    kernel. Returns (path, fields)."""
    folder = os.path.join(art_dir, res["pipeline"])
    candidates = [res["name"] + ".launch", f"{res['name']}-{rtype}.launch"]
    seen = []
    for c in candidates:
        path = os.path.join(folder, c)
        if not os.path.isfile(path):
            continue
        kv = parse_launch(path)
        seen.append(f"{path} (element_type {kv.get('element_type', '?')})")
        if kv.get("element_type") == rtype:
            if kv.get("kernel") != res["kernel"]:
                raise TableError(f"{res['where']}: kernel {res['kernel']} but "
                                 f"{path} describes {kv.get('kernel')}")
            return path, kv
    raise TableError(f"{res['where']}: no launch description of type {rtype} "
                     f"for {res['pipeline']} {res['name']} in {folder} "
                     f"(looked at {', '.join(candidates)}"
                     + (f"; found {'; '.join(seen)}" if seen else "") + ")")


def result_type(res):
    t = TORCH_TYPES.get(res["type"], res["type"])
    if t not in ELEMENT_BYTES:
        raise TableError(f"{res['where']}: unknown type={res['type']}")
    return t


def evaluate(res, roofline, art_dir):
    """Adds the row/column keys, the bounds and the fraction to `res`."""
    rtype = result_type(res)
    measured = number(res["gstencil_s"], res["where"] + ": gstencil_s")
    bw = roofline["bandwidth"]
    name = res["name"]
    if name.endswith("-" + rtype):  # a log that labels variants by file name
        name = name[: -len(rtype) - 1]
    out = {"stencil": name, "type": rtype, "measured": measured,
           "kernel": res["kernel"], "grid": res.get("grid", "?"),
           "steps": res.get("steps", "?"), "pipeline": res["pipeline"]}
    if is_cudnn(res["pipeline"]):
        prefix_type = res["pipeline"][len("cudnn-"):]
        if prefix_type and prefix_type != rtype:
            raise TableError(f"{res['where']}: {res['pipeline']} line with "
                             f"type={res['type']}")
        out.update(column="cudnn", unit=None, flops=None, t=1,
                   bw_bound=bw / (2 * ELEMENT_BYTES[rtype]),
                   compute_bound=None, launch=None)
        out["bound"], out["binds"] = out["bw_bound"], "BW"
    else:
        path, kv = find_launch(art_dir, res, rtype)
        for key in ("unit", "unit_flops_per_point"):
            if key not in kv:
                raise TableError(f"{path}: no '{key} = ...' (needed for the "
                                 "compute bound; recompile with a compiler "
                                 "that writes it)")
        unit = kv["unit"]
        flops = number(kv["unit_flops_per_point"],
                       f"{path}: unit_flops_per_point")
        if flops <= 0:
            raise TableError(f"{path}: unit_flops_per_point must be positive")
        t = kv.get("steps_per_launch", "1")
        if not re.fullmatch(r"[1-9]\d*", t):
            raise TableError(f"{path}: steps_per_launch = {t} is not a "
                             "positive integer")
        t = int(t)
        if unit not in roofline:
            raise TableError(f"{path}: unit {unit}, but the log's roofline has "
                             f"no 'ROOFLINE unit={unit}' line (measured: "
                             f"{', '.join(sorted(roofline))})")
        bw_bound = t * bw / (2 * ELEMENT_BYTES[rtype])
        compute_bound = roofline[unit] * 1e3 / flops  # TFLOP/s -> GStencil/s
        out.update(column=res["pipeline"], unit=unit, flops=flops, t=t,
                   bw_bound=bw_bound, compute_bound=compute_bound, launch=path)
        if compute_bound < bw_bound:
            out["bound"], out["binds"] = compute_bound, unit
        else:
            out["bound"], out["binds"] = bw_bound, "BW"
    out["fraction"] = measured / out["bound"]
    return out


def ordered(items, preferred, last=()):
    """`items` (in order of first appearance), those in `preferred` first in
    that order, then the others, then those in `last`."""
    seen = list(dict.fromkeys(items))
    head = [p for p in preferred if p in seen]
    tail = [p for p in last if p in seen]
    return head + [p for p in seen if p not in head and p not in tail] + tail


def fmt_gst(x):
    return f"{x:.1f}" if x >= 10 else f"{x:.2f}"


def cell(r):
    return f"{fmt_gst(r['measured'])} ({100 * r['fraction']:.0f}% of {r['binds']})"


def build_table(device, roofline, rows, details=False):
    lines = []
    dev = rows[0]["device"]
    if device:
        dev = f"{device[0]} ({device[1]}, {device[2]} SMs)"
    lines.append(f"Device: {dev}. Roofline measured in the same run "
                 "(`stencil-run --roofline`): bandwidth "
                 f"{roofline['bandwidth']:.1f} GB/s; peaks (TFLOP/s) "
                 + ", ".join(f"{u} {roofline[u]:.1f}"
                             for u in ordered([u for u in roofline
                                               if u != "bandwidth"],
                                              UNIT_ORDER))
                 + ".")
    lines.append("")
    lines.append("Cell: GStencil/s (measured / min(bandwidth bound, compute "
                 "bound), and which binds: BW = steps_per_launch x bandwidth / "
                 "(2 x element bytes), else the unit = peak / flops per point "
                 "on it). cuDNN: fraction of the bandwidth bound only.")
    lines.append("")
    columns = ordered([r["column"] for r in rows], PIPELINE_ORDER, ["cudnn"])
    # Always the six table stencils in f16 and f64; others only if present.
    stencils = ordered(STENCILS + [r["stencil"] for r in rows], STENCILS)
    present = set(TYPES) | {r["type"] for r in rows}
    types = [t for t in TYPE_ORDER if t in present]
    by_key = {}
    for r in rows:
        key = (r["stencil"], r["type"], r["column"])
        if key in by_key:
            raise TableError(f"{r['where']}: second result for {key[2]} "
                             f"{key[0]} {key[1]} (first at "
                             f"{by_key[key]['where']})")
        by_key[key] = r
    lines.append("| stencil | type | " + " | ".join(columns) + " |")
    lines.append("|---|---|" + "---|" * len(columns))
    for s in stencils:
        for t in types:
            cells = [cell(by_key[(s, t, c)]) if (s, t, c) in by_key else "–"
                     for c in columns]
            lines.append(f"| {s} | {t} | " + " | ".join(cells) + " |")
    if details:
        lines.append("")
        lines.append("| pipeline | stencil | type | kernel | grid | steps | "
                     "GStencil/s | unit | flops/pt | t | BW bound | "
                     "compute bound | fraction | binds |")
        lines.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
        for r in sorted(rows, key=lambda r: (stencils.index(r["stencil"]),
                                             types.index(r["type"]),
                                             columns.index(r["column"]))):
            cb = "–" if r["compute_bound"] is None else \
                fmt_gst(r["compute_bound"])
            flops = "–" if r["flops"] is None else f"{r['flops']:g}"
            lines.append(
                f"| {r['pipeline']} | {r['stencil']} | {r['type']} | "
                f"{r['kernel']} | {r['grid']} | {r['steps']} | "
                f"{fmt_gst(r['measured'])} | {r['unit'] or '–'} | {flops} | "
                f"{r['t']} | {fmt_gst(r['bw_bound'])} | {cb} | "
                f"{100 * r['fraction']:.1f}% | {r['binds']} |")
    return "\n".join(lines) + "\n"


def compute_rows(log, art_dir):
    """Returns (device, roofline, rows): one evaluated row per RESULT."""
    device, roofline, results = parse_log(log)
    rows = []
    for res in results:
        if device and res["device"] != device[0]:
            raise TableError(f"{res['where']}: device \"{res['device']}\" but "
                             f"the roofline ran on \"{device[0]}\": figures "
                             "of different devices are never compared")
        r = evaluate(res, roofline, art_dir)
        r["where"], r["device"] = res["where"], res["device"]
        rows.append(r)
    return device, roofline, rows


def make_table(log, art_dir, details=False):
    return build_table(*compute_rows(log, art_dir), details)


def main(argv=None):
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("log", help="output of bench/run-pipelines.sh ART_DIR table")
    ap.add_argument("art_dir", help="folder of PIPELINE/NAME.launch")
    ap.add_argument("--details", action="store_true",
                    help="also one row per result with both bounds")
    args = ap.parse_args(argv)
    try:
        sys.stdout.write(make_table(args.log, args.art_dir, args.details))
    except (TableError, OSError) as e:
        print(f"table.py: error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
