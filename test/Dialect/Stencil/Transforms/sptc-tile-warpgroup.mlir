// RUN: stencil-opt %s --split-input-file --stencil-sptc-tile="mma=warpgroup chip=sm_90a" | FileCheck %s
// RUN: stencil-opt %s --split-input-file --stencil-sptc-tile="mma=auto chip=sm_90a" | FileCheck %s --check-prefix=AUTO
// RUN: stencil-opt %s --split-input-file --stencil-sptc-tile="mma=auto chip=sm_90" | FileCheck %s --check-prefix=SM90
// RUN: stencil-opt %s --split-input-file --stencil-sptc-tile="mma=warpgroup wgmma-n=8 sub-tiles=2" | FileCheck %s --check-prefix=EXPLICIT

// The warpgroup tiling (Support/WgmmaSpTiling.h): one warpgroup, N = 32 by
// default, 8 sub-tiles staged through a ring of 2 buffers, recorded as
// wgmma_n and wgmma_stages. mma=auto takes it on sm_90a only.
// CHECK-LABEL: func.func @two_d
// CHECK:         tiling {async_copy = false, n_tiles = 4 : i64, sub_tiles = 8 : i64, warps = 4 : i64, wgmma_n = 32 : i64, wgmma_stages = 2 : i64}
// AUTO-LABEL:  func.func @two_d
// AUTO:          wgmma_n = 32
// SM90-LABEL:  func.func @two_d
// SM90-NOT:      wgmma_n
// SM90:          tiling {async_copy = true, n_tiles = 4 : i64, sub_tiles = 8 : i64, warps = 4 : i64}
// EXPLICIT-LABEL: func.func @two_d
// EXPLICIT:      tiling {async_copy = false, n_tiles = 1 : i64, sub_tiles = 2 : i64, warps = 4 : i64, wgmma_n = 8 : i64, wgmma_stages = 2 : i64}
func.func @two_d(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.sparse_row_gemm %in -> %out radius 0 rows_per_block 2 row_offsets [0]
      input_offsets [0, 1, 2, 3]
      values dense<0.0> : tensor<1x2x2xf16> indices dense<[[[0, 1], [0, 1]]]> : tensor<1x2x2xi8> : memref<?x?xf16>
  return
}

// -----

// 3-D with kernel rows at dz = +-3: 7 staged planes, N shrinks to fit
// 48 KiB (2 buffers of 7 x 4 x (4 x (N + 2) x 16 + 32) bytes).
// CHECK-LABEL: func.func @three_d
// CHECK:         wgmma_n = 8 : i64, wgmma_stages = 2
// AUTO-LABEL:  func.func @three_d
// AUTO:          wgmma_n = 8
// EXPLICIT-LABEL: func.func @three_d
// EXPLICIT:      sub_tiles = 2 : i64, warps = 4 : i64, wgmma_n = 8 : i64
func.func @three_d(%in: memref<?x?x?xf16>, %out: memref<?x?x?xf16>) {
  stencil.sparse_row_gemm %in -> %out radius 0 rows_per_block 2 row_offsets [-3, 0, 3, 0]
      input_offsets [0, 1, 2, 3]
      values dense<0.0> : tensor<2x2x2xf16> indices dense<[[[0, 1], [0, 1]], [[0, 1], [0, 1]]]> : tensor<2x2x2xi8> : memref<?x?x?xf16>
  return
}
