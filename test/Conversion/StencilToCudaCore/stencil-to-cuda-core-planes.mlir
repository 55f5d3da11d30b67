// RUN: stencil-opt %s --split-input-file --convert-stencil-to-cuda-core="threads-x=4 threads-y=2 outputs-per-thread=2 planes=2" | FileCheck %s --check-prefix=TWO
// RUN: stencil-opt %s --split-input-file --convert-stencil-to-cuda-core="threads-x=4 threads-y=2 outputs-per-thread=2" | FileCheck %s --check-prefix=AUTO
// RUN: stencil-opt %s --split-input-file --convert-stencil-to-cuda-core | FileCheck %s --check-prefix=DEFAULT

// A 3-D block computes `planes` z planes: the tile (innermost first) is
// 4 x 4 x planes, staged with a halo of 1 as (planes + 2) x 6 x 6, and each
// thread stores 2 outputs per plane. Automatic planes: 8 when the tile fits
// in 48 KiB of shared memory, fewer otherwise (f64, 32 x 32 x 8: 2 planes).
// TWO:         tile = array<i64: 4, 4, 2>
// TWO:         gpu.func @heat_cuda_core
// TWO-SAME:      workgroup(%{{.*}} : memref<144xf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// TWO-COUNT-4:   memref.store %{{.*}}, %arg1
// TWO-NOT:       memref.store %{{.*}}, %arg1
// TWO:           gpu.return
// AUTO:        tile = array<i64: 4, 4, 8>
// AUTO:        workgroup(%{{.*}} : memref<360xf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// AUTO-COUNT-16: memref.store %{{.*}}, %arg1
// AUTO-NOT:      memref.store %{{.*}}, %arg1
// AUTO:          gpu.return
// DEFAULT:     tile = array<i64: 32, 32, 8>
// DEFAULT:     workgroup(%{{.*}} : memref<11560xf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
func.func @heat(%in: memref<?x?x?xf16>, %out: memref<?x?x?xf16>) {
  stencil.linear %in -> %out pattern <star, rank = 3, radius = 1>
      weights [0.1, 0.1, 0.1, 0.4, 0.1, 0.1, 0.1] : memref<?x?x?xf16>
  return
}

// -----

// DEFAULT:     tile = array<i64: 32, 32, 2>
// DEFAULT:     workgroup(%{{.*}} : memref<4624xf64, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
func.func @heat64(%in: memref<?x?x?xf64>, %out: memref<?x?x?xf64>) {
  stencil.linear %in -> %out pattern <star, rank = 3, radius = 1>
      weights [0.1, 0.1, 0.1, 0.4, 0.1, 0.1, 0.1] : memref<?x?x?xf64>
  return
}
