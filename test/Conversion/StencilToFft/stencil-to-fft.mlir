// RUN: stencil-opt %s --stencil-fft-spectrum --convert-stencil-to-fft | FileCheck %s
// RUN: stencil-opt %s --stencil-fft-spectrum --convert-stencil-to-fft=f64-shape=m16n8k4 | FileCheck %s --check-prefix=M16

// Heat-1D on a tile of 56 = 8 x 7 points, T = 2 fused steps of 3: the T-step
// kernel launched once, then the kernel of the last step (its own spectrum,
// the same tiles). Checks the host side (dynamic shared memory of the 8 x 8
// complex array, the launch record with the transforms' error bound and the
// edge blocks' flops) and the kernel's shape: dynamic shared memory, the
// tile-index guard, the edge test choosing the direct path, and the DFT
// stages' MMAs.

// CHECK: module attributes {gpu.container_module, stencil.launches = [{
// CHECK-SAME: block = array<i64: 256, 1, 1>
// CHECK-SAME: boundary = "halo"
// The edge blocks' direct steps: 2 K N / V = 2 * 3 * 56 / 52 flops per output.
// CHECK-SAME: edge_flops_per_point = 6.46153846{{[0-9]*}} : f64, edge_unit = "fma.f64"
// CHECK-SAME: fft_error_bound = {{[0-9.]+}}E-13
// CHECK-SAME: kernel = "heat1d_fft"
// CHECK-SAME: shared_bytes = 1024
// CHECK-SAME: steps = 3
// CHECK-SAME: steps_per_launch = 2
// CHECK-SAME: tile = array<i64: 104>
// CHECK-SAME: unit = "mma.f64"

// CHECK-LABEL: func.func @heat1d
// CHECK: scf.for
// CHECK:   gpu.launch_func @stencil_fft::@heat1d_fft {{.*}} dynamic_shared_memory_size %{{.*}}
// CHECK: gpu.launch_func @stencil_fft::@heat1d_fft_tail {{.*}} dynamic_shared_memory_size

// CHECK: gpu.module @stencil_fft
// CHECK: gpu.func @heat1d_fft(%{{.*}}: memref<?xf64>, %{{.*}}: memref<?xf64>, %{{.*}}: memref<?xi32>, %{{.*}}: index) kernel
// CHECK:   gpu.dynamic_shared_memory
// CHECK:   memref.view {{.*}} to memref<128xf64, #gpu.address_space<workgroup>>
// CHECK:   scf.if
// CHECK:     scf.if
// The direct path: T steps between two buffers.
// CHECK:       scf.for
// CHECK:       gpu.barrier
// CHECK:     } else {
// The FFT path: MMAs, the warp synchronised before the stores.
// CHECK:       nvvm.mma.sync {{.*}} shape = #nvvm.shape<m = 8, n = 8, k = 4>
// CHECK:       nvvm.bar.warp.sync
// CHECK: gpu.func @heat1d_fft_tail

// 1-D stages have 8 fibers: m8n8k4 even when m16n8k4 is asked for.
// M16: gpu.func @heat1d_fft(
// M16-NOT: llvm.inline_asm
// M16: gpu.func @heat1d_fft_tail
func.func @heat1d(%in: memref<?xf64>, %out: memref<?xf64>) {
  stencil.fft_apply %in -> %out pattern <star, rank = 1, radius = 1> weights [0.25, 0.5, 0.25] steps 3 fused_steps 2 factors [array<i64: 8, 7>] : memref<?xf64>
  return
}
