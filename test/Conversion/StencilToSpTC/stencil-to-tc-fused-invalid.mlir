// RUN: stencil-opt %s --stencil-decompose="fused-steps=2" --stencil-fold-row-swap --stencil-sptc-tile --stencil-sptc-pack --convert-stencil-to-sptc -verify-diagnostics

// Composed weights alone are wrong near the grid's edge: the fused row form
// has no kernel yet, and the conversion says so instead of emitting one.
func.func @heat2d(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  // expected-error @+1 {{'stencil.row_gemm' op fuses 2 steps by composition, which has no kernel yet (the band within t r of the grid's edge needs direct steps): decompose with fused-steps=1, or use --lower-to-cuda-core fused-steps}}
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1>
      weights [0.1, 0.2, 0.4, 0.2, 0.1] steps 4 : memref<?x?xf16>
  return
}
