// RUN: stencil-opt %s --split-input-file --stencil-flatten="route=matching" --stencil-sptc-match --stencil-encode-2to4 --stencil-sptc-tile="warps=2 n-tiles=2 sub-tiles=1 async-copy=off" --stencil-sptc-pack --convert-stencil-to-sptc | FileCheck %s
// RUN: stencil-opt %s --split-input-file --stencil-flatten="route=matching" --stencil-sptc-match --stencil-sptc-tile="warps=2 n-tiles=2 sub-tiles=1 async-copy=off" --stencil-sptc-pack --convert-stencil-to-sptc | FileCheck %s --check-prefix=DENSE
// RUN: stencil-opt %s --split-input-file --stencil-flatten="route=matching r1=2 r2=8" --stencil-sptc-match --stencil-encode-2to4 --stencil-sptc-tile="warps=2 n-tiles=2 sub-tiles=1 async-copy=off" --stencil-sptc-pack --convert-stencil-to-sptc 2>&1 | FileCheck %s --check-prefix=R2X8
// RUN: stencil-opt %s --split-input-file --stencil-flatten="route=matching r1=2 r2=8" --stencil-sptc-match --stencil-encode-2to4 --stencil-sptc-tile="warps=2 n-tiles=2 sub-tiles=4 async-copy=off" --stencil-sptc-pack --convert-stencil-to-sptc 2>&1 | FileCheck %s --check-prefix=STREAM

// The kernel of SparStencil's gathered form (seed 002). Star-2D13P takes
// layout [4, 4] (3 MMAs): an MMA's 8 columns of 4 x 4 outputs lie side by
// side along x, so 2 warps cover 64 outputs along x and 2 n-tiles of 4 rows
// cover 8 along y. The shared tile is (8 + 2 * 3) rows of 96 elements
// (pad 8). Register p of lane (g, t) holds the pair of slot t + 4 p: its
// address is the column's origin plus one of four constants, pad + dy * 96
// + dx, chosen by t (slot (dy, dx) = (-2, 0) -> -184; (-2, 2) -> -182).
// Each MMA runs once per n-tile, and every lane stores 4 consecutive
// outputs of a row (the 4 x 4 transpose of the banded kernel).
// CHECK-LABEL: module attributes
// CHECK-SAME:    kernel = "star13_sptc"
// CHECK-SAME:    tile = array<i64: 64, 8>
// CHECK-SAME:    unit = "mma.sp.f16"
// CHECK:       gpu.func @star13_sptc({{.*}}) workgroup(%{{.*}} : memref<1344xf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK:         arith.select %{{.*}}, %c-184, %c-182 : index
// CHECK-COUNT-6: nvvm.mma.sp.sync
// CHECK-NOT:     nvvm.mma.sp.sync
// CHECK:         vector.store %{{.*}}, %{{.*}}[%{{.*}}] {alignment = 8 : i64} : memref<?xf16>, vector<4xf16>
// The dense gathered form (no --stencil-encode-2to4) takes two m16n8k16 per
// MMA, fed with the same B registers.
// DENSE-LABEL: module attributes
// DENSE-SAME:    unit = "mma.f16"
// DENSE:       gpu.func @star13_tc
// DENSE-COUNT-12: nvvm.mma.sync
// DENSE-NOT:     nvvm.mma.sync
// Layout [2, 8]: 8 columns of 8 x 2 outputs, 32 along x for 2 warps, 16
// rows for 2 n-tiles; the four consecutive outputs of a lane span two rows,
// so each output is stored on its own.
// R2X8-LABEL: module attributes
// R2X8-SAME:    tile = array<i64: 32, 16>
// R2X8:       gpu.func @star13_sptc
// R2X8-NOT:     vector<4xf16>
// R2X8:         memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<?xf16>
func.func @star13(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 3> weights [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.2, 1.3] : memref<?x?xf16>
  return
}

// -----

// A 3-D star: the dz of a slot is part of its constant (pad + dz * Z + dy *
// Y + dx); three planes are staged.
// CHECK-LABEL: module attributes
// CHECK-SAME:    kernel = "star3d_sptc"
// CHECK:       gpu.func @star3d_sptc({{.*}}) workgroup(%{{.*}} : memref<{{[0-9]+}}xf16
// CHECK:         nvvm.mma.sp.sync
// DENSE-LABEL: module attributes
// DENSE-SAME:    kernel = "star3d_tc"
// R2X8-LABEL: module attributes
// R2X8-SAME:    tile = array<i64: 32, 16, 1>
// R2X8:       gpu.func @star3d_sptc({{.*}}) workgroup(%{{.*}} : memref<2592xf16
// R2X8-COUNT-6: nvvm.mma.sp.sync
// With 4 sub-tiles the block streams 4 output planes along z through a
// ring of 3 planes of 18 x 48 = 864 elements (the same shared memory): it
// stages planes 0 and 1 (216 vectors), loads plane 2 into registers, and
// step k stores them into slot (k + 2) mod 3, loads the next plane and
// computes output plane k, whose plane at dz is in slot (k mod 3 + 1 + dz)
// mod 3.
// STREAM-LABEL: kernel = "star3d_sptc"
// STREAM-SAME:    tile = array<i64: 32, 16, 4>
// STREAM:       gpu.func @star3d_sptc({{.*}}) workgroup(%{{.*}} : memref<2592xf16
// STREAM:         arith.cmpi ult, %{{.*}}, %c216
// STREAM:         scf.for %[[K:.*]] = %{{.*}} to %c4{{.*}} iter_args
// STREAM:           %[[P:.*]] = arith.addi %[[K]], %c2
// STREAM:           %[[S:.*]] = arith.remui %[[P]], %c3
// STREAM:           arith.muli %[[S]], %c864
// STREAM:           gpu.barrier
// STREAM:           scf.if
// STREAM:           arith.remui %[[K]], %c3
// STREAM-COUNT-6:   nvvm.mma.sp.sync
// STREAM:           gpu.barrier
// STREAM-NEXT:      scf.yield
func.func @star3d(%in: memref<?x?x?xf16>, %out: memref<?x?x?xf16>) {
  stencil.linear %in -> %out pattern <star, rank = 3, radius = 1> weights [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7] : memref<?x?x?xf16>
  return
}
