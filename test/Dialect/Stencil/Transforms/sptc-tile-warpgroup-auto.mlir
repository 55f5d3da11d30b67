// RUN: stencil-opt %s --stencil-sptc-tile="mma=auto chip=sm_90a" | FileCheck %s --check-prefix=AUTO

// 1-D forms keep the warp-level kernel under mma=auto.
// AUTO-LABEL:  func.func @one_d
// AUTO-NOT:      wgmma_n
// AUTO:          tiling <warps = 4, nTiles = 8, subTiles = 1, asyncCopy = false>
// AUTO-NEXT:     return
func.func @one_d(%in: memref<?xf16>, %out: memref<?xf16>) {
  stencil.sparse_row_gemm %in -> %out radius 0 rows_per_block 2 row_offsets []
      input_offsets [0, 1, 2, 3]
      values dense<0.0> : tensor<1x2x2xf16> indices dense<[[[0, 1], [0, 1]]]> : tensor<1x2x2xi8> : memref<?xf16>
  return
}
