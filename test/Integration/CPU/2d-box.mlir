// RUN: stencil-opt %s --stencil-attach-cpu-harness="func=box2d9p_f16 grid=24,20" --lower-to-cpu | %mlir_runner \
// RUN:   | %stencil_ref --result - --dtype f16 --grid 24,20 --pattern box:2:1 --weights 0.02,0.13,0.07,0.21,0.18,0.05,0.11,0.16,0.07
// RUN: stencil-opt %s --stencil-attach-cpu-harness="func=box2d25p_bf16 grid=17,23" --lower-to-cpu | %mlir_runner \
// RUN:   | %stencil_ref --result - --dtype bf16 --grid 17,23 --pattern box:2:2 \
// RUN:     --weights 0.01,0.03,0.05,0.02,0.04,0.06,0.02,0.07,0.03,0.01,0.05,0.04,0.09,0.02,0.06,0.03,0.01,0.08,0.04,0.02,0.05,0.03,0.07,0.02,0.04

// 2-D boxes: Box-2D9P in f16, Box-2D25P in bf16 (halo boundary).

func.func @box2d9p_f16(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.linear %in -> %out pattern <box, rank = 2, radius = 1>
      weights [0.02, 0.13, 0.07, 0.21, 0.18, 0.05, 0.11, 0.16, 0.07] : memref<?x?xf16>
  return
}

func.func @box2d25p_bf16(%in: memref<17x23xbf16>, %out: memref<17x23xbf16>) {
  stencil.linear %in -> %out pattern <box, rank = 2, radius = 2>
      weights [0.01, 0.03, 0.05, 0.02, 0.04, 0.06, 0.02, 0.07, 0.03, 0.01,
               0.05, 0.04, 0.09, 0.02, 0.06, 0.03, 0.01, 0.08, 0.04, 0.02,
               0.05, 0.03, 0.07, 0.02, 0.04] : memref<17x23xbf16>
  return
}
