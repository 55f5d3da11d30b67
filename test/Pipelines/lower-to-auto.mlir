// --lower-to-auto and its two passes: the model's choice on the built-in H100
// profile and on a profile file, the explain table, and the whole lowering.
// Without ptxas (ptxas=none) the choice does not depend on the machine the
// test runs on; lower-to-auto-ptxas.mlir has the occupancy.

// RUN: stencil-opt %s -split-input-file --stencil-select-pipeline="device-profile=h100 ptxas=none" | FileCheck %s --check-prefix=H100
// RUN: stencil-opt %s -split-input-file --stencil-select-pipeline="device-profile=%S/Inputs/slow-dmma.profile ptxas=none" | FileCheck %s --check-prefix=SLOWDMMA
// RUN: stencil-opt %s -split-input-file --stencil-select-pipeline="device-profile=h100 fused-steps=1 ptxas=none" | FileCheck %s --check-prefix=ONE
// RUN: stencil-opt %s -split-input-file --stencil-select-pipeline="device-profile=h100 explain=true ptxas=none" -o /dev/null 2>&1 | FileCheck %s --check-prefix=EXPLAIN
// RUN: stencil-opt %s -split-input-file --lower-to-auto="ptxas=none" | FileCheck %s --check-prefix=LOWER

// Heat-2D in f16, one step: the sparse Tensor Cores (the bandwidth binds
// every candidate; SpTC's measured share of it is the largest).
// H100: module attributes {stencil.pipeline = "lower-to-sptc{chip=sm_90}"}
// SLOWDMMA: module attributes {stencil.pipeline = "lower-to-sptc{chip=sm_90}"}
// ONE: module attributes {stencil.pipeline = "lower-to-sptc{chip=sm_90}"}
// EXPLAIN: remark: candidates on NVIDIA H100 80GB HBM3 (bandwidth 3011 GB/s), GStencil/s, per point and step, best first; no ptxas: occupancy not modelled:
// EXPLAIN-NEXT: # pipeline unit flops bytes BW bound unit bnd binds warps predicted
// EXPLAIN-NEXT: 1 lower-to-sptc{chip=sm_90} mma.sp.f16 128.0 4.079 752.6 7393.0 bandwidth - 624.8
// EXPLAIN-NEXT: 2 lower-to-tc{chip=sm_90 low-rank=true} mma.f16 224.0 4.079 752.6 2887.9 bandwidth - 586.8
// EXPLAIN-NEXT: 3 lower-to-tc{chip=sm_90} mma.f16 192.0 4.079 752.6 3369.3 bandwidth - 580.4
// EXPLAIN-NEXT: 4 lower-to-cuda-core{chip=sm_90 fused-steps=1} fma.f32 10.0 4.258 752.6 6750.0 bandwidth - 303.1
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
// steps (measured there: 389 GStencil/s, against 431 of the CUDA cores
// fusing three, the model's one miss, bench/NOTES.md); with f64
// Tensor Cores 1000x slower, the CUDA cores fusing three steps. Without
// fusion, the f64 CUDA-core kernel, which reaches the bandwidth where the
// f64 Tensor Core kernel does not.
// H100: module attributes {stencil.pipeline = "lower-to-fft{chip=sm_90 fused-steps=4}"}
// SLOWDMMA: module attributes {stencil.pipeline = "lower-to-cuda-core{chip=sm_90 fused-steps=3}"}
// ONE: module attributes {stencil.pipeline = "lower-to-cuda-core{chip=sm_90 fused-steps=1}"}
// EXPLAIN: remark: candidates on NVIDIA H100
// EXPLAIN: 1 lower-to-fft{chip=sm_90 fused-steps=4} mma.f64.m16n8k4 83.6 4.449 752.7 809.9 bandwidth - 386.9
// EXPLAIN-NEXT: 2 lower-to-cuda-core{chip=sm_90 fused-steps=3} fma.f64 11.5 6.427 564.5 2721.8 bandwidth - 360.1
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
