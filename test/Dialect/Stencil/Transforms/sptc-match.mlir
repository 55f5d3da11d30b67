// RUN: stencil-opt %s --split-input-file --stencil-flatten="layouts=h" --stencil-sptc-match | FileCheck %s
// RUN: stencil-opt %s --split-input-file --stencil-flatten --stencil-sptc-match --stencil-encode-2to4 | FileCheck %s --check-prefix=ENCODED

// Star-2D13P, layout [16, 1]: the 60 units of the natural order (4 kernel
// matrices) are matched into 30 groups of two, 8 per mma.sp: 4 MMAs, every
// one 2:4 (checked by the pass). The two-level heuristic (Algorithm 1)
// pairs whole blocks of input rows s1 = 3 apart where they have as many
// units (dy = -2 with 1, -1 with 2) and the units of the other blocks
// inside them, u with u + s2: in row dy = -3 (8 units) dx 0 with dx 8.
// CHECK-LABEL: func.func @star13
// CHECK:         stencil.row_gemm %{{.*}} layout [16, 1] gather_offsets [0, -3, 0, 0, -3, 8, 0, -3, 2, 0, -3, 10,
// CHECK-SAME:      tensor<4x16x32xf64>
// CHECK-SAME:      stencil.matching = "two-level"
// The 4 x 4 layout needs Edmonds' matching (the heuristic pairs fewer), and
// encodes into 3 compressed MMAs.
// ENCODED-LABEL: func.func @star13
// ENCODED:         stencil.sparse_row_gemm %{{.*}} radius 3 rows_per_block 16 row_offsets [] layout [4, 4] gather_offsets
// ENCODED-SAME:      tensor<3x16x16xf16>
// ENCODED-SAME:      tensor<3x16x16xi8>
// ENCODED-SAME:      stencil.matching = "blossom"
func.func @star13(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 3> weights [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.2, 1.3] : memref<?x?xf16>
  return
}

// -----

// A 3-D star of radius 2 (13 points): 9 MMAs with the strided swap, 5 once
// flattened along x and matched.
// CHECK-LABEL: func.func @star3d13
// CHECK:         stencil.row_gemm %{{.*}} layout [16, 1]
// CHECK-SAME:      tensor<5x16x32xf64>
func.func @star3d13(%in: memref<?x?x?xf16>, %out: memref<?x?x?xf16>) {
  stencil.linear %in -> %out pattern <star, rank = 3, radius = 2> weights [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.2, 1.3] : memref<?x?x?xf16>
  return
}
