// RUN: stencil-opt %s --convert-stencil-to-cuda-core="threads-x=4 threads-y=2 outputs-per-thread=3 fused-steps=2 planes=1" --canonicalize | FileCheck %s
// RUN: stencil-opt %s --convert-stencil-to-cuda-core="threads-x=4 threads-y=2 outputs-per-thread=3 fused-steps=3 planes=1" --canonicalize | FileCheck %s --check-prefix=T3

// Temporal blocking: fused-steps=2 kernels compute two time steps per
// launch. The launch records say so (steps_per_launch), and count the
// recomputed halo in the flops per output and step (2-D: 5 FMAs x (18 units
// x 3 + 24 outputs) / (2 x 24)); the op's own steps stay exact: 5 steps are
// two launches of the fused kernel and one of the one-step tail kernel; 6
// steps (a multiple) launch no tail, but the record has it all the same
// (the tail_* keys: a run of any number of steps in libStencilRuntime).
// CHECK:       module attributes {gpu.container_module, stencil.launches = [{
// CHECK-SAME:    kernel = "star_cuda_core"
// CHECK-SAME:    steps = 5 : i64, steps_per_launch = 2 : i64, tail_block = array<i64: 8, 1, 1>, tail_kernel = "star_cuda_core_tail", tail_shared_bytes = 0 : i64, tail_steps = 1 : i64, tail_tile = array<i64: 4, 6>, tile = array<i64: 4, 6>, unit = "fma.f32", unit_flops_per_point = 1.625000e+01 : f64, weights_global = "star_cuda_core_weights"}
// CHECK-SAME:    kernel = "maxabs_cuda_core"
// CHECK-SAME:    steps = 6 : i64, steps_per_launch = 2 : i64, tail_block = array<i64: 8, 1, 1>, tail_kernel = "maxabs_cuda_core_tail", tail_shared_bytes = 0 : i64, tail_steps = 1 : i64, tail_tile = array<i64: 24>, tile = array<i64: 24>
// CHECK-SAME:    kernel = "heat3d_cuda_core"
// CHECK-SAME:    steps = 2 : i64, steps_per_launch = 2 : i64, tail_block = array<i64: 8, 1, 1>, tail_kernel = "heat3d_cuda_core_tail", tail_shared_bytes = 0 : i64, tail_steps = 1 : i64, tail_tile = array<i64: 4, 6, 1>, tile = array<i64: 4, 6, 1>

// CHECK-LABEL: func.func @star
// CHECK:         %[[BUFS:.*]]:2 = scf.for %{{.*}} = %c0 to %c2 step %c1
// CHECK:           gpu.launch_func @stencil_cuda_core::@star_cuda_core blocks
// CHECK:         gpu.launch_func @stencil_cuda_core::@star_cuda_core_tail blocks in ({{.*}}) threads in ({{.*}}) args(%[[BUFS]]#0 : memref<?xf16>, %[[BUFS]]#1 : memref<?xf16>,
// CHECK-NOT:     gpu.launch_func
// CHECK:         return
func.func @star(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1>
      weights [0.1, 0.2, 0.4, 0.2, 0.1] steps 5 : memref<?x?xf16>
  return
}

// CHECK-LABEL: func.func @maxabs
// CHECK:         scf.for %{{.*}} = %c0 to %c3 step %c1
// CHECK:           gpu.launch_func @stencil_cuda_core::@maxabs_cuda_core blocks
// CHECK-NOT:     gpu.launch_func
// CHECK:         return
func.func @maxabs(%in: memref<?xf64>, %out: memref<?xf64>) {
  stencil.apply %in -> %out steps 6 : memref<?xf64> {
    %a = stencil.access [-1] : f64
    %b = stencil.access [2] : f64
    %c = arith.maximumf %a, %b : f64
    stencil.yield %c : f64
  }
  return
}

func.func @heat3d(%in: memref<?x?x?xf32>, %out: memref<?x?x?xf32>) {
  stencil.linear %in -> %out pattern <star, rank = 3, radius = 1>
      weights [0.1, 0.1, 0.1, 0.4, 0.1, 0.1, 0.1] steps 2 : memref<?x?x?xf32>
  return
}

// The fused 2-D kernel: the tile (6 x 4) with a halo of 2 x 1 per side is
// staged once (80 positions, 10 per thread, in two groups of 5 loads
// issued before their stores; no position past the tile, so no guard), in
// the first of two shared buffers of 10 x 8 elements. Step
// 1 computes the 8 x 6 region (the tile grown by one radius) into the
// second buffer: 3 groups of 3 rows (the last one starts at row 5) times 6
// columns = 18 work units over 8 threads, register-tiled along y (8 shared
// loads for 3 points), each point rounded to f16 and kept as it was unless
// it is an interior grid point. Step 2 is the one-step computation of the
// tile from the second buffer (at 80), stored to the grid.
// CHECK:       gpu.func @star_cuda_core(%[[IN:.*]]: memref<?xf16>, %[[OUT:.*]]: memref<?xf16>, %{{.*}}: memref<?xi32>, %{{.*}}: index, %{{.*}}: index)
// CHECK-SAME:      workgroup(%[[SMEM:.*]] : memref<160xf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}) kernel
// CHECK:           %[[TID:.*]] = gpu.thread_id x
// CHECK:           scf.for %[[GROUP:.*]] = %c0 to %c2 step %c1 {
// CHECK:             %[[FIRST:.*]] = arith.muli %[[GROUP]], %c40
// CHECK:             arith.addi %[[TID]], %[[FIRST]]
// CHECK-NOT:           arith.cmpi ult, %{{.*}}, %c80
// CHECK-COUNT-5:       memref.load %[[IN]]
// CHECK-NOT:           memref.load %[[IN]]
// CHECK-COUNT-5:       memref.store %{{.*}}, %[[SMEM]]
// CHECK-NEXT:        }
// CHECK:           gpu.barrier
// CHECK:           scf.for %[[U:.*]] = %[[TID]] to %c18 step %c8 {
// CHECK:             %[[X:.*]] = arith.remui %[[U]], %c6
// CHECK:             %[[G:.*]] = arith.divui %[[U]], %c6
// CHECK:             %[[GY:.*]] = arith.muli %[[G]], %c3
// CHECK:             arith.minui %[[GY]], %c5
// CHECK-COUNT-8:     memref.load %[[SMEM]]
// CHECK:             %[[R0:.*]] = arith.truncf %{{.*}} : f32 to f16
// CHECK:             %[[V0:.*]] = arith.select %{{.*}}, %[[R0]], %{{.*}} : f16
// CHECK:             %[[P0:.*]] = arith.addi %{{.*}}, %c80
// CHECK:             memref.store %[[V0]], %[[SMEM]][%[[P0]]]
// CHECK:             arith.select
// CHECK:             memref.store %{{.*}}, %[[SMEM]]
// CHECK:             arith.select
// CHECK:             memref.store %{{.*}}, %[[SMEM]]
// CHECK-NEXT:      }
// CHECK-NEXT:      gpu.barrier
// CHECK-COUNT-8:   memref.load %[[SMEM]]
// CHECK-NOT:       gpu.barrier
// CHECK:           memref.store %{{.*}}, %[[OUT]]
// CHECK:           memref.store %{{.*}}, %[[OUT]]
// CHECK:           memref.store %{{.*}}, %[[OUT]]
// CHECK:           gpu.return

// The tail kernel computes one step: one buffer, the halo of one radius.
// CHECK:       gpu.func @star_cuda_core_tail
// CHECK-SAME:      workgroup(%{{.*}} : memref<48xf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK:           gpu.barrier
// CHECK-NOT:       gpu.barrier
// CHECK:           gpu.return

// 1-D, a general body (radius 2): units are single points; step 1 computes
// 24 + 2 x 2 points from the staged 24 + 2 x 4 (4 per thread: one group,
// no guard, no loop).
// CHECK:       gpu.func @maxabs_cuda_core
// CHECK-SAME:      (%[[IN1:.*]]: memref<?xf64>, %{{.*}}: memref<?xf64>
// CHECK-SAME:      workgroup(%[[SMEM1:.*]] : memref<64xf64, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK-NOT:       scf.for
// CHECK-COUNT-4:   memref.load %[[IN1]]
// CHECK-COUNT-4:   memref.store %{{.*}}, %[[SMEM1]]
// CHECK-NEXT:      gpu.barrier
// CHECK:           scf.for %{{.*}} = %{{.*}} to %c28 step %c8
// CHECK:             arith.maximumf
// CHECK:             arith.select
// CHECK:           gpu.barrier
// CHECK-COUNT-3:   arith.maximumf
// CHECK-NOT:       arith.maximumf
// CHECK:           gpu.return

// 3-D (planes=1): one z plane per block with two planes of halo, (1 + 4) x (6 + 4) x
// (4 + 4) staged (400 positions, 50 per thread in 7 groups of 8 loads; a
// position's plane and row follow from its row of the flattened tile, row / 10
// and row mod 10); step 1 computes 3 x 8 x 6 points: 3 planes x 3 row groups
// x 6 columns = 54 units.
// CHECK:       gpu.func @heat3d_cuda_core
// CHECK-SAME:      (%[[IN3:.*]]: memref<?xf32>, %{{.*}}: memref<?xf32>
// CHECK-SAME:      workgroup(%[[SMEM3:.*]] : memref<800xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK:           scf.for %{{.*}} = %c0 to %c7 step %c1
// CHECK:             arith.divui %{{.*}}, %c10
// CHECK:             arith.remui %{{.*}}, %c10
// CHECK-COUNT-8:       memref.load %[[IN3]]
// CHECK-COUNT-8:       memref.store %{{.*}}, %[[SMEM3]]
// CHECK-NEXT:        }
// CHECK:           gpu.barrier
// CHECK:           scf.for %{{.*}} = %{{.*}} to %c54 step %c8
// CHECK:           gpu.barrier
// CHECK:           gpu.return

// With three fused steps, 5 steps are one launch (the loop of one
// iteration folded away) and two of the one-step tail; 2 steps (fewer than
// 3) are only tail launches, the fused kernel staying for the launch
// record. Two barriers separate the three steps of the fused kernel; the
// tail has one buffer of the tile with a halo of one radius.
// T3-LABEL:    func.func @star
// T3-NOT:        scf.for
// T3:            gpu.launch_func @stencil_cuda_core::@star_cuda_core blocks
// T3:            scf.for %{{.*}} = %c0 to %c2 step %c1
// T3:              gpu.launch_func @stencil_cuda_core::@star_cuda_core_tail blocks
// T3-LABEL:    func.func @maxabs
// T3:            scf.for %{{.*}} = %c0 to %c2 step %c1
// T3:              gpu.launch_func @stencil_cuda_core::@maxabs_cuda_core blocks
// T3-NOT:        gpu.launch_func
// T3:            return
// T3-LABEL:    func.func @heat3d
// T3-NOT:        gpu.launch_func
// T3:            scf.for %{{.*}} = %c0 to %c2 step %c1
// T3:              gpu.launch_func @stencil_cuda_core::@heat3d_cuda_core_tail blocks
// T3-NOT:        gpu.launch_func
// T3:            return
// T3:          gpu.func @star_cuda_core(
// T3-SAME:         workgroup(%{{.*}} : memref<240xf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// T3-COUNT-3:      gpu.barrier
// T3-NOT:          gpu.barrier
// T3:            gpu.func @star_cuda_core_tail(
// T3-SAME:         workgroup(%{{.*}} : memref<48xf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// T3-COUNT-1:      gpu.barrier
// T3-NOT:          gpu.barrier
// T3:              gpu.return
