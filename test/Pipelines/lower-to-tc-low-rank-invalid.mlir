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

// -----

// Equal huge radii: the low-rank pass leaves the stencil alone (no
// (2^32 - 1)^2 weight matrix) and the matrix form reports the radius.
func.func @huge_diagonal_offset(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  // expected-error @+1 {{innermost radius 2147483647 needs kernel matrices of at least 4294967296 rows}}
  stencil.linear %in -> %out pattern <[[0, 0], [2147483647, 2147483647]]> weights [0.5, 0.5] : memref<?x?xf16>
  return
}
