// RUN: stencil-opt %s --stencil-flatten --stencil-sptc-match -o %t.dense.mlir
// RUN: stencil-opt %t.dense.mlir | stencil-opt | diff %t.dense.mlir -
// RUN: stencil-opt %t.dense.mlir --mlir-print-op-generic | stencil-opt | diff %t.dense.mlir -
// RUN: stencil-opt %t.dense.mlir --stencil-encode-2to4 -o %t.sparse.mlir
// RUN: stencil-opt %t.sparse.mlir | stencil-opt | diff %t.sparse.mlir -
// RUN: stencil-opt %t.sparse.mlir --mlir-print-op-generic | stencil-opt | diff %t.sparse.mlir -
// RUN: FileCheck %s --input-file=%t.sparse.mlir

// The gathered forms (SparStencil) of stencil.row_gemm and
// stencil.sparse_row_gemm survive a print/parse round trip, custom and
// generic, with nothing lost (diff).
// CHECK: stencil.sparse_row_gemm %{{.*}} radius 2 rows_per_block 16 row_offsets [] layout [{{[0-9]+}}, {{[0-9]+}}] gather_offsets
func.func @star3d(%in: memref<?x?x?xf16>, %out: memref<?x?x?xf16>) {
  stencil.linear %in -> %out pattern <star, rank = 3, radius = 2> weights [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.2, 1.3] steps 3 : memref<?x?x?xf16>
  return
}
