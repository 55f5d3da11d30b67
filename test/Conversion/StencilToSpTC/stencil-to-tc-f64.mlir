// RUN: stencil-opt %s --stencil-sptc-tile="warps=1 n-tiles=2 m-tiles=1" --stencil-sptc-pack --convert-stencil-to-sptc | FileCheck %s --implicit-check-not=stencil.row_gemm --implicit-check-not=nvvm.mma.sp.sync

// The f64 form (TCF64Kernel.cpp): radius 1, so C = ceil((8 + 2) / 4) = 3
// K-chunks of 4 inputs per n-tile, 3 x 32 lanes x 2 words of coefficients.
// A warp of 2 n-tiles reads input chunks q = 0..4 of its one m-tile; chunk
// q feeds n-tile j as its chunk q - 2j, so 6 mma.sync m8n8k4 in all. The
// shared tile is 8 rows (no row offsets) by a pitch of 20 doubles (16
// outputs + 4 chunks' reach, 4 mod 8). Each lane stores 2 outputs per
// n-tile where they are interior points.
// CHECK:       stencil.launches = [{accumulator = "f64"
// CHECK-SAME:    kernel = "f_tc"
// CHECK-SAME:    tile = array<i64: 16, 8>, unit = "mma.f64", unit_flops_per_point = 2.400000e+01 : f64}]
// CHECK:       memref.global "private" constant @f_tc_coefficients : memref<192xi32>
// CHECK:       gpu.launch_func @stencil_tc::@f_tc
// CHECK:       gpu.module @stencil_tc
// CHECK:         gpu.func @f_tc({{.*}}) workgroup(%[[SMEM:.*]] : memref<160xf64, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK:           scf.for
// CHECK:             memref.load %{{.*}} : memref<?xf64>
// CHECK:             memref.store %{{.*}}, %[[SMEM]]
// CHECK:           gpu.barrier
// CHECK-COUNT-3:   vector.load %{{.*}} {alignment = 8 : i64} : memref<?xi32>, vector<2xi32>
// CHECK-COUNT-6:   nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}, {{.*}}] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 8, n = 8, k = 4>} : (f64, f64, f64) -> !llvm.struct<(f64, f64)>
// CHECK-NOT:       nvvm.mma.sync
// CHECK-COUNT-4:   memref.store %{{.*}} : memref<?xf64>
// CHECK:           gpu.return
func.func @f(%in: memref<?x?xf64>, %out: memref<?x?xf64>) {
  stencil.row_gemm %in -> %out radius 1 rows_per_block 4 column_shift 1 row_offsets [0]
      input_offsets [-2, -1, 0, 1, 2, 3, 4, 5]
      kernels dense<[[[0., 1., 2., 3., 0., 0., 0., 0.], [0., 0., 1., 2., 3., 0., 0., 0.],
                      [0., 0., 0., 1., 2., 3., 0., 0.], [0., 0., 0., 0., 1., 2., 3., 0.]]]> : tensor<1x4x8xf64>
      steps 2 : memref<?x?xf64>
  return
}

// RUN: stencil-opt %s --stencil-sptc-tile="warps=1 n-tiles=2 m-tiles=3" --stencil-sptc-pack --convert-stencil-to-sptc="f64-shape=m16n8k4" | FileCheck %s --check-prefix=M16

// With m16n8k4 (sm_90) m-tiles 0 and 1 share one MMA (inline PTX: MLIR's
// nvvm.mma.sync takes f64 only as m8n8k4), m-tile 2 keeps m8n8k4: 6 of each.
// M16:           unit = "mma.f64.m16n8k4"
// M16-COUNT-6:   llvm.inline_asm asm_dialect = att "mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {$0, $1, $2, $3}, {$4, $5}, {$6}, {$7, $8, $9, $10};", "=d,=d,=d,=d,d,d,d,d,d,d,d" {{.*}} : (f64, f64, f64, f64, f64, f64, f64) -> !llvm.struct<(f64, f64, f64, f64)>
// M16-COUNT-6:   nvvm.mma.sync {{.*}}shape = #nvvm.shape<m = 8, n = 8, k = 4>
// M16-NOT:       nvvm.mma.sync
// M16-NOT:       llvm.inline_asm
