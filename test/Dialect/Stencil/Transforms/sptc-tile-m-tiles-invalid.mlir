// RUN: stencil-opt %s --stencil-sptc-tile="m-tiles=2" -verify-diagnostics

// m-tiles is an option of the f64 kernel only: the f16 kernels compute one
// m16 tile per warp.
func.func @f16_form(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  // expected-error @+1 {{'stencil.sparse_row_gemm' op m-tiles applies to the f64 Tensor Core kernel only}}
  stencil.sparse_row_gemm %in -> %out radius 0 rows_per_block 2 row_offsets [0]
      input_offsets [0, 1, 2, 3]
      values dense<0.0> : tensor<1x2x2xf16> indices dense<[[[0, 1], [0, 1]]]> : tensor<1x2x2xi8> : memref<?x?xf16>
  return
}
