// RUN: stencil-opt %s --convert-stencil-to-cuda-core="stream=auto fused-steps=3 threads-y=32" | FileCheck %s

// 1024 threads sweeping 3 fused steps of f64 rows would need 2 x 3 rows of
// 1026 elements, more than 48 KiB of shared memory: stream=auto stages the
// stencil (32 x 32 threads, 32 x 64 outputs). With `planes`, which asks for
// the sweep, that is an error (-auto-shared-invalid.mlir).
// CHECK: {{[{ ]}}tile = array<i64: 32, 64>
// CHECK-NOT: {{[{ ]}}tile =
func.func @heat(%in: memref<?x?xf64>, %out: memref<?x?xf64>) {
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1>
      weights [0.1, 0.2, 0.4, 0.2, 0.1] : memref<?x?xf64>
  return
}
