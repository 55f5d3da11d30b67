// RUN: stencil-opt %s --lower-to-tc="low-rank=true fused-steps=3" | FileCheck %s
// RUN: stencil-opt %s --lower-to-tc="low-rank=true fused-steps=3" | stencil-translate --to-launch --ptx-file k.ptx | FileCheck %s --check-prefix=LAUNCH
// RUN: stencil-opt %s --lower-to-tc="low-rank=true fused-steps=3" | stencil-translate --to-ptx | FileCheck %s --check-prefix=PTX

// low-rank=true with fused-steps=3 on --lower-to-tc: the 3-fold composition
// of an f16 Heat-2D (a 25-point stencil of radius 3) as the chain of its 4
// SVD terms (Sum_k U_k X V_k, two m16n8k16 stages per term), the band
// kernel of three direct steps near the edge and the tail kernel of the
// last step (10 = 3 x 3 + 1). The launch record carries both the chain's
// abs-sum (its roundings) and the composed stencil's (the runner's
// composed tolerance, which also covers the SVD's truncation).
// CHECK:       stencil.launches = [{
// CHECK-SAME:    band_kernel = "heat2d_tc_band", band_margins = array<i64: 3, 3>
// CHECK-SAME:    chain_abs_sum =
// CHECK-SAME:    composed_abs_sum =
// CHECK-SAME:    composed_points = 25 : i64
// CHECK-SAME:    kernel = "heat2d_tc"
// CHECK-SAME:    steps = 10 : i64, steps_per_launch = 3 : i64
// CHECK:         gpu.launch_func <%{{.*}} : !llvm.ptr> @stencil_tc::@heat2d_tc blocks
// CHECK-NEXT:    gpu.launch_func <%{{.*}} : !llvm.ptr> @stencil_tc::@heat2d_tc_band blocks
// CHECK:         gpu.launch_func <%{{.*}} : !llvm.ptr> @stencil_tc::@heat2d_tc_tail blocks
// LAUNCH:      kernel = heat2d_tc
// LAUNCH:      steps_per_launch = 3
// LAUNCH:      composed_points = 25
// LAUNCH:      band_kernel = heat2d_tc_band
// LAUNCH:      chain_abs_sum =
// PTX-DAG:     .entry heat2d_tc(
// PTX-DAG:     .entry heat2d_tc_band(
// PTX-DAG:     .entry heat2d_tc_tail(
// PTX-DAG:     mma.sync.aligned.m16n8k16

func.func @heat2d(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1>
      weights [0.1038, 0.2242, 0.1360, 0.3010, 0.2350] steps 10
      : memref<?x?xf16>
  return
}
