// RUN: stencil-opt %s --stencil-attach-cpu-harness="func=periodic_2d grid=12,13" --lower-to-cpu | %mlir_runner \
// RUN:   | %stencil_ref --result - --dtype f32 --grid 12,13 --steps 3 --boundary periodic --pattern="-2,1;0,0;1,-1;0,2" --weights 0.2,0.5,-0.15,0.3
// RUN: stencil-opt %s --stencil-attach-cpu-harness="func=dirichlet_1d grid=21" --lower-to-cpu | %mlir_runner \
// RUN:   | %stencil_ref --result - --dtype f64 --grid 21 --steps 2 --boundary dirichlet:0.75 --pattern star:1:2 --weights 0.1,0.2,0.4,0.2,0.15
// RUN: stencil-opt %s --stencil-attach-cpu-harness="func=dirichlet_3d grid=6,7,5" --lower-to-cpu | %mlir_runner \
// RUN:   | %stencil_ref --result - --dtype f16 --grid 6,7,5 --boundary dirichlet:-0.5 --pattern star:3:1 --weights 0.1,0.2,0.05,0.3,0.15,0.12,0.08
// RUN: stencil-opt %s --stencil-attach-cpu-harness="func=periodic_general grid=9,11" --lower-to-cpu | %mlir_runner \
// RUN:   | %stencil_ref --result - --dtype f32 --grid 9,11 --steps 2 --boundary periodic --pattern star:2:1 \
// RUN:     --body "max(a(-1,0), a(0,1)) - 0.5 * a(0,0)"

// The true boundary conditions: periodic (wrap around) and Dirichlet (fixed
// value outside the grid), where every point of the grid is computed.

func.func @periodic_2d(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  stencil.linear %in -> %out pattern <[[-2, 1], [0, 0], [1, -1], [0, 2]]>
      weights [0.2, 0.5, -0.15, 0.3] steps 3 boundary periodic : memref<?x?xf32>
  return
}

func.func @dirichlet_1d(%in: memref<?xf64>, %out: memref<?xf64>) {
  stencil.linear %in -> %out pattern <star, rank = 1, radius = 2>
      weights [0.1, 0.2, 0.4, 0.2, 0.15] steps 2 boundary dirichlet(0.75) : memref<?xf64>
  return
}

func.func @dirichlet_3d(%in: memref<?x?x?xf16>, %out: memref<?x?x?xf16>) {
  stencil.linear %in -> %out pattern <star, rank = 3, radius = 1>
      weights [0.1, 0.2, 0.05, 0.3, 0.15, 0.12, 0.08] boundary dirichlet(-0.5) : memref<?x?x?xf16>
  return
}

func.func @periodic_general(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  stencil.apply %in -> %out steps 2 boundary periodic : memref<?x?xf32> {
    %n = stencil.access [-1, 0] : f32
    %e = stencil.access [0, 1] : f32
    %c = stencil.access [0, 0] : f32
    %half = arith.constant 0.5 : f32
    %m = arith.maximumf %n, %e : f32
    %h = arith.mulf %half, %c : f32
    %r = arith.subf %m, %h : f32
    stencil.yield %r : f32
  }
  return
}
