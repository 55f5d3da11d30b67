// RUN: stencil-opt %s --split-input-file --stencil-sptc-tile | FileCheck %s
// RUN: stencil-opt %s --split-input-file --stencil-sptc-tile="warps=2 n-tiles=3 m-tiles=4 async-copy=off" | FileCheck %s --check-prefix=EXPLICIT

// The f64 dense form (mma.sync m8n8k4) records m-tiles of 8 rows per warp,
// one sub-tile and synchronous staging; defaults 4 warps x 4 n-tiles x 2
// m-tiles, 2 n-tiles in 3-D.
// CHECK-LABEL: func.func @two_d
// CHECK:         tiling <warps = 4, nTiles = 4, subTiles = 1, asyncCopy = false, mTiles = 2>
// EXPLICIT-LABEL: func.func @two_d
// EXPLICIT:         tiling <warps = 2, nTiles = 3, subTiles = 1, asyncCopy = false, mTiles = 4>
func.func @two_d(%in: memref<?x?xf64>, %out: memref<?x?xf64>) {
  stencil.row_gemm %in -> %out radius 0 rows_per_block 2 column_shift 1 row_offsets [0]
      input_offsets [0, 1, 2, 3]
      kernels dense<[[[1., 0., 0., 0.], [0., 1., 0., 0.]]]> : tensor<1x2x4xf64> : memref<?x?xf64>
  return
}

// -----

// CHECK-LABEL: func.func @three_d
// CHECK:         tiling <warps = 4, nTiles = 2, subTiles = 1, asyncCopy = false, mTiles = 2>
func.func @three_d(%in: memref<?x?x?xf64>, %out: memref<?x?x?xf64>) {
  stencil.row_gemm %in -> %out radius 0 rows_per_block 2 column_shift 1 row_offsets [0, 0]
      input_offsets [0, 1, 2, 3]
      kernels dense<[[[1., 0., 0., 0.], [0., 1., 0., 0.]]]> : tensor<1x2x4xf64> : memref<?x?x?xf64>
  return
}

// -----

// Defaults fit 48 KiB: an f64 tile reaching four planes and rows each way
// (a 3-D radius-4 star) takes 1 n-tile and 2 warps.
// CHECK-LABEL: func.func @three_d_fits
// CHECK:         tiling <warps = 2, nTiles = 1, subTiles = 1, asyncCopy = false, mTiles = 2>
func.func @three_d_fits(%in: memref<?x?x?xf64>, %out: memref<?x?x?xf64>) {
  stencil.row_gemm %in -> %out radius 4 rows_per_block 2 column_shift 1 row_offsets [-4, 0, 0, 4]
      input_offsets [0, 1, 2, 3]
      kernels dense<0.5> : tensor<2x2x4xf64> : memref<?x?x?xf64>
  return
}
