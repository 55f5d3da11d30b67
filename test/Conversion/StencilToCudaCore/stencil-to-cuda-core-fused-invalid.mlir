// RUN: stencil-opt %s --split-input-file --convert-stencil-to-cuda-core=fused-steps=4 -verify-diagnostics

// Temporal blocking keeps two shared buffers of the tile with a halo of
// fused-steps x r per side; when they exceed 48 KiB the error says so.

// 3-D, radius 2: 2 x (1 + 16) x (8 + 16) x (32 + 16) f16, with one output
// per thread (the automatic choice's last resort) and one plane.
func.func @star3d(%in: memref<?x?x?xf16>, %out: memref<?x?x?xf16>) {
  // expected-error @+1 {{'stencil.linear' op needs 78336 bytes of shared memory for fused-steps=4 (two buffers of the tile with a halo of 4 x the radius per side), more than 49152: use a smaller fused-steps, or fewer threads, outputs-per-thread or planes}}
  stencil.linear %in -> %out pattern <star, rank = 3, radius = 2>
      weights [0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.05, 0.05, 0.05, 0.05] : memref<?x?x?xf16>
  return
}

// -----

// 2-D f64, radius 5: 2 x (8 + 40) x (32 + 40) f64 with one output per
// thread; a general body too.
func.func @star21(%in: memref<?x?xf64>, %out: memref<?x?xf64>) {
  // expected-error @+1 {{'stencil.apply' op needs 55296 bytes of shared memory for fused-steps=4 (two buffers of the tile with a halo of 4 x the radius per side), more than 49152: use a smaller fused-steps, or fewer threads, outputs-per-thread or planes}}
  stencil.apply %in -> %out : memref<?x?xf64> {
    %a = stencil.access [-5, 0] : f64
    %b = stencil.access [0, 5] : f64
    %c = arith.maximumf %a, %b : f64
    stencil.yield %c : f64
  }
  return
}
