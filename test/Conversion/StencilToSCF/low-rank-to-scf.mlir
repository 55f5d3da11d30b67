// RUN: stencil-opt %s --convert-stencil-to-scf | FileCheck %s --implicit-check-not=stencil.low_rank

// stencil.low_rank -> loops over the interior: per term, the row sums with
// v, then the weighted sum with u, in f64; zero entries cost nothing.
// CHECK-LABEL: func.func @separable
// CHECK:         memref.copy
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             scf.for
// CHECK-COUNT-6:       memref.load
// CHECK-NOT:           memref.load
// CHECK:               arith.truncf %{{.*}} : f64 to f32
// CHECK:               memref.store
func.func @separable(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  // u = [1, 0, 1]: rows -1 and +1 only, 3 loads each.
  stencil.low_rank %in -> %out radius 1
      u dense<[[1.0, 0.0, 1.0]]> : tensor<1x3xf64>
      v dense<[[0.1, 0.2, 0.1]]> : tensor<1x3xf64> : memref<?x?xf32>
  return
}
