// RUN: stencil-opt %s --split-input-file --stencil-decompose -verify-diagnostics

func.func @radius8(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  // expected-error @+1 {{'stencil.linear' op innermost radius 8 needs kernel matrices of at least 18 rows, more than the 16 rows of the row form's kernel matrix (an m16n8k16 or m16n8k32 MMA tile; the f64 kernel takes the same row form): the radius along the innermost dimension must be at most 7}}
  stencil.linear %in -> %out pattern <[[0, -8], [0, 0]]> weights [1., 2.] : memref<?x?xf16>
  return
}

// -----

func.func @periodic(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  // expected-error @+1 {{'stencil.linear' op has a 'periodic' boundary; the matrix form supports only 'halo' (use --lower-to-cuda-core, --lower-to-fft or --lower-to-cpu for periodic and dirichlet boundaries)}}
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1> weights [1., 2., 3., 4., 5.] boundary periodic : memref<?x?xf16>
  return
}

// -----

func.func @non_linear(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  // expected-error @+1 {{'stencil.apply' op has a non-linear body, which cannot be decomposed into kernel-matrix products (Tensor Cores need constant weights); use --lower-to-cuda-core or --lower-to-cpu}}
  stencil.apply %in -> %out : memref<?x?xf16> {
    %a = stencil.access [0, 1] : f16
    %b = stencil.access [0, -1] : f16
    %c = arith.mulf %a, %b : f16
    stencil.yield %c : f16
  }
  return
}
