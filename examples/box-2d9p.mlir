// box-2d9p.mlir: Box-2D9P: 2D box stencil, radius 1, 9 points.
// From the benchmarks of SPIDER, SparStencil and FlashFFTStencil; their problem size 10240 x 10240.
// Element type f16 (as for all benchmark stencils).
// Coefficients: random in (0.05, 1.0) from random.Random(2025) (utils/gen-examples.py), normalised
// to sum to 1 so many time steps stay bounded; asymmetric by construction.
// Offset order (weights follow it): canonical box:2:1 order (lexicographic, first index slowest).
// Signature: func.func @box2d9p(%in, %out) with both arguments of type memref<?x?xf16>:
//   arg 0 = input grid, arg 1 = output grid; the shape is dynamic, so any grid size works.
// Defaults: steps 1, boundary halo (the output keeps the input values outside the interior).
// Check: <program> | python3 utils/stencil-ref.py --result - --from-mlir examples/box-2d9p.mlir --grid 64,48 [--steps T]

func.func @box2d9p(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.linear %in -> %out pattern <box, rank = 2, radius = 1> weights [1.573167e-01, 1.510899e-01, 1.051963e-01, 1.481951e-01, 6.194662e-02, 1.468099e-01, 9.864885e-02, 9.111084e-02, 3.968593e-02] : memref<?x?xf16>
  return
}
