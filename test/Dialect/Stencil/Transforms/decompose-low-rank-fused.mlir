// RUN: stencil-opt %s --stencil-decompose="fused-steps=2 low-rank=true" -split-input-file | FileCheck %s
// RUN: stencil-opt %s --stencil-decompose="fused-steps=4 low-rank=true" -split-input-file | FileCheck %s --check-prefix=T4

// low-rank with fused steps: the chain of the composed weights. A rank-1
// step (the outer product of [1, 2, 1] and [0.01, 0.02, 0.01]) composes to
// rank 1: one term of radius 2 t (fused-steps=2: 5 entries; 4: 9), with the
// step stencil recorded for the band and tail kernels. The source is the
// step stencil, for the launch description.
// CHECK-LABEL: func.func @rank_one
// CHECK:       stencil.row_gemm %{{.*}} -> %{{.*}} radius 2 rows_per_block 8 row_offsets [0] kernels
// CHECK-SAME:    : tensor<1x8x16xf64> column_weights dense<{{.*}}> : tensor<1x5xf64> steps 6
// CHECK-SAME:    fused_steps 2 of <box, rank = 2, radius = 1> weights [1.000000e-02, 2.000000e-02, 1.000000e-02, 2.000000e-02, 4.000000e-02, 2.000000e-02, 1.000000e-02, 2.000000e-02, 1.000000e-02]
// CHECK-SAME:    stencil.source = {pattern = #stencil.pattern<box, rank = 2, radius = 1>
// T4-LABEL:    func.func @rank_one
// T4:          radius 4 rows_per_block 16 row_offsets [0]
// T4-SAME:       column_weights dense<{{.*}}> : tensor<1x9xf64> steps 6 fused_steps 4 of
func.func @rank_one(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.linear %in -> %out pattern <box, rank = 2, radius = 1>
      weights [0.01, 0.02, 0.01, 0.02, 0.04, 0.02, 0.01, 0.02, 0.01] steps 6
      : memref<?x?xf16>
  return
}

// -----

// A star is a row plus a column (rank 2); its t-fold composition has rank
// t + 1 (within the f16 rounding), at most t r + 1 = t + 1 terms.
// CHECK-LABEL: func.func @star
// CHECK:       column_weights dense<{{.*}}> : tensor<3x5xf64> fused_steps 2 of <star, rank = 2, radius = 1>
// T4-LABEL:    func.func @star
// T4:          column_weights dense<{{.*}}> : tensor<5x9xf64> fused_steps 4 of <star, rank = 2, radius = 1>
func.func @star(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1>
      weights [0.1038, 0.2242, 0.1360, 0.3010, 0.2350] : memref<?x?xf16>
  return
}

// -----

// 3-D stencils take the direct composed form, as --stencil-low-rank leaves
// them (no column weights, no diagnostic).
// CHECK-LABEL: func.func @box3d
// CHECK:       stencil.row_gemm
// CHECK-NOT:     column_weights
// CHECK-SAME:    fused_steps 2 of <star, rank = 3, radius = 1>
func.func @box3d(%in: memref<?x?x?xf16>, %out: memref<?x?x?xf16>) {
  stencil.linear %in -> %out pattern <star, rank = 3, radius = 1>
      weights [0.1, 0.15, 0.2, 0.1, 0.15, 0.2, 0.1] : memref<?x?x?xf16>
  return
}
