// RUN: not stencil-opt %s --stencil-sptc-tile="async-copy=sometimes" 2>&1 | FileCheck %s

// An unknown value is refused where the option is parsed.
// CHECK: for the --async-copy option: Cannot find option named 'sometimes'!

func.func @bad_option(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.sparse_row_gemm %in -> %out radius 0 rows_per_block 2 row_offsets [0]
      input_offsets [0, 1, 2, 3]
      values dense<0.0> : tensor<1x2x2xf16> indices dense<[[[0, 1], [0, 1]]]> : tensor<1x2x2xi8> : memref<?x?xf16>
  return
}
