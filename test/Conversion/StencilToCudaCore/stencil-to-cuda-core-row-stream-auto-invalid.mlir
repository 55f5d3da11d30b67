// RUN: stencil-opt %s --convert-stencil-to-cuda-core="stream=auto fused-steps=2 threads-x=2 threads-y=1 planes=8" -verify-diagnostics

// stream=auto falls back to the staged tiling where the row sweep does not
// fit, unless `planes` (the rows of a streamed 2-D block) asks for the
// sweep: then the sweep's diagnostics apply, as under stream=on. 2 threads
// keep 2 t r_x = 4 columns for the halo and none for outputs.
func.func @heat(%in: memref<?x?xf64>, %out: memref<?x?xf64>) {
  // expected-error @+1 {{'stencil.linear' op cannot stream with 2 columns per block: a row of the block keeps 4 columns for the halo of 2 fused step(s) of radius 1 along x and needs at least one column of outputs (use more threads-x * threads-y * outputs-per-thread, or fewer fused-steps)}}
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1>
      weights [0.1, 0.2, 0.4, 0.2, 0.1] : memref<?x?xf64>
  return
}
