// RUN: stencil-opt %s --split-input-file --stencil-strided-swap="paired=false" -verify-diagnostics
// RUN: stencil-opt %s --split-input-file --stencil-strided-swap -verify-diagnostics

// L = 4 is too small for radius 2 (L must be >= 2r + 2): the band of row 0
// spans 5 columns and the swap cannot make it 2:4. The pass says so instead
// of emitting wrong code.
func.func @too_narrow(%in: memref<?xf16>, %out: memref<?xf16>) {
  // expected-error @+1 {{'stencil.row_gemm' op kernel row #0 is not 2:4 sparse after the strided swap: row 0 group 0 (columns 0..3) has 3 non-zeros}}
  stencil.row_gemm %in -> %out radius 2 rows_per_block 4 row_offsets []
      kernels dense<[[[1., 2., 3., 4., 5., 0., 0., 0.],
                      [0., 1., 2., 3., 4., 5., 0., 0.],
                      [0., 0., 1., 2., 3., 4., 5., 0.],
                      [0., 0., 0., 1., 2., 3., 4., 5.]]]> : tensor<1x4x8xf64>
      : memref<?xf16>
  return
}

// -----

// The paired swap moves column pairs, so L must be even (the element-wise
// swap fails on odd L too: 2L is then not a multiple of 4).
func.func @odd_rows(%in: memref<?xf16>, %out: memref<?xf16>) {
  // expected-error-re @+1 {{'stencil.row_gemm' op {{(the paired strided swap needs an even rows_per_block, got 3|kernel row #0 is not 2:4 sparse after the strided swap: .*)}}}}
  stencil.row_gemm %in -> %out radius 1 rows_per_block 3 row_offsets []
      kernels dense<0.0> : tensor<1x3x6xf64> : memref<?xf16>
  return
}

// -----

func.func @low_rank_chain(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  // expected-error @+1 {{'stencil.row_gemm' op is a low-rank chain (column_weights), which runs on the dense Tensor Cores only (--lower-to-tc low-rank=true)}}
  stencil.row_gemm %in -> %out radius 1 rows_per_block 4 row_offsets [0]
      kernels dense<0.0> : tensor<1x4x8xf64> column_weights dense<1.0> : tensor<1x3xf64> : memref<?x?xf16>
  return
}
