// RUN: stencil-opt %s --split-input-file --stencil-decompose -verify-diagnostics | FileCheck %s

// A stencil.low_rank becomes the low-rank chain: kernel row k (at row
// offset 0) is the banded matrix of v_k, u rides along as column_weights
// (LoRAStencil, eq. 9), and the source stencil stays for the runner.
// CHECK-LABEL: func.func @chain
// CHECK:         stencil.row_gemm %{{.*}} -> %{{.*}} radius 1 rows_per_block 4 row_offsets [0, 0]
// CHECK-SAME:      kernels dense<{{\[\[\[}}1.000000e+00, 2.000000e+00, 3.000000e+00, 0.000000e+00
// CHECK-SAME:      : tensor<2x4x8xf64>
// CHECK-SAME:      column_weights dense<{{\[\[}}1.000000e+00, 0.000000e+00, -1.000000e+00], [2.000000e+00, 5.000000e-01, 2.000000e+00]]> : tensor<2x3xf64>
// CHECK-SAME:      stencil.source = {pattern = #stencil.pattern<box, rank = 2, radius = 1>
func.func @chain(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.low_rank %in -> %out radius 1
      u dense<[[1.0, 0.0, -1.0], [2.0, 0.5, 2.0]]> : tensor<2x3xf64>
      v dense<[[1.0, 2.0, 3.0], [0.25, 0.5, 0.75]]> : tensor<2x3xf64>
      {stencil.source = {pattern = #stencil.pattern<box, rank = 2, radius = 1>, weights = array<f64: 1., 2., 3., 0., 0., 0., -1., -2., -3.>}}
      : memref<?x?xf16>
  return
}

// -----

func.func @too_wide(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  // expected-error @+1 {{'stencil.low_rank' op has radius 5, but the low-rank Tensor Core chain reaches at most 4 rows (its 16-row stage-2 MMA needs 8 + 2h <= 16); use the direct form (no low-rank) for this stencil}}
  stencil.low_rank %in -> %out radius 5
      u dense<1.0> : tensor<1x11xf64>
      v dense<1.0> : tensor<1x11xf64>
      : memref<?x?xf16>
  return
}
