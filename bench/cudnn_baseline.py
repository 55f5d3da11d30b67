#!/usr/bin/env python3
"""cuDNN baseline for a stencil launch description.

Reads a stencil launch description (docs/LaunchDescription.md: only rank,
offsets, weights and element_type are used), builds the equivalent
torch.nn.functional.conv1d/conv2d/conv3d (cross-correlation, one channel, no
padding = "valid"), and runs T time steps with ping-pong and halo semantics:
the valid convolution's result is written into the interior of the other
buffer, the halo keeps the input values -- the same computation stencil-run
times. Reports GStencil/s = T * (all grid points) / s / 1e9, like stencil-run.

    python3 bench/cudnn_baseline.py DESC.launch --grid 4096,4096 --steps 10
    python3 bench/cudnn_baseline.py DESC.launch --grid 4096,4096 --check

Figures are only comparable with stencil-run's when both ran in the same
session on the same device (bench/README.md).
"""
import argparse
import math
import os
import sys

import torch
import torch.nn.functional as F


def parse_description(path):
    kv = {}
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            if "=" not in line:
                sys.exit(f"{path}:{lineno}: expected 'key = value'")
            k, v = line.split("=", 1)
            kv[k.strip()] = v.strip()
    for k in ("rank", "offsets", "weights"):
        if k not in kv:
            sys.exit(f"{path}: missing key '{k}'")
    rank = int(kv["rank"])
    offsets = [tuple(int(c) for c in p.split(",")) for p in kv["offsets"].split(";")]
    weights = [float(w) for w in kv["weights"].split(",")]
    if len(offsets) != len(weights) or any(len(o) != rank for o in offsets):
        sys.exit(f"{path}: offsets/weights do not match rank {rank}")
    if kv.get("boundary", "halo") != "halo":
        sys.exit(f"{path}: only boundary = halo is supported")
    return {
        "rank": rank,
        "offsets": offsets,
        "weights": weights,
        "element_type": kv.get("element_type", "f16"),
        "kernel": kv.get("kernel", os.path.basename(path)),
    }


DTYPES = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32,
          "f64": torch.float64}
CONV = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}


class Stencil:
    """The stencil as a convolution: kernel extent per dim covers [lo, hi]
    with lo = min(0, min offset), hi = max(0, max offset) so that the written
    interior is exactly stencil-run's (points whose neighbourhood is inside)."""

    def __init__(self, desc, dtype, device):
        self.rank = desc["rank"]
        self.lo = [min(0, min(o[d] for o in desc["offsets"])) for d in range(self.rank)]
        self.hi = [max(0, max(o[d] for o in desc["offsets"])) for d in range(self.rank)]
        ksize = [h - l + 1 for l, h in zip(self.lo, self.hi)]
        w = torch.zeros([1, 1] + ksize, dtype=torch.float64)
        for o, wt in zip(desc["offsets"], desc["weights"]):
            # cross-correlation: weight[o - lo] multiplies in[i + o]
            w[(0, 0) + tuple(c - l for c, l in zip(o, self.lo))] += wt
        self.weight64 = w
        self.weight = w.to(device=device, dtype=dtype)
        self.conv = CONV[self.rank]

    def interior(self, shape):
        # slice of the grid written by one step (batch, channel dims first)
        return (slice(None), slice(None)) + tuple(
            slice(-l, n - h) for l, h, n in zip(self.lo, self.hi, shape))

    def step(self, src, dst):
        dst[self.interior(src.shape[2:])] = self.conv(src, self.weight)


def round_to(x, dtype):
    return x.to(dtype).to(torch.float64)


def reference(st, desc, x64, steps, dtype):
    """Straightforward f64 stencil from offsets/weights, rounded to the element
    type after every step (independent of the convolution)."""
    a = x64.clone()
    shape = a.shape
    inner = tuple(slice(-l, n - h) for l, h, n in zip(st.lo, st.hi, shape))
    for _ in range(steps):
        acc = torch.zeros_like(a[inner])
        for o, wt in zip(desc["offsets"], desc["weights"]):
            sl = tuple(slice(-l + c, n - h + c) for l, h, n, c in zip(st.lo, st.hi, shape, o))
            acc += wt * a[sl]
        b = a.clone()
        b[inner] = round_to(acc, dtype)
        a = b
    return a


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("description")
    ap.add_argument("--grid", required=True,
                    help="grid size, outermost dim first, e.g. 4096,4096")
    ap.add_argument("--steps", type=int, default=10)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--dtype", choices=sorted(DTYPES), default=None,
                    help="element type (default: the description's element_type)")
    ap.add_argument("--check", action="store_true",
                    help="also compare a small run (--check-grid, --check-steps) "
                         "with an f64 reference")
    ap.add_argument("--check-grid", default=None,
                    help="grid of the check run (default: 256 per dim)")
    ap.add_argument("--check-steps", type=int, default=4)
    args = ap.parse_args()

    desc = parse_description(args.description)
    grid = [int(n) for n in args.grid.split(",")]
    if len(grid) != desc["rank"]:
        sys.exit(f"--grid has {len(grid)} sizes, the stencil has rank {desc['rank']}")
    if not torch.cuda.is_available():
        sys.exit("no CUDA device")
    torch.backends.cudnn.benchmark = True
    dev = torch.device("cuda")
    dtype = DTYPES[args.dtype or desc["element_type"]]
    st = Stencil(desc, dtype, dev)

    gen = torch.Generator(device="cpu").manual_seed(args.seed)
    x = (torch.rand([1, 1] + grid, generator=gen, dtype=torch.float64) * 2 - 1)
    x = x.to(device=dev, dtype=dtype)
    a, b = x.clone(), x.clone()
    bufs = [a, b]

    with torch.no_grad():
        for t in range(args.warmup):  # also lets cudnn.benchmark pick its algorithm
            st.step(bufs[t % 2], bufs[(t + 1) % 2])
        a.copy_(x)
        b.copy_(x)
        torch.cuda.synchronize()
        start = torch.cuda.Event(enable_timing=True)
        stop = torch.cuda.Event(enable_timing=True)
        start.record()
        for t in range(args.steps):
            st.step(bufs[t % 2], bufs[(t + 1) % 2])
        stop.record()
        torch.cuda.synchronize()
    ms = start.elapsed_time(stop)
    points = math.prod(grid)
    gst = args.steps * points / (ms * 1e-3) / 1e9
    name = torch.cuda.get_device_name(dev)
    print(f"device: {name}; torch {torch.__version__}, cuDNN {torch.backends.cudnn.version()}")
    print(f"stencil: {desc['kernel']} rank {desc['rank']}, {len(desc['offsets'])} points, "
          f"conv kernel {list(st.weight.shape[2:])}, {str(dtype).replace('torch.', '')}")
    print(f"grid: {'x'.join(map(str, grid))}, steps {args.steps} (after {args.warmup} warm-up)")
    print(f"time: {ms:.4f} ms total, {ms / args.steps:.4f} ms/step")
    print(f"throughput: {gst:.3f} GStencil/s (all grid points counted)")
    check = "SKIPPED"
    if args.check:
        cgrid = [int(n) for n in args.check_grid.split(",")] if args.check_grid \
            else [256] * desc["rank"]
        cx = (torch.rand([1, 1] + cgrid, generator=gen, dtype=torch.float64) * 2 - 1)
        cx = round_to(cx, dtype)
        ca, cb = cx.to(device=dev, dtype=dtype), cx.to(device=dev, dtype=dtype)
        cbufs = [ca, cb]
        with torch.no_grad():
            for t in range(args.check_steps):
                st.step(cbufs[t % 2], cbufs[(t + 1) % 2])
        got = cbufs[args.check_steps % 2].double().cpu()[0, 0]
        ref = reference(st, desc, cx[0, 0], args.check_steps, dtype)
        err = (got - ref).abs().max().item()
        # Same bound as stencil-run (docs/LaunchDescription.md), f32 accumulation.
        S = sum(abs(w) for w in desc["weights"])
        P = len(desc["weights"])
        u = {torch.float16: 2.0**-11, torch.bfloat16: 2.0**-8,
             torch.float32: 2.0**-24, torch.float64: 2.0**-53}[dtype]
        eta = {torch.float16: 2.0**-24, torch.bfloat16: 2.0**-133,
               torch.float32: 2.0**-149, torch.float64: 0.0}[dtype]
        M = ref.abs().max().item()
        M = max(M, cx.abs().max().item())
        d = S * M * (3 * u + 2 * P * 2.0**-24 + P * 2.0**-53) + eta
        tol = d * sum(S**k for k in range(args.check_steps))
        check = "PASS" if err <= tol and math.isfinite(err) else "FAIL"
        print(f"check: {'x'.join(map(str, cgrid))}, {args.check_steps} steps vs f64 "
              f"reference: max abs error {err:.6g}, tolerance {tol:.6g}: {check}")
    print(f"RESULT kernel=cudnn:{desc['kernel']} device=\"{name}\" grid={'x'.join(map(str, grid))} "
          f"type={str(dtype).replace('torch.', '')} steps={args.steps} ms={ms:.6f} "
          f"gstencil_s={gst:.6f} check={check}")
    return 1 if check == "FAIL" else 0


if __name__ == "__main__":
    sys.exit(main())
