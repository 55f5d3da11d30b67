// RUN: stencil-opt %s --stencil-sptc-tile="warps=1 n-tiles=1 sub-tiles=1 async-copy=off" --stencil-sptc-pack --convert-stencil-to-sptc | FileCheck %s --implicit-check-not=stencil.sparse_row_gemm
// RUN: stencil-opt %s --stencil-sptc-tile="warps=1 n-tiles=1 sub-tiles=2 async-copy=on" --stencil-sptc-pack --convert-stencil-to-sptc | FileCheck %s --check-prefix=ASYNC

// Heat-1D-like row (L = 4, r = 1, paired swap, column shift 1), two steps.

// The module records how to launch the kernel (tile is innermost first).
// CHECK:       module attributes {gpu.container_module, stencil.launches = [{
// CHECK-SAME:    accumulator = "f32", block = array<i64: 32, 1, 1>, boundary = "halo",
// CHECK-SAME:    coefficients = array<i32:
// CHECK-SAME:    element_type = "f16", kernel = "f_sptc", rank = 2
// CHECK-SAME:    steps = 2 : i64, tile = array<i64: 16, 8>,
// One mma.sp of 2 * 16 * 8 * 32 dense-equivalent flops per 16 x 8 outputs
// and kernel row.
// CHECK-SAME:    unit = "mma.sp.f16", unit_flops_per_point = 6.400000e+01 : f64}]}
// The packed coefficients (SPIDER 3.3.2) are a constant global: 128 value
// words for the one kernel row, then 32 metadata words.
// CHECK:       memref.global "private" constant @f_sptc_coefficients : memref<160xi32>

// Host: upload, halo copy, one launch per step ping-ponging the buffers, and
// a final copy because the result of an even step count is in the input.
// CHECK-LABEL: func.func @f
// CHECK-SAME:    (%[[IN:.*]]: memref<?x?xf16>, %[[OUT:.*]]: memref<?x?xf16>)
// CHECK:         %[[HOST:.*]] = memref.get_global @f_sptc_coefficients
// CHECK:         %[[DEV:.*]] = gpu.alloc () : memref<160xi32>
// CHECK:         gpu.memcpy %[[DEV]], %[[HOST]]
// CHECK:         %[[COEF:.*]] = memref.cast %[[DEV]] : memref<160xi32> to memref<?xi32>
// CHECK:         %[[INF:.*]] = memref.collapse_shape %[[IN]] {{\[\[}}0, 1]]
// CHECK:         %[[OUTF:.*]] = memref.collapse_shape %[[OUT]] {{\[\[}}0, 1]]
// CHECK:         %[[NY:.*]] = memref.dim %[[IN]], %c0
// CHECK:         %[[NX:.*]] = memref.dim %[[IN]], %c1
// CHECK:         gpu.memcpy %[[OUTF]], %[[INF]]
// CHECK-DAG:     %[[GX:.*]] = arith.ceildivui %[[NX]], %c16
// CHECK-DAG:     %[[GY:.*]] = arith.ceildivui %[[NY]], %c8
// CHECK:         scf.for {{.*}} iter_args(%[[SRC:.*]] = %[[INF]], %[[DST:.*]] = %[[OUTF]])
// CHECK:           gpu.launch_func @stencil_sptc::@f_sptc blocks in (%[[GX]], %[[GY]], %{{.*}}) threads in (%c32, %{{.*}}, %{{.*}}) args(%[[SRC]] : memref<?xf16>, %[[DST]] : memref<?xf16>, %[[COEF]] : memref<?xi32>, %[[NY]] : index, %[[NX]] : index)
// CHECK:           scf.yield %[[DST]], %[[SRC]]
// CHECK:         gpu.memcpy %[[OUTF]], %[[INF]]
// CHECK:         gpu.dealloc %[[DEV]]

// Kernel: the input tile in workgroup memory (a row of 32 elements: 8 before
// the tile, 16 outputs, the rest covers the largest B offset), staged with
// 16-byte loads and stores; B operands as 32-bit pairs (paired swap); one
// ordered-metadata m16n8k32 mma.sp; guarded interior stores.
// CHECK:       gpu.module @stencil_sptc
// CHECK:         gpu.func @f_sptc(%{{.*}}: memref<?xf16>, %{{.*}}: memref<?xf16>, %[[C:.*]]: memref<?xi32>, %{{.*}}: index, %{{.*}}: index)
// CHECK-SAME:      workgroup(%[[SMEM:.*]] : memref<{{[0-9]+}}xf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}) kernel
// CHECK-SAME:      known_block_size = array<i32: 32, 1, 1>
// CHECK:           %[[A:.*]] = vector.load %[[C]][%{{.*}}] {alignment = 16 : i64} : memref<?xi32>, vector<4xi32>
// CHECK:           %[[A16:.*]] = vector.bitcast %[[A]] : vector<4xi32> to vector<8xf16>
// CHECK:           vector.shuffle %[[A16]], %[[A16]] [0, 1]
// CHECK:           memref.load %[[C]]
// CHECK:           vector.load %{{.*}} {alignment = 16 : i64} : memref<?xf16>, vector<8xf16>
// CHECK:           vector.store %{{.*}}, %[[SMEM]][%{{.*}}] {alignment = 16 : i64}
// CHECK:           gpu.barrier
// CHECK-COUNT-4:   vector.load %[[SMEM]][%{{.*}}] {alignment = 4 : i64} : memref<{{[0-9]+}}xf16, #gpu.address_space<workgroup>>, vector<2xf16>
// CHECK:           nvvm.mma.sp.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] sparseMetadata[%{{.*}}] selector[%{{.*}}] {orderedMetadata, shape = #nvvm.shape<m = 16, n = 8, k = 32>}
// Stores: rows of a length that is a multiple of 4 transpose the fragment
// with two butterfly shuffles and store 4 consecutive outputs at once;
// others store one by one.
// CHECK:           %[[ALIGNED:.*]] = arith.cmpi eq
// CHECK:           scf.if %[[ALIGNED]] {
// CHECK:             gpu.shuffle  xor %{{.*}}, %c4_i32, %c32_i32{{.*}} : i32
// CHECK:             gpu.shuffle  xor %{{.*}}, %c8_i32, %c32_i32{{.*}} : i32
// CHECK:             scf.if
// CHECK:               vector.store %{{.*}}, %{{.*}}[%{{.*}}] {alignment = 8 : i64} : memref<?xf16>, vector<4xf16>
// CHECK:             } else {
// CHECK-COUNT-4:       memref.store
// CHECK:           } else {
// CHECK-COUNT-4:     memref.store
// CHECK:           gpu.return
func.func @f(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.sparse_row_gemm %in -> %out radius 1 rows_per_block 4 column_shift 1 row_offsets [0]
      input_offsets [-2, -1, 2, 3, 0, 1, 4, 5]
      values dense<[[[2., 0., 1., 3.], [1., 3., 2., 0.], [3., 2., 1., 0.], [2., 1., 3., 0.]]]> : tensor<1x4x4xf16>
      indices dense<[[[1, 2, 0, 2], [1, 3, 2, 3], [0, 3, 2, 3], [0, 3, 1, 2]]]> : tensor<1x4x4xi8>
      steps 2 : memref<?x?xf16>
  return
}

// With async-copy (the 2-D default): the tile is double-buffered, each
// thread's vectors go by cp.async (16 bytes, zero-filled at the grid's
// edges) as one group per sub-tile; the group of sub-tile k + 1 is issued
// before sub-tile k waits for its own and computes. Rows that are not
// 16-byte aligned take the synchronous path.
// ASYNC:       tile = array<i64: 16, 16>
// ASYNC:       gpu.func @f_sptc
// ASYNC-SAME:    workgroup(%[[SMEM:.*]] : memref<1024xf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// ASYNC:         %[[ALIGNED:.*]] = arith.cmpi eq
// ASYNC:         scf.if %[[ALIGNED]] {
// ASYNC:           nvgpu.device_async_copy %{{.*}}, %[[SMEM]][%{{.*}}], 8, %{{.*}} {bypassL1}
// ASYNC:           %[[FIRST:.*]] = nvgpu.device_async_create_group
// ASYNC:           scf.for {{.*}} iter_args(%{{.*}} = %[[FIRST]]) -> (!nvgpu.device.async.token) {
// ASYNC:             nvgpu.device_async_copy
// ASYNC:             %[[NEXT:.*]] = nvgpu.device_async_create_group
// ASYNC-NEXT:        nvgpu.device_async_wait %[[NEXT]] {numGroups = 1 : i32}
// ASYNC-NEXT:        gpu.barrier
// ASYNC:             nvvm.mma.sp.sync
// ASYNC:             gpu.barrier
// ASYNC-NEXT:        scf.yield %[[NEXT]]
// ASYNC:         } else {
// ASYNC:           scf.for
// ASYNC:             vector.store %{{.*}}, %[[SMEM]]
// ASYNC:             gpu.barrier
// ASYNC:             nvvm.mma.sp.sync
