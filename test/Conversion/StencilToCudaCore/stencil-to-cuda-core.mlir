// RUN: stencil-opt %s --convert-stencil-to-cuda-core="threads-x=4 threads-y=2 outputs-per-thread=2" | FileCheck %s --implicit-check-not=stencil.linear --implicit-check-not=stencil.apply

// The launch records: the linear stencil is its own source (the runner
// checks against it); tiles are innermost first; no coefficient words. The
// unit: one FMA per point (5 points), one flop per floating-point op of a
// general body.
// CHECK:       module attributes {gpu.container_module, stencil.launches = [{
// CHECK-SAME:    accumulator = "f32", block = array<i64: 8, 1, 1>, boundary = "halo", element_type = "f32", kernel = "star_cuda_core", rank = 2
// CHECK-SAME:    source = {pattern = #stencil.pattern<star, rank = 2, radius = 1>
// CHECK-SAME:    steps = 3 : i64, tile = array<i64: 4, 4>, unit = "fma.f32", unit_flops_per_point = 1.000000e+01 : f64, weights_global = "star_cuda_core_weights"}
// CHECK-SAME:    {accumulator = "f64", block = array<i64: 8, 1, 1>, boundary = "halo", element_type = "f64", kernel = "maxabs_cuda_core", rank = 1
// CHECK-SAME:    tile = array<i64: 16>, unit = "fma.f64", unit_flops_per_point = 1.000000e+00 : f64}]}

// Host: the halo copy, then one launch per step over ceil(N / tile) blocks.
// CHECK-LABEL: func.func @star
// CHECK:         gpu.memcpy %[[OUTF:.*]], %[[INF:.*]] : memref<?xf32>, memref<?xf32>
// CHECK:         %[[GX:.*]] = arith.ceildivui %{{.*}}, %c4
// CHECK:         %[[GY:.*]] = arith.ceildivui %{{.*}}, %c4
// CHECK:         scf.for
// CHECK:           gpu.launch_func @stencil_cuda_core::@star_cuda_core blocks in (%[[GX]], %[[GY]], %{{.*}}) threads in (%c8, %{{.*}}, %{{.*}})

// Kernel: stage (4 + 2) x (4 + 2) elements with the halo, thread (tx, ty)
// taking rows ty, ty + 2, ... and in each the columns tx, tx + 4 (zero
// outside the grid), then register tiling along y:
// the column dx = 0 is read once for rows -1 .. 2 (4 loads), the columns
// dx = +-1 for rows 0 .. 1 (2 loads each): 8 shared loads, 10 fma, for the
// thread's 2 outputs.
// CHECK:       gpu.module @stencil_cuda_core
// CHECK:         gpu.func @star_cuda_core(%[[IN:.*]]: memref<?xf32>, %[[OUT:.*]]: memref<?xf32>, %{{.*}}: memref<?xi32>, %{{.*}}: index, %{{.*}}: index)
// CHECK-SAME:      workgroup(%[[SMEM:.*]] : memref<36xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}) kernel
// CHECK:           %[[TID:.*]] = gpu.thread_id x
// CHECK:           %[[TX:.*]] = arith.remui %[[TID]], %c4
// CHECK:           %[[TY:.*]] = arith.divui %[[TID]], %c4
// Staging: the 6 x 6 tile's 36 positions, tid + 8 j (j < 5) per thread,
// all five loads issued before the stores; position 8 j + tid is row
// tid / 6 + 8 j / 6 plus a carry, column tid mod 6 + 8 j mod 6 minus it.
// CHECK:           %[[ROW0:.*]] = arith.divui %[[TID]], %c6
// CHECK:           %[[COL0:.*]] = arith.remui %[[TID]], %c6
// CHECK:           %[[OK0:.*]] = arith.cmpi ult, %[[TID]], %c36
// CHECK:           %[[V0:.*]] = scf.if %{{.*}} -> (f32) {
// CHECK-NEXT:        memref.load %[[IN]]
// CHECK:           %[[E1:.*]] = arith.addi %[[TID]], %c8
// CHECK:           %[[OK1:.*]] = arith.cmpi ult, %[[E1]], %c36
// CHECK:           %[[COL1:.*]] = arith.addi %[[COL0]], %c2
// CHECK:           %[[ROW1:.*]] = arith.addi %[[ROW0]], %c1
// CHECK:           %[[CARRY1:.*]] = arith.cmpi uge, %[[COL1]], %c6
// CHECK:           arith.select %[[CARRY1]], %{{.*}}, %[[COL1]]
// CHECK:           %[[ROW1C:.*]] = arith.addi %[[ROW1]], %c1
// CHECK:           arith.select %[[CARRY1]], %[[ROW1C]], %[[ROW1]]
// CHECK:           %[[V1:.*]] = scf.if %{{.*}} -> (f32) {
// CHECK-NEXT:        memref.load %[[IN]]
// CHECK-NOT:       memref.store
// CHECK-COUNT-3:   memref.load %[[IN]]
// CHECK-NOT:       memref.load %[[IN]]
// CHECK:           scf.if %[[OK0]] {
// CHECK-NEXT:        memref.store %[[V0]], %[[SMEM]][%[[TID]]]
// CHECK:           scf.if %[[OK1]] {
// CHECK-NEXT:        memref.store %[[V1]], %[[SMEM]][%[[E1]]]
// CHECK-COUNT-3:   memref.store %{{.*}}, %[[SMEM]]
// CHECK-NOT:       scf.for
// CHECK:           gpu.barrier
// CHECK-COUNT-2:   memref.load %[[SMEM]]
// CHECK:           llvm.inline_asm has_side_effects "", "f,f" %{{.*}}, %{{.*}} : (f32, f32) -> ()
// CHECK-COUNT-4:   memref.load %[[SMEM]]
// CHECK:           llvm.inline_asm has_side_effects "", "f,f"
// CHECK-COUNT-2:   memref.load %[[SMEM]]
// CHECK:           llvm.inline_asm has_side_effects "", "f,f"
// CHECK-NOT:       memref.load %[[SMEM]]
// CHECK:           scf.if
// CHECK:             memref.store %{{.*}}, %[[OUT]]
// CHECK:           scf.if
// CHECK:             memref.store %{{.*}}, %[[OUT]]
// CHECK:           gpu.return
func.func @star(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1>
      weights [0.1, 0.2, 0.4, 0.2, 0.1] steps 3 : memref<?x?xf32>
  return
}

// A general body is cloned per output (2 per thread), its accesses reading
// shared memory; it computes in the element type.
// CHECK:         gpu.func @maxabs_cuda_core
// CHECK-SAME:      workgroup(%[[SMEM1:.*]] : memref<20xf64, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK:           gpu.barrier
// CHECK:           %[[A:.*]] = memref.load %[[SMEM1]]
// CHECK:           %[[B:.*]] = memref.load %[[SMEM1]]
// CHECK:           arith.maximumf %[[A]], %[[B]] : f64
// CHECK:           arith.maximumf
// CHECK-NOT:       arith.maximumf
// CHECK:           gpu.return
func.func @maxabs(%in: memref<?xf64>, %out: memref<?xf64>) {
  stencil.apply %in -> %out : memref<?xf64> {
    %a = stencil.access [-1] : f64
    %b = stencil.access [2] : f64
    %c = arith.maximumf %a, %b : f64
    stencil.yield %c : f64
  }
  return
}
