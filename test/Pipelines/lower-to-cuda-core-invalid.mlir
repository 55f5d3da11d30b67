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

// -----

// An offset of 2^31 - 1 is rejected at once (no work proportional to it
// happens first; it used to hang the compiler).
func.func @huge_offset(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  // expected-error @+1 {{radius 2147483647 along dimension 1 needs a tile of at least 4294967295 points along it, more than fits in 49152 bytes of shared memory}}
  stencil.linear %in -> %out pattern <[[0, 0], [0, 2147483647]]> weights [0.5, 0.5] : memref<?x?xf16>
  return
}
