#!/usr/bin/env python3
"""Writes a stencil.apply whose body stresses the compiler's walks over it.

  gen-body.py chain N OP   a chain of N ops: acc = OP(acc, a(k)) over the 5
                           points of a 2-D star, k cycling (OP: addf,
                           maximumf, mulf)
  gen-body.py dag N OP     N levels of %b = OP %a, %a from one access: the
                           body's DAG unfolds into a tree of 2^N leaves
"""
import sys

kind, n = sys.argv[1], int(sys.argv[2])
op = sys.argv[3] if len(sys.argv) > 3 else "addf"
points = [(0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)]
lines = [
    "func.func @body(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {",
    "  stencil.apply %in -> %out : memref<?x?xf32> {",
]
if kind == "chain":
    lines.append("    %v0 = stencil.access [0, 0] : f32")
    for k in range(1, n + 1):
        y, x = points[k % len(points)]
        lines.append("    %%a%d = stencil.access [%d, %d] : f32" % (k, y, x))
        lines.append("    %%v%d = arith.%s %%v%d, %%a%d : f32" % (k, op, k - 1, k))
    last = "%%v%d" % n
elif kind == "dag":
    lines.append("    %v0 = stencil.access [0, 1] : f32")
    for k in range(1, n + 1):
        lines.append("    %%v%d = arith.%s %%v%d, %%v%d : f32" % (k, op, k - 1, k - 1))
    last = "%%v%d" % n
else:
    sys.exit("unknown kind " + kind)
lines.append("    stencil.yield %s : f32" % last)
lines.append("  }")
lines.append("  return")
lines.append("}")
print("\n".join(lines))
