// RUN: stencil-opt %s --split-input-file --convert-stencil-to-cuda-core="stream=on row-phases=4" -verify-diagnostics

// The phases split the 2 r_x + 1 offsets along x: Heat-2D has 3.

func.func @heat(%in: memref<?x?xf64>, %out: memref<?x?xf64>) {
  // expected-error @+1 {{'stencil.linear' op cannot split 3 x offset(s) (radius 1 along x) into row-phases=4 phases: use at most 3}}
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1>
      weights [0.1, 0.2, 0.4, 0.2, 0.1] : memref<?x?xf64>
  return
}

// -----

// A 3-D stencil streams through rings of planes, not rows.

func.func @heat3d(%in: memref<?x?x?xf64>, %out: memref<?x?x?xf64>) {
  // expected-error @+1 {{'stencil.linear' op needs the 2-D row sweep for row-phases=4 (stream=on on a 2-D stencil.linear; this kernel is streamed along z)}}
  stencil.linear %in -> %out pattern <star, rank = 3, radius = 1>
      weights [0.1, 0.1, 0.1, 0.4, 0.1, 0.1, 0.1] : memref<?x?x?xf64>
  return
}
