// A module no candidate lowers is an error that names every candidate's
// reason: here the device profile has a peak for the sparse f16 unit only,
// and the stencil is f64 (candidates fusing more steps than the op has are
// rejected for that first, before their pipeline runs).

// RUN: stencil-opt %s -verify-diagnostics --stencil-select-pipeline="device-profile=%S/Inputs/sparse-only.profile"

func.func @heat2d(%in: memref<?x?xf64>, %out: memref<?x?xf64>) {
  // expected-error@below {{no GPU pipeline lowers this module}}
  // expected-note@below {{lower-to-sptc{chip=sm_90}: 'stencil.sparse_row_gemm' op has element type 'f64'}}
  // expected-note@below {{lower-to-sptc{chip=sm_90 fused-steps=2}: fuses 2 steps, the op has 1}}
  // expected-note@below {{lower-to-sptc{chip=sm_90 fused-steps=3}: fuses 3 steps, the op has 1}}
  // expected-note@below {{lower-to-sptc{chip=sm_90 fused-steps=4}: fuses 4 steps, the op has 1}}
  // expected-note@below {{lower-to-tc{chip=sm_90}: the device profile has no peak for unit mma.f64.m16n8k4}}
  // expected-note@below {{lower-to-tc{chip=sm_90 fused-steps=2}: fuses 2 steps, the op has 1}}
  // expected-note@below {{lower-to-tc{chip=sm_90 fused-steps=3}: fuses 3 steps, the op has 1}}
  // expected-note@below {{lower-to-tc{chip=sm_90 fused-steps=4}: fuses 4 steps, the op has 1}}
  // expected-note@below {{lower-to-tc{chip=sm_90 low-rank=true}: 'stencil.row_gemm' op is a low-rank chain on f64 grids}}
  // expected-note@below {{lower-to-tc{chip=sm_90 low-rank=true fused-steps=2}: fuses 2 steps, the op has 1}}
  // expected-note@below {{lower-to-tc{chip=sm_90 low-rank=true fused-steps=3}: fuses 3 steps, the op has 1}}
  // expected-note@below {{lower-to-tc{chip=sm_90 low-rank=true fused-steps=4}: fuses 4 steps, the op has 1}}
  // expected-note@below {{lower-to-fft{chip=sm_90 fused-steps=1}: the device profile has no peak for unit mma.f64.m16n8k4}}
  // expected-note@below {{lower-to-fft{chip=sm_90 fused-steps=2}: the device profile has no peak for unit mma.f64.m16n8k4}}
  // expected-note@below {{lower-to-fft{chip=sm_90 fused-steps=3}: the device profile has no peak for unit mma.f64.m16n8k4}}
  // expected-note@below {{lower-to-fft{chip=sm_90 fused-steps=4}: the device profile has no peak for unit mma.f64.m16n8k4}}
  // expected-note@below {{lower-to-cuda-core{chip=sm_90 fused-steps=1}: the device profile has no peak for unit fma.f64}}
  // expected-note@below {{lower-to-cuda-core{chip=sm_90 fused-steps=2}: fuses 2 steps, the op has 1}}
  // expected-note@below {{lower-to-cuda-core{chip=sm_90 fused-steps=3}: fuses 3 steps, the op has 1}}
  // expected-note@below {{lower-to-cuda-core{chip=sm_90 fused-steps=4}: fuses 4 steps, the op has 1}}
  // expected-note@below {{lower-to-cuda-core{chip=sm_90 fused-steps=1 plane-sums=true threads-y=4 outputs-per-thread=4 planes=64}: plane sums are for the streamed one-step sweep of a 3-D stencil.linear}}
  // expected-note@below {{lower-to-cuda-core{chip=sm_90 fused-steps=1 plane-sums=true vector-width=8 threads-y=2 outputs-per-thread=2 planes=64}: plane sums are for the streamed one-step sweep of a 3-D stencil.linear}}
  // expected-note@below {{lower-to-cuda-core{chip=sm_90 fused-steps=1 plane-sums=true vector-width=4 threads-y=4 outputs-per-thread=2 planes=64 prefetch-distance=3}: plane sums are for the streamed one-step sweep of a 3-D stencil.linear}}
  // expected-note@below {{lower-to-cuda-core{chip=sm_90 fused-steps=1 plane-sums=true vector-width=2 threads-y=4 outputs-per-thread=4 planes=64}: plane sums are for the streamed one-step sweep of a 3-D stencil.linear}}
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1> weights [0.2, 0.3, 0.1, 0.1, 0.3] : memref<?x?xf64>
  return
}
