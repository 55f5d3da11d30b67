// RUN: stencil-opt %s --stencil-sptc-tile="mma=warpgroup chip=sm_90a wgmma-n=8 wgmma-strips=2" --stencil-sptc-pack --convert-stencil-to-sptc | FileCheck %s --implicit-check-not=stencil.sparse_row_gemm

// The warpgroup kernel (sm_90a, Support/WgmmaSpTiling.h) of a one-row 2-D
// form of radius 0: 128 threads, blocks of 2 strips of 16 outputs by 4 N
// rows per sub-tile (8 sub-tiles), and per strip one wgmma.mma_async.sp
// m64n8k32 per shift S = 0..3 (warp w multiplies kernel row S - w, so each
// MMA has exactly one warp with a row).
// CHECK:       module attributes {gpu.container_module, stencil.launches = [{
// CHECK-SAME:    block = array<i64: 128, 1, 1>
// CHECK-SAME:    shared_bytes = 11264
// CHECK-SAME:    tile = array<i64: 32, 256>
// CHECK-SAME:    unit = "wgmma.sp.f16", unit_flops_per_point = 2.560000e+02
// CHECK:         gpu.launch_func @stencil_sptc::@f_sptc {{.*}} dynamic_shared_memory_size %c11264_i32
// Dynamic shared memory (16-byte aligned, as descriptor addresses need):
// two buffers of 2 x 4 chunks of 4 x 8 entries x 16 bytes + 32 bytes of
// padding, then the store staging, 4 x 8 rows of 2 x 32 + 16 bytes.
// CHECK:       gpu.func @f_sptc
// CHECK:         gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
// CHECK:         memref.view {{.*}} to memref<5632xf16, #gpu.address_space<workgroup>>
// Even N_x: the pipeline. The prologue stages sub-tile 0 by 4-byte cp.async
// (zero-filled outside the grid), 4 per strip, one group.
// CHECK:         scf.if
// CHECK-COUNT-8: nvgpu.device_async_copy {{.*}}, 2, %{{.*}} : memref<?xf16> to memref<5632xf16
// CHECK:         nvgpu.device_async_create_group
// The sub-tile loop: its first row is hidden from LLVM's strength reduction.
// CHECK:         scf.for {{.*}} iter_args
// CHECK-NEXT:      nvgpu.device_async_wait %{{.*}} {numGroups = 0 : i32}
// The staged input reaches the Tensor Cores through the async proxy.
// CHECK-NEXT:      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT:      gpu.barrier
// CHECK:           nvvm.wgmma.fence.aligned
// The descriptor's fixed bits: LBO = 4 J 16 + 32 = 544 bytes (J = 8 entries
// per phase) >> 4 at bit 16, SBO = 128 >> 4 at bit 32, no swizzle. Strip 1
// starts 4 chunks (4 x 544 bytes, 136 units) after strip 0.
// CHECK:           arith.constant 34361966592 : i64
// CHECK-COUNT-8:   llvm.inline_asm has_side_effects {{.*}}wgmma.mma_async.sp.sync.aligned.m64n8k32.f32.f16.f16 {$0, $1, $2, $3}, {$8, $9, $10, $11}, $12, $13, 0, p, 1, 1, 0;{{.*}}"=f,=f,=f,=f,0,1,2,3,r,r,r,r,l,r"
// CHECK:           nvvm.wgmma.commit.group.sync.aligned
// The next sub-tile's copies are issued while the MMAs run.
// CHECK:           llvm.inline_asm asm_dialect = att "mov.b64 $0, $1;", "=l,l"
// CHECK-COUNT-8:   nvgpu.device_async_copy
// CHECK:           nvgpu.device_async_create_group
// CHECK-NEXT:      nvvm.wgmma.wait.group.sync.aligned 0
// The accumulators are read only after the wait.
// CHECK-NEXT:      llvm.inline_asm has_side_effects asm_dialect = att "", "=f,=f,=f,=f,0,1,2,3"
// Each strip's n-tile leaves through one stmatrix .x2 .trans (col layout)
// into the store staging (at byte 8704, rows of 80 bytes); the warp
// meets, then stores 16-byte runs of interior outputs, or one f16 at a
// time where a run is partly outside or N_x is not a multiple of 8.
// CHECK:           arith.muli %{{.*}}, %c80 : index
// CHECK:           arith.addi %{{.*}}, %c8704 : index
// CHECK:           nvvm.stmatrix {{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<col>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : !llvm.ptr<3>, i32, i32
// CHECK:           nvvm.stmatrix {{.*}} layout = #nvvm.mma_layout<col>{{.*}} : !llvm.ptr<3>, i32, i32
// CHECK:           nvvm.bar.warp.sync
// CHECK:           scf.if
// CHECK-NEXT:        vector.load {{.*}} {alignment = 16 : i64} : memref<5632xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// CHECK:             scf.if
// CHECK-NEXT:          vector.store {{.*}} {alignment = 16 : i64} : memref<?xf16>, vector<8xf16>
// CHECK-NEXT:        } else {
// CHECK-COUNT-8:       memref.store
// CHECK:           scf.yield
// No copy outlives the block.
// CHECK:         nvgpu.device_async_wait %{{.*}} {numGroups = 0 : i32}
// Odd N_x: synchronous staging, one sub-tile at a time.
// CHECK:       } else {
// CHECK:         scf.for
// CHECK-NOT:       nvgpu.device_async_copy
// CHECK:           nvvm.fence.proxy
// CHECK-NEXT:      gpu.barrier
// CHECK-COUNT-8:   wgmma.mma_async.sp.sync.aligned.m64n8k32
// CHECK:           nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT:      nvvm.wgmma.wait.group.sync.aligned 0
// CHECK:           nvvm.stmatrix
func.func @f(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.sparse_row_gemm %in -> %out radius 0 rows_per_block 2 row_offsets [0]
      input_offsets [0, 1, 2, 3]
      values dense<1.0> : tensor<1x2x2xf16> indices dense<[[[0, 1], [0, 1]]]> : tensor<1x2x2xi8> : memref<?x?xf16>
  return
}
