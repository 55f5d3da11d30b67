// RUN: stencil-opt %s --stencil-sptc-tile="warps=1 n-tiles=1 sub-tiles=1 async-copy=off" --stencil-sptc-pack --convert-stencil-to-sptc | FileCheck %s --implicit-check-not=stencil.row_gemm --implicit-check-not=nvvm.mma.sp.sync

// The dense form: the same kernel as for stencil.sparse_row_gemm, but each
// lane reads 8 coefficient words per kernel row (two 16-byte loads, the A
// operands of two m16n8k16) and issues two mma.sync per kernel row and
// column tile, the second accumulating onto the first, with B = b_0..b_3
// then b_4..b_7 of the same four 32-bit shared loads.
// CHECK:       stencil.launches = [{{{.*}}kernel = "f_tc"
// CHECK:       memref.global "private" constant @f_tc_coefficients : memref<256xi32>
// CHECK:       gpu.launch_func @stencil_tc::@f_tc
// CHECK:       gpu.module @stencil_tc
// CHECK:         gpu.func @f_tc(
// CHECK-COUNT-2:   vector.load %{{.*}} {alignment = 16 : i64} : memref<?xi32>, vector<4xi32>
// CHECK:           gpu.barrier
// CHECK-COUNT-4:   vector.load %{{.*}} {alignment = 4 : i64} : memref<{{[0-9]+}}xf16, #gpu.address_space<workgroup>>, vector<2xf16>
// CHECK:           %[[D0:.*]] = nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK:           %[[C3:.*]] = llvm.extractvalue %[[D0]][3]
// CHECK:           nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}, %[[C3]]] {{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 16>}
// CHECK:           gpu.return
func.func @f(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.row_gemm %in -> %out radius 1 rows_per_block 4 column_shift 1 row_offsets [0]
      input_offsets [-2, -1, 0, 1, 2, 3, 4, 5]
      kernels dense<[[[0., 1., 2., 3., 0., 0., 0., 0.], [0., 0., 1., 2., 3., 0., 0., 0.],
                      [0., 0., 0., 1., 2., 3., 0., 0.], [0., 0., 0., 0., 1., 2., 3., 0.]]]> : tensor<1x4x8xf64>
      steps 2 : memref<?x?xf16>
  return
}
