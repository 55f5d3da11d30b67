// RUN: stencil-opt %s -split-input-file -verify-diagnostics

// One case per diagnostic of the stencil dialect's parser and verifiers.

func.func @pattern_rank(%in: memref<8xf32>, %out: memref<8xf32>) {
  // expected-error @+1 {{pattern rank must be 1, 2 or 3, got 4}}
  stencil.linear %in -> %out pattern <star, rank = 4, radius = 1> weights [1.0] : memref<8xf32>
  return
}

// -----

func.func @pattern_radius(%in: memref<8xf32>, %out: memref<8xf32>) {
  // expected-error @+1 {{pattern radius must be in [0, 2147483647], got -1}}
  stencil.linear %in -> %out pattern <box, rank = 1, radius = -1> weights [1.0] : memref<8xf32>
  return
}

// -----

func.func @pattern_empty(%in: memref<8xf32>, %out: memref<8xf32>) {
  // expected-error @+1 {{pattern must have at least one point}}
  stencil.linear %in -> %out pattern <[]> weights [] : memref<8xf32>
  return
}

// -----

func.func @pattern_ragged(%in: memref<8x8xf32>, %out: memref<8x8xf32>) {
  // expected-error @+1 {{pattern point has 1 components, expected 2}}
  stencil.linear %in -> %out pattern <[[0, 1], [1]]> weights [1.0, 2.0] : memref<8x8xf32>
  return
}

// -----

func.func @pattern_duplicate(%in: memref<8x8xf32>, %out: memref<8x8xf32>) {
  // expected-error @+1 {{pattern point #2 repeats an earlier offset}}
  stencil.linear %in -> %out pattern <[[0, 1], [1, 0], [0, 1]]> weights [1.0, 2.0, 3.0] : memref<8x8xf32>
  return
}

// -----

func.func @pattern_unknown_shape(%in: memref<8xf32>, %out: memref<8xf32>) {
  // expected-error @+1 {{expected '['}}
  stencil.linear %in -> %out pattern <diamond, rank = 1, radius = 1> weights [1.0] : memref<8xf32>
  return
}

// -----

func.func @offset_rank_mismatch(%in: memref<8x8x8xf32>, %out: memref<8x8x8xf32>) {
  // expected-error @+1 {{'stencil.linear' op pattern has rank 2 but the grid has rank 3}}
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1> weights [1., 2., 3., 4., 5.] : memref<8x8x8xf32>
  return
}

// -----

func.func @weight_count(%in: memref<8x8xf32>, %out: memref<8x8xf32>) {
  // expected-error @+1 {{'stencil.linear' op has 4 weights for 5 pattern points}}
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1> weights [1., 2., 3., 4.] : memref<8x8xf32>
  return
}

// -----

func.func @weight_not_finite(%in: memref<8xf32>, %out: memref<8xf32>) {
  // expected-error @+1 {{'stencil.linear' op weight #1 is not finite}}
  stencil.linear %in -> %out pattern <star, rank = 1, radius = 1> weights [1., 0x7FF0000000000000, 3.] : memref<8xf32>
  return
}

// -----

func.func @shape_mismatch(%in: memref<16x16xf32>, %out: memref<16x17xf32>) {
  // expected-error @+1 {{'stencil.linear' op input and output grids must have the same type, got 'memref<16x16xf32>' and 'memref<16x17xf32>'}}
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1> weights [1., 2., 3., 4., 5.] : memref<16x16xf32> -> memref<16x17xf32>
  return
}

// -----

func.func @element_type_mismatch(%in: memref<16xf32>, %out: memref<16xf16>) {
  // expected-error @+1 {{'stencil.linear' op input and output grids must have the same type, got 'memref<16xf32>' and 'memref<16xf16>'}}
  stencil.linear %in -> %out pattern <star, rank = 1, radius = 1> weights [1., 2., 3.] : memref<16xf32> -> memref<16xf16>
  return
}

// -----

func.func @unsupported_element_type(%in: memref<16xi32>, %out: memref<16xi32>) {
  // expected-error @+1 {{'stencil.linear' op operand #0 must be 1D/2D/3D memref of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'memref<16xi32>'}}
  stencil.linear %in -> %out pattern <star, rank = 1, radius = 1> weights [1., 2., 3.] : memref<16xi32>
  return
}

// -----

func.func @unsupported_rank(%in: memref<4x4x4x4xf32>, %out: memref<4x4x4x4xf32>) {
  // expected-error @+1 {{'stencil.apply' op operand #0 must be 1D/2D/3D memref}}
  stencil.apply %in -> %out : memref<4x4x4x4xf32> {
    %c = stencil.access [0, 0, 0, 1] : f32
    stencil.yield %c : f32
  }
  return
}

// -----

func.func @radius_too_large(%in: memref<64x6xf16>, %out: memref<64x6xf16>) {
  // expected-error @+1 {{'stencil.linear' op radius 3 along dimension 1 needs at least 7 grid points, but the grid has 6}}
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 3> weights [1., 2., 3., 4., 5., 6., 7., 8., 9., 10., 11., 12., 13.] : memref<64x6xf16>
  return
}

// -----

func.func @zero_steps(%in: memref<8xf32>, %out: memref<8xf32>) {
  // expected-error @+1 {{'stencil.linear' op attribute 'steps' failed to satisfy constraint: 64-bit signless integer attribute whose minimum value is 1}}
  stencil.linear %in -> %out pattern <star, rank = 1, radius = 1> weights [1., 2., 3.] steps 0 : memref<8xf32>
  return
}

// -----

func.func @unknown_boundary(%in: memref<8xf32>, %out: memref<8xf32>) {
  // expected-error @+1 {{unknown boundary 'reflect', expected 'halo', 'periodic' or 'dirichlet'}}
  stencil.linear %in -> %out pattern <star, rank = 1, radius = 1> weights [1., 2., 3.] boundary reflect : memref<8xf32>
  return
}

// -----

func.func @dirichlet_without_value(%in: memref<8xf32>, %out: memref<8xf32>) {
  // expected-error @+1 {{'stencil.linear' op a dirichlet boundary needs a value}}
  "stencil.linear"(%in, %out) <{pattern = #stencil.pattern<star, rank = 1, radius = 1>, weights = array<f64: 1., 2., 3.>, boundary = 2 : i32}> : (memref<8xf32>, memref<8xf32>) -> ()
  return
}

// -----

func.func @value_without_dirichlet(%in: memref<8xf32>, %out: memref<8xf32>) {
  // expected-error @+1 {{'stencil.linear' op a boundary value is only meaningful with a dirichlet boundary}}
  "stencil.linear"(%in, %out) <{pattern = #stencil.pattern<star, rank = 1, radius = 1>, weights = array<f64: 1., 2., 3.>, boundary = 1 : i32, boundary_value = 1.0 : f64}> : (memref<8xf32>, memref<8xf32>) -> ()
  return
}

// -----

func.func @dirichlet_not_finite(%in: memref<8xf32>, %out: memref<8xf32>) {
  // expected-error @+1 {{'stencil.linear' op the dirichlet boundary value must be finite}}
  "stencil.linear"(%in, %out) <{pattern = #stencil.pattern<star, rank = 1, radius = 1>, weights = array<f64: 1., 2., 3.>, boundary = 2 : i32, boundary_value = 0x7FF8000000000000 : f64}> : (memref<8xf32>, memref<8xf32>) -> ()
  return
}

// -----

func.func @apply_block_arguments(%in: memref<8xf32>, %out: memref<8xf32>) {
  // expected-error @+1 {{'stencil.apply' op body must not have block arguments}}
  stencil.apply %in -> %out : memref<8xf32> {
  ^bb0(%x: f32):
    %c = stencil.access [0] : f32
    stencil.yield %c : f32
  }
  return
}

// -----

func.func @apply_no_yield(%in: memref<8xf32>, %out: memref<8xf32>) {
  stencil.apply %in -> %out : memref<8xf32> {
    // expected-error @+1 {{block with no terminator}}
    %c = stencil.access [0] : f32
  }
  return
}

// -----

func.func @apply_side_effect(%in: memref<8xf32>, %out: memref<8xf32>) {
  stencil.apply %in -> %out : memref<8xf32> {
    %c = stencil.access [0] : f32
    %i = arith.constant 0 : index
    // expected-error @+1 {{'memref.store' op is not allowed in a 'stencil.apply' body: the body must be free of side effects and regions}}
    memref.store %c, %out[%i] : memref<8xf32>
    stencil.yield %c : f32
  }
  return
}

// -----

func.func @apply_reads_nothing(%in: memref<8xf32>, %out: memref<8xf32>) {
  // expected-error @+1 {{'stencil.apply' op body must read at least one neighbour with 'stencil.access'}}
  stencil.apply %in -> %out : memref<8xf32> {
    %c = arith.constant 1.0 : f32
    stencil.yield %c : f32
  }
  return
}

// -----

func.func @apply_radius_too_large(%in: memref<4xf32>, %out: memref<4xf32>) {
  // expected-error @+1 {{'stencil.apply' op radius 2 along dimension 0 needs at least 5 grid points, but the grid has 4}}
  stencil.apply %in -> %out : memref<4xf32> {
    %c = stencil.access [-2] : f32
    stencil.yield %c : f32
  }
  return
}

// -----

func.func @apply_shape_mismatch(%in: memref<8xf32>, %out: memref<9xf32>) {
  // expected-error @+1 {{'stencil.apply' op input and output grids must have the same type}}
  stencil.apply %in -> %out : memref<8xf32> -> memref<9xf32> {
    %c = stencil.access [0] : f32
    stencil.yield %c : f32
  }
  return
}

// -----

func.func @access_rank(%in: memref<8x8xf32>, %out: memref<8x8xf32>) {
  stencil.apply %in -> %out : memref<8x8xf32> {
    // expected-error @+1 {{'stencil.access' op offset has 1 components but the grid has rank 2}}
    %c = stencil.access [0] : f32
    stencil.yield %c : f32
  }
  return
}

// -----

func.func @access_type(%in: memref<8xf32>, %out: memref<8xf32>) {
  stencil.apply %in -> %out : memref<8xf32> {
    // expected-error @+1 {{'stencil.access' op result type 'f64' does not match the grid's element type 'f32'}}
    %c = stencil.access [0] : f64
    %d = arith.truncf %c : f64 to f32
    stencil.yield %d : f32
  }
  return
}

// -----

func.func @yield_type(%in: memref<8xf32>, %out: memref<8xf32>) {
  stencil.apply %in -> %out : memref<8xf32> {
    %c = stencil.access [0] : f32
    %d = arith.extf %c : f32 to f64
    // expected-error @+1 {{'stencil.yield' op yields 'f64' but the grid's element type is 'f32'}}
    stencil.yield %d : f64
  }
  return
}

// -----

func.func @access_outside_apply() -> f32 {
  // expected-error @+1 {{'stencil.access' op expects parent op 'stencil.apply'}}
  %c = stencil.access [0] : f32
  return %c : f32
}

// -----

func.func @apply_on_tensor(%in: tensor<8xf32>, %out: tensor<8xf32>) {
  // expected-error @+1 {{'stencil.apply' op operand #0 must be 1D/2D/3D memref}}
  stencil.apply %in -> %out : tensor<8xf32> {
    %c = stencil.access [0] : f32
    stencil.yield %c : f32
  }
  return
}

// -----

func.func @row_gemm_kernel_shape(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  // expected-error @+1 {{'stencil.row_gemm' op kernels must have shape #rows x 2 x 4 (rows_per_block x 2 * rows_per_block), got 'tensor<1x2x3xf64>'}}
  stencil.row_gemm %in -> %out radius 0 rows_per_block 2 row_offsets [0]
      kernels dense<0.0> : tensor<1x2x3xf64> : memref<?x?xf16>
  return
}

// -----

func.func @row_gemm_offsets(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  // expected-error @+1 {{'stencil.row_gemm' op has 1 row offset components for 2 kernel rows of a rank-2 grid, expected 2}}
  stencil.row_gemm %in -> %out radius 0 rows_per_block 2 row_offsets [0]
      kernels dense<0.0> : tensor<2x2x4xf64> : memref<?x?xf16>
  return
}

// -----

func.func @row_gemm_permutation(%in: memref<?xf16>, %out: memref<?xf16>) {
  // expected-error @+1 {{'stencil.row_gemm' op 'column_permutation' is not a permutation of [0, 4)}}
  stencil.row_gemm %in -> %out radius 0 rows_per_block 2 row_offsets []
      column_permutation [0, 1, 1, 3]
      kernels dense<0.0> : tensor<1x2x4xf64> : memref<?xf16>
  return
}

// -----

func.func @row_gemm_radius(%in: memref<16x5xf16>, %out: memref<16x5xf16>) {
  // expected-error @+1 {{'stencil.row_gemm' op radius 3 along dimension 1 needs at least 7 grid points, but the grid has 5}}
  stencil.row_gemm %in -> %out radius 3 rows_per_block 8 row_offsets [0]
      kernels dense<0.0> : tensor<1x8x16xf64> : memref<16x5xf16>
  return
}

// -----

func.func @sparse_values_shape(%in: memref<?xf16>, %out: memref<?xf16>) {
  // expected-error @+1 {{'stencil.sparse_row_gemm' op values must have shape #rows x 2 x 2 (two kept values per group of 4 of the 4 columns), got 'tensor<1x2x4xf16>'}}
  stencil.sparse_row_gemm %in -> %out radius 0 rows_per_block 2 row_offsets []
      input_offsets [0, 1, 2, 3]
      values dense<0.0> : tensor<1x2x4xf16> indices dense<0> : tensor<1x2x4xi8> : memref<?xf16>
  return
}

// -----

func.func @sparse_indices_order(%in: memref<?xf16>, %out: memref<?xf16>) {
  // expected-error @+1 {{'stencil.sparse_row_gemm' op index pair #1 is (2, 2): positions in a group of 4 must be in 0..3 and strictly increasing}}
  stencil.sparse_row_gemm %in -> %out radius 0 rows_per_block 2 row_offsets []
      input_offsets [0, 1, 2, 3]
      values dense<0.0> : tensor<1x2x2xf16> indices dense<[[[0, 1], [2, 2]]]> : tensor<1x2x2xi8> : memref<?xf16>
  return
}

// -----

func.func @sparse_both(%in: memref<?xf16>, %out: memref<?xf16>) {
  // expected-error @+1 {{'stencil.sparse_row_gemm' op needs exactly one of 'column_permutation' and 'input_offsets'}}
  stencil.sparse_row_gemm %in -> %out radius 0 rows_per_block 2 row_offsets []
      column_permutation [0, 1, 2, 3] input_offsets [0, 1, 2, 3]
      values dense<0.0> : tensor<1x2x2xf16> indices dense<[[[0, 1], [0, 1]]]> : tensor<1x2x2xi8> : memref<?xf16>
  return
}

// -----

func.func @sparse_values_type(%in: memref<?xf16>, %out: memref<?xf16>) {
  // expected-error @+1 {{'stencil.sparse_row_gemm' op attribute 'values' failed to satisfy constraint: 16-bit float elements attribute}}
  stencil.sparse_row_gemm %in -> %out radius 0 rows_per_block 2 row_offsets []
      input_offsets [0, 1, 2, 3]
      values dense<0.0> : tensor<1x2x2xf32> indices dense<[[[0, 1], [0, 1]]]> : tensor<1x2x2xi8> : memref<?xf16>
  return
}

// -----

func.func @sparse_tiling(%in: memref<?xf16>, %out: memref<?xf16>) {
  stencil.sparse_row_gemm %in -> %out radius 0 rows_per_block 2 row_offsets []
      input_offsets [0, 1, 2, 3]
      values dense<0.0> : tensor<1x2x2xf16> indices dense<[[[0, 1], [0, 1]]]> : tensor<1x2x2xi8>
      // expected-error @+1 {{#stencil.tiling needs warps, nTiles and subTiles >= 1, got 4, 0 and 1}}
      tiling <warps = 4, nTiles = 0, subTiles = 1, asyncCopy = false> : memref<?xf16>
  return
}

// -----

func.func @tiling_f64_and_warpgroup(%in: memref<?xf16>, %out: memref<?xf16>) {
  stencil.sparse_row_gemm %in -> %out radius 0 rows_per_block 2 row_offsets []
      input_offsets [0, 1, 2, 3]
      values dense<0.0> : tensor<1x2x2xf16> indices dense<[[[0, 1], [0, 1]]]> : tensor<1x2x2xi8>
      // expected-error @+1 {{#stencil.tiling is of the f64 kernel (mTiles) or of the warpgroup kernel (wgmmaN), not both}}
      tiling <warps = 4, nTiles = 3, subTiles = 1, asyncCopy = false, mTiles = 2, wgmmaN = 24> : memref<?xf16>
  return
}

// -----

func.func @tiling_stages_alone(%in: memref<?xf16>, %out: memref<?xf16>) {
  stencil.sparse_row_gemm %in -> %out radius 0 rows_per_block 2 row_offsets []
      input_offsets [0, 1, 2, 3]
      values dense<0.0> : tensor<1x2x2xf16> indices dense<[[[0, 1], [0, 1]]]> : tensor<1x2x2xi8>
      // expected-error @+1 {{#stencil.tiling has wgmmaStages or wgmmaStrips without wgmmaN}}
      tiling <warps = 4, nTiles = 3, subTiles = 1, asyncCopy = false, wgmmaStages = 2> : memref<?xf16>
  return
}

// -----

func.func @tiling_negative(%in: memref<?xf16>, %out: memref<?xf16>) {
  stencil.sparse_row_gemm %in -> %out radius 0 rows_per_block 2 row_offsets []
      input_offsets [0, 1, 2, 3]
      values dense<0.0> : tensor<1x2x2xf16> indices dense<[[[0, 1], [0, 1]]]> : tensor<1x2x2xi8>
      // expected-error @+1 {{#stencil.tiling needs mTiles, wgmmaN, wgmmaStages and wgmmaStrips >= 0 (0: absent)}}
      tiling <warps = 4, nTiles = 3, subTiles = 1, asyncCopy = false, mTiles = -1> : memref<?xf16>
  return
}

// -----

func.func @sparse_packed(%in: memref<?xf16>, %out: memref<?xf16>) {
  // expected-error @+1 {{'stencil.sparse_row_gemm' op 'packed_coefficients' has 3 words, expected 160}}
  stencil.sparse_row_gemm %in -> %out radius 0 rows_per_block 2 row_offsets []
      input_offsets [0, 1, 2, 3]
      values dense<0.0> : tensor<1x2x2xf16> indices dense<[[[0, 1], [0, 1]]]> : tensor<1x2x2xi8>
      packed [1, 2, 3] : memref<?xf16>
  return
}

// -----

func.func @low_rank_rank(%in: memref<?xf32>, %out: memref<?xf32>) {
  // expected-error @+1 {{'stencil.low_rank' op needs 2-D grids, got 'memref<?xf32>'}}
  stencil.low_rank %in -> %out radius 1 u dense<[[1.0, 2.0, 1.0]]> : tensor<1x3xf64>
      v dense<[[1.0, 2.0, 1.0]]> : tensor<1x3xf64> : memref<?xf32>
  return
}

// -----

func.func @low_rank_shape(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  // expected-error @+1 {{'stencil.low_rank' op v must have shape #terms x 3 (2 * radius + 1), got 'tensor<1x5xf64>'}}
  stencil.low_rank %in -> %out radius 1 u dense<[[1.0, 2.0, 1.0]]> : tensor<1x3xf64>
      v dense<[[1.0, 2.0, 1.0, 0.0, 0.0]]> : tensor<1x5xf64> : memref<?x?xf32>
  return
}

// -----

func.func @low_rank_terms(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  // expected-error @+1 {{'stencil.low_rank' op u and v must have the same number of terms}}
  stencil.low_rank %in -> %out radius 1 u dense<[[1.0, 2.0, 1.0]]> : tensor<1x3xf64>
      v dense<[[1.0, 2.0, 1.0], [0.0, 1.0, 0.0]]> : tensor<2x3xf64> : memref<?x?xf32>
  return
}

// -----

func.func @low_rank_finite(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  // expected-error @+1 {{'stencil.low_rank' op u has a value that is not finite}}
  stencil.low_rank %in -> %out radius 1 u dense<[[1.0, 0x7FF0000000000000, 1.0]]> : tensor<1x3xf64>
      v dense<[[1.0, 2.0, 1.0]]> : tensor<1x3xf64> : memref<?x?xf32>
  return
}

// -----

func.func @row_gemm_column_weights_shape(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  // expected-error @+1 {{'stencil.row_gemm' op column_weights must have shape 1 x (2h + 1) (one column vector per kernel row), got 'tensor<2x3xf64>'}}
  stencil.row_gemm %in -> %out radius 0 rows_per_block 2 row_offsets [0]
      kernels dense<0.0> : tensor<1x2x4xf64> column_weights dense<1.0> : tensor<2x3xf64> : memref<?x?xf16>
  return
}

// -----

func.func @row_gemm_column_weights_radius(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  // expected-error @+1 {{'stencil.row_gemm' op column_weights of radius 5: the low-rank chain reaches at most 4 rows (8 + 2h <= 16)}}
  stencil.row_gemm %in -> %out radius 0 rows_per_block 2 row_offsets [0]
      kernels dense<0.0> : tensor<1x2x4xf64> column_weights dense<1.0> : tensor<1x11xf64> : memref<?x?xf16>
  return
}

// -----

func.func @row_gemm_column_weights_offsets(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  // expected-error @+1 {{'stencil.row_gemm' op has column_weights, so every row offset must be 0}}
  stencil.row_gemm %in -> %out radius 0 rows_per_block 2 row_offsets [1]
      kernels dense<0.0> : tensor<1x2x4xf64> column_weights dense<1.0> : tensor<1x3xf64> : memref<?x?xf16>
  return
}

// -----

func.func @row_gemm_column_weights_rank(%in: memref<?x?x?xf16>, %out: memref<?x?x?xf16>) {
  // expected-error @+1 {{'stencil.row_gemm' op has column_weights (a low-rank chain), which needs 2-D grids}}
  stencil.row_gemm %in -> %out radius 0 rows_per_block 2 row_offsets [0, 0]
      kernels dense<0.0> : tensor<1x2x4xf64> column_weights dense<1.0> : tensor<1x3xf64> : memref<?x?x?xf16>
  return
}

// -----

// Offsets are limited to [-(2^31 - 1), 2^31 - 1] (StencilShape.h kMaxOffset):
// INT64_MIN has no representable radius.
func.func @offset_int64_min(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  // expected-error @+1 {{pattern point #1 has offset -9223372036854775808 along dimension 1, outside [-2147483647, 2147483647]}}
  stencil.linear %in -> %out pattern <[[0, 0], [0, -9223372036854775808]]> weights [0.5, 0.5] : memref<?x?xf16>
  return
}

// -----

func.func @offset_too_large(%in: memref<?xf32>, %out: memref<?xf32>) {
  // expected-error @+1 {{pattern point #0 has offset 2147483648 along dimension 0, outside [-2147483647, 2147483647]}}
  stencil.linear %in -> %out pattern <[[2147483648]]> weights [0.5] : memref<?xf32>
  return
}

// -----

func.func @short_form_radius_too_large(%in: memref<?xf32>, %out: memref<?xf32>) {
  // expected-error @+1 {{pattern radius must be in [0, 2147483647], got 9223372036854775807}}
  stencil.linear %in -> %out pattern <star, rank = 1, radius = 9223372036854775807> weights [0.5] : memref<?xf32>
  return
}

// -----

// A short form is counted before it is built.
func.func @short_form_too_many_points(%in: memref<?x?x?xf16>, %out: memref<?x?x?xf16>) {
  // expected-error @+1 {{pattern <box, rank = 3, radius = 1000> has more than the 16384 points a pattern may have}}
  stencil.linear %in -> %out pattern <box, rank = 3, radius = 1000> weights [0.5] : memref<?x?x?xf16>
  return
}

// -----

func.func @access_offset_too_large(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  stencil.apply %in -> %out : memref<?x?xf32> {
    // expected-error @+1 {{'stencil.access' op offset -9223372036854775808 along dimension 0 is outside [-2147483647, 2147483647]}}
    %a = stencil.access [-9223372036854775808, 0] : f32
    stencil.yield %a : f32
  }
  return
}

// -----

// The same buffer as input and output: the GPU kernels and ping-pong time
// stepping cannot honour it, so it is an error rather than a silent race.
func.func @linear_in_place(%in: memref<?x?xf16>) {
  // expected-error @+1 {{'stencil.linear' op reads and writes the same buffer}}
  stencil.linear %in -> %in pattern <star, rank = 2, radius = 1> weights [0.1, 0.2, 0.4, 0.2, 0.1] : memref<?x?xf16>
  return
}

// -----

// The same buffer through memref.cast (no --canonicalize needed).
func.func @linear_in_place_cast(%in: memref<8x8xf16>) {
  %a = memref.cast %in : memref<8x8xf16> to memref<?x?xf16>
  %b = memref.cast %in : memref<8x8xf16> to memref<?x?xf16>
  // expected-error @+1 {{'stencil.linear' op reads and writes the same buffer (through memref.cast)}}
  stencil.linear %a -> %b pattern <star, rank = 2, radius = 1> weights [0.1, 0.2, 0.4, 0.2, 0.1] : memref<?x?xf16>
  return
}

// -----

// A boundary value the grid's element type cannot hold.
func.func @dirichlet_overflow(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  // expected-error @+1 {{'stencil.linear' op the dirichlet boundary value 1.000000e+05 overflows the grid's element type 'f16' (largest finite value 6.550400e+04)}}
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1> weights [0.1, 0.2, 0.4, 0.2, 0.1] boundary dirichlet(1.0e5) : memref<?x?xf16>
  return
}

// -----

func.func @dirichlet_overflow_bf16(%in: memref<?xbf16>, %out: memref<?xbf16>) {
  // expected-error @+1 {{'stencil.apply' op the dirichlet boundary value 1.000000e+300 overflows the grid's element type 'bf16'}}
  stencil.apply %in -> %out boundary dirichlet(1.0e300) : memref<?xbf16> {
    %a = stencil.access [1] : bf16
    stencil.yield %a : bf16
  }
  return
}

// -----

func.func @apply_in_place(%in: memref<?xf64>) {
  // expected-error @+1 {{'stencil.apply' op reads and writes the same buffer}}
  stencil.apply %in -> %in : memref<?xf64> {
    %a = stencil.access [1] : f64
    stencil.yield %a : f64
  }
  return
}

// -----

func.func @row_gemm_row_offset_too_large(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  // expected-error @+1 {{'stencil.row_gemm' op row offset -9223372036854775808 is outside [-2147483647, 2147483647]}}
  stencil.row_gemm %in -> %out radius 0 rows_per_block 2 row_offsets [-9223372036854775808]
      kernels dense<0.0> : tensor<1x2x4xf64> : memref<?x?xf16>
  return
}

// -----

func.func @low_rank_radius_too_large(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  // expected-error @+1 {{'stencil.low_rank' op attribute 'radius' failed to satisfy constraint}}
  stencil.low_rank %in -> %out radius 9223372036854775807
      u dense<[[1.0, 2.0, 1.0]]> : tensor<1x3xf64>
      v dense<[[0.1, 0.2, 0.1]]> : tensor<1x3xf64> : memref<?x?xf32>
  return
}

// -----

// A star is built from its own 2 * rank * radius + 1 points, not from the
// (2 * radius + 1)^rank box (the fuzzer's timeout: radius 116 took > 10 s).
func.func @star_large_radius(%in: memref<?x?x?xf16>, %out: memref<?x?x?xf16>) {
  // expected-error @+1 {{'stencil.linear' op has 1 weights for 12001 pattern points}}
  stencil.linear %in -> %out pattern <star, rank = 3, radius = 2000> weights [0.5] : memref<?x?x?xf16>
  return
}

// -----

// A short form naming more points than a pattern may have (the fuzzer's
// second timeout: 1.9 million points from 30 bytes).
func.func @star_too_many_points(%in: memref<?xf32>, %out: memref<?xf32>) {
  // expected-error @+1 {{pattern <star, rank = 1, radius = 969608> has more than the 16384 points a pattern may have}}
  stencil.linear %in -> %out pattern <star, rank = 1, radius = 969608> weights [0.5] : memref<?xf32>
  return
}

// -----

// Fused steps (kernel composition) on the matrix forms.
func.func @fused_alone(%in: memref<?xf16>, %out: memref<?xf16>) {
  // expected-error @+1 {{'stencil.row_gemm' op needs fused_steps, step_pattern and step_weights together}}
  "stencil.row_gemm"(%in, %out) <{radius = 2 : i64, rows_per_block = 8 : i64,
      row_offsets = array<i64>, kernels = dense<0.0> : tensor<1x8x16xf64>,
      column_permutation = array<i64: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15>,
      fused_steps = 2 : i64}> : (memref<?xf16>, memref<?xf16>) -> ()
  return
}

// -----

func.func @fused_radius(%in: memref<?xf16>, %out: memref<?xf16>) {
  // expected-error @+1 {{'stencil.row_gemm' op has radius 1, but 2 composed steps of a stencil of innermost radius 1 reach 2}}
  stencil.row_gemm %in -> %out radius 1 rows_per_block 4 row_offsets []
      kernels dense<0.0> : tensor<1x4x8xf64> steps 3
      fused_steps 2 of <star, rank = 1, radius = 1> weights [1., 2., 3.] : memref<?xf16>
  return
}

// -----

func.func @fused_rank(%in: memref<?xf16>, %out: memref<?xf16>) {
  // expected-error @+1 {{'stencil.row_gemm' op step pattern has rank 2 but the grid has rank 1}}
  stencil.row_gemm %in -> %out radius 2 rows_per_block 8 row_offsets []
      kernels dense<0.0> : tensor<1x8x16xf64>
      fused_steps 2 of <star, rank = 2, radius = 1> weights [1., 2., 3., 4., 5.] : memref<?xf16>
  return
}

// -----

func.func @fused_weights(%in: memref<?xf16>, %out: memref<?xf16>) {
  // expected-error @+1 {{'stencil.row_gemm' op has 2 step weights for 3 step pattern points}}
  stencil.row_gemm %in -> %out radius 2 rows_per_block 8 row_offsets []
      kernels dense<0.0> : tensor<1x8x16xf64>
      fused_steps 2 of <star, rank = 1, radius = 1> weights [1., 2.] : memref<?xf16>
  return
}

// -----

func.func @fused_not_finite(%in: memref<?xf16>, %out: memref<?xf16>) {
  // expected-error @+1 {{'stencil.row_gemm' op step weight #2 is not finite}}
  stencil.row_gemm %in -> %out radius 2 rows_per_block 8 row_offsets []
      kernels dense<0.0> : tensor<1x8x16xf64>
      fused_steps 2 of <star, rank = 1, radius = 1> weights [1., 2., 0x7FF8000000000000] : memref<?xf16>
  return
}

// -----

func.func @fused_one(%in: memref<?xf16>, %out: memref<?xf16>) {
  // expected-error @+1 {{attribute 'fused_steps' failed to satisfy constraint: 64-bit signless integer attribute whose minimum value is 2 whose maximum value is 64}}
  stencil.row_gemm %in -> %out radius 1 rows_per_block 4 row_offsets []
      kernels dense<0.0> : tensor<1x4x8xf64>
      fused_steps 1 of <star, rank = 1, radius = 1> weights [1., 2., 3.] : memref<?xf16>
  return
}

// -----

func.func @fused_periodic(%in: memref<?xf16>, %out: memref<?xf16>) {
  // expected-error @+1 {{'stencil.sparse_row_gemm' op fuses steps by composition, which is exact only with the 'halo' boundary}}
  stencil.sparse_row_gemm %in -> %out radius 2 rows_per_block 8 row_offsets []
      column_permutation [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]
      values dense<0.0> : tensor<1x8x8xf16>
      indices dense<[[[0, 1, 0, 1, 0, 1, 0, 1], [0, 1, 0, 1, 0, 1, 0, 1],
                      [0, 1, 0, 1, 0, 1, 0, 1], [0, 1, 0, 1, 0, 1, 0, 1],
                      [0, 1, 0, 1, 0, 1, 0, 1], [0, 1, 0, 1, 0, 1, 0, 1],
                      [0, 1, 0, 1, 0, 1, 0, 1], [0, 1, 0, 1, 0, 1, 0, 1]]]> : tensor<1x8x8xi8>
      fused_steps 2 of <star, rank = 1, radius = 1> weights [1., 2., 3.]
      boundary periodic : memref<?xf16>
  return
}
