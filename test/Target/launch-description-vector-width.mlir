// RUN: stencil-opt %s --lower-to-cuda-core="plane-sums=true vector-width=8" | stencil-translate --to-launch --ptx-file heat.ptx | FileCheck %s

// The plane sums with vector columns (docs/LaunchDescription.md): the launch
// description names the schedule and the width, for the cost model and
// bench/calibrate.py (the runner reads neither); the tile is 8 columns per
// thread wide (32 x 8 = 256).
// CHECK:      kernel = heat3d_cuda_core
// CHECK:      tile = 256,
// CHECK:      schedule = plane-sums
// CHECK-NEXT: vector_width = 8
func.func @heat3d(%in: memref<?x?x?xf16>, %out: memref<?x?x?xf16>) {
  stencil.linear %in -> %out pattern <star, rank = 3, radius = 1>
      weights [0.1, 0.15, 0.12, 0.2, 0.13, 0.11, 0.19] : memref<?x?x?xf16>
  return
}
