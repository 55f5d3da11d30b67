// RUN: stencil-opt %s --stencil-sptc-tile="mma=warpgroup chip=sm_90a wgmma-n=8" --stencil-sptc-pack --convert-stencil-to-sptc | FileCheck %s --implicit-check-not=stencil.sparse_row_gemm

// The warpgroup kernel (sm_90a, Support/WgmmaSpTiling.h) of a one-row 2-D
// form of radius 0: 128 threads, blocks of 16 x 4 N outputs, and one
// wgmma.mma_async.sp m64n8k32 per shift S = 0..3 (warp w multiplies kernel
// row S - w, so each MMA has exactly one warp with a row).
// CHECK:       module attributes {gpu.container_module, stencil.launches = [{
// CHECK-SAME:    block = array<i64: 128, 1, 1>
// CHECK-SAME:    tile = array<i64: 16, 32>
// CHECK-SAME:    unit = "wgmma.sp.f16", unit_flops_per_point = 2.560000e+02
// CHECK:       gpu.func @f_sptc
// The tile starts on a 16-byte boundary (descriptor addresses are in
// 16-byte units).
// CHECK-SAME:    workgroup(%{{.*}} : memref<1024xf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// The staged input reaches the Tensor Cores through the async proxy.
// CHECK:         nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK:         gpu.barrier
// CHECK:         nvvm.wgmma.fence.aligned
// The descriptor's fixed bits: LBO = 4 J 16 = 512 bytes (J = 8 entries per
// phase) >> 4 at bit 16, SBO = 128 >> 4 at bit 32, no swizzle.
// CHECK:         arith.constant 34361835520 : i64
// CHECK-COUNT-4: llvm.inline_asm has_side_effects {{.*}}wgmma.mma_async.sp.sync.aligned.m64n8k32.f32.f16.f16 {$0, $1, $2, $3}, {$8, $9, $10, $11}, $12, $13, 0, p, 1, 1, 0;{{.*}}"=f,=f,=f,=f,0,1,2,3,r,r,r,r,l,r"
// CHECK:         nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT:    nvvm.wgmma.wait.group.sync.aligned 0
// The accumulators are read only after the wait.
// CHECK-NEXT:    llvm.inline_asm has_side_effects asm_dialect = att "", "=f,=f,=f,=f,0,1,2,3"
func.func @f(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.sparse_row_gemm %in -> %out radius 0 rows_per_block 2 row_offsets [0]
      input_offsets [0, 1, 2, 3]
      values dense<1.0> : tensor<1x2x2xf16> indices dense<[[[0, 1], [0, 1]]]> : tensor<1x2x2xi8> : memref<?x?xf16>
  return
}
