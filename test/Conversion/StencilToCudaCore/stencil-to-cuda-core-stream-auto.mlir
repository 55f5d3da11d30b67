// RUN: stencil-opt %s --split-input-file --convert-stencil-to-cuda-core="stream=auto" | FileCheck %s
// RUN: stencil-opt %s --split-input-file --lower-to-cuda-core | FileCheck %s --check-prefix=PIPELINE
// RUN: not stencil-opt %s --split-input-file --convert-stencil-to-cuda-core="stream=sometimes" 2>&1 | FileCheck %s --check-prefix=BAD

// stream=auto (the default of --lower-to-cuda-core) streams a 3-D stencil
// whose rings fit in 48 KiB: Heat-3D gets 32 planes per block and one ring
// of 4 planes of 34 x 34.
// CHECK:       schedule = "streamed"
// CHECK:       tile = array<i64: 32, 32, 32>
// CHECK:       gpu.func @heat_cuda_core(
// CHECK-SAME:    workgroup(%{{.*}} : memref<4624xf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK:         %[[N:.*]] = arith.addi %{{.*}}, %c2 : index
// CHECK:         scf.for %{{.*}} = %{{c0(_[0-9]+)?}} to %[[N]] step %{{c1(_[0-9]+)?}}
// CHECK:           gpu.barrier
// PIPELINE:    tile = array<i64: 32, 32, 32>
// BAD: for the --stream option: Cannot find option named 'sometimes'!
func.func @heat(%in: memref<?x?x?xf16>, %out: memref<?x?x?xf16>) {
  stencil.linear %in -> %out pattern <star, rank = 3, radius = 1>
      weights [0.1, 0.1, 0.1, 0.4, 0.1, 0.1, 0.1] : memref<?x?x?xf16>
  return
}

// -----

// Radius 20 along y in f64: even with one output per thread a ring of
// 4 planes of (8 + 40) x 34 (52224 bytes) does not fit, while the staged
// tile does (3 planes of (16 + 40) x 34, two outputs per thread): auto stages
// it.
// CHECK:       tile = array<i64: 32, 16, 1>
// CHECK:       gpu.func @wide_y_cuda_core(
// CHECK-SAME:    workgroup(%{{.*}} : memref<5712xf64, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK:         scf.for %{{.*}} = %c0 to %c3 step %c1
// CHECK:         gpu.barrier
// CHECK-NOT:     gpu.barrier
// CHECK:         gpu.return
// PIPELINE:    tile = array<i64: 32, 16, 1>
func.func @wide_y(%in: memref<?x?x?xf64>, %out: memref<?x?x?xf64>) {
  stencil.linear %in -> %out pattern <[[-1, 0, 0], [1, 0, 0], [0, 20, 0], [0, 0, 1]]>
      weights [0.1, 0.2, 0.3, 0.4] : memref<?x?x?xf64>
  return
}

// -----

// Not 3-D: auto stages.
// CHECK:       tile = array<i64: 32, 32>
// PIPELINE:    tile = array<i64: 32, 32>
func.func @two_d(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1>
      weights [0.1, 0.2, 0.4, 0.2, 0.1] : memref<?x?xf32>
  return
}
