// RUN: stencil-opt %s --split-input-file --stencil-sptc-tile --stencil-sptc-pack --convert-stencil-to-sptc -verify-diagnostics

func.func @f32_grid(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  // expected-error @+1 {{'stencil.sparse_row_gemm' op has element type 'f32', but the Sparse Tensor Core kernel computes on f16 operands (use --lower-to-cuda-core or --lower-to-cpu for other element types, --lower-to-tc for bf16 and f64)}}
  stencil.sparse_row_gemm %in -> %out radius 0 rows_per_block 2 row_offsets [0]
      input_offsets [0, 1, 2, 3]
      values dense<0.0> : tensor<1x2x2xf16> indices dense<[[[0, 1], [0, 1]]]> : tensor<1x2x2xi8> : memref<?x?xf32>
  return
}

// -----

func.func @not_folded(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  // expected-error @+1 {{'stencil.sparse_row_gemm' op still has a column permutation: run --stencil-fold-row-swap first}}
  stencil.sparse_row_gemm %in -> %out radius 0 rows_per_block 2 row_offsets [0]
      column_permutation [0, 1, 2, 3]
      values dense<0.0> : tensor<1x2x2xf16> indices dense<[[[0, 1], [0, 1]]]> : tensor<1x2x2xi8> : memref<?x?xf16>
  return
}

// -----

func.func @not_a_divisor(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  // expected-error @+1 {{'stencil.sparse_row_gemm' op rows_per_block 6 does not divide the 16 rows of an m16n8k32 mma.sp}}
  stencil.sparse_row_gemm %in -> %out radius 0 rows_per_block 6 row_offsets [0]
      input_offsets [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]
      values dense<0.0> : tensor<1x6x6xf16> indices dense<[[[0, 1, 0, 1, 0, 1], [0, 1, 0, 1, 0, 1], [0, 1, 0, 1, 0, 1], [0, 1, 0, 1, 0, 1], [0, 1, 0, 1, 0, 1], [0, 1, 0, 1, 0, 1]]]> : tensor<1x6x6xi8> : memref<?x?xf16>
  return
}
