// RUN: stencil-opt %s --split-input-file --stencil-sptc-pack | FileCheck %s

// The dense form: one kernel row, L = 2, so eight 2 x 4 matrices stacked on
// the diagonal of the 16 x 32 operand, the A of two m16n8k16 MMAs; 8 words
// per lane (Support/SpTCPacking.h, TCCoefficientLayout), f16 pairs.
// Lane 0 (g = 0, t = 0), first MMA (K = 0..15): a0,a1 = A[0][0..1] =
// block 0 row 0 columns 0, 1 = (1.0, 0.5) -> 0x38003C00 = 939539456; a2,a3
// = A[8][0..1], a4,a5 = A[0][8..9], a6,a7 = A[8][8..9] are off the
// diagonal -> 0. Second MMA (K = 16..31): a2,a3 = A[8][16..17] = block 4
// row 0 columns 0, 1 -> 939539456, the rest 0. Lane 1 (t = 1) starts with
// A[0][2..3] = 0.
// CHECK: packed [939539456, 0, 0, 0, 0, 939539456, 0, 0, 0,
func.func @dense(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.row_gemm %in -> %out radius 0 rows_per_block 2 row_offsets [0]
      input_offsets [0, 1, 2, 3]
      kernels dense<[[[1.0, 0.5, 0.0, 0.0], [0.0, 2.0, 0.0, 0.0]]]> : tensor<1x2x4xf64>
      : memref<?x?xf16>
  return
}

// -----

// A bf16 grid: the same layout with bf16 bit patterns, (1.0, 0.5) ->
// 0x3F003F80 = 1056980864.
// CHECK-LABEL: func.func @dense_bf16
// CHECK: packed [1056980864, 0, 0, 0, 0, 1056980864, 0, 0, 0,
func.func @dense_bf16(%in: memref<?x?xbf16>, %out: memref<?x?xbf16>) {
  stencil.row_gemm %in -> %out radius 0 rows_per_block 2 row_offsets [0]
      input_offsets [0, 1, 2, 3]
      kernels dense<[[[1.0, 0.5, 0.0, 0.0], [0.0, 2.0, 0.0, 0.0]]]> : tensor<1x2x4xf64>
      : memref<?x?xbf16>
  return
}
