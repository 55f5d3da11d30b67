// RUN: stencil-opt %s --lower-to-tc="low-rank=true fused-steps=2" -split-input-file -verify-diagnostics

// With fused steps the low-rank chain factors the composed weights. The
// 2-fold composition of random box weights needs 5 terms within the f16
// rounding, more than the t r + 1 = 3 the chain pays off at: a warning,
// then the direct composed form.
func.func @box2d9p_random(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  // expected-warning @+1 {{the 2-fold composed weights (5 x 5) need 5 rank-1 terms within the element type's rounding, but the low-rank chain pays off up to 3; composing directly}}
  stencil.linear %in -> %out pattern <box, rank = 2, radius = 1>
      weights [0.0192, 0.0175, 0.0512, 0.0552, 0.0089, 0.0073, 0.0613, 0.0551, 0.0157]
      steps 4 : memref<?x?xf16>
  return
}

// -----

// The composed radius (2 steps of radius 3: 6) does not fit the chain's
// 16-row MMA (radius at most 4).
func.func @star2d13p(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  // expected-error @+1 {{'stencil.linear' op has radius 6 after composing 2 fused steps of a stencil of radius 3, but the low-rank Tensor Core chain reaches at most 4 rows (8 + 2h <= 16): use fewer fused steps, or low-rank=false}}
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 3>
      weights [0.05, 0.06, 0.07, 0.05, 0.06, 0.07, 0.2, 0.07, 0.06, 0.05, 0.07, 0.06, 0.05]
      : memref<?x?xf16>
  return
}
