// RUN: stencil-opt %s --split-input-file --convert-stencil-to-cuda-core | FileCheck %s

// outputs-per-thread=0 (the default) takes the most of 4, 2, 1 outputs per
// thread whose tile fits in 48 KiB with one plane, then the most planes that
// fit: the launch record's tile is x, y = threads-y x outputs, z = planes.

// Heat-3D f64: 4 outputs fit, with 2 planes, (32 + 2) x (32 + 2) x (2 + 2)
// x 8 = 36992 bytes (4 planes would take 55488).
// CHECK-LABEL: stencil.launches
// CHECK-SAME: tile = array<i64: 32, 32, 2>
func.func @heat3d(%in: memref<?x?x?xf64>, %out: memref<?x?x?xf64>) {
  stencil.linear %in -> %out pattern <star, rank = 3, radius = 1>
      weights [0.1, 0.1, 0.1, 0.4, 0.1, 0.1, 0.1] : memref<?x?x?xf64>
  return
}

// -----

// A 3-D f64 star of radius 2: 4 outputs do not fit even with one plane,
// (32 + 4) x (32 + 4) x (1 + 4) x 8 = 51840 bytes; 2 outputs with 4 planes,
// (32 + 4) x (16 + 4) x (4 + 4) x 8 = 46080, do.
// CHECK-LABEL: stencil.launches
// CHECK-SAME: tile = array<i64: 32, 16, 4>
func.func @star3d(%in: memref<?x?x?xf64>, %out: memref<?x?x?xf64>) {
  stencil.linear %in -> %out pattern <star, rank = 3, radius = 2>
      weights [0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.05, 0.05, 0.05, 0.05] : memref<?x?x?xf64>
  return
}

// -----

// A 3-D f64 star of radius 4: one output per thread and one plane,
// (32 + 8) x (8 + 8) x (1 + 8) x 8 = 46080 bytes.
// CHECK-LABEL: stencil.launches
// CHECK-SAME: tile = array<i64: 32, 8, 1>
func.func @star3d4(%in: memref<?x?x?xf64>, %out: memref<?x?x?xf64>) {
  stencil.linear %in -> %out pattern <star, rank = 3, radius = 4>
      weights [0.04, 0.04, 0.04, 0.04, 0.04, 0.04, 0.04, 0.04, 0.04, 0.04, 0.04, 0.04, 0.04, 0.04, 0.04, 0.04, 0.04, 0.04, 0.04, 0.04, 0.04, 0.04, 0.04, 0.04, 0.04] : memref<?x?x?xf64>
  return
}
