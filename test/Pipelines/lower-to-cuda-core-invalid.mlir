// RUN: stencil-opt %s --split-input-file --lower-to-cuda-core -verify-diagnostics

// The CUDA-core pipeline takes every element type, body and boundary; what
// it cannot take (grids that are not dense row-major, tiles larger than
// shared memory) gets a located error.

func.func @strided(%in: memref<?x?xbf16, strided<[?, 2]>>,
                   %out: memref<?x?xbf16, strided<[?, 2]>>) {
  // expected-error @+1 {{'stencil.linear' op needs grids with the identity layout}}
  stencil.linear %in -> %out pattern <box, rank = 2, radius = 1>
      weights [1., 2., 3., 4., 5., 6., 7., 8., 9.] boundary periodic
      : memref<?x?xbf16, strided<[?, 2]>>
  return
}
