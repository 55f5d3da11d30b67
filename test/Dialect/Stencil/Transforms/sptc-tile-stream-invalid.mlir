// RUN: stencil-opt %s --split-input-file --stencil-sptc-tile="async-copy=on" -verify-diagnostics
// RUN: stencil-opt %s --split-input-file --stencil-sptc-tile="async-copy=on sub-tiles=1" | FileCheck %s

// 3-D blocks stream their input planes through registers (32 sub-tiles
// along z by default): cp.async takes a single sub-tile.
// CHECK: tiling <warps = 4, nTiles = 8, subTiles = 1, asyncCopy = true>
func.func @three_d_async(%in: memref<?x?x?xf16>, %out: memref<?x?x?xf16>) {
  // expected-error @+1 {{'stencil.sparse_row_gemm' op streams its input planes through registers (3-D, 32 sub-tiles along z): async-copy=on needs sub-tiles=1}}
  stencil.sparse_row_gemm %in -> %out radius 0 rows_per_block 2 row_offsets [0, 0]
      input_offsets [0, 1, 2, 3]
      values dense<0.0> : tensor<1x2x2xf16> indices dense<[[[0, 1], [0, 1]]]> : tensor<1x2x2xi8> : memref<?x?x?xf16>
  return
}
