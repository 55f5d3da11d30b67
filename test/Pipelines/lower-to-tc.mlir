// RUN: stencil-opt %s --lower-to-tc | FileCheck %s --implicit-check-not=stencil. --implicit-check-not=memref. --implicit-check-not=scf. --implicit-check-not=mma.sp

// The dense Tensor Core pipeline (SPIDER's "w. TC"): the host function in the
// LLVM dialect launches the kernel; each kernel row and column tile is two
// m16n8k16 mma.sync in the PTX.
// CHECK:       module attributes {gpu.container_module, stencil.launches = [{
// CHECK-SAME:    kernel = "box2d9p_tc"
// CHECK-SAME:    source = {pattern = #stencil.pattern<box, rank = 2, radius = 1>
// CHECK-SAME:    tile = array<i64: 64, 256>
// CHECK:       llvm.func @box2d9p
// CHECK:         gpu.launch_func <%{{.*}} : !llvm.ptr> @stencil_tc::@box2d9p_tc
// PTX 7.8: what sm_90 needs (mma.sync needs 7.0).
// CHECK:       gpu.binary @stencil_tc [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx78">
// CHECK-SAME:    .entry box2d9p_tc
// CHECK-SAME:    mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
func.func @box2d9p(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.linear %in -> %out pattern <box, rank = 2, radius = 1>
      weights [0.1, 0.2, 0.05, 0.15, 0.3, 0.04, 0.06, 0.07, 0.03] steps 10
      : memref<?x?xf16>
  return
}
