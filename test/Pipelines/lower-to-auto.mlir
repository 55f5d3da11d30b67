// --lower-to-auto and its two passes: the model's choice on the built-in H100
// profile and on a profile file, the explain table, and the whole lowering.
// Without ptxas (ptxas=none) the choice does not depend on the machine the
// test runs on; lower-to-auto-ptxas.mlir has the occupancy.

// RUN: stencil-opt %s -split-input-file --stencil-select-pipeline="device-profile=h100 ptxas=none" | FileCheck %s --check-prefix=H100
// RUN: stencil-opt %s -split-input-file --stencil-select-pipeline="device-profile=%S/Inputs/slow-dmma.profile ptxas=none" | FileCheck %s --check-prefix=SLOWDMMA
// RUN: stencil-opt %s -split-input-file --stencil-select-pipeline="device-profile=h100 fused-steps=1 ptxas=none" | FileCheck %s --check-prefix=ONE
// RUN: stencil-opt %s -split-input-file --stencil-select-pipeline="device-profile=h100 explain=all ptxas=none" -o /dev/null 2>&1 | FileCheck %s --check-prefix=EXPLAIN
// RUN: stencil-opt %s -split-input-file --stencil-select-pipeline="device-profile=h100 explain=true ptxas=none" -o /dev/null 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: not stencil-opt %s -split-input-file --stencil-select-pipeline="explain=yes" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD-EXPLAIN
// RUN: stencil-opt %s -split-input-file --stencil-select-pipeline="ptxas=none" | FileCheck %s --check-prefix=ASSUMED
// RUN: stencil-opt %s -split-input-file --lower-to-auto="ptxas=none" | FileCheck %s --check-prefix=LOWER

// Heat-2D in f16, one step: the sparse Tensor Cores (the bandwidth binds
// every candidate; SpTC's measured share of it is the largest).
// H100: module attributes {stencil.device_profile = {{".*"}}, stencil.pipeline = "lower-to-sptc{chip=sm_90}"}
// SLOWDMMA: module attributes {stencil.device_profile = {{".*"}}, stencil.pipeline = "lower-to-sptc{chip=sm_90}"}
// ONE: module attributes {stencil.device_profile = {{".*"}}, stencil.pipeline = "lower-to-sptc{chip=sm_90}"}
// EXPLAIN: remark: candidates on NVIDIA H100 80GB HBM3 (bandwidth 3011 GB/s), GStencil/s, per point and step, best first; no ptxas: occupancy not modelled:
// EXPLAIN-NEXT: # pipeline unit flops bytes BW bound unit bnd binds warps predicted
// EXPLAIN-NEXT: 1 lower-to-sptc{chip=sm_90} mma.sp.f16 128.0 4.079 752.8 7418.8 bandwidth - 625.8
// EXPLAIN-NEXT: 2 lower-to-tc{chip=sm_90} mma.f16 192.0 4.079 752.8 3372.4 bandwidth - 583.5
// EXPLAIN-NEXT: 3 lower-to-tc{chip=sm_90 low-rank=true} mma.f16 224.0 4.079 752.8 2890.6 bandwidth - 576.6
// EXPLAIN-NEXT: 4 lower-to-cuda-core{chip=sm_90 fused-steps=1} fma.f32 10.0 4.258 752.8 6750.0 bandwidth - 297.3
// EXPLAIN-NEXT: - lower-to-sptc{chip=sm_90 fused-steps=2}: rejected: fuses 2 steps, the op has 1
// EXPLAIN-NEXT: - lower-to-sptc{chip=sm_90 fused-steps=3}: rejected: fuses 3 steps, the op has 1
// EXPLAIN-NEXT: - lower-to-sptc{chip=sm_90 fused-steps=4}: rejected: fuses 4 steps, the op has 1
// EXPLAIN-NEXT: - lower-to-tc{chip=sm_90 fused-steps=2}: rejected: fuses 2 steps, the op has 1
// EXPLAIN-NEXT: - lower-to-tc{chip=sm_90 fused-steps=3}: rejected: fuses 3 steps, the op has 1
// EXPLAIN-NEXT: - lower-to-tc{chip=sm_90 fused-steps=4}: rejected: fuses 4 steps, the op has 1
// EXPLAIN-NEXT: - lower-to-tc{chip=sm_90 low-rank=true fused-steps=2}: rejected: fuses 2 steps, the op has 1
// EXPLAIN-NEXT: - lower-to-tc{chip=sm_90 low-rank=true fused-steps=3}: rejected: fuses 3 steps, the op has 1
// EXPLAIN-NEXT: - lower-to-tc{chip=sm_90 low-rank=true fused-steps=4}: rejected: fuses 4 steps, the op has 1
// EXPLAIN-NEXT: - lower-to-fft{chip=sm_90 fused-steps=1} (and 3 more with other options): rejected: the FFT pipeline computes in f64
// EXPLAIN-NEXT: - lower-to-cuda-core{chip=sm_90 fused-steps=2}: rejected: fuses 2 steps, the op has 1
// EXPLAIN: chosen: lower-to-sptc{chip=sm_90}
// explain=true counts the rejected candidates instead of listing them.
// COUNT: 4 lower-to-cuda-core{chip=sm_90 fused-steps=1} fma.f32
// COUNT-NEXT: - 20 candidates rejected (explain=all lists each with its reason)
// COUNT-NEXT: chosen: lower-to-sptc{chip=sm_90}
// BAD-EXPLAIN: for the --explain option: Cannot find option named 'yes'!
// Without device-profile the choice says which profile it assumed.
// ASSUMED: stencil.device_profile = "NVIDIA H100 80GB HBM3; assumed for chip sm_90: give device-profile= for another device (a built-in name, or a file of stencil-run --roofline --profile-out); occupancy not modelled (no ptxas that assembles the candidates; give ptxas=PATH)"
// LOWER: stencil.pipeline = "lower-to-sptc{chip=sm_90}"
// LOWER: gpu.binary @stencil_sptc
func.func @heat2d(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1> weights [0.2, 0.3, 0.1, 0.1, 0.3] : memref<?x?xf16>
  return
}

// -----

// Heat-2D in f64 over 120 steps: on the H100 the CUDA cores sweeping rows
// with four fused steps (measured there in one run, 10240^2: 533
// GStencil/s, against 449 for the Tensor Cores fusing four by composition
// and 392 for the FFT kernel fusing four,
// bench/results/2026-11-25-h100-auto-rows-table.txt; the model, with the
// row sweep's constants, predicts 548, 448 and 388). With f64 Tensor Cores
// 1000x slower, the same. Without fusion, the f64 CUDA-core kernel, which
// reaches the bandwidth where the f64 Tensor Core kernel does not.
// H100: module attributes {stencil.device_profile = {{".*"}}, stencil.pipeline = "lower-to-cuda-core{chip=sm_90 fused-steps=4}"}
// SLOWDMMA: module attributes {stencil.device_profile = {{".*"}}, stencil.pipeline = "lower-to-cuda-core{chip=sm_90 fused-steps=4}"}
// ONE: module attributes {stencil.device_profile = {{".*"}}, stencil.pipeline = "lower-to-cuda-core{chip=sm_90 fused-steps=1}"}
// EXPLAIN: remark: candidates on NVIDIA H100
// EXPLAIN: 1 lower-to-cuda-core{chip=sm_90 fused-steps=4} fma.f64 11.6 4.194 752.8 2686.7 bandwidth - 548.1
// EXPLAIN-NEXT: 2 lower-to-tc{chip=sm_90 fused-steps=4} mma.f64.m16n8k4 72.0 5.188 752.8 941.7 bandwidth - 447.8
// EXPLAIN-NEXT: 3 lower-to-cuda-core{chip=sm_90 fused-steps=3} fma.f64 11.0 5.525 564.6 2826.1 bandwidth - 442.4
// EXPLAIN-NEXT: 4 lower-to-tc{chip=sm_90 fused-steps=3} mma.f64.m16n8k4 74.7 6.505 564.6 908.0 bandwidth - 412.2
// EXPLAIN-NEXT: 5 lower-to-fft{chip=sm_90 fused-steps=4} mma.f64.m16n8k4 83.6 4.449 752.8 811.1 bandwidth - 387.8
// EXPLAIN: lower-to-tc{chip=sm_90} mma.f64.m16n8k4
// EXPLAIN: - lower-to-sptc{chip=sm_90} (and 3 more with other options): rejected: 'stencil.sparse_row_gemm' op has element type 'f64'
// EXPLAIN: chosen: lower-to-cuda-core{chip=sm_90 fused-steps=4}
// LOWER: stencil.pipeline = "lower-to-cuda-core{chip=sm_90 fused-steps=4}"
// LOWER: gpu.binary @stencil_cuda_core
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

// -----

// Heat-3D in f16 over 8 steps: the Tensor Cores' composed steps are
// candidates but rejected in 3-D, where they were measured slower than one
// step per launch (bench/NOTES.md); the streamed plane sums (their own
// constants, "The plane sums in the model") come first, ahead of the sparse
// Tensor Cores' one step. The grid's shape is not known, so the plane sums
// with vector columns are rejected.
// H100: stencil.pipeline = "lower-to-cuda-core{chip=sm_90 fused-steps=1 plane-sums=true threads-y=4 outputs-per-thread=4 planes=64}"
// EXPLAIN: remark: candidates on NVIDIA H100
// EXPLAIN: 1 lower-to-cuda-core{chip=sm_90 fused-steps=1 plane-sums=true threads-y=4 outputs-per-thread=4 planes=64} fma.f32
// EXPLAIN-NEXT: 2 lower-to-sptc{chip=sm_90} mma.sp.f16
// EXPLAIN: - lower-to-sptc{chip=sm_90 fused-steps=2} (and 2 more with other options): rejected: composed steps are slower than one step in 3-D (measured; not modelled)
// EXPLAIN-NEXT: - lower-to-tc{chip=sm_90 fused-steps=2} (and 2 more with other options): rejected: composed steps are slower than one step in 3-D (measured; not modelled)
// EXPLAIN: - lower-to-cuda-core{chip=sm_90 fused-steps=1 plane-sums=true vector-width=8 threads-y=2 outputs-per-thread=2 planes=64}: rejected: vector columns of 8 need a known grid (the `grid` option or a static shape) whose rows are a multiple of 8
// EXPLAIN: chosen: lower-to-cuda-core{chip=sm_90 fused-steps=1 plane-sums=true threads-y=4 outputs-per-thread=4 planes=64}
func.func @heat3d(%in: memref<?x?x?xf16>, %out: memref<?x?x?xf16>) {
  stencil.linear %in -> %out pattern <star, rank = 3, radius = 1> weights [0.1, 0.15, 0.1, 0.3, 0.15, 0.1, 0.1] steps 8 : memref<?x?x?xf16>
  return
}

// -----

// Heat-2D in f16 over 120 steps: the low-rank chain of the weights composed
// over four steps (5 terms), measured the fastest candidate on the H100 in
// one run (10240^2: 1494.6 GStencil/s, against 1419.4 for the Tensor Cores
// composing four steps directly and 1413.7 for the sparse ones,
// bench/results/2026-11-27-h100-auto-lowrank-fused.txt; with ptxas's
// occupancy the model predicts 1504.6, 1419.3 and 1419.7; without it, here,
// the chain's 1760.8). With one step per launch, SpTC as above.
// H100: module attributes {stencil.device_profile = {{".*"}}, stencil.pipeline = "lower-to-tc{chip=sm_90 low-rank=true fused-steps=4}"}
// SLOWDMMA: module attributes {stencil.device_profile = {{".*"}}, stencil.pipeline = "lower-to-tc{chip=sm_90 low-rank=true fused-steps=4}"}
// ONE: module attributes {stencil.device_profile = {{".*"}}, stencil.pipeline = "lower-to-sptc{chip=sm_90}"}
// EXPLAIN: remark: candidates on NVIDIA H100
// EXPLAIN: 1 lower-to-tc{chip=sm_90 low-rank=true fused-steps=4} mma.f16 140.0 1.080 3011.3 4625.0 bandwidth - 1760.8
// EXPLAIN: lower-to-tc{chip=sm_90 low-rank=true fused-steps=3} mma.f16
// EXPLAIN: lower-to-tc{chip=sm_90 low-rank=true fused-steps=2} mma.f16
// EXPLAIN: chosen: lower-to-tc{chip=sm_90 low-rank=true fused-steps=4}
// LOWER: stencil.pipeline = "lower-to-tc{chip=sm_90 low-rank=true fused-steps=4}"
// LOWER: gpu.binary @stencil_tc
func.func @heat2d(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1> weights [0.2, 0.3, 0.1, 0.1, 0.3] steps 120 : memref<?x?xf16>
  return
}

// -----

// Heat-3D in f16 on a grid of static shape whose rows are a multiple of 8:
// the plane sums with vector columns of 8 are candidates (measured the
// fastest on the H100 at 512^3: 578.0 GStencil/s against 482.7 with one
// column, bench/results/2026-11-27-h100-auto-vector-columns.txt).
// H100: module attributes {stencil.device_profile = {{".*"}}, stencil.pipeline = "lower-to-cuda-core{chip=sm_90 fused-steps=1 plane-sums=true vector-width=8 threads-y=2 outputs-per-thread=2 planes=64}"}
// SLOWDMMA: module attributes {stencil.device_profile = {{".*"}}, stencil.pipeline = "lower-to-cuda-core{chip=sm_90 fused-steps=1 plane-sums=true vector-width=8 threads-y=2 outputs-per-thread=2 planes=64}"}
// ONE: module attributes {stencil.device_profile = {{".*"}}, stencil.pipeline = "lower-to-cuda-core{chip=sm_90 fused-steps=1 plane-sums=true vector-width=8 threads-y=2 outputs-per-thread=2 planes=64}"}
// EXPLAIN: remark: candidates on NVIDIA H100
// EXPLAIN: 1 lower-to-cuda-core{chip=sm_90 fused-steps=1 plane-sums=true vector-width=8 threads-y=2 outputs-per-thread=2 planes=64} fma.f32
// EXPLAIN: lower-to-cuda-core{chip=sm_90 fused-steps=1 plane-sums=true vector-width=4 threads-y=4 outputs-per-thread=2 planes=64 prefetch-distance=3} fma.f32
// EXPLAIN: chosen: lower-to-cuda-core{chip=sm_90 fused-steps=1 plane-sums=true vector-width=8 threads-y=2 outputs-per-thread=2 planes=64}
// LOWER: stencil.pipeline = "lower-to-cuda-core{chip=sm_90 fused-steps=1 plane-sums=true vector-width=8 threads-y=2 outputs-per-thread=2 planes=64}"
// LOWER: gpu.binary @stencil_cuda_core
func.func @heat3d(%in: memref<512x512x512xf16>, %out: memref<512x512x512xf16>) {
  stencil.linear %in -> %out pattern <star, rank = 3, radius = 1> weights [0.1, 0.15, 0.12, 0.2, 0.13, 0.11, 0.19] : memref<512x512x512xf16>
  return
}

// -----

// Rows of 510, a multiple of 2 but not of 4 or 8: those widths would stage
// and store element by element, and are rejected.
// H100: module attributes {stencil.device_profile = {{".*"}}, stencil.pipeline = "lower-to-cuda-core{chip=sm_90 fused-steps=1 plane-sums=true threads-y=4 outputs-per-thread=4 planes=64}"}
// SLOWDMMA: module attributes {stencil.device_profile = {{".*"}}, stencil.pipeline = "lower-to-cuda-core{chip=sm_90 fused-steps=1 plane-sums=true threads-y=4 outputs-per-thread=4 planes=64}"}
// ONE: module attributes {stencil.device_profile = {{".*"}}, stencil.pipeline = "lower-to-cuda-core{chip=sm_90 fused-steps=1 plane-sums=true threads-y=4 outputs-per-thread=4 planes=64}"}
// EXPLAIN: remark: candidates on NVIDIA H100
// EXPLAIN: lower-to-cuda-core{chip=sm_90 fused-steps=1 plane-sums=true vector-width=2 threads-y=4 outputs-per-thread=4 planes=64} fma.f32
// EXPLAIN: - lower-to-cuda-core{chip=sm_90 fused-steps=1 plane-sums=true vector-width=8 threads-y=2 outputs-per-thread=2 planes=64}: rejected: vector columns of 8 need a known grid (the `grid` option or a static shape) whose rows are a multiple of 8
// EXPLAIN-NEXT: - lower-to-cuda-core{chip=sm_90 fused-steps=1 plane-sums=true vector-width=4 threads-y=4 outputs-per-thread=2 planes=64 prefetch-distance=3}: rejected: vector columns of 4 need a known grid (the `grid` option or a static shape) whose rows are a multiple of 4
// EXPLAIN: chosen: lower-to-cuda-core{chip=sm_90 fused-steps=1 plane-sums=true threads-y=4 outputs-per-thread=4 planes=64}
// LOWER: stencil.pipeline = "lower-to-cuda-core{chip=sm_90 fused-steps=1 plane-sums=true threads-y=4 outputs-per-thread=4 planes=64}"
func.func @heat3d(%in: memref<512x512x510xf16>, %out: memref<512x512x510xf16>) {
  stencil.linear %in -> %out pattern <star, rank = 3, radius = 1> weights [0.1, 0.15, 0.12, 0.2, 0.13, 0.11, 0.19] : memref<512x512x510xf16>
  return
}
