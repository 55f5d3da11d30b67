// RUN: stencil-opt %s --stencil-sptc-tile="mma=warpgroup chip=sm_90a wgmma-n=8 wgmma-strips=2" --stencil-sptc-pack --convert-stencil-to-sptc | FileCheck %s --implicit-check-not=stencil.row_gemm

// The dense form on the warpgroup kernel (Support/WgmmaSpTiling.h): the
// same staged tile and stores as the sparse one; each warp loads the eight
// m16n8k16 A words of its kernel row (TCCoefficientLayout) once, and every
// (shift, strip) issues two dense wgmma.mma_async m64n8k16, the second on B
// rows 16..31 (two K-chunks, 2 x 544 bytes = 68 descriptor units, further).
// CHECK:       module attributes {gpu.container_module, stencil.launches = [{
// CHECK-SAME:    tile = array<i64: 32, 256>
// CHECK-SAME:    unit = "wgmma.f16", unit_flops_per_point = 2.560000e+02
// CHECK:       gpu.func @f_tc
// CHECK:         vector.load {{.*}} {alignment = 32 : i64} : memref<?xi32>, vector<8xi32>
// CHECK:         scf.for {{.*}} iter_args
// CHECK:           nvvm.wgmma.fence.aligned
// CHECK-COUNT-16:  llvm.inline_asm has_side_effects {{.*}}wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {$0, $1, $2, $3}, {$8, $9, $10, $11}, $12, p, 1, 1, 0;{{.*}}"=f,=f,=f,=f,0,1,2,3,r,r,r,r,l"
// CHECK:           nvvm.wgmma.commit.group.sync.aligned
// CHECK:           nvvm.stmatrix
func.func @f(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.row_gemm %in -> %out radius 1 rows_per_block 4 column_shift 1 row_offsets [0]
      input_offsets [-2, -1, 0, 1, 2, 3, 4, 5]
      kernels dense<0.5> : tensor<1x4x8xf64> : memref<?x?xf16>
  return
}
