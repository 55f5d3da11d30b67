// RUN: stencil-opt %s --stencil-sptc-pack | FileCheck %s

// One kernel row, L = 2, so eight 2 x 4 matrices stacked on the diagonal of
// the 16 x 32 operand: 32 lanes x 4 value words, then 32 metadata words.
// Lane 0 (g = 0, t = 0): a0,a1 = row 0, group 0 = block 0 row 0 = (1.0, 0.0)
// -> 0x00003C00 = 15360; a2,a3 = row 8, group 0 (off the diagonal) -> 0;
// a4,a5 = row 0, group 4 (off) -> 0; a6,a7 = row 8, group 4 = block 4 row 0
// -> 15360. Lane 4 (g = 1) holds block 0 row 1 = (2.0, 0.0) -> 16384.
// CHECK: packed [15360, 0, 0, 15360,
// CHECK-SAME: 16384, 0, 0, 16384,
// Metadata, selector 0 (row 0 is even), lanes 4g and 4g + 1; nibble j of a
// half-word is group j, low 2 bits the first index. Lane 0: row 0 groups
// 0..3 = (0,2) then three empty (0,1) -> 0x4448, row 8 groups 0..3 all empty
// -> 0x4444: 0x44444448 = 1145324616. Lane 1: groups 4..7, row 0 empty,
// row 8 group 4 = (0,2): 0x44484444 = 1145586756. Lanes 2 and 3 (selector
// 1) are unused: 0. Lane 4: row 1 group 0 = (1,2) -> 0x44444449.
// CHECK-SAME: 1145324616, 1145586756, 0, 0, 1145324617,
func.func @pack(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.sparse_row_gemm %in -> %out radius 0 rows_per_block 2 row_offsets [0]
      input_offsets [0, 1, 2, 3]
      values dense<[[[1.0, 0.0], [2.0, 0.0]]]> : tensor<1x2x2xf16>
      indices dense<[[[0, 2], [1, 2]]]> : tensor<1x2x2xi8> : memref<?x?xf16>
  return
}
