// RUN: stencil-opt %s --stencil-decompose="fused-steps=2" --stencil-fold-row-swap --stencil-sptc-tile --stencil-sptc-pack --convert-stencil-to-sptc -verify-diagnostics

// The band kernel of a fused row form computes t direct steps on CUDA cores;
// when no tile of them fits in 48 KiB of shared memory (here halos of
// t r = 12 along z and y in f64), the conversion says so before it builds
// the Tensor Core kernel.
func.func @tall3d(%in: memref<?x?x?xf64>, %out: memref<?x?x?xf64>) {
  // expected-error @+1 {{the direct steps of the fused kernel (2 steps) need 134400 bytes of shared memory for their tile even with 8 x 4 threads, more than 49152: use fewer fused steps}}
  stencil.linear %in -> %out pattern <[[-6, 0, 0], [0, -6, 0], [0, 0, -1], [0, 0, 0], [0, 0, 1], [0, 6, 0], [6, 0, 0]]>
      weights [0.1, 0.15, 0.05, 0.3, 0.2, 0.12, 0.08] steps 6 : memref<?x?x?xf64>
  return
}
