// RUN: stencil-opt %s --convert-stencil-to-cuda-core="threads-x=4 threads-y=2 outputs-per-thread=2" | FileCheck %s
// RUN: stencil-opt %s --convert-stencil-to-cuda-core="threads-x=4 threads-y=2 outputs-per-thread=2 fused-steps=2" | FileCheck %s --check-prefix=FUSED

// Periodic and Dirichlet boundaries (docs/Rationale.md): every grid point is
// computed and stored; the staging wraps the coordinates (periodic) or
// reads the boundary value outside the grid (Dirichlet). The launch records
// name the boundary as a launch description spells it, and a general body
// is recorded as the expression the runner evaluates.
// CHECK:       stencil.launches = [{
// CHECK-SAME:    boundary = "periodic", element_type = "f32", kernel = "periodic_cuda_core"
// CHECK-SAME:    boundary = "dirichlet(-0.25)", element_type = "f64", kernel = "dirichlet_cuda_core"
// CHECK-SAME:    source = {body = "(max(a(-1), a(2)) - (0.5 * a(0)))"}
// CHECK-SAME:    boundary = "halo", element_type = "f16", kernel = "widened_cuda_core"
// CHECK-SAME:    source = {body = "rnd((a(0,1) * a(-1,0)))"}
// CHECK-SAME:    kernel = "from_above_cuda_core"
// CHECK-SAME:    source = {body = "(0.25 * max(a(1), a(-1)))"}

// Periodic staging: ((c rem N) + N) rem N per dimension, then a load that
// only a position past the 36 of the tile skips (never a grid bound); the
// outputs are stored at every grid point (0 <= c < N, margin 0).
// CHECK-LABEL: gpu.func @periodic_cuda_core
// CHECK-SAME:      (%[[IN:.*]]: memref<?xf32>, %[[OUT:.*]]: memref<?xf32>, %{{.*}}: memref<?xi32>, %[[N0:.*]]: index, %[[N1:.*]]: index)
// CHECK:           %[[TID:.*]] = gpu.thread_id x
// CHECK:           %[[OK:.*]] = arith.cmpi ult, %[[TID]], %c36
// CHECK-NEXT:      %[[POS:.*]] = arith.addi
// CHECK-NEXT:      %[[C1:.*]] = arith.constant 1
// CHECK-NEXT:      arith.subi %[[POS]], %[[C1]]
// CHECK:           %[[R0:.*]] = arith.remsi %{{.*}}, %[[N0]] : index
// CHECK:           %[[NEG0:.*]] = arith.cmpi slt, %[[R0]], %c0
// CHECK:           %[[UP0:.*]] = arith.addi %[[R0]], %[[N0]]
// CHECK:           arith.select %[[NEG0]], %[[UP0]], %[[R0]]
// CHECK:           %[[R1:.*]] = arith.remsi %{{.*}}, %[[N1]] : index
// CHECK-NOT:       scf.if
// CHECK:           scf.if %[[OK]] -> (f32) {
// CHECK-NEXT:        memref.load %[[IN]]
// CHECK:           gpu.barrier
// CHECK:           %[[HI:.*]] = arith.subi %[[N0]], %c0{{(_[0-9]+)?}} : index
// CHECK-NEXT:      arith.cmpi slt, %{{.*}}, %[[HI]]
// CHECK:           scf.if
// CHECK-NEXT:        memref.store %{{.*}}, %[[OUT]]
// CHECK:           gpu.return
func.func @periodic(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1>
      weights [0.1, 0.2, 0.4, 0.2, 0.1] steps 3 boundary periodic
      : memref<?x?xf32>
  return
}

// Dirichlet staging: the value outside the grid is the boundary value.
// CHECK-LABEL: gpu.func @dirichlet_cuda_core
// CHECK:           scf.if %{{.*}} -> (f64) {
// CHECK:             memref.load
// CHECK:           } else {
// CHECK:             %[[V:.*]] = arith.constant -2.500000e-01 : f64
// CHECK:             scf.yield %[[V]] : f64
// CHECK:           gpu.barrier
// CHECK:           arith.maximumf
// CHECK:           gpu.return
func.func @dirichlet(%in: memref<?xf64>, %out: memref<?xf64>) {
  stencil.apply %in -> %out boundary dirichlet(-0.25) : memref<?xf64> {
    %a = stencil.access [-1] : f64
    %b = stencil.access [2] : f64
    %c = stencil.access [0] : f64
    %h = arith.constant 0.5 : f64
    %m = arith.maximumf %a, %b : f64
    %hc = arith.mulf %h, %c : f64
    %r = arith.subf %m, %hc : f64
    stencil.yield %r : f64
  }
  return
}

// Fused steps: the intermediate step of a periodic kernel computes every
// position of its region (no select keeping an old value); a Dirichlet
// kernel keeps the boundary value outside the grid (a select on the grid's
// bounds, margin 0).
// FUSED-LABEL: gpu.func @periodic_cuda_core
// FUSED:         gpu.barrier
// FUSED-NOT:     arith.select
// FUSED:         gpu.barrier
// FUSED-LABEL: gpu.func @dirichlet_cuda_core
// FUSED:         gpu.barrier
// FUSED:         arith.maximumf
// FUSED:         arith.select
// FUSED:         gpu.barrier

// A body that computes in f32 on an f16 grid: the widening is transparent
// in the recorded expression, the narrowing a rounding (rnd).
// CHECK-LABEL: gpu.func @widened_cuda_core
func.func @widened(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.apply %in -> %out : memref<?x?xf16> {
    %a = stencil.access [0, 1] : f16
    %b = stencil.access [-1, 0] : f16
    %wa = arith.extf %a : f16 to f32
    %wb = arith.extf %b : f16 to f32
    %p = arith.mulf %wa, %wb : f32
    %r = arith.truncf %p : f32 to f16
    stencil.yield %r : f16
  }
  return
}

// A constant defined outside the body is cloned into the kernel and
// printed in the body expression.
// CHECK-LABEL: gpu.func @from_above_cuda_core
// CHECK:           gpu.barrier
// CHECK:           arith.constant 2.500000e-01 : f32
// CHECK:           arith.maximumf
// CHECK:           arith.mulf
func.func @from_above(%in: memref<?xf32>, %out: memref<?xf32>) {
  %k = arith.constant 0.25 : f32
  stencil.apply %in -> %out : memref<?xf32> {
    %a = stencil.access [1] : f32
    %b = stencil.access [-1] : f32
    %c = arith.maximumf %a, %b : f32
    %m = arith.mulf %k, %c : f32
    stencil.yield %m : f32
  }
  return
}
