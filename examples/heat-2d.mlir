// heat-2d.mlir: Heat-2D (2D5P star): 2D star stencil, radius 1, 5 points.
// From the benchmarks of SPIDER, SparStencil and FlashFFTStencil; their problem size 10240 x 10240.
// Element type f16 (as for all benchmark stencils).
// Coefficients: random in (0.05, 1.0) from random.Random(2025) (utils/gen-examples.py), normalised
// to sum to 1 so many time steps stay bounded; asymmetric by construction.
// Offset order (weights follow it): canonical star:2:1 order (lexicographic, first index slowest).
// Signature: func.func @heat2d(%in, %out) with both arguments of type memref<?x?xf16>:
//   arg 0 = input grid, arg 1 = output grid; the shape is dynamic, so any grid size works.
// Defaults: steps 1, boundary halo (the output keeps the input values outside the interior).
// Check: <program> | python3 utils/stencil-ref.py --result - --from-mlir examples/heat-2d.mlir --grid 64,48 [--steps T]

func.func @heat2d(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1> weights [2.128710e-01, 3.144780e-01, 9.337600e-02, 9.151632e-02, 2.877587e-01] : memref<?x?xf16>
  return
}
