// RUN: stencil-opt %s --split-input-file --lower-to-tc="low-rank=true" -verify-diagnostics

// The low-rank chain runs on the 16-bit m16n8k16 MMAs: an f64 stencil of low
// rank gets a located error from --stencil-sptc-pack (its direct f64 kernel
// needs low-rank=false).

func.func @f64_chain(%in: memref<?x?xf64>, %out: memref<?x?xf64>) {
  // expected-error @+1 {{'stencil.row_gemm' op is a low-rank chain on f64 grids; its kernel computes on f16 or bf16 (m16n8k16)}}
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1>
      weights [0.1, 0.2, 0.4, 0.2, 0.1] : memref<?x?xf64>
  return
}
