// RUN: stencil-opt %s --split-input-file --stencil-low-rank -verify-diagnostics
// RUN: stencil-opt %s --split-input-file --stencil-low-rank="max-rank=3" | FileCheck %s
// RUN: not stencil-opt %s --split-input-file --stencil-low-rank="method=pyramidal" 2>&1 | FileCheck %s --check-prefix=PMA
// RUN: not stencil-opt %s --stencil-low-rank="method=qr" 2>&1 | FileCheck %s --check-prefix=METHOD

// Asymmetric weights are full rank: more than h + 1, so the op stays and a
// warning says why; a larger max-rank takes it.
// CHECK: stencil.low_rank {{.*}} tensor<3x3xf64>
// PMA: low-rank-invalid.mlir:{{[0-9]+}}:3: error: 'stencil.linear' op has weights that are not row- and column-symmetric, which the pyramidal decomposition (LoRAStencil III-C) needs; use method=svd or auto
// METHOD: for the --method option: Cannot find option named 'qr'!
func.func @asymmetric(%in: memref<?x?xf64>, %out: memref<?x?xf64>) {
  // expected-warning @+1 {{weight matrix of rank 3 (3 x 3): the low-rank form pays off up to rank 2; keeping stencil.linear}}
  stencil.linear %in -> %out pattern <box, rank = 2, radius = 1>
      weights [0.02, 0.13, 0.07, 0.21, 0.18, 0.05, 0.11, 0.16, 0.07] : memref<?x?xf64>
  return
}
