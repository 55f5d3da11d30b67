// RUN: stencil-opt %s --convert-stencil-to-cuda-core="stream=auto fused-steps=3 threads-y=32 planes=8" -verify-diagnostics

// The same rule for shared memory: 1024 threads sweeping 3 fused steps of
// f64 rows need 2 x 3 rows of 1026 elements, more than 48 KiB. stream=auto
// stages such a stencil (-auto-shared.mlir) unless `planes` asks for the
// sweep, as here.
func.func @heat(%in: memref<?x?xf64>, %out: memref<?x?xf64>) {
  // expected-error @+1 {{'stencil.linear' op needs 49248 bytes of shared memory for its row sweep (two rows of 1026 elements for each of 3 fused step(s)), more than 49152: use a smaller fused-steps, or fewer threads}}
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1>
      weights [0.1, 0.2, 0.4, 0.2, 0.1] : memref<?x?xf64>
  return
}
