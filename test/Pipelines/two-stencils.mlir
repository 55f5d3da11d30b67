// RUN: stencil-opt %s --lower-to-cuda-core | FileCheck %s --check-prefix=CUDA
// RUN: stencil-opt %s --lower-to-fft | FileCheck %s --check-prefix=FFT
// RUN: stencil-opt %s --lower-to-tc | FileCheck %s --check-prefix=TC
// RUN: sed 's/f64/f16/g' %s | stencil-opt --lower-to-sptc | FileCheck %s --check-prefix=SPTC

// Two stencils in one function (the second reads what the first wrote):
// each gets a kernel, globals and a launch record of its own,
// `<function>_<pipeline>` and `<function>_<pipeline>_1`, in every pipeline.

// RUN: stencil-opt %s --lower-to-cuda-core -o %t.cuda.mlir
// RUN: not stencil-translate --to-launch %t.cuda.mlir 2>&1 | FileCheck %s --check-prefix=SEVERAL
// RUN: not stencil-translate --to-launch --kernel=nope %t.cuda.mlir 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: stencil-translate --to-launch --kernel=two_cuda_core_1 %t.cuda.mlir | FileCheck %s --check-prefix=SECOND

// CUDA: kernel = "two_cuda_core"
// CUDA: kernel = "two_cuda_core_1"
// CUDA: gpu.launch_func {{.*}} @stencil_cuda_core::@two_cuda_core blocks
// CUDA: gpu.launch_func {{.*}} @stencil_cuda_core::@two_cuda_core_1 blocks
// CUDA: .entry two_cuda_core(
// CUDA: .entry two_cuda_core_1(

// FFT: kernel = "two_fft"
// FFT: kernel = "two_fft_1"
// FFT: .entry two_fft(
// FFT: .entry two_fft_1(

// TC: kernel = "two_tc"
// TC: kernel = "two_tc_1"
// TC: .entry two_tc(
// TC: .entry two_tc_1(

// SPTC: kernel = "two_sptc"
// SPTC: kernel = "two_sptc_1"
// SPTC: .entry two_sptc(
// SPTC: .entry two_sptc_1(

// SEVERAL: error: the module has 2 kernels; choose one with --kernel: two_cuda_core, two_cuda_core_1
// SEVERAL-NOT: module
// NONE: error: no kernel named 'nope'; the module has: two_cuda_core, two_cuda_core_1
// SECOND: kernel = two_cuda_core_1
// SECOND: offsets = -1,0;0,-1;0,0;0,1;1,0
// SECOND: weights = 0.10000000000000001,0.20000000000000001,0.40000000000000002,0.20000000000000001,0.10000000000000001

func.func @two(%in: memref<?x?xf64>, %mid: memref<?x?xf64>, %out: memref<?x?xf64>) {
  stencil.linear %in -> %mid pattern <star, rank = 2, radius = 1>
      weights [0.21, 0.31, 0.09, 0.09, 0.29] : memref<?x?xf64>
  stencil.linear %mid -> %out pattern <star, rank = 2, radius = 1>
      weights [0.1, 0.2, 0.4, 0.2, 0.1] : memref<?x?xf64>
  return
}
