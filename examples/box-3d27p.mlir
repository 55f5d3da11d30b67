// box-3d27p.mlir: Box-3D27P: 3D box stencil, radius 1, 27 points.
// From the benchmarks of SPIDER, SparStencil and FlashFFTStencil; their problem size 1024^3 (768^3 in FlashFFTStencil).
// Element type f16 (as for all benchmark stencils).
// Coefficients: random in (0.05, 1.0) from random.Random(2025) (utils/gen-examples.py), normalised
// to sum to 1 so many time steps stay bounded; asymmetric by construction.
// Offset order (weights follow it): canonical box:3:1 order (lexicographic, first index slowest).
// Signature: func.func @box3d27p(%in, %out) with both arguments of type memref<?x?x?xf16>:
//   arg 0 = input grid, arg 1 = output grid; the shape is dynamic, so any grid size works.
// Defaults: steps 1, boundary halo (the output keeps the input values outside the interior).
// Check: <program> | python3 utils/stencil-ref.py --result - --from-mlir examples/box-3d27p.mlir --grid 12,10,9 [--steps T]

func.func @box3d27p(%in: memref<?x?x?xf16>, %out: memref<?x?x?xf16>) {
  stencil.linear %in -> %out pattern <box, rank = 3, radius = 1> weights [
      1.924099e-02, 1.754462e-02, 5.118083e-02, 5.524812e-02, 8.917419e-03, 7.253437e-03, 6.126771e-02, 5.514335e-02,
      1.565420e-02, 1.218688e-02, 6.425879e-02, 5.164909e-02, 4.225100e-02, 1.427639e-02, 2.904398e-02, 1.700394e-02,
      3.394362e-02, 8.782947e-03, 5.197625e-02, 5.014108e-02, 3.265983e-02, 2.875042e-02, 3.932692e-02, 2.714561e-02,
      5.909874e-02, 7.498202e-02, 7.107180e-02] : memref<?x?x?xf16>
  return
}
