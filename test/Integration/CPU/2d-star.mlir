// RUN: stencil-opt %s --stencil-attach-cpu-harness="grid=20,22" --lower-to-cpu | %mlir_runner \
// RUN:   | %stencil_ref --result - --dtype f32 --grid 20,22 --pattern star:2:3 \
// RUN:     --weights 0.03,0.06,0.09,0.02,0.05,0.08,0.21,0.07,0.04,0.01,0.11,0.13,0.1

// Star-2D13P (radius 3) in f32, halo boundary.

func.func @star2d13p(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 3>
      weights [0.03, 0.06, 0.09, 0.02, 0.05, 0.08, 0.21, 0.07, 0.04, 0.01, 0.11, 0.13, 0.1]
      : memref<?x?xf32>
  return
}
