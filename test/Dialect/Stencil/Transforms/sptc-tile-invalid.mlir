// RUN: stencil-opt %s --stencil-sptc-tile="async-copy=sometimes" -verify-diagnostics

func.func @bad_option(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  // expected-error @+1 {{'stencil.sparse_row_gemm' op async-copy must be 'on', 'off' or 'auto', got 'sometimes'}}
  stencil.sparse_row_gemm %in -> %out radius 0 rows_per_block 2 row_offsets [0]
      input_offsets [0, 1, 2, 3]
      values dense<0.0> : tensor<1x2x2xf16> indices dense<[[[0, 1], [0, 1]]]> : tensor<1x2x2xi8> : memref<?x?xf16>
  return
}
