// RUN: stencil-opt %s --stencil-linearize --split-input-file | FileCheck %s

// A weighted sum of accesses becomes stencil.linear; the boundary, steps and
// operands carry over; offsets come out in lexicographic order.
// CHECK-LABEL: func.func @heat_2d
// CHECK-SAME:    (%[[IN:.*]]: memref<?x?xf32>, %[[OUT:.*]]: memref<?x?xf32>)
// CHECK:         stencil.linear %[[IN]] -> %[[OUT]] pattern <star, rank = 2, radius = 1>
// CHECK-SAME:      weights [2.500000e-01, 1.250000e-01, 5.000000e-01, -1.250000e-01, 2.500000e-01]
// CHECK-SAME:      steps 3 boundary periodic : memref<?x?xf32>
// CHECK-NOT:     stencil.apply
func.func @heat_2d(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  stencil.apply %in -> %out steps 3 boundary periodic : memref<?x?xf32> {
    %c = stencil.access [0, 0] : f32
    %n = stencil.access [-1, 0] : f32
    %s = stencil.access [1, 0] : f32
    %w = stencil.access [0, -1] : f32
    %e = stencil.access [0, 1] : f32
    %half = arith.constant 0.5 : f32
    %quarter = arith.constant 0.25 : f32
    %eight = arith.constant 8.0 : f32
    %t0 = arith.mulf %c, %half : f32
    %ns = arith.addf %n, %s : f32
    %t1 = arith.mulf %quarter, %ns : f32
    %we = arith.subf %w, %e : f32
    %t2 = arith.divf %we, %eight : f32
    %a = arith.addf %t0, %t1 : f32
    %r = arith.addf %a, %t2 : f32
    stencil.yield %r : f32
  }
  return
}

// -----

// Repeated offsets merge; terms that cancel are dropped; negation folds in.
// CHECK-LABEL: func.func @merge_and_drop
// CHECK:         stencil.linear {{.*}} pattern <{{\[}}[-1], [2]]> weights [-1.000000e+00, 3.000000e+00]
// CHECK-SAME:      boundary dirichlet(1.000000e+00) : memref<32xf64>
func.func @merge_and_drop(%in: memref<32xf64>, %out: memref<32xf64>) {
  stencil.apply %in -> %out boundary dirichlet(1.0) : memref<32xf64> {
    %a = stencil.access [2] : f64
    %b = stencil.access [2] : f64
    %c = stencil.access [0] : f64
    %d = stencil.access [-1] : f64
    %two = arith.constant 2.0 : f64
    %a2 = arith.mulf %two, %a : f64
    %ab = arith.addf %a2, %b : f64
    %cc = arith.subf %c, %c : f64
    %nd = arith.negf %d : f64
    %x = arith.addf %ab, %cc : f64
    %y = arith.addf %x, %nd : f64
    stencil.yield %y : f64
  }
  return
}

// -----

// A shared subexpression is counted once per use.
// CHECK-LABEL: func.func @shared_subexpression
// CHECK:         stencil.linear {{.*}} pattern <{{\[}}[0, 1]]> weights [4.000000e+00] : memref<8x8xf16>
func.func @shared_subexpression(%in: memref<8x8xf16>, %out: memref<8x8xf16>) {
  stencil.apply %in -> %out : memref<8x8xf16> {
    %e = stencil.access [0, 1] : f16
    %e2 = arith.addf %e, %e : f16
    %e4 = arith.addf %e2, %e2 : f16
    stencil.yield %e4 : f16
  }
  return
}

// -----

// Non-linear bodies stay in the general form: a product of neighbours, a
// max, a math op, a constant bias, a division by a neighbour, and a body
// whose weights all cancel.
// CHECK-LABEL: func.func @non_linear
// CHECK-COUNT-6: stencil.apply
// CHECK-NOT:     stencil.linear
func.func @non_linear(%in: memref<16xf32>, %out: memref<16xf32>) {
  stencil.apply %in -> %out : memref<16xf32> {
    %a = stencil.access [-1] : f32
    %b = stencil.access [1] : f32
    %p = arith.mulf %a, %b : f32
    stencil.yield %p : f32
  }
  stencil.apply %in -> %out : memref<16xf32> {
    %a = stencil.access [-1] : f32
    %b = stencil.access [1] : f32
    %m = arith.maximumf %a, %b : f32
    stencil.yield %m : f32
  }
  stencil.apply %in -> %out : memref<16xf32> {
    %a = stencil.access [0] : f32
    %x = math.exp %a : f32
    stencil.yield %x : f32
  }
  stencil.apply %in -> %out : memref<16xf32> {
    %a = stencil.access [0] : f32
    %one = arith.constant 1.0 : f32
    %x = arith.addf %a, %one : f32
    stencil.yield %x : f32
  }
  stencil.apply %in -> %out : memref<16xf32> {
    %a = stencil.access [0] : f32
    %b = stencil.access [1] : f32
    %x = arith.divf %a, %b : f32
    stencil.yield %x : f32
  }
  stencil.apply %in -> %out : memref<16xf32> {
    %a = stencil.access [0] : f32
    %x = arith.subf %a, %a : f32
    stencil.yield %x : f32
  }
  return
}
