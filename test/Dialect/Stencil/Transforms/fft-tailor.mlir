// RUN: stencil-opt %s -split-input-file --stencil-fft-tailor | FileCheck %s
// RUN: stencil-opt %s -split-input-file --stencil-fft-tailor=fused-steps=4 | FileCheck %s --check-prefix=FIXED
// RUN: stencil-opt %s -split-input-file --stencil-fft-tailor=cooley-tukey=false | FileCheck %s --check-prefix=PFA

// Kernel tailoring (seed 004, 3.1): the tile and T of least cost
// (Support/FftTiling.h), or the given T capped at the op's steps. The pattern,
// weights, steps and boundary carry over unchanged.

// CHECK-LABEL: func.func @heat_1d
// CHECK: stencil.fft_apply %{{.*}} -> %{{.*}} pattern <star, rank = 1, radius = 1> weights [2.500000e-01, 5.000000e-01, 2.500000e-01] steps 8 fused_steps 8 factors [array<i64: 8, 7>] : memref<?xf64>
// FIXED-LABEL: func.func @heat_1d
// FIXED: steps 8 fused_steps 4 factors [array<i64: 8, 7>]
func.func @heat_1d(%in: memref<?xf64>, %out: memref<?xf64>) {
  stencil.linear %in -> %out pattern <star, rank = 1, radius = 1> weights [0.25, 0.5, 0.25] steps 8 : memref<?xf64>
  return
}

// -----

// T = 10 makes 10 launches of the 64 x 64 Cooley-Tukey tile (valid 44 x
// 44); with only PFA tiles, of a 56 x 56 tile (valid 36 x 36). The boundary
// is kept.
// CHECK-LABEL: func.func @heat_2d_periodic
// CHECK: steps 100 fused_steps 10 factors [array<i64: 8, 8>, array<i64: 8, 8>] cooley_tukey boundary periodic : memref<?x?xf64>
// FIXED-LABEL: func.func @heat_2d_periodic
// FIXED: steps 100 fused_steps 4 factors [array<i64: 8, 8>, array<i64: 8, 8>] cooley_tukey boundary periodic
// PFA-LABEL: func.func @heat_2d_periodic
// PFA: steps 100 fused_steps 10 factors [array<i64: 8, 7>, array<i64: 8, 7>] boundary periodic : memref<?x?xf64>
func.func @heat_2d_periodic(%in: memref<?x?xf64>, %out: memref<?x?xf64>) {
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1> weights [0.1, 0.2, 0.4, 0.2, 0.1] steps 100 boundary periodic : memref<?x?xf64>
  return
}

// -----

// A T larger than the op's steps is capped.
// CHECK-LABEL: func.func @two_steps
// CHECK: steps 2 fused_steps 2 factors {{.*}} boundary dirichlet(5.000000e-01)
// FIXED-LABEL: func.func @two_steps
// FIXED: steps 2 fused_steps 2 factors
func.func @two_steps(%in: memref<?x?xf64>, %out: memref<?x?xf64>) {
  stencil.linear %in -> %out pattern <box, rank = 2, radius = 1> weights [0.1, 0.1, 0.1, 0.1, 0.2, 0.1, 0.1, 0.1, 0.1] steps 2 boundary dirichlet(0.5) : memref<?x?xf64>
  return
}

// -----

// f32 grids are taken (the transforms compute in f64); a 3-D tile is small.
// CHECK-LABEL: func.func @heat_3d_f32
// CHECK: steps 100 fused_steps 1 factors [array<i64: 8>, array<i64: 8>, array<i64: 8>] : memref<?x?x?xf32>
// FIXED-LABEL: func.func @heat_3d_f32
// FIXED: steps 100 fused_steps 4 factors [array<i64: 16>, array<i64: 16>, array<i64: 16>] : memref<?x?x?xf32>
func.func @heat_3d_f32(%in: memref<?x?x?xf32>, %out: memref<?x?x?xf32>) {
  stencil.linear %in -> %out pattern <star, rank = 3, radius = 1> weights [0.1, 0.1, 0.1, 0.4, 0.1, 0.1, 0.1] steps 100 : memref<?x?x?xf32>
  return
}

// -----

// An asymmetric irregular pattern: the tile's margin is T r_d per side.
// CHECK-LABEL: func.func @irregular
// CHECK: pattern <{{\[}}[0, 0], [0, 2], [-1, 1]]> {{.*}} steps 5 fused_steps 5 factors [array<i64: 8, 8>, array<i64: 8, 8>] cooley_tukey :
func.func @irregular(%in: memref<?x?xf64>, %out: memref<?x?xf64>) {
  stencil.linear %in -> %out pattern <[[0, 0], [0, 2], [-1, 1]]> weights [0.5, 0.3, -0.1] steps 5 : memref<?x?xf64>
  return
}
