// heat-3d.mlir: Heat-3D (3D7P star): 3D star stencil, radius 1, 7 points.
// From the benchmarks of SPIDER, SparStencil and FlashFFTStencil; their problem size 1024^3 (768^3 in FlashFFTStencil).
// Element type f16 (as for all benchmark stencils).
// Coefficients: random in (0.05, 1.0) from random.Random(2025) (utils/gen-examples.py), normalised
// to sum to 1 so many time steps stay bounded; asymmetric by construction.
// Offset order (weights follow it): canonical star:3:1 order (lexicographic, first index slowest).
// Signature: func.func @heat3d(%in, %out) with both arguments of type memref<?x?x?xf16>:
//   arg 0 = input grid, arg 1 = output grid; the shape is dynamic, so any grid size works.
// Defaults: steps 1, boundary halo (the output keeps the input values outside the interior).
// Check: <program> | python3 utils/stencil-ref.py --result - --from-mlir examples/heat-3d.mlir --grid 12,10,9 [--steps T]

func.func @heat3d(%in: memref<?x?x?xf16>, %out: memref<?x?x?xf16>) {
  stencil.linear %in -> %out pattern <star, rank = 3, radius = 1> weights [1.038164e-01, 2.242390e-01, 1.360226e-01, 6.542056e-02, 1.503502e-01, 9.384946e-02, 2.263018e-01] : memref<?x?x?xf16>
  return
}
