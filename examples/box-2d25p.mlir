// box-2d25p.mlir: Box-2D25P: 2D box stencil, radius 2, 25 points.
// From the benchmarks of SPIDER, SparStencil and FlashFFTStencil; their problem size 10240 x 10240.
// Element type f16 (as for all benchmark stencils).
// Coefficients: random in (0.05, 1.0) from random.Random(2025) (utils/gen-examples.py), normalised
// to sum to 1 so many time steps stay bounded; asymmetric by construction.
// Offset order (weights follow it): canonical box:2:2 order (lexicographic, first index slowest).
// Signature: func.func @box2d25p(%in, %out) with both arguments of type memref<?x?xf16>:
//   arg 0 = input grid, arg 1 = output grid; the shape is dynamic, so any grid size works.
// Defaults: steps 1, boundary halo (the output keeps the input values outside the interior).
// Check: <program> | python3 utils/stencil-ref.py --result - --from-mlir examples/box-2d25p.mlir --grid 64,48 [--steps T]

func.func @box2d25p(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.linear %in -> %out pattern <box, rank = 2, radius = 2> weights [
      5.857776e-02, 3.501386e-02, 5.109922e-02, 5.568344e-02, 4.231872e-02, 4.865291e-02, 4.401663e-02, 5.574481e-02,
      6.244772e-02, 6.137872e-02, 2.729638e-02, 4.103058e-02, 4.486132e-02, 1.468713e-02, 2.287267e-02, 2.639667e-02,
      2.845018e-02, 4.197921e-02, 4.946432e-02, 2.257970e-02, 2.250078e-02, 4.753487e-02, 1.382571e-02, 2.776254e-02,
      5.382412e-02] : memref<?x?xf16>
  return
}
