// RUN: stencil-opt %s --convert-stencil-to-cuda-core=fused-steps=4 | FileCheck %s

// The automatic outputs-per-thread with fused steps: a 2-D f64 star of
// radius 3 over 4 steps needs two buffers of (32 + 24) x (32 + 24) x 8 =
// 50176 bytes with 4 outputs per thread, 2 x (16 + 24) x (32 + 24) x 8 =
// 35840 with 2.
// CHECK-LABEL: stencil.launches
// CHECK-SAME: steps_per_launch = 4
// CHECK-SAME: tile = array<i64: 32, 16>
func.func @star13(%in: memref<?x?xf64>, %out: memref<?x?xf64>) {
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 3>
      weights [0.1, 0.1, 0.1, 0.05, 0.05, 0.05, 0.1, 0.05, 0.05, 0.05, 0.1, 0.1, 0.1] steps 8 : memref<?x?xf64>
  return
}
