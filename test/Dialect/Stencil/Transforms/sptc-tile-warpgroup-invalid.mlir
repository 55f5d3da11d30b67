// RUN: stencil-opt %s --split-input-file --stencil-sptc-tile="mma=warpgroup chip=sm_90a" -verify-diagnostics
// RUN: not stencil-opt %s --split-input-file --stencil-sptc-tile="mma=warpgroup chip=sm_80" 2>&1 | FileCheck %s --check-prefix=SM80
// RUN: not stencil-opt %s --split-input-file --stencil-sptc-tile="mma=warpgroup chip=sm_90" 2>&1 | FileCheck %s --check-prefix=SM90
// RUN: not stencil-opt %s --split-input-file --stencil-sptc-tile="mma=warpgroup wgmma-n=12" 2>&1 | FileCheck %s --check-prefix=N
// RUN: not stencil-opt %s --split-input-file --stencil-sptc-tile="mma=warpgroup wgmma-n=256" 2>&1 | FileCheck %s --check-prefix=BIG
// RUN: not stencil-opt %s --split-input-file --stencil-sptc-tile="mma=warpgroup wgmma-stages=1" 2>&1 | FileCheck %s --check-prefix=STAGES
// RUN: not stencil-opt %s --split-input-file --stencil-sptc-tile="mma=warpgroup wgmma-n=64 wgmma-stages=8" 2>&1 | FileCheck %s --check-prefix=RING
// RUN: not stencil-opt %s --split-input-file --stencil-sptc-tile="mma=warpgroup wgmma-strips=3" 2>&1 | FileCheck %s --check-prefix=STRIPS
// RUN: not stencil-opt %s --split-input-file --stencil-sptc-tile="mma=warpgroup wgmma-strips=16" 2>&1 | FileCheck %s --check-prefix=STRIPS16
// RUN: not stencil-opt %s --split-input-file --stencil-sptc-tile="mma=warpgroup warps=2" 2>&1 | FileCheck %s --check-prefix=WARPS
// RUN: not stencil-opt %s --split-input-file --stencil-sptc-tile="mma=sometimes" 2>&1 | FileCheck %s --check-prefix=MMA

// sm_90a features requested for another chip, and bad warpgroup options,
// on a form the warpgroup kernel takes.
// SM80: sptc-tile-warpgroup-invalid.mlir:[[# @LINE + 11]]:3: error: 'stencil.sparse_row_gemm' op mma=warpgroup issues wgmma.mma_async.sp, which only sm_90a has; the target is chip=sm_80 (use chip=sm_90a, or mma=warp)
// SM90: error: 'stencil.sparse_row_gemm' op mma=warpgroup issues wgmma.mma_async.sp, which only sm_90a has; the target is chip=sm_90 (use chip=sm_90a, or mma=warp)
// N: error: 'stencil.sparse_row_gemm' op wgmma-n must be a multiple of 8 in [8, 256], got 12
// BIG: error: 'stencil.sparse_row_gemm' op mma=warpgroup with wgmma-n=256, 2 stages and 2 strips needs 344576 bytes of shared memory, more than 232448: use a smaller wgmma-n, fewer wgmma-stages or fewer wgmma-strips
// STAGES: error: 'stencil.sparse_row_gemm' op wgmma-stages must be in [2, 8], got 1
// RING: error: 'stencil.sparse_row_gemm' op mma=warpgroup with wgmma-n=64, 8 stages and 2 strips needs 284672 bytes of shared memory, more than 232448: use a smaller wgmma-n, fewer wgmma-stages or fewer wgmma-strips
// STRIPS: error: 'stencil.sparse_row_gemm' op wgmma-strips must be a power of two in [1, 8], got 3
// STRIPS16: error: 'stencil.sparse_row_gemm' op wgmma-strips must be a power of two in [1, 8], got 16
// WARPS: error: 'stencil.sparse_row_gemm' op mma=warpgroup runs one warpgroup of 4 warps per block, got warps=2
// MMA: for the --mma option: Cannot find option named 'sometimes'!
func.func @two_d(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.sparse_row_gemm %in -> %out radius 0 rows_per_block 2 row_offsets [0]
      input_offsets [0, 1, 2, 3]
      values dense<0.0> : tensor<1x2x2xf16> indices dense<[[[0, 1], [0, 1]]]> : tensor<1x2x2xi8> : memref<?x?xf16>
  return
}

// -----

// Forms the warpgroup kernel does not take.
func.func @one_d(%in: memref<?xf16>, %out: memref<?xf16>) {
  // expected-error @+1 {{'stencil.sparse_row_gemm' op mma=warpgroup: a 1-D form has one kernel row, which the four warps of a warpgroup cannot split (use mma=warp)}}
  stencil.sparse_row_gemm %in -> %out radius 0 rows_per_block 2 row_offsets []
      input_offsets [0, 1, 2, 3]
      values dense<0.0> : tensor<1x2x2xf16> indices dense<[[[0, 1], [0, 1]]]> : tensor<1x2x2xi8> : memref<?xf16>
  return
}

// -----

func.func @low_rank(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  // expected-error @+1 {{'stencil.row_gemm' op mma=warpgroup: the low-rank chain (column_weights) has no warpgroup kernel yet (use mma=warp)}}
  stencil.row_gemm %in -> %out radius 1 rows_per_block 4 row_offsets [0]
      kernels dense<0.0> : tensor<1x4x8xf64> column_weights dense<1.0> : tensor<1x3xf64> : memref<?x?xf16>
  return
}

// -----

func.func @dense_bf16(%in: memref<?x?xbf16>, %out: memref<?x?xbf16>) {
  // expected-error @+1 {{'stencil.row_gemm' op mma=warpgroup: the dense warpgroup kernel takes f16 grids only (use mma=warp)}}
  stencil.row_gemm %in -> %out radius 1 rows_per_block 4 column_shift 1 row_offsets [0]
      input_offsets [-2, -1, 0, 1, 2, 3, 4, 5]
      kernels dense<0.5> : tensor<1x4x8xf64> : memref<?x?xbf16>
  return
}
