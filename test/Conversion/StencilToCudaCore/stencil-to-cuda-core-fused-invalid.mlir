// RUN: stencil-opt %s --split-input-file --convert-stencil-to-cuda-core=fused-steps=4 -verify-diagnostics

// Temporal blocking keeps two shared buffers of the tile with a halo of
// fused-steps x r per side; when they exceed 48 KiB the error says so.

// 3-D, radius 1: 2 x (1 + 8) x (32 + 8) x (32 + 8) f16.
func.func @heat3d(%in: memref<?x?x?xf16>, %out: memref<?x?x?xf16>) {
  // expected-error @+1 {{'stencil.linear' op needs 57600 bytes of shared memory for fused-steps=4 (two buffers of the tile with a halo of 4 x the radius per side), more than 49152: use a smaller fused-steps, or fewer threads, outputs-per-thread or planes}}
  stencil.linear %in -> %out pattern <star, rank = 3, radius = 1>
      weights [0.1, 0.1, 0.1, 0.4, 0.1, 0.1, 0.1] : memref<?x?x?xf16>
  return
}

// -----

// 2-D f64, radius 3: 2 x (32 + 24) x (32 + 24) f64; a general body too.
func.func @star13(%in: memref<?x?xf64>, %out: memref<?x?xf64>) {
  // expected-error @+1 {{'stencil.apply' op needs 50176 bytes of shared memory for fused-steps=4 (two buffers of the tile with a halo of 4 x the radius per side), more than 49152: use a smaller fused-steps, or fewer threads, outputs-per-thread or planes}}
  stencil.apply %in -> %out : memref<?x?xf64> {
    %a = stencil.access [-3, 0] : f64
    %b = stencil.access [0, 3] : f64
    %c = arith.maximumf %a, %b : f64
    stencil.yield %c : f64
  }
  return
}
