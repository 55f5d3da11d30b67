// star-2d13p.mlir: Star-2D13P: 2D star stencil, radius 3, 13 points.
// From the benchmarks of SPIDER, SparStencil and FlashFFTStencil; their problem size 10240 x 10240.
// Element type f16 (as for all benchmark stencils).
// Coefficients: random in (0.05, 1.0) from random.Random(2025) (utils/gen-examples.py), normalised
// to sum to 1 so many time steps stay bounded; asymmetric by construction.
// Offset order (weights follow it): canonical star:2:3 order (lexicographic, first index slowest).
// Signature: func.func @star2d13p(%in, %out) with both arguments of type memref<?x?xf16>:
//   arg 0 = input grid, arg 1 = output grid; the shape is dynamic, so any grid size works.
// Defaults: steps 1, boundary halo (the output keeps the input values outside the interior).
// Check: <program> | python3 utils/stencil-ref.py --result - --from-mlir examples/star-2d13p.mlir --grid 64,48 [--steps T]

func.func @star2d13p(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 3> weights [
      4.014804e-02, 1.152816e-02, 1.135066e-01, 8.208441e-02, 5.703098e-02, 1.411149e-01, 6.959505e-02, 4.480084e-02,
      1.173301e-01, 8.542349e-02, 1.186498e-01, 5.108542e-02, 6.770226e-02] : memref<?x?xf16>
  return
}
