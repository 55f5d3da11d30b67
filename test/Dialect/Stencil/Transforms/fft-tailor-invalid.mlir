// RUN: stencil-opt %s -split-input-file --stencil-fft-tailor -verify-diagnostics
// RUN: not stencil-opt %s -split-input-file --stencil-fft-tailor=fused-steps=1025 2>&1 | FileCheck %s --check-prefix=STEPS
// RUN: not stencil-opt %s -split-input-file --stencil-fft-tailor=max-tile-elements=8 2>&1 | FileCheck %s --check-prefix=BUDGET

// STEPS: error: --stencil-fft-tailor: fused-steps must be in [0, 1024] (0 chooses it), got 1025
// BUDGET: error: --stencil-fft-tailor: max-tile-elements must be in [64, 2^20], got 8

func.func @f16(%in: memref<?xf16>, %out: memref<?xf16>) {
  // expected-error @+1 {{the FFT pipeline computes in f64 and takes f64 or f32 grids, got 'f16'}}
  stencil.linear %in -> %out pattern <star, rank = 1, radius = 1> weights [0.25, 0.5, 0.25] : memref<?xf16>
  return
}

// -----

func.func @nonlinear(%in: memref<?xf64>, %out: memref<?xf64>) {
  // expected-error @+1 {{the FFT pipeline needs a linear stencil}}
  stencil.apply %in -> %out : memref<?xf64> {
    %a = stencil.access [-1] : f64
    %b = stencil.access [1] : f64
    %m = arith.maximumf %a, %b : f64
    stencil.yield %m : f64
  }
  return
}

// -----

func.func @radius_too_large(%in: memref<?xf64>, %out: memref<?xf64>) {
  // expected-error @+1 {{no FFT tile for this stencil: no FFT tile of at most 4096 elements has a valid region: 1 fused steps of radius 3000 need more than 6000 points along dimension 0 (the largest tile has 4096)}}
  stencil.linear %in -> %out pattern <[[-3000], [0], [3000]]> weights [0.25, 0.5, 0.25] : memref<?xf64>
  return
}

// -----

func.func @budget_3d(%in: memref<?x?x?xf64>, %out: memref<?x?x?xf64>) {
  // expected-error @+1 {{no FFT tile for this stencil: no FFT tile fits 4096 complex elements of shared memory for this radius and 1 fused steps}}
  stencil.linear %in -> %out pattern <[[-8, 0, 0], [0, 0, 0], [0, 0, 8]]> weights [0.25, 0.5, 0.25] : memref<?x?x?xf64>
  return
}
