// RUN: stencil-opt %s --stencil-attach-cpu-harness="func=heat3d_f64 grid=10,9,8" --lower-to-cpu | %mlir_runner \
// RUN:   | %stencil_ref --result - --dtype f64 --grid 10,9,8 --pattern star:3:1 --weights 0.09,0.14,0.12,0.31,0.08,0.15,0.11
// RUN: stencil-opt %s --stencil-attach-cpu-harness="func=box3d27p_f16 grid=8,7,9" --lower-to-cpu | %mlir_runner \
// RUN:   | %stencil_ref --result - --dtype f16 --grid 8,7,9 --pattern box:3:1 \
// RUN:     --weights 0.01,0.04,0.02,0.05,0.03,0.06,0.02,0.01,0.04,0.03,0.05,0.02,0.06,0.1,0.04,0.01,0.03,0.05,0.02,0.06,0.01,0.04,0.03,0.05,0.02,0.06,0.03

// Heat-3D (Star-3D7P) in f64 and Box-3D27P in f16, halo boundary.

func.func @heat3d_f64(%in: memref<?x?x?xf64>, %out: memref<?x?x?xf64>) {
  stencil.linear %in -> %out pattern <star, rank = 3, radius = 1>
      weights [0.09, 0.14, 0.12, 0.31, 0.08, 0.15, 0.11] : memref<?x?x?xf64>
  return
}

func.func @box3d27p_f16(%in: memref<?x?x?xf16>, %out: memref<?x?x?xf16>) {
  stencil.linear %in -> %out pattern <box, rank = 3, radius = 1>
      weights [0.01, 0.04, 0.02, 0.05, 0.03, 0.06, 0.02, 0.01, 0.04,
               0.03, 0.05, 0.02, 0.06, 0.1, 0.04, 0.01, 0.03, 0.05,
               0.02, 0.06, 0.01, 0.04, 0.03, 0.05, 0.02, 0.06, 0.03]
      : memref<?x?x?xf16>
  return
}
