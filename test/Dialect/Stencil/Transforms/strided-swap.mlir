// RUN: stencil-opt %s --split-input-file --stencil-strided-swap="paired=false" | FileCheck %s
// RUN: stencil-opt %s --split-input-file --stencil-strided-swap="paired=false odd-parity=true" | FileCheck %s --check-prefix=ODD
// RUN: stencil-opt %s --split-input-file --stencil-strided-swap | FileCheck %s --check-prefix=PAIRED

// L = 4, r = 1: columns j = 0, 2 trade places with j + 4 (even parity, SPIDER
// 3.2), or j = 1, 3 with j + 4 (odd parity, SPIDER 3.1.2). Row i of K has
// w at columns i, i+1, i+2; after the swap each group of 4 has <= 2.
// CHECK-LABEL: func.func @l4
// CHECK:         column_permutation [4, 1, 6, 3, 0, 5, 2, 7]
// CHECK-SAME:      kernels dense<{{\[\[}}
// row 0: w at original columns 0, 1, 2 -> positions 4, 1, 6
// CHECK-SAME:      [0.000000e+00, 2.000000e+00, 0.000000e+00, 0.000000e+00, 1.000000e+00, 0.000000e+00, 3.000000e+00, 0.000000e+00],
// row 1: original columns 1, 2, 3 -> positions 1, 6, 3
// CHECK-SAME:      [0.000000e+00, 1.000000e+00, 0.000000e+00, 3.000000e+00, 0.000000e+00, 0.000000e+00, 2.000000e+00, 0.000000e+00],
// The paired swap (default): positions [4g, 4g + 4) hold columns
// (2g, 2g + 1, 2g + L, 2g + L + 1).
// PAIRED-LABEL: func.func @l4
// PAIRED:         column_permutation [0, 1, 4, 5, 2, 3, 6, 7]
// row 0: w at columns 0, 1, 2 -> positions 0, 1, 4
// PAIRED-SAME:      [1.000000e+00, 2.000000e+00, 0.000000e+00, 0.000000e+00, 3.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00],
// ODD-LABEL: func.func @l4
// ODD:         column_permutation [0, 5, 2, 7, 4, 1, 6, 3]
func.func @l4(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.row_gemm %in -> %out radius 1 rows_per_block 4 row_offsets [0]
      kernels dense<[[[1., 2., 3., 0., 0., 0., 0., 0.],
                      [0., 1., 2., 3., 0., 0., 0., 0.],
                      [0., 0., 1., 2., 3., 0., 0., 0.],
                      [0., 0., 0., 1., 2., 3., 0., 0.]]]> : tensor<1x4x8xf64>
      : memref<?x?xf16>
  return
}

// -----

// A permuted op is left alone.
// CHECK-LABEL: func.func @already
// PAIRED-LABEL: func.func @already
// PAIRED:         column_permutation [1, 0, 2, 3]
// CHECK:         column_permutation [1, 0, 2, 3]
func.func @already(%in: memref<?xf16>, %out: memref<?xf16>) {
  stencil.row_gemm %in -> %out radius 0 rows_per_block 2 row_offsets []
      column_permutation [1, 0, 2, 3]
      kernels dense<[[[0., 1., 0., 0.], [0., 0., 1., 0.]]]> : tensor<1x2x4xf64>
      : memref<?xf16>
  return
}
