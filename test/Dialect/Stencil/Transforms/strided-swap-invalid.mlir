// RUN: stencil-opt %s --stencil-strided-swap -verify-diagnostics

// L = 4 is too small for radius 2 (L must be >= 2r + 2): the band of row 0
// spans 5 columns and the swap cannot make it 2:4. The pass says so instead
// of emitting wrong code.
func.func @too_narrow(%in: memref<?xf16>, %out: memref<?xf16>) {
  // expected-error @+1 {{'stencil.row_gemm' op kernel row #0 is not 2:4 sparse after the strided swap: row 0 group 0 (columns 0..3) has 3 non-zeros}}
  stencil.row_gemm %in -> %out radius 2 rows_per_block 4 row_offsets []
      kernels dense<[[[1., 2., 3., 4., 5., 0., 0., 0.],
                      [0., 1., 2., 3., 4., 5., 0., 0.],
                      [0., 0., 1., 2., 3., 4., 5., 0.],
                      [0., 0., 0., 1., 2., 3., 4., 5.]]]> : tensor<1x4x8xf64>
      : memref<?xf16>
  return
}
