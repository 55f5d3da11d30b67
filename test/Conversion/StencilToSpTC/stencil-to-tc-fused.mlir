// RUN: stencil-opt %s --stencil-decompose="fused-steps=2" --stencil-fold-row-swap --stencil-sptc-tile="warps=1 n-tiles=1 sub-tiles=1 async-copy=off" --stencil-sptc-pack --convert-stencil-to-sptc | FileCheck %s --implicit-check-not=stencil.row_gemm

// Fused steps by composition (Support/StepComposition.h): 5 steps of Heat-2D
// with fused-steps=2 are two launches of the composed 13-point stencil on the
// Tensor Cores, each followed by the band kernel (2 direct steps on CUDA
// cores where composition is not exact, within t r = 2 of the edge), then a
// tail kernel of the 5 mod 2 = 1 step left, tiled as a CUDA-core kernel.

// CHECK:       module attributes {gpu.container_module, stencil.launches = [{
// CHECK-SAME:    band_block = array<i64: 256, 1, 1>, band_kernel = "heat2d_tc_band", band_margins = array<i64: 2, 2>, band_tile = array<i64: 32, 32>
// CHECK-SAME:    composed_abs_sum = 1.0000000000000002 : f64, composed_points = 13 : i64
// CHECK-SAME:    kernel = "heat2d_tc"
// CHECK-SAME:    source = {pattern = #stencil.pattern<star, rank = 2, radius = 1>, weights = array<f64: 1.000000e-01, 2.000000e-01, 4.000000e-01, 2.000000e-01, 1.000000e-01>}
// CHECK-SAME:    steps = 5 : i64, steps_per_launch = 2 : i64

// The host: the band's grid is BandTiling::getNumTiles(), prod n_d - prod
// (hi_d - lo_d), from the grid's sizes (getBandTiling, then the products).
// CHECK-LABEL: func.func @heat2d
// CHECK:         %[[N0:.*]] = arith.ceildivui %{{.*}}, %c32{{.*}} : index
// CHECK-NEXT:    arith.constant 1
// CHECK-NEXT:    arith.minui %[[N0]]
// CHECK:         arith.maxui
// CHECK:         arith.maxui
// CHECK-NEXT:    arith.muli
// CHECK-NEXT:    arith.subi
// CHECK-NEXT:    arith.muli
// CHECK-NEXT:    %[[ALL:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// CHECK-NEXT:    arith.subi
// CHECK-NEXT:    %[[INNER:.*]] = arith.muli
// CHECK-NEXT:    %[[BAND:.*]] = arith.subi %[[ALL]], %[[INNER]] : index
// CHECK:         scf.for %{{.*}} = %{{.*}} to %c2{{.*}} step %{{.*}} iter_args(%[[A:.*]] = %{{.*}}, %[[B:.*]] = %{{.*}})
// CHECK-NEXT:      gpu.launch_func @stencil_tc::@heat2d_tc blocks in ({{.*}}) threads in (%c32{{.*}}, %{{.*}}, %{{.*}}) args(%[[A]] : memref<?xf16>, %[[B]] : memref<?xf16>
// CHECK-NEXT:      gpu.launch_func @stencil_tc::@heat2d_tc_band blocks in (%[[BAND]], %{{.*}}, %{{.*}}) threads in (%c256{{.*}}, %{{.*}}, %{{.*}}) args(%[[A]] : memref<?xf16>, %[[B]] : memref<?xf16>
// CHECK:         gpu.launch_func @stencil_tc::@heat2d_tc_tail blocks in ({{.*}}) threads in (%c256{{.*}}, %{{.*}}, %{{.*}})

// The kernels share one gpu.module (one PTX file), the direct-step kernels
// first.
// CHECK:       gpu.module @stencil_tc {
// The band kernel decodes its tile from blockIdx.x (BandTiling::decode) and
// stores only outside the exact region [2, N_d - 2).
// CHECK:         gpu.func @heat2d_tc_band(
// CHECK-SAME:      known_block_size = array<i32: 256, 1, 1>
// CHECK:           arith.ceildivui %arg3, %c32
// CHECK:           %[[BX:.*]] = gpu.block_id x
// CHECK:           arith.cmpi ult, %[[BX]]
// CHECK:           arith.divui %[[BX]]
// CHECK-NOT:       gpu.block_id
// CHECK:           llvm.intr.fma
// CHECK:           %[[OUTSIDE:.*]] = arith.xori %{{.*}}, %true{{.*}} : i1
// CHECK-NEXT:      %[[STORE:.*]] = arith.andi %{{.*}}, %[[OUTSIDE]] : i1
// CHECK:           scf.if %[[STORE]]
// CHECK:             memref.store
// CHECK:         gpu.func @heat2d_tc_tail(
// CHECK-SAME:      known_block_size = array<i32: 256, 1, 1>
// The composed step: ten m16n8k16 (two per kernel row of the 13-point
// stencil's 5 rows) per column tile.
// CHECK:         gpu.func @heat2d_tc(
// CHECK-COUNT-10: mma.sync
func.func @heat2d(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1>
      weights [0.1, 0.2, 0.4, 0.2, 0.1] steps 5 : memref<?x?xf16>
  return
}
