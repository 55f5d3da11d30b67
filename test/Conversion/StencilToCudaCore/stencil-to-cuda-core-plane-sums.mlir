// RUN: stencil-opt %s --split-input-file --convert-stencil-to-cuda-core="threads-x=4 threads-y=2 outputs-per-thread=2 planes=5 stream=on plane-sums=true" | FileCheck %s
// RUN: stencil-opt %s --split-input-file --convert-stencil-to-cuda-core="threads-x=4 threads-y=2 outputs-per-thread=2 planes=5 stream=on plane-sums=true fused-steps=2" | FileCheck %s --check-prefix=FUSED
// RUN: stencil-opt %s --split-input-file --convert-stencil-to-cuda-core="threads-x=4 threads-y=2 outputs-per-thread=2 planes=5 stream=on" | FileCheck %s --check-prefix=RING
// RUN: stencil-opt %s --split-input-file --convert-stencil-to-cuda-core="threads-x=4 threads-y=2 outputs-per-thread=2 planes=5 stream=on plane-sums=true prefetch-planes=false" | FileCheck %s --check-prefix=NOPF

// Plane sums (CudaCorePlaneSums.cpp): a streamed one-step linear kernel
// stages two planes of 6 x 6 (the 4 x 4 tile and a halo of 1): 72
// elements. Each thread carries 2 outputs x (2 r_z + 1) = 6 partial sums
// through the sweep; the sweep runs min(5, N_z - z0) + 2 planes rounded up
// to whole groups of 3 iterations, (planes + 4) / 3 groups, each unrolled
// into 3 iterations of one barrier (after the staging) and a store of the
// completed plane i - r_z under a uniform condition. The sweep is built
// twice (interior and edge blocks): 6 barriers in all. The launch record
// names the schedule. With prefetch-planes (the default) the iter_args
// also carry the staging values of the next plane (5 per thread), stored
// at the start of each unrolled iteration; without, none.
// CHECK:       schedule = "plane-sums"
// CHECK:       gpu.func @heat_cuda_core(
// CHECK-SAME:    workgroup(%{{.*}} : memref<72xf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK:         %[[ROWS:.*]] = arith.minui %{{.*}}, %c5
// CHECK:         %[[ITERS:.*]] = arith.addi %[[ROWS]], %c4
// CHECK:         %[[GROUPS:.*]] = arith.divui %[[ITERS]], %c3
// CHECK:         scf.for %{{.*}} = %{{.*}} to %[[GROUPS]] step %{{.*}} iter_args({{.*}}) -> (f32, f32, f32, f32, f32, f32, f16, f16, f16, f16, f16)
// CHECK-COUNT-3:   gpu.barrier
// CHECK-NOT:       gpu.barrier
// CHECK:         } else {
// CHECK:           scf.for
// CHECK-COUNT-3:   gpu.barrier
// CHECK-NOT:       gpu.barrier
// CHECK:         gpu.return

// With 2 fused steps the kernel keeps the rings (3 planes of 8 x 8 for the
// input and step 1: 384 elements); its one-step tail sums planes.
// FUSED:       gpu.func @heat_cuda_core(
// FUSED-SAME:    workgroup(%{{.*}} : memref<384xf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// FUSED:       gpu.func @heat_cuda_core_tail(
// FUSED-SAME:    workgroup(%{{.*}} : memref<72xf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// FUSED:         scf.for {{.*}} -> (f32, f32, f32, f32, f32, f32, f16,

// NOPF:        gpu.func @heat_cuda_core(
// NOPF:          scf.for {{.*}} -> (f32, f32, f32, f32, f32, f32) {

// Off by default: the ring of 2 r_z + 2 = 4 planes.
// RING:        schedule = "streamed"
// RING:        gpu.func @heat_cuda_core(
// RING-SAME:     workgroup(%{{.*}} : memref<144xf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
func.func @heat(%in: memref<?x?x?xf16>, %out: memref<?x?x?xf16>) {
  stencil.linear %in -> %out pattern <star, rank = 3, radius = 1>
      weights [0.1, 0.1, 0.1, 0.4, 0.1, 0.1, 0.1] steps 3 : memref<?x?x?xf16>
  return
}

// -----

// A general body keeps the ring (plane sums need the points' weights):
// 2 r_z + 2 = 4 planes of 6 x 6 in f32.
// CHECK:       gpu.func @general_cuda_core(
// CHECK-SAME:    workgroup(%{{.*}} : memref<144xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// FUSED:       gpu.func @general_cuda_core(
// RING:        gpu.func @general_cuda_core(
// RING-SAME:     workgroup(%{{.*}} : memref<144xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
func.func @general(%in: memref<?x?x?xf32>, %out: memref<?x?x?xf32>) {
  stencil.apply %in -> %out : memref<?x?x?xf32> {
    %a = stencil.access [-1, 0, 1] : f32
    %b = stencil.access [1, 1, 0] : f32
    %c = stencil.access [0, 0, 0] : f32
    %m = arith.maximumf %a, %b : f32
    %s = arith.mulf %m, %c : f32
    stencil.yield %s : f32
  }
  return
}
