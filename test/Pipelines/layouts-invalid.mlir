// RUN: stencil-opt %s --split-input-file --lower-to-fft -verify-diagnostics
// RUN: stencil-opt %s --split-input-file --lower-to-cuda-core -verify-diagnostics
// RUN: stencil-opt %s --split-input-file --lower-to-tc -verify-diagnostics
// RUN: stencil-opt %s --split-input-file --lower-to-cpu -verify-diagnostics

// A grid with a general affine-map layout: the GPU kernels address grids
// as dense row-major arrays, and the CPU lowering takes strided layouts
// only; each pipeline refuses it with a located error (it once crashed
// --lower-to-fft and --lower-to-auto).

#transpose = affine_map<(d0, d1) -> (d1, d0)>
func.func @transposed(%in: memref<64x64xf64, #transpose>, %out: memref<64x64xf64, #transpose>) {
  // expected-error-re @+1 {{'stencil.{{linear|fft_apply|row_gemm}}' op needs grids with {{the identity layout|a strided layout \(the identity or strided<...>\), not affine_map<\(d0, d1\) -> \(d1, d0\)>; normalize the map first \(--normalize-memrefs\)}}}}
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1> weights [0.2, 0.2, 0.2, 0.2, 0.2] : memref<64x64xf64, #transpose>
  return
}
