// RUN: stencil-opt %s --split-input-file --convert-stencil-to-cuda-core="threads-x=8 threads-y=1 planes=5 stream=on fused-steps=2 row-phases=2" | FileCheck %s --check-prefix=F32
// RUN: stencil-opt %s --split-input-file --convert-stencil-to-cuda-core="threads-x=8 threads-y=1 planes=5 stream=on fused-steps=2 row-phases=2" | FileCheck %s --check-prefix=F16

// Row groups (row-phases=2): Heat-2D (r_y = r_x = 1) in f32 with 2 fused
// steps, 8 threads, 5 rows. Groups of G = 2 r_y + 1 = 3 rows; shared memory
// holds two input buffers and one for level 1, each of 3 rows of 8 + 2 = 10
// elements: 90 (more than the per-row sweep's 2 x 2 x 10). The groups
// cover the block's rows: level 2 completes local rows up to q0 in the
// group of q0, the last is 2 + 5 - 1 = 6, so ceil(6 / 3) + 1 = 3 groups,
// rounded up to 4 (two groups per iteration: 2 iterations).
// F32:         gpu.func @heat_cuda_core(
// F32-SAME:      workgroup(%{{.*}} : memref<90xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// F32-COUNT-11:  memref.store %{{.*}}, %{{.*}} : memref<90xf32, #gpu.address_space<workgroup>>
// F32:           scf.if
// F32-NEXT:        memref.store %{{.*}}, %{{.*}} : memref<90xf32, #gpu.address_space<workgroup>>
// F32-NEXT:      }
// F32-NEXT:      gpu.barrier
// Interior blocks: group 0's 3 rows copied asynchronously before the loop
// (4-byte elements), the loop carrying the copies' token and 2 levels x 6
// partial sums.
// F32:           scf.if %{{.*}} {
// F32-COUNT-3:     nvgpu.device_async_copy %arg0[
// F32:             nvgpu.device_async_create_group
// F32:             scf.for %{{.*}} = %{{.*}} to %c2{{.*}} step %{{.*}} iter_args(
// F32-SAME:          -> (!nvgpu.device.async.token, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) {
// Per group: wait for the copies, barrier, copy the next group's rows, then
// level 1 in 2 phases (dx in [-1, 0], then [1, 1]): per row of the group,
// phase 1 reads 2 neighbours and adds the 4 points with dx <= 0 (the star's
// (-1, 0), (0, -1), (0, 0), (1, 0)), phase 2 one neighbour and one point.
// F32:               nvgpu.device_async_wait
// F32-NEXT:          gpu.barrier
// F32-COUNT-3:       nvgpu.device_async_copy %arg0[
// F32:               nvgpu.device_async_create_group
// F32-COUNT-2:       memref.load %{{.*}} : memref<90xf32, #gpu.address_space<workgroup>>
// F32-COUNT-4:       llvm.intr.fma
// The level's completed rows go to its buffer, then a barrier before level 2.
// F32:               gpu.barrier
// F32:               memref.store %{{.*}}, %arg1[
// F32:               scf.yield %{{.*}} : !nvgpu.device.async.token, f32,
// The other blocks take the per-row sweep with the boundary's checks.
// F32:           } else {
// F32-NOT:         nvgpu.device_async_copy
// F32:             arith.select
// F32:             scf.for

func.func @heat(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1>
      weights [0.1, 0.2, 0.4, 0.2, 0.1] : memref<?x?xf32>
  return
}

// -----

// 16-bit grids stage the group's rows by loads and stores (cp.async moves 4,
// 8 or 16 bytes): no asynchronous copies, no token in the loop.
// F16-LABEL:   gpu.func @heat16_cuda_core(
// F16-NOT:       nvgpu.device_async_copy
// F16:           scf.for %{{.*}} iter_args(
// F16-SAME:        -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) {
// F16-COUNT-3:     memref.load %arg0[
// F16:             gpu.barrier

func.func @heat16(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1>
      weights [0.1, 0.2, 0.4, 0.2, 0.1] : memref<?x?xf16>
  return
}
