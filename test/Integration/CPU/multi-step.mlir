// RUN: stencil-opt %s --stencil-attach-cpu-harness="func=heat2d_4_steps grid=18,21" --lower-to-cpu | %mlir_runner \
// RUN:   | %stencil_ref --result - --dtype f32 --grid 18,21 --steps 4 --pattern star:2:1 --weights 0.17,0.23,0.29,0.12,0.19
// RUN: stencil-opt %s --stencil-attach-cpu-harness="func=box2d_3_steps grid=15,16" --lower-to-cpu | %mlir_runner \
// RUN:   | %stencil_ref --result - --dtype bf16 --grid 15,16 --steps 3 --pattern box:2:1 --weights 0.06,0.14,0.09,0.12,0.2,0.08,0.13,0.1,0.08
// RUN: stencil-opt %s --stencil-attach-cpu-harness="func=heat1d_7_steps grid=50" --lower-to-cpu | %mlir_runner \
// RUN:   | %stencil_ref --result - --dtype f16 --grid 50 --steps 7 --pattern star:1:1 --weights 0.35,0.4,0.25

// Several time steps: an even count (the result comes back from the input
// buffer), odd counts, and one step's rounding feeding the next.

func.func @heat2d_4_steps(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1>
      weights [0.17, 0.23, 0.29, 0.12, 0.19] steps 4 : memref<?x?xf32>
  return
}

func.func @box2d_3_steps(%in: memref<?x?xbf16>, %out: memref<?x?xbf16>) {
  stencil.linear %in -> %out pattern <box, rank = 2, radius = 1>
      weights [0.06, 0.14, 0.09, 0.12, 0.2, 0.08, 0.13, 0.1, 0.08] steps 3 : memref<?x?xbf16>
  return
}

func.func @heat1d_7_steps(%in: memref<?xf16>, %out: memref<?xf16>) {
  stencil.linear %in -> %out pattern <star, rank = 1, radius = 1>
      weights [0.35, 0.4, 0.25] steps 7 : memref<?xf16>
  return
}
