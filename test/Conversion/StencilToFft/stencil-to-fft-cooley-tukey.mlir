// RUN: stencil-opt %s -split-input-file --stencil-fft-spectrum --convert-stencil-to-fft=f64-shape=m16n8k4 | FileCheck %s
// RUN: stencil-opt %s -split-input-file --stencil-fft-spectrum --convert-stencil-to-fft | FileCheck %s --check-prefix=M8

// Cooley-Tukey tiles (FftCooleyTukey.cpp): three passes over a 64 x 64
// array of 16-byte pairs; each pass issues the radix-8 chains of one unit
// (forward: 8 m16n8k4 MMAs; pass 2 forward and inverse: 16; pass 3: 8) with
// a __syncwarp before the in-place stores. The coefficients hold the packed
// spectrum (4096 complex), the one-step tail kernel's (4096 complex: T > 1),
// the per-lane constants (192) and, in 1-D, the four-step twiddles (8192
// complex): 4 words each.

// CHECK: shared_bytes = 65536
// CHECK: memref.global "private" constant @heat2d_fft_coefficients : memref<33536xi32>
// CHECK: gpu.func @heat2d_fft
// CHECK-COUNT-32: mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64
// CHECK-NOT: mma.sync
// CHECK: gpu.return
// M8-LABEL: gpu.func @heat2d_fft
// M8-COUNT-64: nvvm.mma.sync
// M8-NOT: mma.sync
// M8: gpu.return
func.func @heat2d(%in: memref<?x?xf64>, %out: memref<?x?xf64>) {
  stencil.fft_apply %in -> %out pattern <star, rank = 2, radius = 1> weights [0.1, 0.2, 0.4, 0.2, 0.1] steps 10 fused_steps 10 factors [array<i64: 8, 8>, array<i64: 8, 8>] cooley_tukey : memref<?x?xf64>
  return
}

// -----

// 1-D: the four-step twiddles follow the per-lane constants.
// CHECK: memref.global "private" constant @heat1d_fft_coefficients : memref<66304xi32>
// CHECK: gpu.func @heat1d_fft
// CHECK-COUNT-32: mma.sync.aligned.m16n8k4
// CHECK-NOT: mma.sync
// CHECK: gpu.return
func.func @heat1d(%in: memref<?xf64>, %out: memref<?xf64>) {
  stencil.fft_apply %in -> %out pattern <star, rank = 1, radius = 1> weights [0.25, 0.5, 0.25] steps 64 fused_steps 64 factors [array<i64: 8, 8, 8, 8>] cooley_tukey : memref<?xf64>
  return
}
