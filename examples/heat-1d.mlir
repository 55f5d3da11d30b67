// heat-1d.mlir: Heat-1D (1D3P): 1D star stencil, radius 1, 3 points.
// From the benchmarks of SPIDER, SparStencil and FlashFFTStencil; their problem size 10,240,000 points (SPIDER, SparStencil).
// Element type f16 (as for all benchmark stencils).
// Coefficients: random in (0.05, 1.0) from random.Random(2025) (utils/gen-examples.py), normalised
// to sum to 1 so many time steps stay bounded; asymmetric by construction.
// Offset order (weights follow it): canonical star:1:1 order (lexicographic, first index slowest).
// Signature: func.func @heat1d(%in, %out) with both arguments of type memref<?xf16>:
//   arg 0 = input grid, arg 1 = output grid; the shape is dynamic, so any grid size works.
// Defaults: steps 1, boundary halo (the output keeps the input values outside the interior).
// Check: <program> | python3 utils/stencil-ref.py --result - --from-mlir examples/heat-1d.mlir --grid 1000 [--steps T]

func.func @heat1d(%in: memref<?xf16>, %out: memref<?xf16>) {
  stencil.linear %in -> %out pattern <star, rank = 1, radius = 1> weights [3.318930e-01, 3.797930e-01, 2.883140e-01] : memref<?xf16>
  return
}
