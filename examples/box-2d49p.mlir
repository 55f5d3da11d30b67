// box-2d49p.mlir: Box-2D49P: 2D box stencil, radius 3, 49 points.
// From the benchmarks of SPIDER, SparStencil and FlashFFTStencil; their problem size 10240 x 10240.
// Element type f16 (as for all benchmark stencils).
// Coefficients: random in (0.05, 1.0) from random.Random(2025) (utils/gen-examples.py), normalised
// to sum to 1 so many time steps stay bounded; asymmetric by construction.
// Offset order (weights follow it): canonical box:2:3 order (lexicographic, first index slowest).
// Signature: func.func @box2d49p(%in, %out) with both arguments of type memref<?x?xf16>:
//   arg 0 = input grid, arg 1 = output grid; the shape is dynamic, so any grid size works.
// Defaults: steps 1, boundary halo (the output keeps the input values outside the interior).
// Check: <program> | python3 utils/stencil-ref.py --result - --from-mlir examples/box-2d49p.mlir --grid 64,48 [--steps T]

func.func @box2d49p(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.linear %in -> %out pattern <box, rank = 2, radius = 3> weights [
      2.561089e-02, 3.271036e-02, 2.240044e-02, 2.361624e-02, 2.100767e-02, 1.651659e-02, 1.499003e-02, 1.131810e-02,
      2.425213e-02, 2.111848e-02, 2.370838e-02, 2.801353e-02, 9.779010e-03, 9.743858e-03, 7.421606e-03, 1.877998e-02,
      2.367628e-02, 3.093853e-02, 1.177633e-02, 2.423173e-03, 2.403243e-02, 9.389381e-03, 7.378984e-03, 8.516126e-03,
      2.775928e-02, 2.967447e-02, 1.181088e-02, 3.635368e-02, 7.159090e-03, 2.578540e-02, 3.005779e-02, 7.692327e-03,
      3.783211e-02, 1.066933e-02, 3.043884e-02, 3.197859e-02, 4.926292e-03, 2.129761e-02, 1.109872e-02, 1.784667e-02,
      3.226018e-02, 3.231557e-02, 2.755863e-02, 2.426599e-02, 1.063143e-02, 3.554117e-02, 1.535565e-02, 2.902853e-02,
      2.154322e-02] : memref<?x?xf16>
  return
}
