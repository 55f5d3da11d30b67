// RUN: stencil-opt %s --split-input-file --convert-stencil-to-cuda-core="threads-x=4 threads-y=2 outputs-per-thread=2 planes=5 stream=on fused-steps=2" | FileCheck %s --check-prefix=FUSED
// RUN: stencil-opt %s --split-input-file --convert-stencil-to-cuda-core="stream=on" | FileCheck %s --check-prefix=DEFAULT

// A streamed 3-D block sweeps its `planes` output planes along z. The tile
// (innermost first) is 4 x 4 x 5; with 2 fused steps of radius 1 each plane
// of a ring is 8 x 8 (the halo of 2 per side), and the shared memory is two
// rings (input, step 1) of 2 r_z + 1 = 3 planes: 2 x 3 x 64 = 384 elements.
// The sweep is built twice: for blocks whose (y, x) tile and halo lie in the
// grid (0 <= origin_d - 2 and origin_d - 2 + 7 < N_d), without bounds checks
// along y and x, and for the others. Each runs min(5, N_z - z0) + 2 t r_z
// iterations; the input plane's slot is i mod 3; step 1 starts at iteration
// 2, the last step at 4; a barrier follows the staging and step 1 (none
// after the last step, whose plane no one reads), and each thread stores 2
// outputs per iteration.
// FUSED:         tile = array<i64: 4, 4, 5>
// FUSED:         gpu.func @heat_cuda_core(
// FUSED-SAME:      workgroup(%{{.*}} : memref<384xf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// FUSED:           %[[Z0:.*]] = arith.muli %block_id_z, %c5
// FUSED:           %[[Y0:.*]] = arith.addi %{{.*}}, %c-2
// FUSED:           %[[Y7:.*]] = arith.addi %[[Y0]], %c7
// FUSED:           %[[NY:.*]] = arith.subi %arg4, %c0
// FUSED:           arith.cmpi slt, %[[Y7]], %[[NY]]
// FUSED:           arith.cmpi sge, %[[Y0]], %c0
// FUSED:           %[[X0:.*]] = arith.addi %{{.*}}, %c-2
// FUSED:           %[[X7:.*]] = arith.addi %[[X0]], %{{c7.*}}
// FUSED:           %[[NX:.*]] = arith.subi %arg5, %{{c0.*}}
// FUSED:           arith.cmpi slt, %[[X7]], %[[NX]]
// FUSED:           arith.cmpi sge, %[[X0]], %{{c0.*}}
// FUSED:           scf.if %{{.*}} {
// FUSED:             %[[LEFT:.*]] = arith.subi %arg3, %[[Z0]]
// FUSED:             %[[PLANES:.*]] = arith.minui %[[LEFT]], %c5
// FUSED:             %[[ITER:.*]] = arith.addi %[[PLANES]], %c4
// FUSED:             scf.for %[[I:.*]] = %{{.*}} to %[[ITER]]
// FUSED:               arith.remui %[[I]], %c3
// FUSED:               gpu.barrier
// FUSED:               arith.cmpi uge, %[[I]], %c2
// FUSED:               scf.if
// FUSED:                 arith.muli %{{.*}}, %c64
// FUSED:               gpu.barrier
// FUSED:               arith.cmpi uge, %[[I]], %c4
// FUSED:               scf.if
// FUSED-COUNT-2:         memref.store %{{.*}}, %arg1
// FUSED-NOT:             memref.store %{{.*}}, %arg1
// FUSED-NOT:           gpu.barrier
// FUSED:           } else {
// FUSED:             scf.for
// FUSED:               gpu.barrier
// FUSED:               gpu.barrier
// FUSED-COUNT-2:         memref.store %{{.*}}, %arg1
// FUSED-NOT:             memref.store %{{.*}}, %arg1
// FUSED-NOT:           gpu.barrier
// FUSED:           gpu.return
// The one-step tail kernel streams too: one ring of 2 r_z + 2 = 4 planes
// (its next staging follows its last step without a barrier), one barrier
// per sweep.
// FUSED:         gpu.func @heat_cuda_core_tail(
// FUSED-SAME:      workgroup(%{{.*}} : memref<144xf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// FUSED-COUNT-2:   gpu.barrier
// FUSED-NOT:       gpu.barrier
// FUSED:           gpu.return

// Defaults: 32 planes per block, a 32 x 32 tile (4 outputs per thread),
// one ring of 4 planes of 34 x 34.
// DEFAULT:     tile = array<i64: 32, 32, 32>
// DEFAULT:     workgroup(%{{.*}} : memref<4624xf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
func.func @heat(%in: memref<?x?x?xf16>, %out: memref<?x?x?xf16>) {
  stencil.linear %in -> %out pattern <star, rank = 3, radius = 1>
      weights [0.1, 0.1, 0.1, 0.4, 0.1, 0.1, 0.1] steps 3 : memref<?x?x?xf16>
  return
}

// -----

// A general body streams as well (each access reads its ring plane), and
// so does a boundary other than the halo. Radius 2 along z: rings of 5
// (2 fused steps), of 6 with one step.
// FUSED:       tile = array<i64: 4, 4, 5>
// FUSED:       gpu.func @general_cuda_core(
// FUSED-SAME:    workgroup(%{{.*}} : memref<{{[0-9]+}}xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// FUSED:         scf.for
// FUSED:           arith.remui %{{.*}}, %c5
// DEFAULT:     gpu.func @general_cuda_core(
// DEFAULT-SAME:  workgroup(%{{.*}} : memref<6936xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
func.func @general(%in: memref<?x?x?xf32>, %out: memref<?x?x?xf32>) {
  stencil.apply %in -> %out boundary periodic : memref<?x?x?xf32> {
    %a = stencil.access [-2, 0, 1] : f32
    %b = stencil.access [2, 1, 0] : f32
    %c = stencil.access [0, 0, 0] : f32
    %m = arith.maximumf %a, %b : f32
    %s = arith.mulf %m, %c : f32
    stencil.yield %s : f32
  }
  return
}
