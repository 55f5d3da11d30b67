// RUN: stencil-opt %s --stencil-flatten="route=matching fused-steps=2" -verify-diagnostics

// The gathered form (SparStencil) takes no fused steps: with route=matching
// and fused-steps > 1 (--lower-to-sptc layout=matching fused-steps=2), every
// f16 stencil it would take is an error.
func.func @heat2d(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  // expected-error @+1 {{'stencil.linear' op is to take 2 fused steps by composition, which the gathered form (SparStencil) does not take: use the strided swap (layout=strided-swap or auto), or fused-steps=1}}
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1>
      weights [0.1, 0.15, 0.45, 0.2, 0.1] steps 4 : memref<?x?xf16>
  return
}
