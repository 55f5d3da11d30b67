// RUN: stencil-opt %s --split-input-file --stencil-sptc-tile="warps=32 n-tiles=32" --stencil-sptc-pack --convert-stencil-to-sptc -verify-diagnostics

// A tile whose input does not fit in 48 KiB of shared memory is an error.
func.func @huge_tile(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  // expected-error-re @+1 {{'stencil.sparse_row_gemm' op needs {{[0-9]+}} bytes of shared memory for its tile, more than 49152: use fewer warps or n-tiles}}
  stencil.sparse_row_gemm %in -> %out radius 0 rows_per_block 2 row_offsets [0]
      input_offsets [0, 1, 2, 3]
      values dense<0.0> : tensor<1x2x2xf16> indices dense<[[[0, 1], [0, 1]]]> : tensor<1x2x2xi8> : memref<?x?xf16>
  return
}

// -----

// The same for the f64 kernel.
func.func @huge_f64_tile(%in: memref<?x?xf64>, %out: memref<?x?xf64>) {
  // expected-error-re @+1 {{'stencil.row_gemm' op needs {{[0-9]+}} bytes of shared memory for its tile, more than 49152: use fewer warps, n-tiles or m-tiles}}
  stencil.row_gemm %in -> %out radius 0 rows_per_block 2 column_shift 1 row_offsets [0]
      input_offsets [0, 1, 2, 3]
      kernels dense<[[[1., 0., 0., 0.], [0., 1., 0., 0.]]]> : tensor<1x2x4xf64> : memref<?x?xf64>
  return
}
