// RUN: stencil-opt %s --lower-to-tc="fused-steps=3" | FileCheck %s
// RUN: stencil-opt %s --lower-to-tc="fused-steps=3" | stencil-translate --to-ptx | FileCheck %s --check-prefix=PTX

// fused-steps=3 on --lower-to-tc: 10 steps of an f64 Heat-2D are three
// launches of the composed 25-point stencil (radius 3) on the Tensor Cores,
// each followed by the band kernel of three direct steps, then one step in
// the tail kernel; the three kernels are entries of one PTX module.
// CHECK:       module attributes {gpu.container_module, stencil.launches = [{
// CHECK-SAME:    band_kernel = "heat2d_tc_band", band_margins = array<i64: 3, 3>
// CHECK-SAME:    composed_points = 25 : i64
// CHECK-SAME:    kernel = "heat2d_tc"
// CHECK-SAME:    steps = 10 : i64, steps_per_launch = 3 : i64
// CHECK:       llvm.func @heat2d
// CHECK:         gpu.launch_func <%{{.*}} : !llvm.ptr> @stencil_tc::@heat2d_tc blocks
// CHECK-NEXT:    gpu.launch_func <%{{.*}} : !llvm.ptr> @stencil_tc::@heat2d_tc_band blocks
// CHECK:         gpu.launch_func <%{{.*}} : !llvm.ptr> @stencil_tc::@heat2d_tc_tail blocks
// CHECK:       gpu.binary @stencil_tc
// PTX-DAG:     .entry heat2d_tc(
// PTX-DAG:     .entry heat2d_tc_band(
// PTX-DAG:     .entry heat2d_tc_tail(
// PTX-DAG:     mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64

func.func @heat2d(%in: memref<?x?xf64>, %out: memref<?x?xf64>) {
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1>
      weights [0.1, 0.15, 0.45, 0.2, 0.1] steps 10 : memref<?x?xf64>
  return
}
