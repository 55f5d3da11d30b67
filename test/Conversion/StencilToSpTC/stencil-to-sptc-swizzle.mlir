// RUN: stencil-opt %s --stencil-decompose --stencil-strided-swap --stencil-encode-2to4 --stencil-fold-row-swap --stencil-sptc-tile="warps=2 n-tiles=1 sub-tiles=2 async-copy=on" --stencil-sptc-pack --convert-stencil-to-sptc | FileCheck %s --implicit-check-not=bypassL1
// RUN: stencil-opt %s --stencil-decompose --stencil-strided-swap --stencil-encode-2to4 --stencil-fold-row-swap --stencil-sptc-tile="warps=2 n-tiles=1 sub-tiles=1 async-copy=off" --stencil-sptc-pack --convert-stencil-to-sptc | FileCheck %s --check-prefix=SYNC

// A radius-3 box (L = 8): with the paired swap the four lanes of a group
// read words {a, a + 1, a + 8, a + 9} of a row, a 2-way bank conflict for
// every pitch. The plan swizzles rows instead (bit 3: the 8-byte halves of
// every odd 16-byte chunk trade places), in the B addresses and in staging.

// Staging: two 8-byte cp.async per vector (no L1 bypass below 16 bytes),
// each half at its swizzled place.
// CHECK:       gpu.func @box_sptc
// CHECK:         %[[SWAP:.*]] = arith.cmpi ne
// CHECK:         arith.select %[[SWAP]], %c4{{.*}}, %c0
// CHECK:         nvgpu.device_async_copy %{{.*}}, %{{.*}}[%{{.*}}], 4, %{{.*}} : memref
// CHECK:         arith.select %[[SWAP]], %c0{{.*}}, %c4
// CHECK:         nvgpu.device_async_copy %{{.*}}, %{{.*}}[%{{.*}}], 4, %{{.*}} : memref
// CHECK:         nvgpu.device_async_create_group
// Each lane's B column c goes through the swizzle c ^ (((c >> 3) & 1) << 2).
// CHECK:         scf.for
// CHECK:           nvgpu.device_async_wait
// CHECK:           %[[SHR:.*]] = arith.shrui %[[COL:.*]], %c3
// CHECK:           %[[BIT:.*]] = arith.andi %[[SHR]], %c1
// CHECK:           %[[SHL:.*]] = arith.shli %[[BIT]], %c2
// CHECK:           %[[SWZ:.*]] = arith.xori %[[COL]], %[[SHL]]
// CHECK-COUNT-4:   vector.load %{{.*}} {alignment = 4 : i64}
// CHECK:           nvvm.mma.sp.sync

// SYNC:       gpu.func @box_sptc
// SYNC:         %[[V:.*]] = scf.if {{.*}} -> (vector<8xf16>)
// SYNC:         %[[SWAP:.*]] = arith.cmpi ne
// SYNC:         %[[SWAPPED:.*]] = vector.shuffle %[[V]], %[[V]] [4, 5, 6, 7, 0, 1, 2, 3]
// SYNC:         %[[STORED:.*]] = arith.select %[[SWAP]], %[[SWAPPED]], %[[V]]
// SYNC:         vector.store %[[STORED]], %{{.*}} {alignment = 16 : i64}
func.func @box(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.linear %in -> %out pattern <box, rank = 2, radius = 3>
      weights [0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.07,
               0.08, 0.09, 0.10, 0.11, 0.12, 0.13, 0.14,
               0.15, 0.16, 0.17, 0.18, 0.19, 0.20, 0.21,
               0.22, 0.23, 0.24, 0.25, 0.26, 0.27, 0.28,
               0.29, 0.30, 0.31, 0.32, 0.33, 0.34, 0.35,
               0.36, 0.37, 0.38, 0.39, 0.40, 0.41, 0.42,
               0.43, 0.44, 0.45, 0.46, 0.47, 0.48, 0.49] : memref<?x?xf16>
  return
}
