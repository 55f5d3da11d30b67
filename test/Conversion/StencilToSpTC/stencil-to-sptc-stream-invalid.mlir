// RUN: stencil-opt %s --stencil-sptc-pack --convert-stencil-to-sptc -verify-diagnostics

// A 3-D block with several sub-tiles streams its input planes through
// registers; cp.async staging is not built for that (a tiling written by
// hand, since --stencil-sptc-tile refuses it too).
func.func @stream_async(%in: memref<?x?x?xf16>, %out: memref<?x?x?xf16>) {
  // expected-error @+1 {{'stencil.sparse_row_gemm' op streams its input planes (3-D, 4 sub-tiles along z) through registers: async_copy is not supported there (use one sub-tile, or async-copy=off)}}
  stencil.sparse_row_gemm %in -> %out radius 0 rows_per_block 2 row_offsets [-1, 0, 0, 0, 1, 0]
      input_offsets [0, 1, 2, 3]
      values dense<0.0> : tensor<3x2x2xf16> indices dense<[[[0, 1], [0, 1]], [[0, 1], [0, 1]], [[0, 1], [0, 1]]]> : tensor<3x2x2xi8>
      tiling <warps = 1, nTiles = 1, subTiles = 4, asyncCopy = true>
      : memref<?x?x?xf16>
  return
}
