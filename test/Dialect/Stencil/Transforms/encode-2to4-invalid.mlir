// RUN: stencil-opt %s --stencil-encode-2to4 -verify-diagnostics

// Without the strided swap the band is not 2:4.
func.func @unswapped(%in: memref<?xf16>, %out: memref<?xf16>) {
  // expected-error @+1 {{'stencil.row_gemm' op kernel row #0 is not 2:4 sparse (row 0 group 0 (columns 0..3) has 3 non-zeros); run --stencil-strided-swap first}}
  stencil.row_gemm %in -> %out radius 1 rows_per_block 4 row_offsets []
      kernels dense<[[[1., 2., 3., 0., 0., 0., 0., 0.],
                      [0., 1., 2., 3., 0., 0., 0., 0.],
                      [0., 0., 1., 2., 3., 0., 0., 0.],
                      [0., 0., 0., 1., 2., 3., 0., 0.]]]> : tensor<1x4x8xf64>
      : memref<?xf16>
  return
}
