// RUN: stencil-opt %s --split-input-file --convert-stencil-to-cuda-core="stream=on fused-steps=4" -verify-diagnostics

// Streaming sweeps the outermost dimension: a 1-D stencil has none to
// sweep along.
func.func @one_d(%in: memref<?xf32>, %out: memref<?xf32>) {
  // expected-error @+1 {{'stencil.linear' op cannot stream a 1-D stencil: stream sweeps the outermost dimension of a 2-D or 3-D grid}}
  stencil.linear %in -> %out pattern <star, rank = 1, radius = 1>
      weights [0.25, 0.5, 0.25] : memref<?xf32>
  return
}

// -----

// The 2-D row sweep keeps partial sums of weighted rows: a general body has
// none.
func.func @two_d_apply(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  // expected-error @+1 {{'stencil.apply' op cannot stream a 2-D stencil.apply: the row sweep keeps partial sums of a linear stencil's weighted rows (use stencil.linear, or stream=off)}}
  stencil.apply %in -> %out : memref<?x?xf32> {
    %a = stencil.access [0, -1] : f32
    %b = stencil.access [0, 1] : f32
    %m = arith.maximumf %a, %b : f32
    stencil.yield %m : f32
  }
  return
}

// -----

// 256 threads in one row keep 2 x 4 x 32 = 256 columns for the halo of 4
// fused steps of radius 32 along x: no column is left for outputs.
func.func @no_columns(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  // expected-error @+1 {{'stencil.linear' op cannot stream with 256 columns per block: a row of the block keeps 256 columns for the halo of 4 fused step(s) of radius 32 along x and needs at least one column of outputs (use more threads-x * threads-y * outputs-per-thread, or fewer fused-steps)}}
  stencil.linear %in -> %out pattern <[[0, -32], [0, 0], [0, 32]]>
      weights [0.25, 0.5, 0.25] : memref<?x?xf32>
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
