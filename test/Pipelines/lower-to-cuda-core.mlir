// RUN: stencil-opt %s --lower-to-cuda-core | FileCheck %s --implicit-check-not=stencil.linear --implicit-check-not=memref. --implicit-check-not=scf. --implicit-check-not=gpu.memcpy --implicit-check-not=mma
// RUN: stencil-opt %s --lower-to-cuda-core="chip=sm_80 threads-x=64 threads-y=4 outputs-per-thread=2" | FileCheck %s --check-prefix=SM80
// RUN: stencil-opt %s --lower-to-cuda-core="fused-steps=4" | FileCheck %s --check-prefix=FUSED

// The whole CUDA-core pipeline on an f64 stencil (no Tensor Core path
// takes f64 sparsely): the host function is in the LLVM dialect and launches
// the kernel, whose PTX (f64 FMAs, no mma) is in the gpu.binary.
// CHECK:       module attributes {gpu.container_module, stencil.launches = [{
// CHECK-SAME:    accumulator = "f64"
// CHECK-SAME:    element_type = "f64", kernel = "heat2d_cuda_core"
// CHECK-SAME:    tile = array<i64: 32, 32>
// CHECK:       llvm.func @heat2d
// CHECK:         gpu.launch_func <%{{.*}} : !llvm.ptr> @stencil_cuda_core::@heat2d_cuda_core
// The PTX ISA version is the one the chip needs (docs/Pipelines.md, "GPU
// targets"): 7.8 for sm_90, 7.0 for sm_80.
// CHECK:       gpu.binary @stencil_cuda_core [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx78">
// CHECK-SAME:    .entry heat2d_cuda_core
// CHECK-SAME:    fma.rn.f64
// SM80:        tile = array<i64: 64, 8>
// SM80:        #nvvm.target<O = 3, chip = "sm_80", features = "+ptx70">
// SM80-SAME:     .target sm_80

// Temporal blocking: the 10 steps are two launches of the 4-step kernel
// (staging, then three barriers between its four steps) and one of a
// 2-step tail kernel.
// FUSED:       stencil.launches = [{
// FUSED-SAME:    steps = 10 : i64, steps_per_launch = 4 : i64
// FUSED:       llvm.func @heat2d
// FUSED:         gpu.launch_func <%{{.*}} : !llvm.ptr> @stencil_cuda_core::@heat2d_cuda_core blocks
// FUSED:         gpu.launch_func <%{{.*}} : !llvm.ptr> @stencil_cuda_core::@heat2d_cuda_core_tail blocks
// FUSED:       gpu.binary @stencil_cuda_core
// FUSED-SAME:    .entry heat2d_cuda_core(
// FUSED-SAME:    bar.sync
// FUSED-SAME:    bar.sync
// FUSED-SAME:    bar.sync
// FUSED-SAME:    bar.sync
// FUSED-SAME:    .entry heat2d_cuda_core_tail(
// FUSED-SAME:    bar.sync
// FUSED-SAME:    bar.sync
func.func @heat2d(%in: memref<?x?xf64>, %out: memref<?x?xf64>) {
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1>
      weights [0.1, 0.2, 0.35, 0.25, 0.1] steps 10 : memref<?x?xf64>
  return
}
