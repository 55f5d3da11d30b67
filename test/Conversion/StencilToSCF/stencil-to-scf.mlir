// RUN: stencil-opt %s --convert-stencil-to-scf --split-input-file | FileCheck %s --implicit-check-not=stencil.

// Halo boundary, two steps: copy for the halo, ping-pong time loop, interior
// loop bounds [r, N - r), f64 accumulation in pattern order, one rounding,
// and the final copy because the result of an even step count is in `input`.
// CHECK-LABEL: func.func @linear_halo_two_steps
// CHECK-SAME:    (%[[IN:.*]]: memref<?x?xf16>, %[[OUT:.*]]: memref<?x?xf16>)
// CHECK-DAG:     %[[N0:.*]] = memref.dim %[[IN]], %{{.*}} : memref<?x?xf16>
// CHECK-DAG:     %[[UB0:.*]] = arith.subi %[[N0]], %[[R0:.*]] : index
// CHECK-DAG:     %[[R1:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[UB1:.*]] = arith.subi %{{.*}}, %[[R1]] : index
// CHECK:         memref.copy %[[IN]], %[[OUT]]
// CHECK:         %[[STEPS:.*]] = arith.constant 2 : index
// CHECK:         scf.for %{{.*}} = %{{.*}} to %[[STEPS]] step %{{.*}} iter_args(%[[SRC:.*]] = %[[IN]], %[[DST:.*]] = %[[OUT]])
// CHECK:           scf.for %[[I:.*]] = %[[R0]] to %[[UB0]]
// CHECK:             scf.for %[[J:.*]] = %[[R1]] to %[[UB1]]
// CHECK:               %[[IM1:.*]] = arith.addi %[[I]], %{{.*}} : index
// CHECK:               %[[A:.*]] = memref.load %[[SRC]][%[[IM1]], %[[J]]]
// CHECK:               %[[AX:.*]] = arith.extf %[[A]] : f16 to f64
// CHECK:               %[[W0:.*]] = arith.constant 2.500000e-01 : f64
// CHECK:               %[[T0:.*]] = arith.mulf %[[W0]], %[[AX]] : f64
// CHECK:               %[[JP2:.*]] = arith.addi %[[J]], %{{.*}} : index
// CHECK:               %[[B:.*]] = memref.load %[[SRC]][%[[I]], %[[JP2]]]
// CHECK:               %[[BX:.*]] = arith.extf %[[B]] : f16 to f64
// CHECK:               %[[W1:.*]] = arith.constant 7.500000e-01 : f64
// CHECK:               %[[T1:.*]] = arith.mulf %[[W1]], %[[BX]] : f64
// CHECK:               %[[S:.*]] = arith.addf %[[T0]], %[[T1]] : f64
// CHECK:               %[[R:.*]] = arith.truncf %[[S]] : f64 to f16
// CHECK:               memref.store %[[R]], %[[DST]][%[[I]], %[[J]]]
// CHECK:           scf.yield %[[DST]], %[[SRC]]
// CHECK:         memref.copy %[[IN]], %[[OUT]]
// CHECK-NEXT:    return
func.func @linear_halo_two_steps(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.linear %in -> %out pattern <[[-1, 0], [0, 2]]> weights [0.25, 0.75] steps 2 : memref<?x?xf16>
  return
}

// -----

// Dirichlet: every point, clamped load, select of the boundary value; f64
// needs no conversion; one step needs no final copy.
// CHECK-LABEL: func.func @linear_dirichlet
// CHECK-SAME:    (%[[IN:.*]]: memref<16xf64>, %[[OUT:.*]]: memref<16xf64>)
// CHECK-DAG:     %[[BV:.*]] = arith.constant 5.000000e-01 : f64
// CHECK-DAG:     %[[N:.*]] = memref.dim %[[IN]]
// CHECK-NOT:     memref.copy
// CHECK:         scf.for {{.*}} iter_args(%[[SRC:.*]] = %[[IN]], %[[DST:.*]] = %[[OUT]])
// CHECK:           scf.for %[[I:.*]] = %{{.*}} to %[[N]]
// CHECK:             %[[RAW:.*]] = arith.addi %[[I]], %{{.*}} : index
// CHECK:             %[[MIN:.*]] = arith.minsi %[[RAW]], %{{.*}} : index
// CHECK:             %[[CL:.*]] = arith.maxsi %{{.*}}, %[[MIN]] : index
// CHECK-DAG:         arith.cmpi sge, %[[RAW]]
// CHECK-DAG:         arith.cmpi slt, %[[RAW]], %[[N]]
// CHECK:             %[[IN_GRID:.*]] = arith.andi
// CHECK:             %[[V:.*]] = memref.load %[[SRC]][%[[CL]]]
// CHECK:             arith.select %[[IN_GRID]], %[[V]], %[[BV]] : f64
// CHECK-NOT:         arith.extf
// CHECK-NOT:         arith.truncf
// CHECK:             memref.store %{{.*}}, %[[DST]][%[[I]]]
// CHECK-NOT:     memref.copy
// CHECK:         return
func.func @linear_dirichlet(%in: memref<16xf64>, %out: memref<16xf64>) {
  stencil.linear %in -> %out pattern <[[-1], [0]]> weights [0.25, 0.75] boundary dirichlet(0.5) : memref<16xf64>
  return
}

// -----

// Periodic general form, three steps: wrapped index, the body cloned in the
// element type, no copy (odd step count, no halo).
// CHECK-LABEL: func.func @apply_periodic
// CHECK-NOT:     memref.copy
// CHECK:         %[[N:.*]] = memref.dim
// CHECK:         scf.for {{.*}} iter_args(%[[SRC:.*]] = %{{.*}}, %[[DST:.*]] = %{{.*}})
// CHECK:           scf.for %[[I:.*]] = %{{.*}} to %[[N]]
// CHECK:             %[[P:.*]] = arith.addi %[[I]], %{{.*}} : index
// CHECK:             %[[Q:.*]] = arith.addi %[[P]], %[[N]] : index
// CHECK:             %[[W:.*]] = arith.remsi %[[Q]], %[[N]] : index
// CHECK:             %[[A:.*]] = memref.load %[[SRC]][%[[W]]]
// CHECK:             %[[B:.*]] = memref.load %[[SRC]][%[[I]]]
// CHECK:             %[[M:.*]] = arith.maximumf %[[A]], %[[B]] : f32
// CHECK:             memref.store %[[M]], %[[DST]][%[[I]]]
// CHECK-NOT:     memref.copy
// CHECK:         return
func.func @apply_periodic(%in: memref<16xf32>, %out: memref<16xf32>) {
  stencil.apply %in -> %out steps 3 boundary periodic : memref<16xf32> {
    %a = stencil.access [1] : f32
    %b = stencil.access [0] : f32
    %m = arith.maximumf %a, %b : f32
    stencil.yield %m : f32
  }
  return
}
