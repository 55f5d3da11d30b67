// RUN: stencil-opt %s --split-input-file --stencil-decompose="fused-steps=2 align-pairs=false" --mlir-print-elementsattrs-with-hex-if-larger=100000 | FileCheck %s
// RUN: stencil-opt %s --split-input-file --stencil-decompose="fused-steps=3 align-pairs=false" --mlir-print-elementsattrs-with-hex-if-larger=100000 | FileCheck %s --check-prefix=THREE
// RUN: stencil-opt %s --split-input-file --stencil-decompose="fused-steps=2" | stencil-opt --split-input-file | FileCheck %s --check-prefix=ROUND

// Kernel composition (Support/StepComposition.h): two steps of the 1-D
// stencil [a, b, c] = [0.5, 0.25, 0.125] are one step of
// [a^2, 2ab, b^2 + 2ac, 2bc, c^2] = [0.25, 0.25, 0.1875, 0.0625, 0.015625]
// of radius 2 (L = 8), and the row form keeps the step stencil.
// CHECK-LABEL: func.func @one_d
// CHECK:         stencil.row_gemm {{.*}} radius 2 rows_per_block 8 row_offsets []
// CHECK-SAME:      kernels dense<{{\[}}{{\[}}[2.500000e-01, 2.500000e-01, 1.875000e-01, 6.250000e-02, 1.562500e-02, 0.000000e+00
// CHECK-SAME:      steps 7 fused_steps 2 of <star, rank = 1, radius = 1> weights [5.000000e-01, 2.500000e-01, 1.250000e-01]
// CHECK-SAME:      {stencil.source = {pattern = #stencil.pattern<star, rank = 1, radius = 1>, weights = array<f64: 5.000000e-01, 2.500000e-01, 1.250000e-01>}}
// Three steps: radius 3, [a^3, 3a^2 b, ...]; a^3 = 0.125.
// THREE-LABEL: func.func @one_d
// THREE:         stencil.row_gemm {{.*}} radius 3 rows_per_block 8 row_offsets []
// THREE-SAME:      kernels dense<{{\[}}{{\[}}[1.250000e-01, 1.875000e-01,
// THREE-SAME:      fused_steps 3 of <star, rank = 1, radius = 1>
// Nothing is lost in a print/parse round trip.
// ROUND-LABEL: func.func @one_d
// ROUND:         steps 7 fused_steps 2 of <star, rank = 1, radius = 1> weights [5.000000e-01, 2.500000e-01, 1.250000e-01]
func.func @one_d(%in: memref<?xf16>, %out: memref<?xf16>) {
  stencil.linear %in -> %out pattern <star, rank = 1, radius = 1>
      weights [0.5, 0.25, 0.125] steps 7 : memref<?xf16>
  return
}

// -----

// Heat-2D twice: the 13-point diamond of radius 2 in five kernel rows; the
// outer rows dy = -2 and 2 hold one weight, e^2 = 0.015625 (e = 0.125).
// CHECK-LABEL: func.func @heat2d
// CHECK:         stencil.row_gemm {{.*}} radius 2 rows_per_block 8 row_offsets [-2, -1, 0, 1, 2]
// CHECK-SAME:      kernels dense<{{\[}}[
// CHECK-SAME:      [0.000000e+00, 0.000000e+00, 1.562500e-02, 0.000000e+00
// CHECK-SAME:      : tensor<5x8x16xf64>
// CHECK-SAME:      fused_steps 2 of <star, rank = 2, radius = 1>
// An asymmetric 3-D pattern: radii (1, 0, 2) become (3, 0, 6) in three
// steps; kernel rows are the (dz, dy) pairs the composition reaches.
// THREE-LABEL: func.func @heat2d
// THREE:         radius 3 rows_per_block 8 row_offsets [-3, -2, -1, 0, 1, 2, 3]
// THREE-LABEL: func.func @irregular3d
// THREE:         stencil.row_gemm {{.*}} radius 6 rows_per_block 16 row_offsets [-3, 0, -2, 0, -1, 0, 0, 0, 1, 0, 2, 0, 3, 0]
// THREE-SAME:      fused_steps 3 of <{{\[}}[-1, 0, 0], [0, 0, -2], [0, 0, 1], [1, 0, 0]]>
func.func @heat2d(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1>
      weights [0.125, 0.125, 0.5, 0.125, 0.125] : memref<?x?xf32>
  return
}
func.func @irregular3d(%in: memref<?x?x?xf16>, %out: memref<?x?x?xf16>) {
  stencil.linear %in -> %out pattern <[[-1, 0, 0], [0, 0, -2], [0, 0, 1], [1, 0, 0]]>
      weights [0.1, 0.2, 0.3, 0.4] : memref<?x?x?xf16>
  return
}
