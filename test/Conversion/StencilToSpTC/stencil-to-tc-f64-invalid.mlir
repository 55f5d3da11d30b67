// RUN: not stencil-opt %s --stencil-sptc-tile --stencil-sptc-pack --convert-stencil-to-sptc="f64-shape=m8n8k8" 2>&1 | FileCheck %s

// An unknown shape is refused where the option is parsed.
// CHECK: for the --f64-shape option: Cannot find option named 'm8n8k8'!

func.func @bad_shape(%in: memref<?x?xf64>, %out: memref<?x?xf64>) {
  stencil.row_gemm %in -> %out radius 0 rows_per_block 2 column_shift 1 row_offsets [0]
      input_offsets [0, 1, 2, 3]
      kernels dense<[[[1., 0., 0., 0.], [0., 1., 0., 0.]]]> : tensor<1x2x4xf64> : memref<?x?xf64>
  return
}
