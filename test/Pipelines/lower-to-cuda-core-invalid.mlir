// RUN: stencil-opt %s --split-input-file --lower-to-cuda-core -verify-diagnostics

// The CUDA-core pipeline takes every element type and body; what it cannot
// take (boundaries other than halo, for now) gets a located error.

func.func @periodic(%in: memref<?x?xbf16>, %out: memref<?x?xbf16>) {
  // expected-error @+1 {{'stencil.linear' op has boundary 'periodic', but the CUDA-core kernel supports only the 'halo' boundary (use --lower-to-cpu for the others)}}
  stencil.linear %in -> %out pattern <box, rank = 2, radius = 1>
      weights [1., 2., 3., 4., 5., 6., 7., 8., 9.] boundary periodic : memref<?x?xbf16>
  return
}
