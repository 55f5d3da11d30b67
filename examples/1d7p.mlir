// 1d7p.mlir: 1D7P: 1D star stencil, radius 3, 7 points.
// From the benchmarks of SPIDER, SparStencil and FlashFFTStencil; their problem size 10,240,000 points (SPIDER, SparStencil).
// Element type f16 (as for all benchmark stencils).
// Coefficients: random in (0.05, 1.0) from random.Random(2025) (utils/gen-examples.py), normalised
// to sum to 1 so many time steps stay bounded; asymmetric by construction.
// Offset order (weights follow it): canonical star:1:3 order (lexicographic, first index slowest).
// Signature: func.func @stencil1d7p(%in, %out) with both arguments of type memref<?xf16>:
//   arg 0 = input grid, arg 1 = output grid; the shape is dynamic, so any grid size works.
// Defaults: steps 1, boundary halo (the output keeps the input values outside the interior).
// Check: <program> | python3 utils/stencil-ref.py --result - --from-mlir examples/1d7p.mlir --grid 1000 [--steps T]

func.func @stencil1d7p(%in: memref<?xf16>, %out: memref<?xf16>) {
  stencil.linear %in -> %out pattern <star, rank = 1, radius = 3> weights [1.656113e-01, 3.505118e-02, 2.994124e-01, 3.778295e-01, 5.550019e-02, 3.719796e-02, 2.939750e-02] : memref<?xf16>
  return
}
