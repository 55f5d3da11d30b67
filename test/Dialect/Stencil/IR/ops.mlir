// RUN: stencil-opt %s | stencil-opt | FileCheck %s
// RUN: stencil-opt %s --mlir-print-op-generic | stencil-opt | FileCheck %s

// Round trip of every op form and attribute form of the stencil dialect.

// CHECK-LABEL: func.func @linear_forms
func.func @linear_forms(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  // CHECK: stencil.linear %{{.*}} -> %{{.*}} pattern <star, rank = 2, radius = 1> weights [1.000000e-01, 2.000000e-01, 4.000000e-01, 2.000000e-01, 1.000000e-01] : memref<?x?xf16>
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1>
      weights [0.1, 0.2, 0.4, 0.2, 0.1] : memref<?x?xf16>
  // The default boundary and steps are elided.
  // CHECK: stencil.linear {{.*}} pattern <box, rank = 2, radius = 1> weights [{{.*}}] : memref<?x?xf16>
  stencil.linear %in -> %out pattern <box, rank = 2, radius = 1>
      weights [1., 2., 3., 4., 5., 6., 7., 8., 9.] steps 1 boundary halo
      : memref<?x?xf16>
  // CHECK: stencil.linear {{.*}} steps 7 boundary periodic : memref<?x?xf16>
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 2>
      weights [1., 2., 3., 4., 5., 6., 7., 8., 9.] steps 7 boundary periodic
      : memref<?x?xf16>
  // CHECK: stencil.linear {{.*}} boundary dirichlet(2.500000e-01) : memref<?x?xf16>
  stencil.linear %in -> %out pattern <[[-2, 1], [0, 0], [1, -1]]>
      weights [0.5, 0.25, -0.75] boundary dirichlet(0.25) : memref<?x?xf16>
  return
}

// An explicit list that happens to be a canonical star prints short.
// CHECK-LABEL: func.func @canonical_list
// CHECK: pattern <star, rank = 1, radius = 1>
func.func @canonical_list(%in: memref<64xf32>, %out: memref<64xf32>) {
  stencil.linear %in -> %out pattern <[[-1], [0], [1]]> weights [1., 2., 3.]
      : memref<64xf32>
  return
}

// The same points in another order are kept as written.
// CHECK-LABEL: func.func @explicit_order
// CHECK: pattern <{{\[}}[1], [0], [-1]]>
func.func @explicit_order(%in: memref<64xf32>, %out: memref<64xf32>) {
  stencil.linear %in -> %out pattern <[[1], [0], [-1]]> weights [1., 2., 3.]
      : memref<64xf32>
  return
}

// CHECK-LABEL: func.func @element_types_and_ranks
func.func @element_types_and_ranks(%a: memref<16xbf16>, %b: memref<16xbf16>,
                                   %c: memref<8x9x10xf64>,
                                   %d: memref<8x9x10xf64>,
                                   %e: memref<?x12xf32>, %f: memref<?x12xf32>) {
  // CHECK: pattern <star, rank = 1, radius = 3> {{.*}} : memref<16xbf16>
  stencil.linear %a -> %b pattern <star, rank = 1, radius = 3>
      weights [1., 2., 3., 4., 5., 6., 7.] : memref<16xbf16>
  // CHECK: pattern <box, rank = 3, radius = 1> {{.*}} : memref<8x9x10xf64>
  stencil.linear %c -> %d pattern <box, rank = 3, radius = 1>
      weights [1., 2., 3., 4., 5., 6., 7., 8., 9., 10., 11., 12., 13., 14.,
               15., 16., 17., 18., 19., 20., 21., 22., 23., 24., 25., 26., 27.]
      : memref<8x9x10xf64>
  // CHECK: pattern <star, rank = 3, radius = 1> {{.*}} : memref<8x9x10xf64>
  stencil.linear %c -> %d pattern <star, rank = 3, radius = 1>
      weights [1., 2., 3., 4., 5., 6., 7.] : memref<8x9x10xf64>
  // CHECK: : memref<?x12xf32>
  stencil.linear %e -> %f pattern <box, rank = 2, radius = 2>
      weights [1., 2., 3., 4., 5., 6., 7., 8., 9., 10., 11., 12., 13., 14.,
               15., 16., 17., 18., 19., 20., 21., 22., 23., 24., 25.]
      : memref<?x12xf32>
  return
}

// CHECK-LABEL: func.func @apply_form
func.func @apply_form(%in: memref<?x?xf32>, %out: memref<?x?xf32>,
                      %in1: memref<32xf16>, %out1: memref<32xf16>) {
  // CHECK:      stencil.apply %{{.*}} -> %{{.*}} steps 2 boundary dirichlet(0.000000e+00) : memref<?x?xf32> {
  // CHECK-NEXT:   %[[C:.*]] = stencil.access [0, 0] : f32
  // CHECK-NEXT:   %[[E:.*]] = stencil.access [0, 1] : f32
  // CHECK-NEXT:   %[[M:.*]] = arith.maximumf %[[C]], %[[E]] : f32
  // CHECK-NEXT:   %[[X:.*]] = math.exp %[[M]] : f32
  // CHECK-NEXT:   stencil.yield %[[X]] : f32
  // CHECK-NEXT: }
  stencil.apply %in -> %out steps 2 boundary dirichlet(0.0) : memref<?x?xf32> {
    %c = stencil.access [0, 0] : f32
    %e = stencil.access [0, 1] : f32
    %m = arith.maximumf %c, %e : f32
    %x = math.exp %m : f32
    stencil.yield %x : f32
  }
  // CHECK: stencil.apply {{.*}} boundary periodic : memref<32xf16> {
  stencil.apply %in1 -> %out1 boundary periodic : memref<32xf16> {
    %w = stencil.access [-1] : f16
    stencil.yield %w : f16
  }
  return
}

// CHECK-LABEL: func.func @matrix_forms
func.func @matrix_forms(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  // CHECK: stencil.row_gemm %{{.*}} -> %{{.*}} radius 0 rows_per_block 2 row_offsets [-1, 1] kernels dense<{{.*}}> : tensor<2x2x4xf64> steps 3 : memref<?x?xf16>
  stencil.row_gemm %in -> %out radius 0 rows_per_block 2 row_offsets [-1, 1]
      kernels dense<[[[1., 0., 0., 0.], [0., 1., 0., 0.]],
                     [[2., 0., 0., 0.], [0., 2., 0., 0.]]]> : tensor<2x2x4xf64>
      steps 3 : memref<?x?xf16>
  // CHECK: stencil.row_gemm {{.*}} column_permutation [1, 0, 3, 2] kernels
  stencil.row_gemm %in -> %out radius 0 rows_per_block 2 row_offsets [0]
      column_permutation [1, 0, 3, 2]
      kernels dense<[[[0., 1., 0., 0.], [1., 0., 0., 0.]]]> : tensor<1x2x4xf64>
      : memref<?x?xf16>
  // CHECK: stencil.sparse_row_gemm {{.*}} radius 0 rows_per_block 2 row_offsets [0] column_permutation [0, 1, 2, 3] values dense<{{.*}}> : tensor<1x2x2xf16> indices dense<{{.*}}> : tensor<1x2x2xi8> : memref<?x?xf16>
  stencil.sparse_row_gemm %in -> %out radius 0 rows_per_block 2 row_offsets [0]
      column_permutation [0, 1, 2, 3]
      values dense<[[[1., 0.], [1., 0.]]]> : tensor<1x2x2xf16>
      indices dense<[[[0, 1], [1, 2]]]> : tensor<1x2x2xi8> : memref<?x?xf16>
  // CHECK: stencil.sparse_row_gemm {{.*}} input_offsets [0, 1, 2, 3] values
  stencil.sparse_row_gemm %in -> %out radius 0 rows_per_block 2 row_offsets [0]
      input_offsets [0, 1, 2, 3]
      values dense<[[[1., 0.], [1., 0.]]]> : tensor<1x2x2xf16>
      indices dense<[[[0, 1], [1, 2]]]> : tensor<1x2x2xi8> : memref<?x?xf16>
  return
}

// CHECK-LABEL: func.func @low_rank
func.func @low_rank(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  // CHECK: stencil.low_rank %{{.*}} -> %{{.*}} radius 1 u dense<{{\[\[}}1.000000e+00, 2.000000e+00, 1.000000e+00]]> : tensor<1x3xf64> v dense<{{\[\[}}1.000000e-01, 2.000000e-01, 1.000000e-01]]> : tensor<1x3xf64> steps 2 boundary periodic : memref<?x?xf32>
  stencil.low_rank %in -> %out radius 1
      u dense<[[1.0, 2.0, 1.0]]> : tensor<1x3xf64>
      v dense<[[0.1, 0.2, 0.1]]> : tensor<1x3xf64>
      steps 2 boundary periodic : memref<?x?xf32>
  return
}
