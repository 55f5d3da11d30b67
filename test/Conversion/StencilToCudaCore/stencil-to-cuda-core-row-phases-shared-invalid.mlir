// RUN: stencil-opt %s --convert-stencil-to-cuda-core="stream=on threads-y=32 fused-steps=3 row-phases=1" -verify-diagnostics

// A row of 1024 threads: 4 buffers (two input, two levels) of 7 rows of
// 1024 + 2 r_x = 1030 f32 elements, 115360 bytes.

func.func @box(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  // expected-error @+1 {{'stencil.linear' op needs 115360 bytes of shared memory for its row groups (4 buffers of 7 rows of 1030 elements), more than 49152: use a smaller fused-steps, or fewer threads, or row-phases=0}}
  stencil.linear %in -> %out pattern <box, rank = 2, radius = 3> weights [
      0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02,
      0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02,
      0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02,
      0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02] : memref<?x?xf32>
  return
}
