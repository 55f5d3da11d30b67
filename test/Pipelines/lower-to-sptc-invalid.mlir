// RUN: stencil-opt %s --split-input-file --lower-to-sptc -verify-diagnostics
// RUN: not stencil-opt %s --lower-to-sptc="layout=sideways" 2>&1 | FileCheck %s --check-prefix=LAYOUT

// LAYOUT: for the --layout option: Cannot find option named 'sideways'!

// Every stencil the Sparse Tensor Core pipeline cannot take gets a located
// error from the pass that finds out.

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

func.func @f64_grid(%in: memref<?x?xf64>, %out: memref<?x?xf64>) {
  // expected-error @+1 {{'stencil.sparse_row_gemm' op has element type 'f64', but the Sparse Tensor Core kernel computes on f16 operands (use --lower-to-cuda-core or --lower-to-cpu for other element types, --lower-to-tc for bf16 and f64)}}
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1> weights [1., 2., 3., 4., 5.] : memref<?x?xf64>
  return
}

// -----

// Innermost radii 8..15 take the gathered form (test/Pipelines/
// lower-to-sptc.mlir); above that, neither route can.
func.func @radius_too_large(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  // expected-error @+1 {{'stencil.linear' op innermost radius 16 needs kernel matrices of at least 34 rows, more than the 16 rows of the row form's kernel matrix (an m16n8k16 or m16n8k32 MMA tile; the f64 kernel takes the same row form): the radius along the innermost dimension must be at most 7}}
  stencil.linear %in -> %out pattern <[[0, -16], [0, 16]]> weights [1., 2.] : memref<?x?xf16>
  return
}

// -----

func.func @dirichlet(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  // expected-error @+1 {{'stencil.linear' op has a 'dirichlet' boundary; the matrix form supports only 'halo' (use --lower-to-cuda-core, --lower-to-fft or --lower-to-cpu for periodic and dirichlet boundaries)}}
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1> weights [1., 2., 3., 4., 5.] boundary dirichlet(0.0) : memref<?x?xf16>
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

// A large outer radius: the matrix form's dense weight box is counted before
// it is built (it used to abort in SmallVector growth).
func.func @huge_outer_offset(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  // expected-error @+1 {{radius 2147483647 needs a dense box of (2r + 1)^2 weights for the matrix form, more than 16384 (use --lower-to-cuda-core or --lower-to-cpu)}}
  stencil.linear %in -> %out pattern <[[0, 0], [2147483647, 0]]> weights [0.5, 0.5] : memref<?x?xf16>
  return
}

// -----

// A weight f16 cannot hold (its largest finite value is 65504): the sparse
// kernel would compute with infinities.
func.func @weights_overflow(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  // expected-error @+1 {{has a value 7.000000e+04 that overflows f16, the sparse Tensor Cores' operand type}}
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1> weights [0.1, 0.2, 70000.0, 0.2, 0.1] : memref<?x?xf16>
  return
}
