// RUN: stencil-opt %s --split-input-file --stencil-encode-2to4 | FileCheck %s

// The swapped L = 4 kernel of strided-swap.mlir. Per group of 4: two
// non-zeros keep their positions (row 0, group 1: 1 and 3 at 0 and 2); a
// single non-zero gets a zero placeholder after it (row 0, group 0: 2 at
// position 1 -> (2, 0) at (1, 2)), or before it at position 3 (row 2,
// group 1: 1 at position 2 -> (1, 0) at (2, 3)).
// CHECK-LABEL: func.func @l4
// CHECK:         stencil.sparse_row_gemm %{{.*}} -> %{{.*}} radius 1 rows_per_block 4 row_offsets [0]
// CHECK-SAME:      column_permutation [4, 1, 6, 3, 0, 5, 2, 7]
// CHECK-SAME:      values dense<{{\[\[}}[2.000000e+00, 0.000000e+00, 1.000000e+00, 3.000000e+00], [1.000000e+00, 3.000000e+00, 2.000000e+00, 0.000000e+00], [3.000000e+00, 2.000000e+00, 1.000000e+00, 0.000000e+00], [2.000000e+00, 1.000000e+00, 3.000000e+00, 0.000000e+00]]]> : tensor<1x4x4xf16>
// CHECK-SAME:      indices dense<{{\[\[}}[1, 2, 0, 2], [1, 3, 2, 3], [0, 3, 2, 3], [0, 3, 1, 2]]]> : tensor<1x4x4xi8>
// CHECK-SAME:      steps 2 : memref<?x?xf16>
func.func @l4(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.row_gemm %in -> %out radius 1 rows_per_block 4 row_offsets [0]
      column_permutation [4, 1, 6, 3, 0, 5, 2, 7]
      kernels dense<[[[0., 2., 0., 0., 1., 0., 3., 0.],
                      [0., 1., 0., 3., 0., 0., 2., 0.],
                      [3., 0., 0., 2., 0., 0., 1., 0.],
                      [2., 0., 0., 1., 0., 3., 0., 0.]]]> : tensor<1x4x8xf64>
      steps 2 : memref<?x?xf16>
  return
}

// -----

// Values are rounded to f16; a matrix that is already 2:4 needs no
// permutation (the identity is recorded); empty groups keep (0, 1).
// CHECK-LABEL: func.func @rounding
// CHECK:         column_permutation [0, 1, 2, 3]
// CHECK-SAME:      values dense<{{\[\[}}[9.997550e-02, 0.000000e+00], [0.000000e+00, 0.000000e+00]]]>
// CHECK-SAME:      indices dense<{{\[\[}}[0, 1], [0, 1]]]>
func.func @rounding(%in: memref<?xf16>, %out: memref<?xf16>) {
  stencil.row_gemm %in -> %out radius 0 rows_per_block 2 row_offsets []
      kernels dense<[[[0.1, 0., 0., 0.], [0., 0., 0., 0.]]]> : tensor<1x2x4xf64>
      : memref<?xf16>
  return
}
