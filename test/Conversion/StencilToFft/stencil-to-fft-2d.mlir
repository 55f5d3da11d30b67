// RUN: stencil-opt %s --stencil-fft-spectrum --convert-stencil-to-fft=f64-shape=m16n8k4 | FileCheck %s

// Heat-2D on 56 x 56 tiles (an 8 x 8 x 8 x 8 complex array, 64 KiB): the
// kernel asks for registers that let 3 blocks share an SM (their shared
// memory allows 3), its stages have 512 fibers and run on m16n8k4, and the
// shared accesses are 16-byte pairs.

// CHECK: shared_bytes = 65536
// CHECK: gpu.func @heat2d_fft({{.*}}) kernel attributes {known_block_size = array<i32: 256, 1, 1>, nvvm.minctasm = 3 : i32}
// CHECK:   vector.load %{{.*}} : memref<8192xf64, #gpu.address_space<workgroup>>, vector<2xf64>
// CHECK:   llvm.inline_asm asm_dialect = att "mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64
// CHECK:   nvvm.bar.warp.sync
// CHECK:   vector.store %{{.*}} : memref<8192xf64, #gpu.address_space<workgroup>>, vector<2xf64>
func.func @heat2d(%in: memref<?x?xf64>, %out: memref<?x?xf64>) {
  stencil.fft_apply %in -> %out pattern <star, rank = 2, radius = 1> weights [0.1, 0.2, 0.4, 0.2, 0.1] steps 8 fused_steps 8 factors [array<i64: 8, 7>, array<i64: 8, 7>] : memref<?x?xf64>
  return
}
