// RUN: stencil-opt %s --split-input-file --convert-stencil-to-cuda-core -mlir-print-elementsattrs-with-hex-if-larger=100000 | FileCheck %s
// RUN: stencil-opt %s --split-input-file --convert-stencil-to-cuda-core="replaceable-weights=false" -mlir-print-elementsattrs-with-hex-if-larger=100000 | FileCheck %s --check-prefix=IMM
// RUN: stencil-opt %s --split-input-file --convert-stencil-to-cuda-core="fused-steps=2" | FileCheck %s --check-prefix=FUSED

// Above kMaxUnrolledPoints (256) points the sum is an scf.for over a
// constant `.global` table of the points: per entry the offsets, then the
// point's index in the weights global (replaceable weights; else a second
// table of the weights), one FMA per output and entry, from 0. The entries
// come in the order the unrolled form adds the points to each output:
// columns (the offset without its y) ascending, then dy ascending. A 17 x 17
// box (289 points): column dx = -8 is points 0, 17, 34, ... (box order is
// dy-major), so the table starts [-8, -8, 0], [-7, -8, 17], [-6, -8, 34].

// CHECK-LABEL: gpu.module @stencil_cuda_core
// CHECK:   llvm.mlir.global internal constant @box_cuda_core_points(dense<[-8, -8, 0, -7, -8, 17, -6, -8, 34,
// CHECK-SAME: : tensor<867xi32>) {addr_space = 1 : i32, alignment = 8 : i64} : !llvm.array<867 x i32>
// CHECK-NOT: _point_weights
// CHECK:   gpu.func @box_cuda_core
// CHECK:     scf.for %{{.*}} = %c0{{.*}} to %c289{{.*}} step %c1{{.*}} iter_args(
// CHECK:       llvm.mlir.addressof @box_cuda_core_points : !llvm.ptr<1>
// CHECK:       llvm.mlir.addressof @box_cuda_core_weights : !llvm.ptr<4>
// CHECK-COUNT-4: llvm.intr.fma
// CHECK:       scf.yield
// IMM:     llvm.mlir.global internal constant @box_cuda_core_point_weights(dense<[
// IMM-SAME: : tensor<289xf32>) {addr_space = 1 : i32
// IMM:     llvm.mlir.global internal constant @box_cuda_core_points(
// IMM:     scf.for
// IMM:       llvm.mlir.addressof @box_cuda_core_point_weights : !llvm.ptr<1>
// Fused steps: the intermediate step's sum and the last one's, each a loop.
// FUSED: gpu.func @box_cuda_core
// FUSED: scf.for %{{.*}} = %c0{{.*}} to %c289
// FUSED: scf.for %{{.*}} = %c0{{.*}} to %c289
func.func @box(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  stencil.linear %in -> %out pattern <box, rank = 2, radius = 8> weights [
    1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0,
    1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0,
    1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0,
    1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0,
    1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0,
    1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0,
    1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0,
    1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0,
    1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0,
    1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0,
    1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0,
    1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0,
    1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0,
    1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0,
    1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0,
    1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0,
    1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0]
    steps 2 : memref<?x?xf32>
  return
}

// -----

// 1-D: the points in the pattern's order (the unrolled 1-D form's), here a
// 257-point star from -128.
// CHECK-LABEL: gpu.module @stencil_cuda_core
// CHECK:   llvm.mlir.global internal constant @line_cuda_core_points(dense<[-128, 0, -127, 1, -126, 2,
// CHECK-SAME: tensor<514xi32>
// CHECK:   gpu.func @line_cuda_core
// CHECK:     scf.for %{{.*}} = %c0{{.*}} to %c257
func.func @line(%in: memref<?xf32>, %out: memref<?xf32>) {
  stencil.linear %in -> %out pattern <star, rank = 1, radius = 128> weights [
    1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0,
    1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0,
    1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0,
    1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0,
    1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0,
    1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0,
    1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0,
    1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0,
    1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0,
    1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0,
    1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0,
    1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0,
    1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0,
    1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0,
    1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0,
    1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0,
    1.0] : memref<?xf32>
  return
}
