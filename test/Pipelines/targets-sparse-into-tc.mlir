// A 2:4 sparse row form (what --stencil-encode-2to4 leaves) needs the sparse
// Tensor Cores' mma.sp, which only --lower-to-sptc issues: given to
// --lower-to-tc, it is an error at the op (it ended in "LLVM ERROR: Cannot
// select: intrinsic ...mma.sp..."), and --lower-to-sptc lowers it.

// RUN: stencil-opt %s --lower-to-tc -verify-diagnostics
// RUN: stencil-opt %s --lower-to-tc="chip=sm_100a" -verify-diagnostics
// RUN: stencil-opt %s --lower-to-sptc | FileCheck %s --check-prefix=SPTC
// SPTC: gpu.binary

// The encoded Heat-2D (examples/heat-2d.mlir after --stencil-linearize
// --stencil-decompose --stencil-strided-swap --stencil-encode-2to4).
func.func @heat2d(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  // expected-error @+1 {{'stencil.sparse_row_gemm' op is the 2:4 sparse row form, which needs the sparse Tensor Cores' mma.sp; --lower-to-tc does not issue it (use --lower-to-sptc)}}
  stencil.sparse_row_gemm %in -> %out radius 1 rows_per_block 4 column_shift 1 row_offsets [-1, 0, 1] column_permutation [0, 1, 4, 5, 2, 3, 6, 7] values dense<[[[0.000000e+00, 0.000000e+00, 2.128910e-01, 0.000000e+00], [0.000000e+00, 0.000000e+00, 2.128910e-01, 0.000000e+00], [2.128910e-01, 0.000000e+00, 0.000000e+00, 0.000000e+00], [0.000000e+00, 2.128910e-01, 0.000000e+00, 0.000000e+00]], [[3.144530e-01, 0.000000e+00, 9.338370e-02, 9.149160e-02], [9.149160e-02, 0.000000e+00, 3.144530e-01, 9.338370e-02], [9.338370e-02, 9.149160e-02, 3.144530e-01, 0.000000e+00], [3.144530e-01, 9.338370e-02, 9.149160e-02, 0.000000e+00]], [[0.000000e+00, 0.000000e+00, 2.878420e-01, 0.000000e+00], [0.000000e+00, 0.000000e+00, 2.878420e-01, 0.000000e+00], [2.878420e-01, 0.000000e+00, 0.000000e+00, 0.000000e+00], [0.000000e+00, 2.878420e-01, 0.000000e+00, 0.000000e+00]]]> : tensor<3x4x4xf16> indices dense<[[[0, 1, 0, 1], [0, 1, 1, 2], [2, 3, 0, 1], [2, 3, 0, 1]], [[1, 2, 0, 1], [2, 3, 0, 1], [2, 3, 1, 2], [2, 3, 2, 3]], [[0, 1, 0, 1], [0, 1, 1, 2], [2, 3, 0, 1], [2, 3, 0, 1]]]> : tensor<3x4x4xi8> {stencil.source = {pattern = #stencil.pattern<star, rank = 2, radius = 1>, weights = array<f64: 2.128710e-01, 3.144780e-01, 9.337600e-02, 0.091516319999999998, 0.28775869999999998>}} : memref<?x?xf16>
  return
}
