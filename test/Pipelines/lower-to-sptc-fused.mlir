// RUN: stencil-opt %s --lower-to-sptc="fused-steps=2" | FileCheck %s
// RUN: stencil-opt %s --lower-to-sptc="fused-steps=2" | stencil-translate --to-ptx | FileCheck %s --check-prefix=PTX

// fused-steps=2 on --lower-to-sptc: the strided swap of the composed
// 13-point stencil on mma.sp (never the gathered form, which takes no fused
// steps), the band and tail kernels of direct steps beside it.
// CHECK:       stencil.launches = [{
// CHECK-SAME:    band_kernel = "heat2d_sptc_band"
// CHECK-SAME:    composed_points = 13 : i64
// CHECK-SAME:    kernel = "heat2d_sptc"
// CHECK-SAME:    steps = 5 : i64, steps_per_launch = 2 : i64
// CHECK:         gpu.launch_func <%{{.*}} : !llvm.ptr> @stencil_sptc::@heat2d_sptc blocks
// CHECK-NEXT:    gpu.launch_func <%{{.*}} : !llvm.ptr> @stencil_sptc::@heat2d_sptc_band blocks
// CHECK:         gpu.launch_func <%{{.*}} : !llvm.ptr> @stencil_sptc::@heat2d_sptc_tail blocks
// PTX-DAG:     .entry heat2d_sptc(
// PTX-DAG:     .entry heat2d_sptc_band(
// PTX-DAG:     .entry heat2d_sptc_tail(
// PTX-DAG:     mma.sp
func.func @heat2d(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1>
      weights [0.1, 0.15, 0.45, 0.2, 0.1] steps 5 : memref<?x?xf16>
  return
}
