// RUN: stencil-opt %s -split-input-file --convert-stencil-to-fft -verify-diagnostics
// RUN: not stencil-opt %s --convert-stencil-to-fft=f64-shape=m16n8k8 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: not stencil-opt %s --convert-stencil-to-fft=warps=0 2>&1 | FileCheck %s --check-prefix=WARPS

// SHAPE: for the --f64-shape option: Cannot find option named 'm16n8k8'!
// WARPS: error: --convert-stencil-to-fft: warps must be in [1, 32], got 0

func.func @no_spectrum(%in: memref<?xf64>, %out: memref<?xf64>) {
  // expected-error @+1 {{has no spectrum: run --stencil-fft-spectrum before --convert-stencil-to-fft}}
  stencil.fft_apply %in -> %out pattern <star, rank = 1, radius = 1> weights [0.25, 0.5, 0.25] fused_steps 1 factors [array<i64: 8>] : memref<?xf64>
  return
}

// -----

func.func @too_much_shared_memory(%in: memref<?x?xf64>, %out: memref<?x?xf64>) {
  // expected-error @+1 {{the tile array needs 262144 bytes of shared memory, more than the 232448 a block can have}}
  stencil.fft_apply %in -> %out pattern <star, rank = 2, radius = 1> weights [0.1, 0.2, 0.4, 0.2, 0.1] fused_steps 1 factors [array<i64: 16, 9>, array<i64: 8, 7>] spectrum dense<(0.0, 0.0)> : tensor<16x16x8x8xcomplex<f64>> : memref<?x?xf64>
  return
}
