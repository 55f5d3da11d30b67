// RUN: stencil-opt %s --split-input-file --stencil-sptc-tile="mma=warpgroup chip=sm_90a" | FileCheck %s
// RUN: stencil-opt %s --split-input-file --stencil-sptc-tile="mma=auto chip=sm_90a" | FileCheck %s --check-prefix=AUTO
// RUN: stencil-opt %s --split-input-file --stencil-sptc-tile="mma=auto chip=sm_90" | FileCheck %s --check-prefix=SM90
// RUN: stencil-opt %s --split-input-file --stencil-sptc-tile="mma=warpgroup wgmma-n=8 sub-tiles=2 wgmma-strips=4" | FileCheck %s --check-prefix=EXPLICIT

// The warpgroup tiling (Support/WgmmaSpTiling.h): one warpgroup, 2 strips
// of 16 outputs along x in 2-D, N = 16 where r_y <= 1 (24 otherwise), 8
// sub-tiles staged through a ring of 2 buffers, recorded as wgmmaN,
// wgmmaStages and wgmmaStrips. mma=auto takes it on sm_90a only, and only
// for 2-D forms with r_y >= 5 (where an H100 ran it faster).
// CHECK-LABEL: func.func @two_d
// CHECK:         tiling <warps = 4, nTiles = 2, subTiles = 8, asyncCopy = false, wgmmaN = 16, wgmmaStages = 2, wgmmaStrips = 2>
// AUTO-LABEL:  func.func @two_d
// AUTO-NOT:      wgmmaN
// AUTO:          tiling <warps = 4, nTiles = 4, subTiles = 8, asyncCopy = true>
// SM90-LABEL:  func.func @two_d
// SM90-NOT:      wgmmaN
// SM90:          tiling <warps = 4, nTiles = 4, subTiles = 8, asyncCopy = true>
// EXPLICIT-LABEL: func.func @two_d
// EXPLICIT:      tiling <warps = 4, nTiles = 1, subTiles = 2, asyncCopy = false, wgmmaN = 8, wgmmaStages = 2, wgmmaStrips = 4>
func.func @two_d(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.sparse_row_gemm %in -> %out radius 0 rows_per_block 2 row_offsets [0]
      input_offsets [0, 1, 2, 3]
      values dense<0.0> : tensor<1x2x2xf16> indices dense<[[[0, 1], [0, 1]]]> : tensor<1x2x2xi8> : memref<?x?xf16>
  return
}

// -----

// Kernel rows at dy = +-5: r_y = 5, N = 24, and mma=auto takes the
// warpgroup kernel on sm_90a.
// CHECK-LABEL: func.func @two_d_r5
// CHECK:         tiling <warps = 4, nTiles = 3, subTiles = 8, asyncCopy = false, wgmmaN = 24, wgmmaStages = 2, wgmmaStrips = 2>
// AUTO-LABEL:  func.func @two_d_r5
// AUTO:          wgmmaN = 24, wgmmaStages = 2, wgmmaStrips = 2>
// SM90-LABEL:  func.func @two_d_r5
// SM90-NOT:      wgmmaN
func.func @two_d_r5(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.sparse_row_gemm %in -> %out radius 0 rows_per_block 2 row_offsets [-5, 5]
      input_offsets [0, 1, 2, 3]
      values dense<0.0> : tensor<2x2x2xf16> indices dense<[[[0, 1], [0, 1]], [[0, 1], [0, 1]]]> : tensor<2x2x2xi8> : memref<?x?xf16>
  return
}

// -----

// 3-D with kernel rows at dz = +-3: 7 staged planes and one strip; N (at
// most 32: 8 MMAs) shrinks to 24 to fit the default 100 KiB (2 buffers of
// 7 x 4 x (4 x N x 16 + 32) bytes and 4 N rows of 48 bytes). mma=auto
// keeps 3-D forms on the warp-level kernel.
// CHECK-LABEL: func.func @three_d
// CHECK:         wgmmaN = 24, wgmmaStages = 2, wgmmaStrips = 1>
// AUTO-LABEL:  func.func @three_d
// AUTO-NOT:      wgmmaN
// EXPLICIT-LABEL: func.func @three_d
// EXPLICIT:      subTiles = 2, asyncCopy = false, wgmmaN = 8, wgmmaStages = 2, wgmmaStrips = 4>
func.func @three_d(%in: memref<?x?x?xf16>, %out: memref<?x?x?xf16>) {
  stencil.sparse_row_gemm %in -> %out radius 0 rows_per_block 2 row_offsets [-3, 0, 3, 0]
      input_offsets [0, 1, 2, 3]
      values dense<0.0> : tensor<2x2x2xf16> indices dense<[[[0, 1], [0, 1]], [[0, 1], [0, 1]]]> : tensor<2x2x2xi8> : memref<?x?x?xf16>
  return
}

// -----

// The dense f16 form takes the warpgroup kernel (two dense m64nNk16 per
// shift) when asked; mma=auto keeps it on mma.sync (measured slower).
// CHECK-LABEL: func.func @dense
// CHECK:         tiling <warps = 4, nTiles = 2, subTiles = 8, asyncCopy = false, wgmmaN = 16, wgmmaStages = 2, wgmmaStrips = 2>
// AUTO-LABEL:  func.func @dense
// AUTO-NOT:      wgmmaN
func.func @dense(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.row_gemm %in -> %out radius 1 rows_per_block 4 column_shift 1 row_offsets [0]
      input_offsets [-2, -1, 0, 1, 2, 3, 4, 5]
      kernels dense<0.5> : tensor<1x4x8xf64> : memref<?x?xf16>
  return
}
