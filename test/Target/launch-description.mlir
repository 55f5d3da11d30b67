// RUN: stencil-opt %s --lower-to-sptc | stencil-translate --to-launch --ptx-file heat.ptx | FileCheck %s
// RUN: stencil-opt %s --lower-to-cuda-core=fused-steps=2 | stencil-translate --to-launch --ptx-file heat.ptx | FileCheck %s --check-prefix=FUSED
// RUN: not stencil-translate --to-ptx %s 2>&1 | FileCheck %s --check-prefix=NOPTX
// RUN: not stencil-translate --to-launch %s 2>&1 | FileCheck %s --check-prefix=NOLAUNCH

// The launch description of docs/LaunchDescription.md, from the module
// lowered by --lower-to-sptc: the source stencil (offsets outermost first,
// weights in full precision), the tiling and the packed coefficients (Heat-2D
// takes SparStencil's gathered form, layout [8, 2]: 2 mma.sp per tile).
// CHECK:      version = 1
// CHECK-NEXT: kernel = heat_sptc
// CHECK-NEXT: ptx = heat.ptx
// CHECK-NEXT: rank = 2
// CHECK-NEXT: element_type = f16
// CHECK-NEXT: accumulator = f32
// CHECK-NEXT: offsets = -1,0;0,-1;0,0;0,1;1,0
// CHECK-NEXT: weights = 0.10000000000000001,0.20000000000000001,0.40000000000000002,0.14999999999999999,0.14999999999999999
// CHECK-NEXT: boundary = halo
// CHECK-NEXT: # time steps in the source op: 3
// CHECK-NEXT: tile = 256,64
// CHECK-NEXT: block = 128,1,1
// CHECK-NEXT: shared_bytes = 0
// CHECK-NEXT: unit = mma.sp.f16
// CHECK-NEXT: unit_flops_per_point = 128
// CHECK-NEXT: coefficients = {{([0-9a-f]{8},)+[0-9a-f]{8}$}}
// How the coefficients follow from the weights (one weight index or -1 per
// compressed value; the 2:4 positions), for new weights at run time:
// CHECK-NEXT: repack = sptc
// CHECK-NEXT: repack_type = f16
// CHECK-NEXT: repack_rows = 2
// CHECK-NEXT: repack_rows_per_block = 16
// CHECK-NEXT: repack_radius = 1
// CHECK-NEXT: repack_indices = {{[0-3]+$}}
// CHECK-NEXT: repack_map = {{((-1|[0-4]),)+(-1|[0-4])$}}
// CHECK-NEXT: args = in,out,coeffs,sizes

// A kernel fusing time steps (temporal blocking) says how many one launch
// computes; the runner counts each launch as that many steps, and launches
// the one-step tail kernel for the steps left over (the op's 3 steps: one
// fused launch and one tail launch). (The pipeline sweeps a linear 2-D
// stencil that fuses steps by rows: one row of 256 threads, 252 x 128
// outputs; `schedule` says so, for the benchmark scripts. The tail's row of
// one step keeps r, not 2 r, columns per side for its halo: 254 wide.)
// FUSED:      kernel = heat_cuda_core
// FUSED:      boundary = halo
// FUSED-NEXT: # time steps in the source op: 3
// FUSED-NEXT: steps_per_launch = 2
// FUSED-NEXT: tail_kernel = heat_cuda_core_tail
// FUSED-NEXT: tail_steps = 1
// FUSED-NEXT: tail_tile = 254,128
// FUSED-NEXT: tail_block = 256,1,1
// FUSED-NEXT: tail_shared_bytes = 0
// FUSED-NEXT: tile = 252,128
// FUSED-NEXT: block = 256,1,1
// FUSED-NEXT: shared_bytes = 0
// FUSED-NEXT: unit = fma.f32
// FUSED-NEXT: unit_flops_per_point =
// FUSED-NEXT: schedule = rows

// NOPTX: error: no gpu.binary with PTX (format = isa) in the module; lower it with a GPU pipeline first
// NOLAUNCH: error: no 'stencil.launches' attribute: the module was not lowered by a stencil GPU pipeline
func.func @heat(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1>
      weights [0.1, 0.2, 0.4, 0.15, 0.15] steps 3 : memref<?x?xf16>
  return
}
