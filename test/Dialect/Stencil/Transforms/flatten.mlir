// RUN: stencil-opt %s --split-input-file --stencil-flatten | FileCheck %s
// RUN: stencil-opt %s --split-input-file --stencil-flatten="layouts=h" | FileCheck %s --check-prefix=HORIZ
// RUN: stencil-opt %s --split-input-file --stencil-flatten="route=matching r1=16 r2=1" | FileCheck %s --check-prefix=FORCED

// Star-2D13P: strided swap issues 7 mma.sp per tile (one per kernel row);
// flattened and crushed, the 4 x 4 layout reads 36 input pairs (3 MMAs
// once matched), the 16 x 1 layout 60 (4 MMAs). Units come in their natural
// order, 16 per kernel matrix: (dz, dy, dx) from the block's origin, dx even.
// CHECK-LABEL: func.func @star13
// CHECK:         stencil.row_gemm %{{.*}} radius 3 rows_per_block 16 row_offsets [] layout [4, 4] gather_offsets [0, -3, 0, 0, -3, 2, 0, -2, 0,
// CHECK-SAME:      tensor<3x16x32xf64>
// CHECK-SAME:      stencil.source = {pattern = #stencil.pattern<star, rank = 2, radius = 3>
// HORIZ-LABEL: func.func @star13
// HORIZ:         layout [16, 1] gather_offsets [0, -3, 0, 0, -3, 2, 0, -3, 4,
// HORIZ-SAME:      tensor<4x16x32xf64>
func.func @star13(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 3> weights [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.2, 1.3] : memref<?x?xf16>
  return
}

// -----

// route=auto keeps what the strided swap does as cheaply: a 1-D stencil (one
// kernel row, one MMA either way) stays for --stencil-decompose; with
// route=matching it is flattened all the same.
// CHECK-LABEL: func.func @one_d
// CHECK:         stencil.linear
// FORCED-LABEL: func.func @one_d
// FORCED:         stencil.row_gemm %{{.*}} radius 1 rows_per_block 16 row_offsets [] layout [16, 1] gather_offsets [0, 0, -2, 0, 0, 0, 0, 0, 2,
// FORCED-SAME:      tensor<1x16x32xf64>
func.func @one_d(%in: memref<?xf16>, %out: memref<?xf16>) {
  stencil.linear %in -> %out pattern <star, rank = 1, radius = 1> weights [0.25, 0.5, 0.125] : memref<?xf16>
  return
}

// -----

// An innermost radius of 9 is past the strided swap (L = 2r + 2 > 16), so
// auto flattens it whatever the cost.
// CHECK-LABEL: func.func @wide
// CHECK:         stencil.row_gemm %{{.*}} radius 9 rows_per_block 16 row_offsets [] layout
func.func @wide(%in: memref<?xf16>, %out: memref<?xf16>) {
  stencil.linear %in -> %out pattern <[[-9], [0], [9]]> weights [0.25, 0.5, 0.125] : memref<?xf16>
  return
}

// -----

// Other element types and boundaries are left alone.
// CHECK-LABEL: func.func @f32_grid
// CHECK:         stencil.linear
func.func @f32_grid(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 3> weights [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.2, 1.3] : memref<?x?xf32>
  return
}
