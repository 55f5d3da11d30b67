// RUN: stencil-opt %s --convert-stencil-to-cuda-core="stream=on plane-sums=true vector-width=4 threads-y=4 outputs-per-thread=2 min-blocks-per-sm=5" | FileCheck %s
// RUN: stencil-opt %s --convert-stencil-to-cuda-core="stream=on plane-sums=true vector-width=4 threads-y=4 outputs-per-thread=2" | FileCheck %s --check-prefix=NONE
// RUN: stencil-opt %s --lower-to-cuda-core="chip=sm_90 stream=on plane-sums=true vector-width=4 threads-y=4 outputs-per-thread=2 min-blocks-per-sm=5" | stencil-translate --to-ptx | FileCheck %s --check-prefix=PTX

// min-blocks-per-sm=N puts NVVM's minctasm on the kernel, which the
// lowering to PTX turns into `.minnctapersm N` beside the block size's
// `.maxntid`: ptxas then schedules within the registers that leave room for
// N blocks (at most 102 per thread for the 128 threads here). Without the
// option the kernel carries no such hint.
// CHECK:       gpu.func @box_cuda_core(
// CHECK-SAME:    nvvm.minctasm = 5 : i32
// NONE:        gpu.func @box_cuda_core(
// NONE-NOT:      nvvm.minctasm
// NONE:        gpu.return
// PTX:         .entry box_cuda_core(
// PTX:         .maxntid 128, 1, 1
// PTX-NEXT:    .minnctapersm 5
func.func @box(%in: memref<?x?x?xf16>, %out: memref<?x?x?xf16>) {
  stencil.linear %in -> %out pattern <box, rank = 3, radius = 1>
      weights [0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.07, 0.08, 0.09,
               0.011, 0.021, 0.031, 0.041, 0.051, 0.061, 0.071, 0.081, 0.091,
               0.012, 0.022, 0.032, 0.042, 0.052, 0.062, 0.072, 0.082, 0.092] : memref<?x?x?xf16>
  return
}
