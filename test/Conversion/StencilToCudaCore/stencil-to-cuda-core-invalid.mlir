// RUN: stencil-opt %s --split-input-file --convert-stencil-to-cuda-core -verify-diagnostics
// RUN: not stencil-opt %s --split-input-file --convert-stencil-to-cuda-core="threads-x=64 threads-y=32" 2>&1 | FileCheck %s --check-prefix=THREADS

// What the CUDA-core kernel cannot take gets a located error.

// THREADS: stencil-to-cuda-core-invalid.mlir:{{[0-9]+}}:3: error: 'stencil.linear' op needs threads-x, threads-y and outputs-per-thread >= 1 and at most 1024 threads per block

func.func @periodic(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  // expected-error @+1 {{'stencil.linear' op has boundary 'periodic', but the CUDA-core kernel supports only the 'halo' boundary (use --lower-to-cpu for the others)}}
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1>
      weights [1., 2., 3., 4., 5.] boundary periodic : memref<?x?xf32>
  return
}

// -----

func.func @dirichlet(%in: memref<?xf64>, %out: memref<?xf64>) {
  // expected-error @+1 {{'stencil.apply' op has boundary 'dirichlet', but the CUDA-core kernel supports only the 'halo' boundary (use --lower-to-cpu for the others)}}
  stencil.apply %in -> %out boundary dirichlet(0.5) : memref<?xf64> {
    %a = stencil.access [1] : f64
    stencil.yield %a : f64
  }
  return
}

// -----

// 5 x (8 x 4 + 24) x 32 f64 (z, y, x): the halo of radius 12 along y.
func.func @too_large(%in: memref<?x?x?xf64>, %out: memref<?x?x?xf64>) {
  // expected-error @+1 {{'stencil.linear' op needs 71680 bytes of shared memory for its tile, more than 49152: use fewer threads or outputs-per-thread}}
  stencil.linear %in -> %out pattern <[[-2, 0, 0], [2, 0, 0], [0, 12, 0]]>
      weights [1., 2., 3.] : memref<?x?x?xf64>
  return
}
