// The checks above are only worth something if the checker rejects a wrong
// result: here the output of a correct program is compared against a stencil
// with two weights swapped, and against a shifted pattern; both must fail.
// RUN: stencil-opt %s --stencil-attach-cpu-harness="grid=24,20" --lower-to-cpu | %mlir_runner > %t.out
// RUN: %stencil_ref --result %t.out --dtype f32 --grid 24,20 --pattern star:2:1 --weights 0.1,0.2,0.4,0.2,0.1
// RUN: not %stencil_ref --result %t.out --dtype f32 --grid 24,20 --pattern star:2:1 --weights 0.2,0.1,0.4,0.2,0.1
// RUN: not %stencil_ref --result %t.out --dtype f32 --grid 24,20 --pattern="-1,0;0,-1;0,0;0,1;1,1" --weights 0.1,0.2,0.4,0.2,0.1
// RUN: not %stencil_ref --result %t.out --dtype f32 --grid 24,20 --steps 2 --pattern star:2:1 --weights 0.1,0.2,0.4,0.2,0.1

func.func @heat2d(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1>
      weights [0.1, 0.2, 0.4, 0.2, 0.1] : memref<?x?xf32>
  return
}
