// RUN: stencil-opt %s --split-input-file --convert-stencil-to-sptc -verify-diagnostics

// The kernel needs the tiling and the packed coefficients of the passes
// before it.

func.func @no_tiling(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  // expected-error @+1 {{'stencil.sparse_row_gemm' op has no tiling: run --stencil-sptc-tile first}}
  stencil.sparse_row_gemm %in -> %out radius 0 rows_per_block 2 row_offsets [0]
      input_offsets [0, 1, 2, 3]
      values dense<0.0> : tensor<1x2x2xf16> indices dense<[[[0, 1], [0, 1]]]> : tensor<1x2x2xi8> : memref<?x?xf16>
  return
}

// -----

func.func @no_packing(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  // expected-error @+1 {{'stencil.sparse_row_gemm' op has no packed coefficients: run --stencil-sptc-pack first}}
  stencil.sparse_row_gemm %in -> %out radius 0 rows_per_block 2 row_offsets [0]
      input_offsets [0, 1, 2, 3]
      values dense<0.0> : tensor<1x2x2xf16> indices dense<[[[0, 1], [0, 1]]]> : tensor<1x2x2xi8>
      tiling <warps = 1, nTiles = 1, subTiles = 1, asyncCopy = false>
      : memref<?x?xf16>
  return
}
