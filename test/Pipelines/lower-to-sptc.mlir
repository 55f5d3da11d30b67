// RUN: stencil-opt %s --lower-to-sptc | FileCheck %s --implicit-check-not=stencil.linear --implicit-check-not=memref. --implicit-check-not=scf. --implicit-check-not=gpu.memcpy
// RUN: stencil-opt %s --lower-to-sptc="chip=sm_80 warps=2 n-tiles=2 layout=strided-swap" | FileCheck %s --check-prefix=SM80
// RUN: stencil-opt %s --lower-to-sptc="layout=strided-swap" | FileCheck %s --check-prefix=SWAP
// RUN: stencil-opt %s --lower-to-sptc="layout=matching" | FileCheck %s --check-prefix=MATCH

// The whole Sparse Tensor Core pipeline: the host function is in the LLVM
// dialect and launches the kernel, whose PTX (with the ordered-metadata
// mma.sp) is in the gpu.binary.
// CHECK:       module attributes {gpu.container_module, stencil.launches = [{
// CHECK-SAME:    kernel = "box2d9p_sptc"
// CHECK-SAME:    source = {pattern = #stencil.pattern<box, rank = 2, radius = 1>
// CHECK-SAME:    tile = array<i64: 256, 64>
// CHECK-SAME:    unit_flops_per_point = 1.280000e+02
// CHECK:       llvm.func @box2d9p
// CHECK:         gpu.launch_func <%{{.*}} : !llvm.ptr> @stencil_sptc::@box2d9p_sptc
// CHECK:       gpu.binary @stencil_sptc [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx85">
// CHECK-SAME:    .entry box2d9p_sptc
// CHECK-SAME:    mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32
// layout=auto (the default) takes SparStencil's gathered form for the 3 x 3
// box: 2 matched mma.sp per tile (layout [8, 2]: 8 columns of 2 x 8 outputs
// side by side along x, 256 outputs wide for 4 warps) against the strided
// swap's 3 (one per kernel row, 64 x 256 tiles); 64 dense-equivalent flops
// per output and mma.sp. layout=matching takes it too, layout=strided-swap
// does not.
// SWAP:        tile = array<i64: 64, 256>
// SWAP-SAME:   unit_flops_per_point = 1.920000e+02
// MATCH:       tile = array<i64: 256, 64>
// MATCH-SAME:  unit_flops_per_point = 1.280000e+02
// SM80:        tile = array<i64: 32, 128>
// SM80:        #nvvm.target<O = 3, chip = "sm_80", features = "+ptx85">
// SM80-SAME:     .target sm_80
func.func @box2d9p(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.linear %in -> %out pattern <box, rank = 2, radius = 1>
      weights [0.1, 0.2, 0.05, 0.15, 0.3, 0.04, 0.06, 0.07, 0.03] steps 10
      : memref<?x?xf16>
  return
}
