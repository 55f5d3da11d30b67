// RUN: stencil-opt %s --convert-stencil-to-cuda-core="stream=on prefetch-distance=0" -verify-diagnostics
// RUN: stencil-opt %s --convert-stencil-to-cuda-core="stream=on prefetch-distance=5" -verify-diagnostics

// prefetch-distance counts the planes a prefetching sweep loads ahead: at
// least one, and at most 4 (each holds a plane's staging values in
// registers).

func.func @heat(%in: memref<?x?x?xf16>, %out: memref<?x?x?xf16>) {
  // expected-error @+1 {{'stencil.linear' op needs 1 <= prefetch-distance <= 4 (each plane ahead holds its staging values in registers)}}
  stencil.linear %in -> %out pattern <star, rank = 3, radius = 1>
      weights [0.1, 0.1, 0.1, 0.4, 0.1, 0.1, 0.1] : memref<?x?x?xf16>
  return
}
