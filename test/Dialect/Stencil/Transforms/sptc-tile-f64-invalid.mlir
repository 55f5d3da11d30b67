// RUN: stencil-opt %s --split-input-file --stencil-sptc-tile="sub-tiles=2" -verify-diagnostics
// RUN: stencil-opt %s --split-input-file --stencil-sptc-tile="async-copy=on" -verify-diagnostics

// The f64 kernel has no sub-tiles and no cp.async pipeline.
func.func @f64_form(%in: memref<?x?xf64>, %out: memref<?x?xf64>) {
  // expected-error @+1 {{'stencil.row_gemm' op is an f64 row GEMM: its kernel takes one sub-tile and synchronous staging (no sub-tiles or async-copy)}}
  stencil.row_gemm %in -> %out radius 0 rows_per_block 2 column_shift 1 row_offsets [0]
      input_offsets [0, 1, 2, 3]
      kernels dense<[[[1., 0., 0., 0.], [0., 1., 0., 0.]]]> : tensor<1x2x4xf64> : memref<?x?xf64>
  return
}
