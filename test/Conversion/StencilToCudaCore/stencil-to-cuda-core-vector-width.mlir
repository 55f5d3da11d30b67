// RUN: stencil-opt %s --convert-stencil-to-cuda-core="threads-x=4 threads-y=2 outputs-per-thread=2 planes=5 stream=on plane-sums=true vector-width=4" | FileCheck %s
// RUN: stencil-opt %s --convert-stencil-to-cuda-core="threads-x=4 threads-y=2 outputs-per-thread=2 planes=5 stream=on plane-sums=true vector-width=4 prefetch-planes=false" | FileCheck %s --check-prefix=NOPF

// Vector columns (CudaCorePlaneSums.cpp): with vector-width=4 each of the
// 4 x 2 threads owns 4 adjacent columns, so the tile is 16 wide, and the
// halo along x is r_x = 1 rounded up to 4: two planes of 6 x 24 f16 (288
// elements). Each thread carries 2 outputs x 4 columns x 3 partial sums
// (24 f32) and, prefetching, the 144 / 4 / 8 -> 5 staging vectors of the
// next plane. The sweep is built three times: blocks whose tile and halo
// lie in the grid of rows a multiple of 4 (vectors, no checks along y and
// x), the other blocks of such grids (vectors, checked), and grids whose
// rows are not a multiple of 4 (element by element, no prefetch). A vector
// sweep stores the staged vectors to shared memory, waits at the barrier,
// reads its rows as aligned vectors and stores an output row of 4 as one
// vector where all 4 are written. The edge blocks of the second sweep
// check y and x once, before it: each staging vector's index in a plane
// (clamped into the grid: the halo boundary never stores what the vectors
// outside feed) and which output rows are stored; their stores are whole
// vectors, the halo's kept columns (lanes 0 and 3 of a vector at the grid's
// x edges) taking their input values, which 2 outputs x 2 lanes x 3 ring
// slots of extra sums carry from the plane's iteration to its store. The
// launch record names the width (the cost model offers it only for grids
// whose rows are a multiple of it).
// CHECK:       schedule = "plane-sums"
// CHECK-SAME:  tile = array<i64: 16, 4, 5>
// CHECK-SAME:  vector_width = 4 : i64
// CHECK:       gpu.func @heat_cuda_core(
// CHECK-SAME:    workgroup(%{{.*}} : memref<288xf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK:         arith.remui %{{.*}}, %c4
// CHECK:         vector.load %arg0[%{{.*}}] {alignment = 8 : i64} : memref<?xf16>, vector<4xf16>
// CHECK:         scf.for {{.*}} -> ([[SUMS:(f32, ){23}f32]], vector<4xf16>, vector<4xf16>, vector<4xf16>, vector<4xf16>, vector<4xf16>) {
// CHECK:           vector.load %arg0[%{{.*}}] {alignment = 8 : i64} : memref<?xf16>, vector<4xf16>
// CHECK:           vector.store %{{.*}}, %arg6[%{{.*}}] {alignment = 8 : i64} : memref<288xf16, #gpu.address_space<workgroup>>, vector<4xf16>
// CHECK:           gpu.barrier
// CHECK:           vector.load %arg6[%{{.*}}] {alignment = 8 : i64} : memref<288xf16, #gpu.address_space<workgroup>>, vector<4xf16>
// CHECK:           llvm.intr.fma
// CHECK:           vector.store %{{.*}}, %arg1[%{{.*}}] {alignment = 8 : i64} : memref<?xf16>, vector<4xf16>
// CHECK:       } else {
// CHECK:         arith.maxsi
// CHECK:         scf.for {{.*}} -> ([[SUMS]], {{(f32, ){11}f32}}, vector<4xf16>, vector<4xf16>, vector<4xf16>, vector<4xf16>, vector<4xf16>) {
// CHECK-NOT:       arith.divui
// CHECK:           gpu.barrier
// CHECK-NOT:       memref.store %{{.*}}, %arg1
// CHECK:           arith.select %{{.*}} : f16
// CHECK-NOT:       memref.store %{{.*}}, %arg1
// CHECK:           vector.store %{{.*}}, %arg1[%{{.*}}] {alignment = 8 : i64} : memref<?xf16>, vector<4xf16>
// CHECK-NOT:       memref.store %{{.*}}, %arg1
// CHECK:       } else {
// CHECK:         scf.for {{.*}} -> ([[SUMS]]) {
// CHECK:           memref.load %arg0
// CHECK:           memref.store %{{.*}}, %arg6
// CHECK:           gpu.barrier
// CHECK:           vector.load %arg6[%{{.*}}] {alignment = 8 : i64}
// CHECK-NOT:       vector.store %{{.*}}, %arg1
// CHECK:           memref.store %{{.*}}, %arg1
// CHECK:       gpu.return

// Without the prefetch every sweep carries only the sums (the edge blocks'
// with the kept lanes').
// NOPF:          scf.for {{.*}} -> ({{(f32, ){23}f32}}) {
// NOPF:          scf.for {{.*}} -> ({{(f32, ){35}f32}}) {
// NOPF:          scf.for {{.*}} -> ({{(f32, ){23}f32}}) {
func.func @heat(%in: memref<?x?x?xf16>, %out: memref<?x?x?xf16>) {
  stencil.linear %in -> %out pattern <star, rank = 3, radius = 1>
      weights [0.1, 0.1, 0.1, 0.4, 0.1, 0.1, 0.1] : memref<?x?x?xf16>
  return
}
