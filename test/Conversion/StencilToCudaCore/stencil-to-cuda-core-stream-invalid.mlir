// RUN: stencil-opt %s --split-input-file --convert-stencil-to-cuda-core="stream=on fused-steps=3" -verify-diagnostics

// Streaming sweeps z planes: a 2-D stencil has none.
func.func @two_d(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  // expected-error @+1 {{'stencil.linear' op cannot stream a 2-D stencil: stream sweeps the z planes of a 3-D grid}}
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1>
      weights [0.1, 0.2, 0.4, 0.2, 0.1] : memref<?x?xf32>
  return
}

// -----

// Three f64 rings (input, steps 1 and 2) of 4 planes of (8 + 6) x (32 + 6)
// (the tile shrinks to one output per thread along y and still does not
// fit): 51072 bytes.
func.func @rings_too_large(%in: memref<?x?x?xf64>, %out: memref<?x?x?xf64>) {
  // expected-error @+1 {{'stencil.linear' op needs 51072 bytes of shared memory for its streamed tile (3 ring(s) of 4 planes of 14 x 38), more than 49152: use a smaller fused-steps, or fewer threads or outputs-per-thread}}
  stencil.linear %in -> %out pattern <star, rank = 3, radius = 1>
      weights [0.1, 0.1, 0.1, 0.4, 0.1, 0.1, 0.1] : memref<?x?x?xf64>
  return
}
