// RUN: stencil-opt %s --stencil-sptc-tile="sub-tiles=1000000000" -verify-diagnostics
// RUN: stencil-opt %s --stencil-sptc-tile="warps=33" -verify-diagnostics
// RUN: stencil-opt %s --stencil-sptc-tile="n-tiles=65" -verify-diagnostics
// RUN: stencil-opt %s --stencil-sptc-tile="sub-tiles=-1" -verify-diagnostics

// The tiling's counts are bounded before any tile is sized: a count past
// the bounds would overflow the tile's 32-bit sizes (a tile the runtime
// rejects) long before it fits in shared memory.

func.func @bounds(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  // expected-error-re @+1 {{'stencil.sparse_row_gemm' op needs 0 <= warps <= 32, 0 <= n-tiles <= 64 and 0 <= sub-tiles <= 1024 (0: chosen by the pass), got warps={{-?[0-9]+}} n-tiles={{-?[0-9]+}} sub-tiles={{-?[0-9]+}}}}
  stencil.sparse_row_gemm %in -> %out radius 0 rows_per_block 2 row_offsets [0]
      input_offsets [0, 1, 2, 3]
      values dense<0.0> : tensor<1x2x2xf16> indices dense<[[[0, 1], [0, 1]]]> : tensor<1x2x2xi8> : memref<?x?xf16>
  return
}
