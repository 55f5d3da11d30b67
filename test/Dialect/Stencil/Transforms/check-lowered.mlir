// RUN: stencil-opt %s --split-input-file --stencil-check-lowered="allowed=func,arith pipeline=test" -verify-diagnostics

// Only builtin and the allowed dialects: nothing to report.
func.func @ok(%a: f32) -> f32 {
  %b = arith.addf %a, %a : f32
  return %b : f32
}

// -----

func.func @left_over(%in: memref<8xf32>, %out: memref<8xf32>) {
  // expected-error @+1 {{'stencil.linear' was not lowered by the 'test' pipeline (allowed: func arith)}}
  stencil.linear %in -> %out pattern <star, rank = 1, radius = 1> weights [1., 2., 3.] : memref<8xf32>
  return
}
