// RUN: stencil-opt %s --convert-stencil-to-cuda-core="stream=on outputs-per-thread=2 row-phases=1" -verify-diagnostics
// RUN: not stencil-opt %s --convert-stencil-to-cuda-core="stream=on row-phases=-1" 2>&1 | FileCheck %s --check-prefix=NEGATIVE

// NEGATIVE: error: 'stencil.linear' op needs row-phases >= 0, not -1

// The row groups sweep one column per thread.

func.func @box(%in: memref<?x?xf64>, %out: memref<?x?xf64>) {
  // expected-error @+1 {{'stencil.linear' op row-phases sweeps one column per thread, not outputs-per-thread=2}}
  stencil.linear %in -> %out pattern <box, rank = 2, radius = 1>
      weights [0.1, 0.1, 0.1, 0.1, 0.2, 0.1, 0.1, 0.1, 0.1] : memref<?x?xf64>
  return
}
