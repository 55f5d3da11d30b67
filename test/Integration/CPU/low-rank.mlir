// RUN: stencil-opt %s --stencil-attach-cpu-harness="func=sym25_f64 grid=19,23" --stencil-low-rank --lower-to-cpu | %mlir_runner \
// RUN:   | %stencil_ref --result - --dtype f64 --grid 19,23 --pattern box:2:2 --steps 3 \
// RUN:     --weights 0.085,0.047,0.012,0.047,0.085,0.084,0.069,0.085,0.069,0.084,0.074,0.069,0.06,0.069,0.074,0.084,0.069,0.085,0.069,0.084,0.085,0.047,0.012,0.047,0.085
// RUN: stencil-opt %s --stencil-attach-cpu-harness="func=star_f32 grid=16,21" --stencil-low-rank --lower-to-cpu | %mlir_runner \
// RUN:   | %stencil_ref --result - --dtype f32 --grid 16,21 --pattern star:2:1 --weights 0.1,0.2,0.4,0.25,0.05
// RUN: stencil-opt %s --stencil-low-rank | FileCheck %s

// The low-rank rewrite (LoRAStencil) run on the CPU and checked against
// the independent reference of the *original* weights: a radially
// symmetric 5x5 box in f64 over 3 steps (pyramidal decomposition: rank 3 =
// h + 1) and a Heat-2D-shaped star in f32 (no corner pivot: SVD, rank 2).
// CHECK-LABEL: func.func @sym25_f64
// CHECK:         stencil.low_rank %{{.*}} radius 2 u dense<{{.*}}> : tensor<3x5xf64> v dense<{{.*}}> : tensor<3x5xf64> steps 3
// CHECK-LABEL: func.func @star_f32
// CHECK:         stencil.low_rank %{{.*}} radius 1 u dense<{{.*}}> : tensor<2x3xf64> v dense<{{.*}}> : tensor<2x3xf64>

func.func @sym25_f64(%in: memref<?x?xf64>, %out: memref<?x?xf64>) {
  stencil.linear %in -> %out pattern <box, rank = 2, radius = 2>
      weights [0.085, 0.047, 0.012, 0.047, 0.085, 0.084, 0.069, 0.085, 0.069, 0.084, 0.074, 0.069, 0.06, 0.069, 0.074, 0.084, 0.069, 0.085, 0.069, 0.084, 0.085, 0.047, 0.012, 0.047, 0.085] steps 3 : memref<?x?xf64>
  return
}

func.func @star_f32(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1>
      weights [0.1, 0.2, 0.4, 0.25, 0.05] : memref<?x?xf32>
  return
}
