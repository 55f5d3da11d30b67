// RUN: stencil-opt %s --split-input-file --stencil-decompose="rows-per-block=6" -verify-diagnostics

// An explicit L must be even, >= 2r + 2 and divide 16.
func.func @not_a_divisor(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  // expected-error @+1 {{'stencil.linear' op rows-per-block=6 must be even, at least 2r + 2 = 4 and divide 16}}
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1> weights [1., 2., 3., 4., 5.] : memref<?x?xf16>
  return
}
