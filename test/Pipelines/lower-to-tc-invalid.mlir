// RUN: stencil-opt %s --split-input-file --lower-to-tc -verify-diagnostics

// What the dense Tensor Core pipeline cannot take yet gets a located error.

func.func @f32_grid(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  // expected-error @+1 {{'stencil.row_gemm' op has element type 'f32', but the Tensor Core kernels compute on f16 or bf16 (mma.sync m16n8k16) or f64 (mma.sync m8n8k4, m16n8k4 on sm_90) operands (use --lower-to-cuda-core or --lower-to-cpu for other element types)}}
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1> weights [1., 2., 3., 4., 5.] : memref<?x?xf32>
  return
}

// -----

func.func @non_linear(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  // expected-error @+1 {{'stencil.apply' op has a non-linear body, which cannot be decomposed into kernel-matrix products (Tensor Cores need constant weights); use --lower-to-cuda-core or --lower-to-cpu}}
  stencil.apply %in -> %out : memref<?x?xf16> {
    %a = stencil.access [0, 1] : f16
    %b = stencil.access [0, -1] : f16
    %c = arith.maximumf %a, %b : f16
    stencil.yield %c : f16
  }
  return
}

// -----

// An offset of 2^31 - 1 is rejected at once (no work proportional to it
// happens first; it used to hang the compiler).
func.func @huge_offset(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  // expected-error @+1 {{innermost radius 2147483647 needs kernel matrices of at least 4294967296 rows}}
  stencil.linear %in -> %out pattern <[[0, 0], [0, 2147483647]]> weights [0.5, 0.5] : memref<?x?xf16>
  return
}

// -----

// Weights the operand type cannot hold (f16's largest finite value is
// 65504): the kernel would compute with infinities.
func.func @weights_overflow_f16(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  // expected-error @+1 {{'stencil.row_gemm' op has a kernel value 7.000000e+04 that overflows the Tensor Core operand type 'f16'}}
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1> weights [0.1, 0.2, 70000.0, 0.2, 0.1] : memref<?x?xf16>
  return
}

// -----

func.func @weights_overflow_bf16(%in: memref<?x?xbf16>, %out: memref<?x?xbf16>) {
  // expected-error @+1 {{'stencil.row_gemm' op has a kernel value 1.000000e+300 that overflows the Tensor Core operand type 'bf16'}}
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1> weights [0.1, 0.2, 1.0e300, 0.2, 0.1] : memref<?x?xbf16>
  return
}
