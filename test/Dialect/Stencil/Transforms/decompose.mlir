// RUN: stencil-opt %s --split-input-file --stencil-decompose="align-pairs=false" | FileCheck %s
// RUN: stencil-opt %s --split-input-file --stencil-decompose | FileCheck %s --check-prefix=SHIFT

// Heat-2D: three kernel rows (dy = -1, 0, 1); radius 1 gives L = 4 (the
// smallest even divisor of 16 that is >= 2r + 2), 4 x 8 banded matrices
// K[i][i + j] = w[j]. The star's outer rows hold one weight each.
// CHECK-LABEL: func.func @heat2d
// CHECK:         stencil.row_gemm %{{.*}} -> %{{.*}} radius 1 rows_per_block 4 row_offsets [-1, 0, 1]
// CHECK-SAME:      kernels dense<{{\[}}[
// row dy = -1: w = (0, 1, 0)
// CHECK-SAME:      [0.000000e+00, 1.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00],
// CHECK-SAME:      [0.000000e+00, 0.000000e+00, 1.000000e+00, 0.000000e+00
// row dy = 0: w = (2, 3, 4), shifted one column per matrix row
// CHECK-SAME:      {{\[}}[2.000000e+00, 3.000000e+00, 4.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00],
// CHECK-SAME:      [0.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 0.000000e+00
// CHECK-SAME:      : tensor<3x4x8xf64> steps 5
// The source stencil rides along for the GPU runner's launch description.
// CHECK-SAME:      {stencil.source = {pattern = #stencil.pattern<star, rank = 2, radius = 1>, weights = array<f64: 1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00>}} : memref<?x?xf16>
// CHECK-NOT:     stencil.linear
// With align-pairs (the default) an odd radius shifts the bands by one
// column: K[i][1 + i + j] = w[j].
// SHIFT-LABEL: func.func @heat2d
// SHIFT:         stencil.row_gemm {{.*}} radius 1 rows_per_block 4 column_shift 1 row_offsets [-1, 0, 1]
// SHIFT-SAME:      [0.000000e+00, 0.000000e+00, 1.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00],
// SHIFT-SAME:      {{\[}}[0.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00],
func.func @heat2d(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1>
      weights [1., 2., 3., 4., 5.] steps 5 : memref<?x?xf16>
  return
}

// -----

// 1-D: a single kernel row, no outer offsets; r = 3 gives L = 8.
// CHECK-LABEL: func.func @star1d7p
// CHECK:         stencil.row_gemm {{.*}} radius 3 rows_per_block 8 row_offsets [] kernels {{.*}} : tensor<1x8x16xf64>
func.func @star1d7p(%in: memref<?xf16>, %out: memref<?xf16>) {
  stencil.linear %in -> %out pattern <star, rank = 1, radius = 3>
      weights [1., 2., 3., 4., 5., 6., 7.] : memref<?xf16>
  return
}

// -----

// 3-D star: five non-empty rows (dz, dy) in lexicographic order.
// CHECK-LABEL: func.func @heat3d
// CHECK:         stencil.row_gemm {{.*}} radius 1 rows_per_block 4 row_offsets [-1, 0, 0, -1, 0, 0, 0, 1, 1, 0] kernels {{.*}} : tensor<5x4x8xf64>
func.func @heat3d(%in: memref<?x?x?xf16>, %out: memref<?x?x?xf16>) {
  stencil.linear %in -> %out pattern <star, rank = 3, radius = 1>
      weights [1., 2., 3., 4., 5., 6., 7.] : memref<?x?x?xf16>
  return
}

// -----

// An irregular pattern: only the rows that have points (dy = -2, 0, 1), over
// the innermost radius (1), not the largest one (2).
// CHECK-LABEL: func.func @irregular
// CHECK:         stencil.row_gemm {{.*}} radius 1 rows_per_block 4 row_offsets [-2, 0, 1]
// CHECK-SAME:      [0.000000e+00, 0.000000e+00, 1.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00]
// CHECK-SAME:      : tensor<3x4x8xf64>
func.func @irregular(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.linear %in -> %out pattern <[[-2, 1], [0, 0], [1, -1]]>
      weights [1., 2., 3.] : memref<?x?xf16>
  return
}

// -----

// Radius 7 (Box-2D 15x15) fills a whole 16-row MMA operand.
// CHECK-LABEL: func.func @radius7
// CHECK:         stencil.row_gemm {{.*}} radius 7 rows_per_block 16 row_offsets [0] kernels {{.*}} : tensor<1x16x32xf64>
func.func @radius7(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.linear %in -> %out pattern <[[0, -7], [0, 7]]> weights [1., 2.] : memref<?x?xf16>
  return
}
