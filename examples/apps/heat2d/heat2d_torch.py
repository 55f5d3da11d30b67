"""The heat equation with PyTorch and a compiled stencil (docs/Runtime.md).

    python3 heat2d_torch.py solve HEAT2D.launch         the solver
    python3 heat2d_torch.py check HEAT2D.launch IN.npy OUT.npy STEPS
                                                        the kernel alone on
                                                        an input saved by
                                                        stencil-run, for a
                                                        bit-for-bit check
"""
import sys

import numpy as np
import torch

import stencil_runtime as sr


def solve(heat, steps=1000, chunk=10, n=4096):
    u = torch.zeros(n, n, device="cuda", dtype=torch.float16)
    v = torch.zeros_like(u)                           # the same (zero) halo
    stream = torch.cuda.current_stream()
    for _ in range(0, steps, chunk):
        u[n // 2 - 2:n // 2 + 2, n // 2 - 2:n // 2 + 2] += 1.0  # a heat source
        w = heat.run(u, v, chunk, stream=stream, out_initialized=True)
        u, v = (w, u) if w is v else (u, v)
    return u.float().sum().item()                      # the total heat


if __name__ == "__main__":
    heat = sr.Kernel(sys.argv[2])
    if sys.argv[1] == "solve":
        print("solve: %r, total heat %.6g" % (heat, solve(heat)))
    else:
        u = torch.from_numpy(np.load(sys.argv[3])).cuda()
        result = heat.run(u, u.clone(), int(sys.argv[5]),
                          stream=torch.cuda.current_stream())
        np.save(sys.argv[4], result.cpu().numpy())
        print("check: %s steps written to %s" % (sys.argv[5], sys.argv[4]))
