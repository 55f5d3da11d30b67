// RUN: stencil-opt %s --split-input-file --stencil-flatten="route=matching" -verify-diagnostics
// RUN: not stencil-opt %s --split-input-file --stencil-flatten="route=matching" --stencil-encode-2to4 2>&1 | FileCheck %s --check-prefix=UNMATCHED
// RUN: not stencil-opt %s --stencil-flatten="route=sideways" 2>&1 | FileCheck %s --check-prefix=ROUTE

// ROUTE: for the --route option: Cannot find option named 'sideways'!

// route=matching on a boundary the matrix form cannot take.
func.func @periodic(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  // expected-error @+1 {{'stencil.linear' op has a 'periodic' boundary; the matrix form supports only 'halo'}}
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1> weights [0.1, 0.2, 0.3, 0.4, 0.5] boundary periodic : memref<?x?xf16>
  return
}

// -----

// Encoding a gathered form before --stencil-sptc-match: its natural order is
// not 2:4, a located error naming the pass to run.
// UNMATCHED: error: 'stencil.row_gemm' op kernel row #0 is not 2:4 sparse ({{.*}}); run --stencil-sptc-match first
func.func @unmatched(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.linear %in -> %out pattern <box, rank = 2, radius = 1> weights [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9] : memref<?x?xf16>
  return
}

// -----

// route=matching on a radius the gathered kernel's tile cannot hold.
func.func @too_wide(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  // expected-error @+1 {{'stencil.linear' op has radius 16; the gathered form (SparStencil) takes radii up to 15}}
  stencil.linear %in -> %out pattern <[[0, -16], [0, 0], [0, 16]]> weights [0.25, 0.5, 0.25] : memref<?x?xf16>
  return
}
