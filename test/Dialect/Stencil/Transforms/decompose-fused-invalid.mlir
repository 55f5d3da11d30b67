// RUN: stencil-opt %s --split-input-file --stencil-decompose="fused-steps=3" -verify-diagnostics
// RUN: not stencil-opt %s --split-input-file --stencil-decompose="fused-steps=65" 2>&1 | FileCheck %s --check-prefix=RANGE

// RANGE: error: 'stencil.linear' op needs 1 <= fused-steps <= 64, got 65

// Box-2D49P (radius 3) composed three times reaches radius 9 along x:
// too wide for the 16-row MMA tile, and the error says why.
func.func @too_wide(%in: memref<?x?xf64>, %out: memref<?x?xf64>) {
  // expected-error @+1 {{'stencil.linear' op innermost radius 9 (after composing 3 fused steps of a stencil of innermost radius 3) needs kernel matrices of at least 20 rows, more than the 16 rows of the row form's kernel matrix}}
  stencil.linear %in -> %out pattern <box, rank = 2, radius = 3>
      weights [1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1.,
               1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1.,
               1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1.,
               1.] : memref<?x?xf64>
  return
}

// -----

// A 3-D box of radius 1 with a far outlier along z: three steps give a dense
// box beyond the matrix form's 2^14 weights.
func.func @too_many(%in: memref<?x?x?xf16>, %out: memref<?x?x?xf16>) {
  // expected-error @+1 {{'stencil.linear' op radius 15 (after composing 3 fused steps of a stencil of innermost radius 1) needs a dense box of (2r + 1)^3 weights for the matrix form, more than 16384}}
  stencil.linear %in -> %out pattern <[[-5, 0, 0], [0, 0, -1], [0, 0, 1]]>
      weights [1., 2., 3.] : memref<?x?x?xf16>
  return
}

// -----

func.func @low_rank(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  // expected-error @+1 {{'stencil.low_rank' op is a low-rank chain of one step, which takes no fused steps (fused-steps=3); decompose the stencil.linear with fused-steps and low-rank=true, which factors the composed weights}}
  stencil.low_rank %in -> %out radius 1 u dense<[[1.0, 2.0, 1.0]]> : tensor<1x3xf64>
      v dense<[[1.0, 0.5, 1.0]]> : tensor<1x3xf64> : memref<?x?xf16>
  return
}
