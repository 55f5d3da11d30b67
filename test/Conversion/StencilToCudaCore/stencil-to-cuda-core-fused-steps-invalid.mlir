// RUN: stencil-opt %s --convert-stencil-to-cuda-core=fused-steps=0 -verify-diagnostics
// RUN: stencil-opt %s --convert-stencil-to-cuda-core=fused-steps=65 -verify-diagnostics

// fused-steps counts the time steps of one launch: at least one, and at
// most 64 (every fused step is unrolled in the kernel).

func.func @heat(%in: memref<?xf32>, %out: memref<?xf32>) {
  // expected-error @+1 {{'stencil.linear' op needs 1 <= fused-steps <= 64 (each fused step is unrolled in the kernel)}}
  stencil.linear %in -> %out pattern <star, rank = 1, radius = 1>
      weights [0.25, 0.5, 0.25] steps 8 : memref<?xf32>
  return
}
