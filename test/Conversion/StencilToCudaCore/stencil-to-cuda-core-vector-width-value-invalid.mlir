// RUN: stencil-opt %s --convert-stencil-to-cuda-core="stream=on plane-sums=true vector-width=3" -verify-diagnostics
// RUN: stencil-opt %s --convert-stencil-to-cuda-core="stream=on plane-sums=true vector-width=0" -verify-diagnostics
// RUN: stencil-opt %s --convert-stencil-to-cuda-core="stream=on plane-sums=true vector-width=16" -verify-diagnostics

// A vector of columns is 1, 2, 4 or 8 elements.

func.func @heat(%in: memref<?x?x?xf16>, %out: memref<?x?x?xf16>) {
  // expected-error @+1 {{'stencil.linear' op needs vector-width 1, 2, 4 or 8, not}}
  stencil.linear %in -> %out pattern <star, rank = 3, radius = 1>
      weights [0.1, 0.1, 0.1, 0.4, 0.1, 0.1, 0.1] : memref<?x?x?xf16>
  return
}
