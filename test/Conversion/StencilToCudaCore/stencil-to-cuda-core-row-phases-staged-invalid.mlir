// RUN: stencil-opt %s --convert-stencil-to-cuda-core="row-phases=2" -verify-diagnostics

// Without stream=on a 2-D stencil is staged: the phases belong to the row
// sweep.

func.func @box(%in: memref<?x?xf64>, %out: memref<?x?xf64>) {
  // expected-error @+1 {{'stencil.linear' op needs the 2-D row sweep for row-phases=2 (stream=on on a 2-D stencil.linear; this kernel is staged)}}
  stencil.linear %in -> %out pattern <box, rank = 2, radius = 1>
      weights [0.1, 0.1, 0.1, 0.1, 0.2, 0.1, 0.1, 0.1, 0.1] : memref<?x?xf64>
  return
}
