//===- Roofline.cu - Device bandwidth and tensor-core throughput -----------===//
//
// `stencil-run --roofline`: measures, on the current device,
//   (a) memory bandwidth: cuMemcpyDtoDAsync of 1 GiB, timed with CUDA events,
//       counting read + write bytes (2 GiB per copy);
//   (b) dense tensor-core throughput: mma.sync.aligned.m16n8k16 f16 x f16 -> f32,
//       2*16*8*16 = 4096 flop per warp-level instruction;
//   (c) sparse tensor-core throughput: mma.sp.sync.aligned.m16n8k32 (2:4 sparse
//       A) f16 x f16 -> f32, counted as the DENSE-EQUIVALENT 2*16*8*32 = 8192
//       flop per instruction (the flops the instruction stands for, not the
//       ones it performs, which are half of that).
// The kernels are compiled by nvcc for sm_80 and sm_90 (CUDA_ARCHITECTURES
// 80;90); they are launched through the runtime API, which shares the primary
// context the driver-API code of stencil-run uses.
//
//===----------------------------------------------------------------------===//

#include "Roofline.h"

#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

namespace {

#define RT_CHECK(expr)                                                         \
  do {                                                                         \
    cudaError_t err_ = (expr);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      std::fprintf(stderr, "stencil-run: error: %s failed: %s (%s)\n", #expr,  \
                   cudaGetErrorName(err_), cudaGetErrorString(err_));          \
      std::exit(2);                                                            \
    }                                                                          \
  } while (0)

#define DRV_CHECK(expr)                                                        \
  do {                                                                         \
    CUresult res_ = (expr);                                                    \
    if (res_ != CUDA_SUCCESS) {                                                \
      const char *name_ = nullptr, *str_ = nullptr;                            \
      cuGetErrorName(res_, &name_);                                            \
      cuGetErrorString(res_, &str_);                                           \
      std::fprintf(stderr, "stencil-run: error: %s failed: %s (%s)\n", #expr,  \
                   name_ ? name_ : "?", str_ ? str_ : "?");                    \
      std::exit(2);                                                            \
    }                                                                          \
  } while (0)

// PTX ISA 8.5 (CUDA 12.5) added mma.sp::ordered_metadata and deprecated the
// plain .sp form (ptxas: "expected to have substantially reduced performance
// on some future architectures"). Our metadata (indices {0,1} in every group)
// is ordered, so both forms compute the same thing.
#if defined(__CUDACC_VER_MAJOR__) &&                                           \
    (__CUDACC_VER_MAJOR__ > 12 ||                                              \
     (__CUDACC_VER_MAJOR__ == 12 && __CUDACC_VER_MINOR__ >= 5))
#define STENCIL_MMA_SP ".sp::ordered_metadata"
#else
#define STENCIL_MMA_SP ".sp"
#endif

// Independent accumulator chains per warp: enough to cover the tensor-core
// pipeline latency (one mma.sync issues every few cycles per SM sub-partition,
// latency ~ 20-35 cycles).
constexpr int kChains = 8;

__global__ void __launch_bounds__(256)
mmaDenseKernel(int iters, float *sink) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  unsigned lane = threadIdx.x & 31;
  // Operands: f16x2 words from the lane id (values do not matter for speed,
  // but must not be compile-time constants).
  unsigned a0 = 0x3c003c00u ^ lane, a1 = a0 + 1, a2 = a0 + 2, a3 = a0 + 3;
  unsigned b0 = 0x3c003c00u ^ (lane << 1), b1 = b0 + 1;
  float acc[kChains][4];
#pragma unroll
  for (int c = 0; c < kChains; ++c)
#pragma unroll
    for (int r = 0; r < 4; ++r)
      acc[c][r] = 0.0f;
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int c = 0; c < kChains; ++c) {
      asm volatile(
          "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
          "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
          : "+f"(acc[c][0]), "+f"(acc[c][1]), "+f"(acc[c][2]), "+f"(acc[c][3])
          : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    }
  }
  float s = 0.0f;
#pragma unroll
  for (int c = 0; c < kChains; ++c)
    s += acc[c][0] + acc[c][1] + acc[c][2] + acc[c][3];
  // Practically never true; keeps the results live.
  if (s == 1234.5f)
    sink[blockIdx.x * blockDim.x + threadIdx.x] = s;
#endif
}

__global__ void __launch_bounds__(256)
mmaSparseKernel(int iters, float *sink) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  unsigned lane = threadIdx.x & 31;
  // A: 16x32 2:4-sparse, stored compressed as 16x16 f16 = 4 regs per thread.
  unsigned a0 = 0x3c003c00u ^ lane, a1 = a0 + 1, a2 = a0 + 2, a3 = a0 + 3;
  // B: 32x8 dense f16 = 4 regs per thread.
  unsigned b0 = 0x3c003c00u ^ (lane << 1), b1 = b0 + 1, b2 = b0 + 2,
           b3 = b0 + 3;
  // Metadata: 2-bit indices of the two kept elements of every group of 4;
  // nibble 0b0100 = indices {0, 1}. With sparsity selector 0, threads 0,1 of
  // each group of four supply it (the other lanes' words are ignored).
  unsigned meta = 0x44444444u;
  float acc[kChains][4];
#pragma unroll
  for (int c = 0; c < kChains; ++c)
#pragma unroll
    for (int r = 0; r < 4; ++r)
      acc[c][r] = 0.0f;
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int c = 0; c < kChains; ++c) {
      asm volatile(
          "mma" STENCIL_MMA_SP ".sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 "
          "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9,%10,%11}, {%0,%1,%2,%3}, "
          "%12, 0x0;\n"
          : "+f"(acc[c][0]), "+f"(acc[c][1]), "+f"(acc[c][2]), "+f"(acc[c][3])
          : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "r"(b2),
            "r"(b3), "r"(meta));
    }
  }
  float s = 0.0f;
#pragma unroll
  for (int c = 0; c < kChains; ++c)
    s += acc[c][0] + acc[c][1] + acc[c][2] + acc[c][3];
  if (s == 1234.5f)
    sink[blockIdx.x * blockDim.x + threadIdx.x] = s;
#endif
}

struct MmaResult {
  double ms;
  double tflops;
};

template <typename Kernel>
MmaResult timeMma(Kernel kernel, int blocks, int threads, int iters,
                  double flopPerInst, float *sink) {
  cudaEvent_t start, stop;
  RT_CHECK(cudaEventCreate(&start));
  RT_CHECK(cudaEventCreate(&stop));
  // Warm-up (clocks up, module loaded).
  kernel<<<blocks, threads>>>(iters / 10 + 1, sink);
  RT_CHECK(cudaGetLastError());
  RT_CHECK(cudaDeviceSynchronize());
  double best = 1e30;
  for (int rep = 0; rep < 3; ++rep) {
    RT_CHECK(cudaEventRecord(start));
    kernel<<<blocks, threads>>>(iters, sink);
    RT_CHECK(cudaGetLastError());
    RT_CHECK(cudaEventRecord(stop));
    RT_CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    RT_CHECK(cudaEventElapsedTime(&ms, start, stop));
    if (ms < best)
      best = ms;
  }
  RT_CHECK(cudaEventDestroy(start));
  RT_CHECK(cudaEventDestroy(stop));
  double warps = double(blocks) * (threads / 32);
  double flop = warps * iters * kChains * flopPerInst;
  return {best, flop / (best * 1e-3) / 1e12};
}

} // namespace

int runRoofline(int device, std::size_t copyBytes) {
  RT_CHECK(cudaSetDevice(device));
  RT_CHECK(cudaFree(nullptr)); // create/bind the primary context
  cudaDeviceProp prop;
  RT_CHECK(cudaGetDeviceProperties(&prop, device));
  std::printf("device: %s (sm_%d%d, %d SMs)\n", prop.name, prop.major,
              prop.minor, prop.multiProcessorCount);
  if (prop.major < 8) {
    std::fprintf(stderr, "stencil-run: error: --roofline needs sm_80 or newer "
                         "(mma.sync m16n8k16 / mma.sp m16n8k32)\n");
    return 2;
  }

  // (a) Bandwidth: device-to-device copy through the driver API.
  {
    CUdeviceptr src = 0, dst = 0;
    DRV_CHECK(cuMemAlloc(&src, copyBytes));
    DRV_CHECK(cuMemAlloc(&dst, copyBytes));
    DRV_CHECK(cuMemsetD8(src, 0x3c, copyBytes));
    DRV_CHECK(cuMemsetD8(dst, 0, copyBytes));
    CUevent start, stop;
    DRV_CHECK(cuEventCreate(&start, CU_EVENT_DEFAULT));
    DRV_CHECK(cuEventCreate(&stop, CU_EVENT_DEFAULT));
    DRV_CHECK(cuMemcpyDtoDAsync(dst, src, copyBytes, nullptr)); // warm-up
    DRV_CHECK(cuCtxSynchronize());
    const int reps = 10;
    DRV_CHECK(cuEventRecord(start, nullptr));
    for (int r = 0; r < reps; ++r)
      DRV_CHECK(cuMemcpyDtoDAsync(dst, src, copyBytes, nullptr));
    DRV_CHECK(cuEventRecord(stop, nullptr));
    DRV_CHECK(cuEventSynchronize(stop));
    float ms = 0;
    DRV_CHECK(cuEventElapsedTime(&ms, start, stop));
    double gbs = 2.0 * double(copyBytes) * reps / (ms * 1e-3) / 1e9;
    std::printf("bandwidth: cuMemcpyDtoD %.3f GiB x %d: %.3f ms, %.1f GB/s "
                "(read + write bytes)\n",
                double(copyBytes) / (1u << 30), reps, ms, gbs);
    std::printf("  memory-bound stencil ceiling (1 read + 1 write per point): "
                "f16/bf16 %.1f, f32 %.1f, f64 %.1f GStencil/s\n",
                gbs / 4.0, gbs / 8.0, gbs / 16.0);
    DRV_CHECK(cuEventDestroy(start));
    DRV_CHECK(cuEventDestroy(stop));
    DRV_CHECK(cuMemFree(src));
    DRV_CHECK(cuMemFree(dst));
  }

  // (b), (c) Tensor-core throughput.
  {
    const int threads = 256; // 8 warps per block
    const int blocks = prop.multiProcessorCount * 4; // 32 warps per SM
    const int iters = 16384;
    float *sink = nullptr;
    RT_CHECK(cudaMalloc(&sink, sizeof(float) * blocks * threads));
    MmaResult dense =
        timeMma(mmaDenseKernel, blocks, threads, iters, 2.0 * 16 * 8 * 16, sink);
    std::printf("mma.sync m16n8k16 f16*f16+f32: %.3f ms, %.1f TFLOP/s "
                "(2*16*8*16 flop per instruction)\n",
                dense.ms, dense.tflops);
    MmaResult sparse = timeMma(mmaSparseKernel, blocks, threads, iters,
                               2.0 * 16 * 8 * 32, sink);
    std::printf("mma.sp   m16n8k32 f16*f16+f32: %.3f ms, %.1f TFLOP/s "
                "dense-equivalent (2*16*8*32 flop per instruction; %.1f "
                "TFLOP/s of multiplications actually performed)\n",
                sparse.ms, sparse.tflops, sparse.tflops / 2);
    std::printf("  %d blocks x %d threads, %d iterations x %d independent "
                "chains per warp\n",
                blocks, threads, iters, kChains);
    RT_CHECK(cudaFree(sink));
  }
  return 0;
}
