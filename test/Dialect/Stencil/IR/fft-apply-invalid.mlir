// RUN: stencil-opt %s -split-input-file -verify-diagnostics

// One case per diagnostic of the stencil.fft_apply verifier.

func.func @element_type(%in: memref<?xf16>, %out: memref<?xf16>) {
  // expected-error @+1 {{computes in f64 or f32 grids, got 'f16'}}
  stencil.fft_apply %in -> %out pattern <star, rank = 1, radius = 1> weights [0.25, 0.5, 0.25] fused_steps 1 factors [array<i64: 8, 7>] : memref<?xf16>
  return
}

// -----

func.func @fused_more_than_steps(%in: memref<?xf64>, %out: memref<?xf64>) {
  // expected-error @+1 {{fuses 4 steps but the op has only 2}}
  stencil.fft_apply %in -> %out pattern <star, rank = 1, radius = 1> weights [0.25, 0.5, 0.25] steps 2 fused_steps 4 factors [array<i64: 8, 7>] : memref<?xf64>
  return
}

// -----

func.func @fused_steps_limit(%in: memref<?xf64>, %out: memref<?xf64>) {
  // expected-error @+1 {{attribute 'fused_steps' failed to satisfy constraint}}
  stencil.fft_apply %in -> %out pattern <star, rank = 1, radius = 1> weights [0.25, 0.5, 0.25] steps 2000 fused_steps 1025 factors [array<i64: 8, 7>] : memref<?xf64>
  return
}

// -----

func.func @factor_count(%in: memref<?x?xf64>, %out: memref<?x?xf64>) {
  // expected-error @+1 {{has factors for 1 dimensions but the grid has rank 2}}
  stencil.fft_apply %in -> %out pattern <star, rank = 2, radius = 1> weights [0.1, 0.2, 0.4, 0.2, 0.1] fused_steps 1 factors [array<i64: 8, 7>] : memref<?x?xf64>
  return
}

// -----

func.func @not_coprime(%in: memref<?xf64>, %out: memref<?xf64>) {
  // expected-error @+1 {{the factors of dimension 0 must be 1 to 4 pairwise coprime integers in [2, 64]}}
  stencil.fft_apply %in -> %out pattern <star, rank = 1, radius = 1> weights [0.25, 0.5, 0.25] fused_steps 1 factors [array<i64: 8, 6>] : memref<?xf64>
  return
}

// -----

func.func @factor_too_large(%in: memref<?xf64>, %out: memref<?xf64>) {
  // expected-error @+1 {{the factors of dimension 0 must be 1 to 4 pairwise coprime integers in [2, 64]}}
  stencil.fft_apply %in -> %out pattern <star, rank = 1, radius = 1> weights [0.25, 0.5, 0.25] fused_steps 1 factors [array<i64: 65>] : memref<?xf64>
  return
}

// -----

func.func @no_valid_region(%in: memref<?xf64>, %out: memref<?xf64>) {
  // expected-error @+1 {{a tile of 56 points along dimension 0 has no valid region for 7 fused steps of radius 4 (it needs more than 56)}}
  stencil.fft_apply %in -> %out pattern <star, rank = 1, radius = 4> weights [0.1, 0.1, 0.1, 0.1, 0.2, 0.1, 0.1, 0.1, 0.1] steps 7 fused_steps 7 factors [array<i64: 8, 7>] : memref<?xf64>
  return
}

// -----

func.func @huge_radius(%in: memref<?xf64>, %out: memref<?xf64>) {
  // expected-error @+1 {{a tile of 56 points along dimension 0 has no valid region for 1024 fused steps of radius 2147483647 (it needs more than 4398046509056)}}
  stencil.fft_apply %in -> %out pattern <[[0], [2147483647]]> weights [0.5, 0.5] steps 1024 fused_steps 1024 factors [array<i64: 8, 7>] : memref<?xf64>
  return
}

// -----

func.func @array_too_large(%in: memref<?x?x?xf64>, %out: memref<?x?x?xf64>) {
  // expected-error @+1 {{the tile array has more than 2^20 elements (16, 16, 16, 16, 16, 16): the tile must fit a thread block's shared memory}}
  stencil.fft_apply %in -> %out pattern <star, rank = 3, radius = 1> weights [0.1, 0.1, 0.1, 0.4, 0.1, 0.1, 0.1] fused_steps 1 factors [array<i64: 16, 9>, array<i64: 16, 9>, array<i64: 16, 9>] : memref<?x?x?xf64>
  return
}

// -----

func.func @spectrum_type(%in: memref<?xf64>, %out: memref<?xf64>) {
  // expected-error @+1 {{spectrum must be a tensor of complex<f64>}}
  stencil.fft_apply %in -> %out pattern <star, rank = 1, radius = 1> weights [0.25, 0.5, 0.25] fused_steps 1 factors [array<i64: 8>] spectrum dense<0.0> : tensor<8xf64> : memref<?xf64>
  return
}

// -----

func.func @spectrum_shape(%in: memref<?xf64>, %out: memref<?xf64>) {
  // expected-error @+1 {{spectrum has shape 'tensor<8xcomplex<f64>>' but the tile array is 8x8 (the factors' padded extents)}}
  stencil.fft_apply %in -> %out pattern <star, rank = 1, radius = 1> weights [0.25, 0.5, 0.25] fused_steps 1 factors [array<i64: 8, 7>] spectrum dense<(0.0, 0.0)> : tensor<8xcomplex<f64>> : memref<?xf64>
  return
}

// -----

func.func @missing_tail(%in: memref<?xf64>, %out: memref<?xf64>) {
  // expected-error @+1 {{needs a tail_spectrum (one step's) for the last 1 steps}}
  stencil.fft_apply %in -> %out pattern <star, rank = 1, radius = 1> weights [0.25, 0.5, 0.25] steps 3 fused_steps 2 factors [array<i64: 8>] spectrum dense<(0.0, 0.0)> : tensor<8xcomplex<f64>> : memref<?xf64>
  return
}

// -----

func.func @extra_tail(%in: memref<?xf64>, %out: memref<?xf64>) {
  // expected-error @+1 {{a tail_spectrum needs a spectrum and fused_steps > 1}}
  stencil.fft_apply %in -> %out pattern <star, rank = 1, radius = 1> weights [0.25, 0.5, 0.25] steps 4 fused_steps 1 factors [array<i64: 8>] spectrum dense<(0.0, 0.0)> : tensor<8xcomplex<f64>> tail_spectrum dense<(0.0, 0.0)> : tensor<8xcomplex<f64>> : memref<?xf64>
  return
}

// -----

func.func @same_buffer(%in: memref<?xf64>) {
  // expected-error @+1 {{reads and writes the same buffer}}
  stencil.fft_apply %in -> %in pattern <star, rank = 1, radius = 1> weights [0.25, 0.5, 0.25] fused_steps 1 factors [array<i64: 8>] : memref<?xf64>
  return
}

// -----

func.func @cooley_tukey_shape(%in: memref<?x?xf64>, %out: memref<?x?xf64>) {
  // expected-error @+1 {{a cooley_tukey tile has the digits [8, 8] per dimension in 2-D (64 x 64) or [8, 8, 8, 8] in 1-D (4096), got [array<i64: 8, 7>, array<i64: 8, 8>]}}
  stencil.fft_apply %in -> %out pattern <star, rank = 2, radius = 1> weights [0.1, 0.2, 0.4, 0.2, 0.1] fused_steps 1 factors [array<i64: 8, 7>, array<i64: 8, 8>] cooley_tukey : memref<?x?xf64>
  return
}

// -----

func.func @cooley_tukey_no_region(%in: memref<?x?xf64>, %out: memref<?x?xf64>) {
  // expected-error @+1 {{a tile of 64 points along dimension 0 has no valid region for 16 fused steps of radius 2}}
  stencil.fft_apply %in -> %out pattern <star, rank = 2, radius = 2> weights [0.1, 0.1, 0.1, 0.1, 0.2, 0.1, 0.1, 0.1, 0.1] steps 16 fused_steps 16 factors [array<i64: 8, 8>, array<i64: 8, 8>] cooley_tukey : memref<?x?xf64>
  return
}
