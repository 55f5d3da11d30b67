// RUN: stencil-opt %s --split-input-file --convert-stencil-to-cuda-core="threads-x=8 threads-y=1 planes=5 stream=on fused-steps=2" | FileCheck %s --check-prefix=FUSED
// RUN: stencil-opt %s --split-input-file --convert-stencil-to-cuda-core="stream=on" | FileCheck %s --check-prefix=DEFAULT
// RUN: stencil-opt %s --split-input-file --convert-stencil-to-cuda-core="threads-x=4 threads-y=1 outputs-per-thread=2 planes=5 stream=on fused-steps=2" | FileCheck %s --check-prefix=COLUMNS

// A row-streamed 2-D block (stream=on in 2-D) is one row of threads: 8
// threads keep 2 t r_x = 4 columns for the halo of 2 fused steps, so the
// tile (innermost first) is 4 x 5 rows. Shared memory holds one row of
// 8 + 2 r_x = 10 elements per parity and per level 0 .. t - 1: 40. The
// block first zeroes it (5 stores per thread) and then sweeps
// min(5, N_y - y0) + 2 t r_y + t = rows + 6 iterations in groups of 6 (3
// partial sums per level, at least 4 rows loaded ahead; rounded up: the
// addend 11 is 6 + 6 - 1), the loop carrying the
// two parities' offsets, the 6 rows loaded ahead, 2 x 3 partial sums and
// the previous values of levels 0 and 1. Each iteration does 2 x 5 FMAs,
// stores the last level's row to %arg1 and ends with a barrier.
// FUSED:         steps_per_launch = 2 : i64, tail_block = {{.*}}, tile = array<i64: 4, 5>
// FUSED:         gpu.func @heat_cuda_core(
// FUSED-SAME:      workgroup(%{{.*}} : memref<40xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// FUSED-COUNT-5:   memref.store %{{.*}}, %{{.*}} : memref<40xf32, #gpu.address_space<workgroup>>
// FUSED-NEXT:      gpu.barrier
// A block whose rows (the 12 iterations and the 6 rows loaded past them)
// and columns all lie r or more from the grid's edges takes the interior
// sweep (a uniform branch): C = 5 rows, 2 groups, its loads unpredicated
// and no select of a kept value.
// FUSED:           scf.if %{{.*}} {
// FUSED-COUNT-6:     memref.load %arg0[
// FUSED-NOT:         arith.select
// FUSED:             scf.for %{{.*}} = %{{.*}} to %c2{{.*}} step %{{.*}} iter_args(
// FUSED-SAME:          -> (index, index, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) {
// FUSED-NOT:           scf.if %{{.*}} -> (f32)
// FUSED-NOT:           arith.select
// FUSED-COUNT-10:      llvm.intr.fma
// FUSED-NOT:           arith.select
// FUSED:               memref.store %{{.*}}, %arg1[
// FUSED:               gpu.barrier
// FUSED-COUNT-50:      llvm.intr.fma
// FUSED-NOT:           llvm.intr.fma
// FUSED-NOT:           arith.select
// FUSED:               scf.yield %{{.*}} : index, index, f32,
// The other blocks sweep min(5, N_y - y0) rows with the boundary's checks.
// FUSED:           } else {
// FUSED:           %[[ROWS:.*]] = arith.minui %{{.*}}, %c5
// FUSED:           %[[ITER:.*]] = arith.addi %[[ROWS]], %c11
// FUSED:           %[[GROUPS:.*]] = arith.divui %[[ITER]], %c6
// FUSED:           scf.for %{{.*}} = %{{.*}} to %[[GROUPS]] step %{{.*}} iter_args(
// FUSED-SAME:        -> (index, index, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) {
// FUSED-COUNT-10:    llvm.intr.fma
// FUSED:             arith.select
// FUSED:             memref.store %{{.*}}, %arg1[
// FUSED:             gpu.barrier
// FUSED-COUNT-50:    llvm.intr.fma
// FUSED-NOT:         llvm.intr.fma
// FUSED:             scf.yield %{{.*}} : index, index, f32,
// FUSED:           gpu.return
// The one-step tail kernel sweeps too: 6 iterations of one row per level in
// each of its two sweeps.
// FUSED:         gpu.func @heat_cuda_core_tail(
// FUSED-SAME:      workgroup(%{{.*}} : memref<20xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// FUSED:           scf.if
// FUSED-COUNT-30:  llvm.intr.fma
// FUSED:           } else {
// FUSED-COUNT-30:  llvm.intr.fma
// FUSED-NOT:       llvm.intr.fma
// FUSED:           gpu.return

// outputs-per-thread=2: 4 threads of two columns each (c and c + 4) make
// the same row of 8 columns and tile as FUSED. Each iteration does the
// 2 x 5 FMAs of both columns (a point's two FMAs one after the other, so
// one fetch of the weight serves both), and the loop carries twice the
// rows ahead, partial sums and previous values.
// COLUMNS:       steps_per_launch = 2 : i64, tail_block = {{.*}}, tile = array<i64: 4, 5>
// COLUMNS:       gpu.func @heat_cuda_core(
// COLUMNS-SAME:    workgroup(%{{.*}} : memref<40xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// COLUMNS-SAME:    known_block_size = array<i32: 4, 1, 1>
// COLUMNS-COUNT-10: memref.store %{{.*}}, %{{.*}} : memref<40xf32, #gpu.address_space<workgroup>>
// COLUMNS-NEXT:    gpu.barrier
// COLUMNS:         scf.if %{{.*}} {
// COLUMNS-COUNT-12:  memref.load %arg0[
// COLUMNS:           scf.for %{{.*}} = %{{.*}} to %c2{{.*}} step %{{.*}} iter_args(
// COLUMNS-SAME:        -> (index, index, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) {
// COLUMNS-COUNT-20:    llvm.intr.fma
// COLUMNS:             memref.store %{{.*}}, %arg1[
// COLUMNS:             memref.store %{{.*}}, %arg1[
// COLUMNS:             gpu.barrier
// COLUMNS-COUNT-100:   llvm.intr.fma
// COLUMNS-NOT:         llvm.intr.fma
// COLUMNS:             scf.yield %{{.*}} : index, index, f32,
// COLUMNS:         } else {

// The defaults: 32 x 8 = 256 threads in one row, 128 rows per block; one
// step of radius 1 keeps 2 columns: a 254 x 128 tile, shared rows of 258.
// DEFAULT:       tile = array<i64: 254, 128>
// DEFAULT:       gpu.func @heat_cuda_core(
// DEFAULT-SAME:    workgroup(%{{.*}} : memref<516xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
func.func @heat(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1>
      weights [0.1, 0.2, 0.4, 0.2, 0.1] : memref<?x?xf32>
  return
}
