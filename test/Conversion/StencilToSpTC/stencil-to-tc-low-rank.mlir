// RUN: stencil-opt %s --stencil-sptc-tile="warps=1 n-tiles=2 sub-tiles=1 async-copy=off" --stencil-sptc-pack --convert-stencil-to-sptc | FileCheck %s --implicit-check-not=stencil.row_gemm

// The low-rank chain (column_weights; 2 terms, h = 1, 2 n-tiles): stage 1
// computes T-tiles q = 0..2 of both terms as the dense row form (two
// m16n8k16 each, fresh accumulators), rounds them to f16 pairs, then stage
// 2 issues one m16n8k16 per term and output n-tile with A = T-tiles p and
// p + 1 in place and B = u_k (two words per lane after the 2 x 256 row
// words): 12 + 4 MMAs. The shared tile has 2 x 8 + 2h + (8 - 2h) = 24 rows
// (the last T-tile reads past the halo). The launch record carries
// Sum_k |u_k|_1 |v_k|_1 = 2 * 6 + 1 * 3 for the runner's tolerance and the
// flops of both stages: 2 terms x (3 x 64 + 2 x 32) / 2 n-tiles per output.
// CHECK:       stencil.launches = [{accumulator = "f32"
// CHECK-SAME:    chain_abs_sum = 1.500000e+01
// CHECK-SAME:    unit = "mma.f16", unit_flops_per_point = 2.560000e+02 : f64}]
// CHECK:       memref.global "private" constant @f_tc_coefficients : memref<640xi32>
// CHECK:       gpu.func @f_tc(
// CHECK-SAME:    workgroup(%{{.*}} : memref<960xf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK:           gpu.barrier
// Stage 1, T-tile 0: the B operand once, then both terms.
// CHECK-COUNT-8:   memref.load %{{.*}} : memref<960xf16, #gpu.address_space<workgroup>>
// CHECK-COUNT-2:   nvvm.mma.sync {{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 16>
// CHECK:           arith.truncf %{{.*}} : f32 to f16
// CHECK-COUNT-2:   nvvm.mma.sync {{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 16>
// CHECK:           arith.truncf %{{.*}} : f32 to f16
// T-tiles 1 and 2.
// CHECK-COUNT-8:   nvvm.mma.sync {{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 16>
// Stage 2: the lane's u_k words, then one MMA per output n-tile.
// CHECK:           vector.load %{{.*}} {alignment = 8 : i64} : memref<?xi32>, vector<2xi32>
// CHECK-COUNT-2:   nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 16>
// CHECK:           vector.load %{{.*}} {alignment = 8 : i64} : memref<?xi32>, vector<2xi32>
// CHECK-COUNT-2:   nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 16>
// CHECK-NOT:       nvvm.mma.sync
// CHECK:           gpu.return
func.func @f(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.row_gemm %in -> %out radius 1 rows_per_block 4 row_offsets [0, 0]
      input_offsets [-1, 0, 1, 2, 3, 4, 5, 6]
      kernels dense<[[[1., 2., 3., 0., 0., 0., 0., 0.], [0., 1., 2., 3., 0., 0., 0., 0.],
                      [0., 0., 1., 2., 3., 0., 0., 0.], [0., 0., 0., 1., 2., 3., 0., 0.]],
                     [[1., 1., 1., 0., 0., 0., 0., 0.], [0., 1., 1., 1., 0., 0., 0., 0.],
                      [0., 0., 1., 1., 1., 0., 0., 0.], [0., 0., 0., 1., 1., 1., 0., 0.]]]> : tensor<2x4x8xf64>
      column_weights dense<[[1., 0., -1.], [0.25, 0.5, 0.25]]> : tensor<2x3xf64>
      : memref<?x?xf16>
  return
}
