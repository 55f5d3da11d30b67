// RUN: stencil-opt %s --split-input-file --stencil-low-rank | FileCheck %s
// RUN: stencil-opt %s --split-input-file --stencil-low-rank=method=svd | FileCheck %s --check-prefix=SVD

// A separable box (the outer product of [1, 3, 1] and [0.05, 0.1, 0.05]):
// one pyramidal term; the SVD finds the same rank. The source stencil rides
// along for launch descriptions.
// CHECK-LABEL: func.func @separable
// CHECK:         stencil.low_rank %arg0 -> %arg1 radius 1
// CHECK-SAME:      u dense<{{\[\[}}1.000000e+00, 2.9999999999999996, 1.000000e+00]]> : tensor<1x3xf64>
// CHECK-SAME:      v dense<{{\[\[}}5.000000e-02, 1.000000e-01, 5.000000e-02]]> : tensor<1x3xf64>
// CHECK-SAME:      steps 2 {stencil.source = {pattern = #stencil.pattern<box, rank = 2, radius = 1>
// SVD-LABEL:   func.func @separable
// SVD:           stencil.low_rank {{.*}} tensor<1x3xf64>
func.func @separable(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  stencil.linear %in -> %out pattern <box, rank = 2, radius = 1>
      weights [0.05, 0.1, 0.05, 0.15, 0.3, 0.15, 0.05, 0.1, 0.05] steps 2 : memref<?x?xf32>
  return
}

// -----

// A radially symmetric 3x3 box: rank 2 = h + 1, two pyramidal terms, the
// second one on the centre only (eq. 15).
// CHECK-LABEL: func.func @symmetric
// CHECK:         stencil.low_rank {{.*}} radius 1 u dense<{{\[\[}}1.000000e+00, {{.*}}, 1.000000e+00], [0.000000e+00, 1.000000e+00, 0.000000e+00]]> : tensor<2x3xf64>
// CHECK-SAME:      v dense<{{\[\[}}{{.*}}], [0.000000e+00, {{.*}}, 0.000000e+00]]> : tensor<2x3xf64>
func.func @symmetric(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.linear %in -> %out pattern <box, rank = 2, radius = 1>
      weights [0.05, 0.1, 0.05, 0.1, 0.4, 0.1, 0.05, 0.1, 0.05] : memref<?x?xf16>
  return
}

// -----

// A star has a zero corner, so no pyramid: the SVD gives rank 2.
// CHECK-LABEL: func.func @star
// CHECK:         stencil.low_rank {{.*}} radius 1 {{.*}} tensor<2x3xf64>
func.func @star(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1>
      weights [0.1, 0.2, 0.4, 0.25, 0.05] : memref<?x?xf32>
  return
}

// -----

// Different radii along y and x (the halo would change), 1-D and 3-D
// stencils: left alone.
// CHECK-LABEL: func.func @untouched
// CHECK-NOT:     stencil.low_rank
// CHECK-COUNT-3: stencil.linear
func.func @untouched(%a: memref<?x?xf32>, %b: memref<?x?xf32>,
                     %c: memref<?xf32>, %d: memref<?xf32>,
                     %e: memref<?x?x?xf32>, %f: memref<?x?x?xf32>) {
  stencil.linear %a -> %b pattern <[[0, -2], [0, 2], [1, 0]]> weights [1., 2., 3.] : memref<?x?xf32>
  stencil.linear %c -> %d pattern <star, rank = 1, radius = 1> weights [1., 2., 3.] : memref<?xf32>
  stencil.linear %e -> %f pattern <star, rank = 3, radius = 1> weights [1., 2., 3., 4., 5., 6., 7.] : memref<?x?x?xf32>
  return
}
