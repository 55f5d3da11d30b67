// --lower-to-auto and its two passes: the model's choice on the built-in H100
// profile and on a profile file, the explain table, and the whole lowering.

// RUN: stencil-opt %s -split-input-file --stencil-select-pipeline="device-profile=h100" | FileCheck %s --check-prefix=H100
// RUN: stencil-opt %s -split-input-file --stencil-select-pipeline="device-profile=%S/Inputs/slow-dmma.profile" | FileCheck %s --check-prefix=SLOWDMMA
// RUN: stencil-opt %s -split-input-file --stencil-select-pipeline="device-profile=h100 fused-steps=1" | FileCheck %s --check-prefix=ONE
// RUN: stencil-opt %s -split-input-file --stencil-select-pipeline="device-profile=h100 explain=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=EXPLAIN
// RUN: stencil-opt %s -split-input-file --lower-to-auto | FileCheck %s --check-prefix=LOWER

// Heat-2D in f16, one step: the sparse Tensor Cores (the bandwidth binds
// every candidate; SpTC's measured share of it is the largest).
// H100: module attributes {stencil.pipeline = "lower-to-sptc{chip=sm_90}"}
// SLOWDMMA: module attributes {stencil.pipeline = "lower-to-sptc{chip=sm_90}"}
// ONE: module attributes {stencil.pipeline = "lower-to-sptc{chip=sm_90}"}
// EXPLAIN: remark: candidates on NVIDIA H100 80GB HBM3 (bandwidth 3016 GB/s), GStencil/s, per point and step, best first:
// EXPLAIN-NEXT: # pipeline unit flops bytes BW bound unit bnd binds predicted
// EXPLAIN-NEXT: 1 lower-to-sptc{chip=sm_90} mma.sp.f16 128.0 4.079 739.5 7414.1 bandwidth 634.1
// EXPLAIN-NEXT: 2 lower-to-tc{chip=sm_90} mma.f16 192.0 4.079 739.5 3369.8 bandwidth 601.9
// EXPLAIN-NEXT: 3 lower-to-tc{chip=sm_90 low-rank=true} mma.f16 224.0 4.079 739.5 2888.4 bandwidth 577.7
// EXPLAIN-NEXT: 4 lower-to-cuda-core{chip=sm_90 fused-steps=1} fma.f32 10.0 4.258 708.4 6800.0 bandwidth 331.4
// EXPLAIN-NEXT: - lower-to-fft{chip=sm_90 fused-steps=1} (and 3 more with other fused-steps): rejected: the FFT pipeline computes in f64
// EXPLAIN-NEXT: - lower-to-cuda-core{chip=sm_90 fused-steps=2}: rejected: fuses 2 steps, the op has 1
// EXPLAIN: chosen: lower-to-sptc{chip=sm_90}
// LOWER: stencil.pipeline = "lower-to-sptc{chip=sm_90}"
// LOWER: gpu.binary @stencil_sptc
func.func @heat2d(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1> weights [0.2, 0.3, 0.1, 0.1, 0.3] : memref<?x?xf16>
  return
}

// -----

// Heat-2D in f64 over 120 steps: on the H100 the FFT kernel fusing four
// steps (measured there: 390 GStencil/s, against 429 of the CUDA cores
// fusing three, one of the model's misses, bench/NOTES.md); with f64
// Tensor Cores 1000x slower, the CUDA cores fusing three steps. Without
// fusion, the f64 CUDA-core kernel, which reaches the bandwidth where the
// f64 Tensor Core kernel does not.
// H100: module attributes {stencil.pipeline = "lower-to-fft{chip=sm_90 fused-steps=4}"}
// SLOWDMMA: module attributes {stencil.pipeline = "lower-to-cuda-core{chip=sm_90 fused-steps=3}"}
// ONE: module attributes {stencil.pipeline = "lower-to-cuda-core{chip=sm_90 fused-steps=1}"}
// EXPLAIN: remark: candidates on NVIDIA H100
// EXPLAIN: 1 lower-to-fft{chip=sm_90 fused-steps=4} mma.f64.m16n8k4 83.6 4.449 677.9 793.1 bandwidth 372.8
// EXPLAIN-NEXT: 2 lower-to-cuda-core{chip=sm_90 fused-steps=3} fma.f64 11.5 6.427 469.3 2756.5 bandwidth 360.2
// EXPLAIN: lower-to-tc{chip=sm_90} mma.f64.m16n8k4
// EXPLAIN: - lower-to-sptc{chip=sm_90}: rejected: 'stencil.sparse_row_gemm' op has element type 'f64'
// EXPLAIN: chosen: lower-to-fft{chip=sm_90 fused-steps=4}
// LOWER: stencil.pipeline = "lower-to-fft{chip=sm_90 fused-steps=4}"
// LOWER: gpu.binary @stencil_fft
func.func @heat2d(%in: memref<?x?xf64>, %out: memref<?x?xf64>) {
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1> weights [0.2, 0.3, 0.1, 0.1, 0.3] steps 120 : memref<?x?xf64>
  return
}

// -----

// A general body: only the CUDA cores take it.
// H100: stencil.pipeline = "lower-to-cuda-core{chip=sm_90 fused-steps=1}"
// SLOWDMMA: stencil.pipeline = "lower-to-cuda-core{chip=sm_90 fused-steps=1}"
// ONE: stencil.pipeline = "lower-to-cuda-core{chip=sm_90 fused-steps=1}"
// EXPLAIN: chosen: lower-to-cuda-core{chip=sm_90 fused-steps=1}
// LOWER: stencil.pipeline = "lower-to-cuda-core{chip=sm_90 fused-steps=1}"
// LOWER: gpu.binary @stencil_cuda_core
func.func @general(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  stencil.apply %in -> %out : memref<?x?xf32> {
    %c = stencil.access [0, 0] : f32
    %n = stencil.access [-1, 0] : f32
    %p = arith.mulf %c, %n : f32
    stencil.yield %p : f32
  }
  return
}
