// RUN: stencil-opt %s --split-input-file --stencil-sptc-tile | FileCheck %s
// RUN: stencil-opt %s --split-input-file --stencil-sptc-tile="warps=2 n-tiles=3 sub-tiles=5 async-copy=off" | FileCheck %s --check-prefix=EXPLICIT

// The defaults by rank: 2-D gets 4 x 4 x 8 with cp.async, 1-D 4 x 8 x 1
// synchronous, 3-D 4 x 8 and 16 sub-tiles: 32 output planes streamed
// along z (bench/NOTES.md).
// CHECK-LABEL: func.func @two_d
// CHECK:         tiling <warps = 4, nTiles = 4, subTiles = 8, asyncCopy = true>
// EXPLICIT-LABEL: func.func @two_d
// EXPLICIT:         tiling <warps = 2, nTiles = 3, subTiles = 5, asyncCopy = false>
func.func @two_d(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.sparse_row_gemm %in -> %out radius 0 rows_per_block 2 row_offsets [0]
      input_offsets [0, 1, 2, 3]
      values dense<0.0> : tensor<1x2x2xf16> indices dense<[[[0, 1], [0, 1]]]> : tensor<1x2x2xi8> : memref<?x?xf16>
  return
}

// -----

// CHECK-LABEL: func.func @three_d
// CHECK:         tiling <warps = 4, nTiles = 8, subTiles = 32, asyncCopy = false>
func.func @three_d(%in: memref<?x?x?xf16>, %out: memref<?x?x?xf16>) {
  stencil.sparse_row_gemm %in -> %out radius 0 rows_per_block 2 row_offsets [0, 0]
      input_offsets [0, 1, 2, 3]
      values dense<0.0> : tensor<1x2x2xf16> indices dense<[[[0, 1], [0, 1]]]> : tensor<1x2x2xi8> : memref<?x?x?xf16>
  return
}

// -----

// The dense form takes the same tiling.
// CHECK-LABEL: func.func @dense
// CHECK:         stencil.row_gemm {{.*}} tiling <warps = 4, nTiles = 4, subTiles = 8, asyncCopy = true>
func.func @dense(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.row_gemm %in -> %out radius 1 rows_per_block 4 column_shift 1 row_offsets [0]
      input_offsets [-2, -1, 0, 1, 2, 3, 4, 5]
      kernels dense<0.5> : tensor<1x4x8xf64> : memref<?x?xf16>
  return
}

// -----

// Defaults fit the 48 KiB of static shared memory: a 3-D stencil reaching
// four planes and four rows each way (a radius-4 star) stages 9 planes, so
// the default 8 n-tiles halve to 2 (Support/SpTCTiling.h has the sizes).
// Explicit options are kept (EXPLICIT; the conversion reports a tile that
// does not fit).
// CHECK-LABEL: func.func @three_d_fits
// CHECK:         tiling <warps = 4, nTiles = 2, subTiles = 32, asyncCopy = false>
// EXPLICIT-LABEL: func.func @three_d_fits
// EXPLICIT:         tiling <warps = 2, nTiles = 3, subTiles = 5, asyncCopy = false>
func.func @three_d_fits(%in: memref<?x?x?xf16>, %out: memref<?x?x?xf16>) {
  stencil.sparse_row_gemm %in -> %out radius 0 rows_per_block 2 row_offsets [-4, 0, 0, 4]
      input_offsets [0, 1, 2, 3]
      values dense<0.0> : tensor<2x2x2xf16> indices dense<[[[0, 1], [0, 1]], [[0, 1], [0, 1]]]> : tensor<2x2x2xi8> : memref<?x?x?xf16>
  return
}

// -----

// A 2-D tile reaching 90 rows each way: no n-tiles fit 4 warps (two
// cp.async buffers of 212 rows), 2 warps do with the preferred 4 n-tiles.
// CHECK-LABEL: func.func @wide_two_d
// CHECK:         tiling <warps = 2, nTiles = 4, subTiles = 8, asyncCopy = true>
func.func @wide_two_d(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.sparse_row_gemm %in -> %out radius 0 rows_per_block 2 row_offsets [-90, 90]
      input_offsets [0, 1, 2, 3]
      values dense<0.0> : tensor<2x2x2xf16> indices dense<[[[0, 1], [0, 1]], [[0, 1], [0, 1]]]> : tensor<2x2x2xi8> : memref<?x?xf16>
  return
}

// -----

// Only the options left to their defaults shrink: with warps=4 given, the
// same tile gives up cp.async (auto) before the warps.
// RUN: stencil-opt %s --split-input-file --stencil-sptc-tile="warps=4" | FileCheck %s --check-prefix=WARPS
// WARPS-LABEL: func.func @wide_two_d_warps
// WARPS:         tiling <warps = 4, nTiles = 4, subTiles = 8, asyncCopy = false>
func.func @wide_two_d_warps(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.sparse_row_gemm %in -> %out radius 0 rows_per_block 2 row_offsets [-90, 90]
      input_offsets [0, 1, 2, 3]
      values dense<0.0> : tensor<2x2x2xf16> indices dense<[[[0, 1], [0, 1]], [[0, 1], [0, 1]]]> : tensor<2x2x2xi8> : memref<?x?xf16>
  return
}
