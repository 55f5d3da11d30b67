// irregular-2d.mlir: irregular 2D stencil with 7 explicit offsets (asymmetric; neither star nor box, radius <= 2).
// Not a benchmark of the papers: exercises explicit-offset patterns; element type f16.
// Coefficients: random in (0.05, 1.0) from random.Random(2025) (utils/gen-examples.py), normalised
// to sum to 1 so many time steps stay bounded; asymmetric by construction.
// Offset order (weights follow it): as listed in the pattern.
// Signature: func.func @irregular2d(%in, %out) with both arguments of type memref<?x?xf16>:
//   arg 0 = input grid, arg 1 = output grid; the shape is dynamic, so any grid size works.
// Defaults: steps 1, boundary halo (the output keeps the input values outside the interior).
// Check: <program> | python3 utils/stencil-ref.py --result - --from-mlir examples/irregular-2d.mlir --grid 64,48 [--steps T]

func.func @irregular2d(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.linear %in -> %out pattern <[[-2, 1], [-1, -1], [0, 0], [0, 2], [1, 0], [1, 1], [2, -1]]> weights [2.218550e-01, 7.814169e-02, 6.589954e-02, 5.589377e-02, 8.713648e-02, 2.397622e-01, 2.513113e-01] : memref<?x?xf16>
  return
}
