// RUN: stencil-opt %s --split-input-file --stencil-fold-row-swap | FileCheck %s

// Logical column c multiplies the input at offset perm[c] - r from the
// block's first output: the row swap becomes constant load offsets.
// CHECK-LABEL: func.func @fold
// CHECK:         stencil.sparse_row_gemm {{.*}} row_offsets [0] input_offsets [3, 0, 5, 2, -1, 4, 1, 6] values
// CHECK-NOT:     column_permutation
func.func @fold(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.sparse_row_gemm %in -> %out radius 1 rows_per_block 4 row_offsets [0]
      column_permutation [4, 1, 6, 3, 0, 5, 2, 7]
      values dense<[[[2., 0., 1., 3.], [1., 3., 2., 0.], [3., 2., 1., 0.], [2., 1., 3., 0.]]]> : tensor<1x4x4xf16>
      indices dense<[[[1, 2, 0, 2], [1, 3, 2, 3], [0, 3, 2, 3], [0, 3, 1, 2]]]> : tensor<1x4x4xi8>
      : memref<?x?xf16>
  return
}

// -----

// With a column shift s the offsets are perm[c] - r - s: the paired swap of
// L = 4, r = 1, s = 1 reads even offsets at even positions.
// CHECK-LABEL: func.func @shifted
// CHECK:         input_offsets [-2, -1, 2, 3, 0, 1, 4, 5]
func.func @shifted(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.sparse_row_gemm %in -> %out radius 1 rows_per_block 4 column_shift 1 row_offsets [0]
      column_permutation [0, 1, 4, 5, 2, 3, 6, 7]
      values dense<0.0> : tensor<1x4x4xf16>
      indices dense<[[[0, 1, 0, 1], [0, 1, 0, 1], [0, 1, 0, 1], [0, 1, 0, 1]]]> : tensor<1x4x4xi8>
      : memref<?x?xf16>
  return
}

// -----

// The dense form (--lower-to-tc) without a swap: the identity permutation,
// offsets c - r - s.
// CHECK-LABEL: func.func @dense_identity
// CHECK:         stencil.row_gemm {{.*}} row_offsets [0] input_offsets [-2, -1, 0, 1, 2, 3, 4, 5] kernels
func.func @dense_identity(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.row_gemm %in -> %out radius 1 rows_per_block 4 column_shift 1 row_offsets [0]
      kernels dense<0.5> : tensor<1x4x8xf64> : memref<?x?xf16>
  return
}
