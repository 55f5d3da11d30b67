// RUN: stencil-opt %s --split-input-file --lower-to-sptc | FileCheck %s

// Innermost radii 8..15, beyond the strided swap's banded kernel rows (at
// most 7), compile through the default layout=auto: SparStencil's gathered
// form reads any input pair of a unit, whatever the radius.
// CHECK-LABEL: module attributes
// CHECK-SAME:    kernel = "wide1d_sptc"
// CHECK:       gpu.binary @stencil_sptc
// CHECK-SAME:    mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32
func.func @wide1d(%in: memref<?xf16>, %out: memref<?xf16>) {
  stencil.linear %in -> %out pattern <[[-8], [-1], [0], [3], [15]]> weights [0.1, 0.2, 0.3, 0.25, 0.15] : memref<?xf16>
  return
}

// -----

// CHECK-LABEL: module attributes
// CHECK-SAME:    kernel = "wide2d_sptc"
func.func @wide2d(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.linear %in -> %out pattern <[[-2, 0], [0, -9], [0, 0], [0, 9], [3, 1]]> weights [0.1, 0.2, 0.3, 0.25, 0.15] : memref<?x?xf16>
  return
}
