// RUN: not stencil-opt %s --lower-to-cpu 2>&1 | FileCheck %s

// A dialect the CPU pipeline does not lower is reported by the contract
// check at its location, not passed through silently.
// CHECK: lower-to-cpu-invalid.mlir:[[@LINE+3]]:{{[0-9]+}}: error: 'gpu.barrier' was not lowered by the 'lower-to-cpu' pipeline (allowed: llvm)
func.func @f(%in: memref<8xf32>, %out: memref<8xf32>) {
  stencil.linear %in -> %out pattern <star, rank = 1, radius = 1> weights [1., 2., 3.] : memref<8xf32>
  gpu.barrier
  return
}
