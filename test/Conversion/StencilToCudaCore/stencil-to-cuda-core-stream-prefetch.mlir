// RUN: stencil-opt %s --convert-stencil-to-cuda-core="threads-x=4 threads-y=2 outputs-per-thread=2 planes=5 stream=on" | FileCheck %s
// RUN: stencil-opt %s --convert-stencil-to-cuda-core="threads-x=4 threads-y=2 outputs-per-thread=2 planes=5 stream=on fused-steps=2" | FileCheck %s --check-prefix=FUSED
// RUN: stencil-opt %s --convert-stencil-to-cuda-core="threads-x=4 threads-y=2 outputs-per-thread=2 planes=5 stream=on prefetch-planes=false" | FileCheck %s --check-prefix=OFF
// RUN: stencil-opt %s --convert-stencil-to-cuda-core="threads-x=4 threads-y=2 outputs-per-thread=2 planes=5 stream=on prefetch-distance=2" | FileCheck %s --check-prefix=TWO

// Prefetched planes (prefetch-planes, the default): the 8 threads stage a
// 6 x 6 plane, 5 values each. A one-step sweep loads plane 0 before its
// loop and carries the values as iter_args; iteration i loads plane i + 1
// (5 predicated global loads), then stores the carried values of plane i
// into the ring, then the barrier; it yields the loaded values. Both
// sweeps (interior and edge blocks) do so.
// CHECK:       gpu.func @heat_cuda_core(
// CHECK-COUNT-5: memref.load %arg0
// CHECK:         scf.for %{{.*}} iter_args(%[[V0:.*]] = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (f16, f16, f16, f16, f16)
// CHECK-COUNT-5:   memref.load %arg0
// CHECK-NOT:       gpu.barrier
// CHECK:           memref.store %[[V0]], %{{.*}} : memref<144xf16, #gpu.address_space<workgroup>>
// CHECK:           gpu.barrier
// CHECK:           scf.yield %{{.*}} : f16, f16, f16, f16, f16
// CHECK:       } else {
// CHECK:         scf.for %{{.*}} iter_args({{.*}}) -> (f16, f16, f16, f16, f16)
// CHECK:       gpu.return

// Fused steps stage in the iteration (no iter_args); the one-step tail
// kernel prefetches.
// FUSED:       gpu.func @heat_cuda_core(
// FUSED-NOT:     -> (f16, f16
// FUSED:       gpu.func @heat_cuda_core_tail(
// FUSED:         scf.for %{{.*}} iter_args({{.*}}) -> (f16, f16, f16, f16, f16)

// prefetch-distance=2: planes 0 and 1 are loaded before the loop, and the
// iter_args carry both (10 values); iteration i loads plane i + 2, stores
// the first 5 (plane i) and yields the other 5 followed by the new ones.
// TWO:         gpu.func @heat_cuda_core(
// TWO-COUNT-10:  memref.load %arg0
// TWO:           scf.for %{{.*}} iter_args(%[[A0:arg[0-9]+]] = %{{[0-9]+}}, %[[A1:arg[0-9]+]] = %{{[0-9]+}}, %[[A2:arg[0-9]+]] = %{{[0-9]+}}, %[[A3:arg[0-9]+]] = %{{[0-9]+}}, %[[A4:arg[0-9]+]] = %{{[0-9]+}}, %[[A5:arg[0-9]+]] = %{{[0-9]+}}, {{.*}}) -> (f16, f16, f16, f16, f16, f16, f16, f16, f16, f16)
// TWO-COUNT-5:     memref.load %arg0
// TWO-NOT:         gpu.barrier
// TWO:             memref.store %[[A0]], %{{.*}} : memref<144xf16, #gpu.address_space<workgroup>>
// TWO:             gpu.barrier
// TWO:             scf.yield %[[A5]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : f16, f16, f16, f16, f16, f16, f16, f16, f16, f16
// TWO:         } else {

// OFF:         gpu.func @heat_cuda_core(
// OFF-NOT:       iter_args
// OFF:         gpu.return
func.func @heat(%in: memref<?x?x?xf16>, %out: memref<?x?x?xf16>) {
  stencil.linear %in -> %out pattern <star, rank = 3, radius = 1>
      weights [0.1, 0.1, 0.1, 0.4, 0.1, 0.1, 0.1] steps 3 : memref<?x?x?xf16>
  return
}
