// RUN: stencil-opt %s --lower-to-tc="low-rank=true fused-steps=2" -verify-diagnostics

// The low-rank chain takes no fused steps yet: a stencil --stencil-low-rank
// factors is an error with fused-steps > 1 (compose without low-rank).
func.func @box2d9p_rank1(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  // expected-error @+1 {{'stencil.low_rank' op is a low-rank chain, which takes no fused steps (fused-steps=2); compose the steps without low-rank}}
  stencil.linear %in -> %out pattern <box, rank = 2, radius = 1>
      weights [0.01, 0.02, 0.01, 0.02, 0.04, 0.02, 0.01, 0.02, 0.01] steps 4
      : memref<?x?xf16>
  return
}
