// RUN: stencil-opt %s --split-input-file --convert-stencil-to-cuda-core="stream=on fused-steps=4" -verify-diagnostics

// Streaming sweeps z planes: a 2-D stencil has none.
func.func @two_d(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  // expected-error @+1 {{'stencil.linear' op cannot stream a 2-D stencil: stream sweeps the z planes of a 3-D grid}}
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1>
      weights [0.1, 0.2, 0.4, 0.2, 0.1] : memref<?x?xf32>
  return
}

// -----

// Four f64 rings (input, steps 1 to 3) of 2 r_z + 1 = 3 planes of
// (8 + 8) x (32 + 8) (the tile shrinks to one output per thread along y and
// still does not fit): 61440 bytes.
func.func @rings_too_large(%in: memref<?x?x?xf64>, %out: memref<?x?x?xf64>) {
  // expected-error @+1 {{'stencil.linear' op needs 61440 bytes of shared memory for its streamed tile (4 ring(s) of 3 planes of 16 x 40), more than 49152: use a smaller fused-steps, or fewer threads or outputs-per-thread}}
  stencil.linear %in -> %out pattern <star, rank = 3, radius = 1>
      weights [0.1, 0.1, 0.1, 0.4, 0.1, 0.1, 0.1] : memref<?x?x?xf64>
  return
}
