// RUN: stencil-opt %s --split-input-file --convert-stencil-to-cuda-core="stream=auto fused-steps=2" | FileCheck %s --check-prefix=ROWS
// RUN: stencil-opt %s --split-input-file --convert-stencil-to-cuda-core="stream=auto" | FileCheck %s --check-prefix=ONE
// RUN: stencil-opt %s --split-input-file --convert-stencil-to-cuda-core="stream=auto fused-steps=2 outputs-per-thread=2" | FileCheck %s --check-prefix=OPT
// RUN: stencil-opt %s --split-input-file --convert-stencil-to-cuda-core="stream=auto fused-steps=2 threads-x=2 threads-y=1" | FileCheck %s --check-prefix=NARROW

// stream=auto sweeps the rows of a linear 2-D stencil that fuses steps: one
// row of 256 threads keeping 2 t r_x = 4 columns for the halo, 252 x 128
// outputs per block; the launch record names the schedule for the cost
// model, which has constants of its own for the row sweep.
// ROWS:   schedule = "rows"
// ROWS:   {{[{ ]}}tile = array<i64: 252, 128>
// ROWS:   gpu.func @heat_cuda_core(
// ROWS-SAME: known_block_size = array<i32: 256, 1, 1>
// With one step it stages the tile (32 x 32 outputs of 32 x 8 threads), as
// it does where outputs-per-thread asks for the staged tiling, or where the
// row of threads is too narrow for the halo (2 threads, 2 fused steps of
// radius 1) ...
// ONE:    schedule = "staged"
// ONE:    tile = array<i64: 32, 32>
// OPT:    tile = array<i64: 32, 16>
// NARROW: tile = array<i64: 2, 4>
// or where the sweep's rows exceed 48 KiB of shared memory
// (-auto-shared.mlir) ...
// (unless planes asks for the sweep: -auto-invalid.mlir and
// -auto-shared-invalid.mlir).
func.func @heat(%in: memref<?x?xf64>, %out: memref<?x?xf64>) {
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1>
      weights [0.1, 0.2, 0.4, 0.2, 0.1] : memref<?x?xf64>
  return
}

// -----

// Radius 7 along y keeps 15 partial sums per step in registers (ptxas
// spills those of a 15 x 15 box): staged.
// ROWS:   {{[{ ]}}tile = array<i64: 32, 16>
// ROWS-NOT: {{[{ ]}}tile =
func.func @star7(%in: memref<?x?xf64>, %out: memref<?x?xf64>) {
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 7>
      weights [0.010, 0.020, 0.030, 0.040, 0.050, 0.060, 0.070, 0.080, 0.090, 0.100, 0.110, 0.120, 0.130, 0.140, 0.150, 0.160, 0.170, 0.180, 0.190, 0.200, 0.210, 0.220, 0.230, 0.240, 0.250, 0.260, 0.270, 0.280, 0.290] : memref<?x?xf64>
  return
}
