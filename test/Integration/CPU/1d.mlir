// RUN: stencil-opt %s --stencil-attach-cpu-harness="func=star1d5p_f32 grid=40" --lower-to-cpu | %mlir_runner \
// RUN:   | %stencil_ref --result - --dtype f32 --grid 40 --pattern star:1:2 --weights 0.11,-0.27,0.53,0.31,0.19
// RUN: stencil-opt %s --stencil-attach-cpu-harness="func=star1d7p_f64 grid=33" --lower-to-cpu | %mlir_runner \
// RUN:   | %stencil_ref --result - --dtype f64 --grid 33 --pattern star:1:3 --weights 0.05,0.12,-0.2,0.41,0.17,0.33,0.09
// RUN: stencil-opt %s --stencil-attach-cpu-harness="func=heat1d_f16" --lower-to-cpu | %mlir_runner \
// RUN:   | %stencil_ref --result - --dtype f16 --grid 29 --pattern star:1:1 --weights 0.3,0.45,0.25

// 1-D stars of radius 1, 2, 3 in f16, f32 and f64 (halo boundary).

func.func @star1d5p_f32(%in: memref<?xf32>, %out: memref<?xf32>) {
  stencil.linear %in -> %out pattern <star, rank = 1, radius = 2>
      weights [0.11, -0.27, 0.53, 0.31, 0.19] : memref<?xf32>
  return
}

func.func @star1d7p_f64(%in: memref<?xf64>, %out: memref<?xf64>) {
  stencil.linear %in -> %out pattern <star, rank = 1, radius = 3>
      weights [0.05, 0.12, -0.2, 0.41, 0.17, 0.33, 0.09] : memref<?xf64>
  return
}

func.func @heat1d_f16(%in: memref<29xf16>, %out: memref<29xf16>) {
  stencil.linear %in -> %out pattern <star, rank = 1, radius = 1>
      weights [0.3, 0.45, 0.25] : memref<29xf16>
  return
}
