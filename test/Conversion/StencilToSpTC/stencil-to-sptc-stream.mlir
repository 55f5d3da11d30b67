// RUN: stencil-opt %s --stencil-decompose --stencil-strided-swap --stencil-encode-2to4 --stencil-fold-row-swap --stencil-sptc-tile="warps=1 n-tiles=1 sub-tiles=4 async-copy=off" --stencil-sptc-pack --convert-stencil-to-sptc | FileCheck %s
// RUN: stencil-opt %s --stencil-decompose --stencil-strided-swap --stencil-encode-2to4 --stencil-fold-row-swap --stencil-sptc-tile="warps=1 n-tiles=1 sub-tiles=1 async-copy=off" --stencil-sptc-pack --convert-stencil-to-sptc | FileCheck %s --check-prefix=ONE

// The 3-D plane stream of the banded form (strided swap): 4 sub-tiles are 4
// output planes along z (tile 16 x 8 x 4). The shared memory is the ring of
// 2 r_z + 1 = 3 planes of 10 rows x 40 elements (1200, as for one
// sub-tile). Each step stores the plane loaded into registers into slot
// (k + 2) mod 3, then the 5 kernel rows read their plane dz from slot
// (k mod 3 + 1 + dz) mod 3.
// CHECK-LABEL: kernel = "heat3d_sptc"
// CHECK-SAME:    tile = array<i64: 16, 8, 4>
// CHECK:       gpu.func @heat3d_sptc({{.*}}) workgroup(%{{.*}} : memref<1200xf16
// CHECK:         scf.for %[[K:.*]] = %{{.*}} to %c4{{.*}} iter_args
// CHECK:           %[[P:.*]] = arith.addi %[[K]], %c2
// CHECK:           %[[S:.*]] = arith.remui %[[P]], %c3
// CHECK:           arith.muli %[[S]], %c400
// CHECK:           gpu.barrier
// CHECK:           arith.remui %[[K]], %c3
// CHECK-COUNT-5:   nvvm.mma.sp.sync
// CHECK-NOT:       nvvm.mma.sp.sync
// CHECK:           gpu.barrier
// CHECK-NEXT:      scf.yield
// One sub-tile stages its three planes at once, with no loop.
// ONE-LABEL: kernel = "heat3d_sptc"
// ONE-SAME:    tile = array<i64: 16, 8, 1>
// ONE:       gpu.func @heat3d_sptc({{.*}}) workgroup(%{{.*}} : memref<1200xf16
// ONE-NOT:     scf.for
// ONE-COUNT-5: nvvm.mma.sp.sync
// ONE:         gpu.return
func.func @heat3d(%in: memref<?x?x?xf16>, %out: memref<?x?x?xf16>) {
  stencil.linear %in -> %out pattern <star, rank = 3, radius = 1> weights [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7] : memref<?x?x?xf16>
  return
}
