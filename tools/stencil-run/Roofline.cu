//===- Roofline.cu - Device bandwidth and arithmetic-unit peaks
//------------===//
//
// `stencil-run --roofline`: measures, on the current device,
//   (a) memory bandwidth: cuMemcpyDtoDAsync of 1 GiB, timed with CUDA events,
//       counting read + write bytes (2 GiB per copy);
//   (b) dense tensor-core f16 and bf16 throughput: mma.sync.aligned.m16n8k16
//       f16 x f16 (bf16 x bf16) -> f32, 2*16*8*16 = 4096 flop per warp-level
//       instruction;
//   (c) sparse tensor-core f16 throughput: mma.sp.sync.aligned.m16n8k32 (2:4
//       sparse A) f16 x f16 -> f32, counted as the DENSE-EQUIVALENT
//       2*16*8*32 = 8192 flop per instruction (the flops the instruction
//       stands for, not the ones it performs, which are half of that);
//   (d) dense tensor-core f64 throughput: mma.sync.aligned.m8n8k4 f64
//       (2*8*8*4 = 512 flop per instruction, sm_80+), and on sm_90+ the f64
//       shapes PTX ISA 7.8 added for sm_90: m16n8k4, m16n8k8, m16n8k16;
//   (e) CUDA-core throughput: fma.rn.f32 (FFMA) and fma.rn.f64 (DFMA), 2 flop
//       per lane per instruction.
// Every figure is printed as a human-readable line and as one machine-readable
//   ROOFLINE unit=bandwidth gbs=<GB/s>
//   ROOFLINE unit=<unit> tflops=<TFLOP/s>
// line (units: mma.sp.f16, mma.f16, mma.bf16, mma.f64, mma.f64.m16n8k4,
// mma.f64.m16n8k8, mma.f64.m16n8k16, fma.f32, fma.f64), read by
// bench/table.py. With --profile-out FILE the same figures and the device's
// on-chip limits are written as a device profile (docs/DeviceProfile.md),
// which --lower-to-auto's device-profile= option reads.
//
// Every throughput kernel is peakKernel<Op>: each thread runs Op::kChains
// independent accumulator chains (per warp for the warp-level mma), advanced
// Op::kUnroll times per loop iteration, and stores their sum only when it
// equals an unlikely value, so nothing can be optimised away. The grid is one
// full wave: as many 256-thread blocks as are resident on every SM at once
// (occupancy API), so no SM idles in a tail.
//
// The kernels are compiled by nvcc for sm_80 and sm_90 (CUDA_ARCHITECTURES
// 80;90); the sm_90-only shapes are compiled only for __CUDA_ARCH__ >= 900
// and are measured only when the device and the code the runtime picked for
// it (cudaFuncAttributes::ptxVersion) are both sm_90+. They are launched
// through the runtime API, which shares the primary context the driver-API
// code of stencil-run uses.
//
//===----------------------------------------------------------------------===//

#include "Roofline.h"

#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <map>
#include <string>
#include <type_traits>

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

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define STENCIL_SM80 1
#endif
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define STENCIL_SM90 1
#endif

constexpr int kThreads = 256; // 8 warps per block

// Operand values: derived from the lane id (values do not matter for speed,
// but must not be compile-time constants). A word of two 16-bit values near
// 1.0: f16 (0x3c00), or bf16 (0x3f80).
__device__ __forceinline__ unsigned f16Word(unsigned lane, unsigned k,
                                            bool bf16 = false) {
  return ((bf16 ? 0x3f803f80u : 0x3c003c00u) ^ lane) + k;
}
__device__ __forceinline__ double f64Value(unsigned lane, unsigned k) {
  return 1.0 + 0x1p-20 * double(lane * 8 + k);
}

//===----------------------------------------------------------------------===//
// The measured operations. Each Op has
//   kChains      independent accumulator chains per thread (the mma ones:
//                per warp, every lane holding its part of each chain)
//   kUnroll      repetitions of the kChains instructions per loop iteration
//   kFlopPerInst flop of one warp-level instruction
//   kMinSm       the first architecture that has the instruction
//   State, init(State&, lane), step(State&) = kChains instructions, sum().
// An Op whose instruction the compiled architecture lacks has an empty step().
// Enough chains cover the pipeline latency: with >= 4 warps per SM
// sub-partition, 8 chains give >= 32 independent instructions in flight.
//===----------------------------------------------------------------------===//

/// mma.sync m16n8k16 with f16 (or, BF16, bf16) operands and f32
/// accumulators.
template <bool BF16> struct MmaM16N8K16 {
  static constexpr int kChains = 8, kUnroll = 1, kMinSm = 80;
  static constexpr double kFlopPerInst = 2.0 * 16 * 8 * 16;
  struct State {
    float acc[kChains][4];
    unsigned a[4], b[2];
  };
  __device__ static __forceinline__ void init(State &s, unsigned lane) {
#pragma unroll
    for (int k = 0; k < 4; ++k)
      s.a[k] = f16Word(lane, k, BF16);
#pragma unroll
    for (int k = 0; k < 2; ++k)
      s.b[k] = f16Word(lane << 1, k, BF16);
  }
  __device__ static __forceinline__ void step(State &s) {
#ifdef STENCIL_SM80
// The asm string must be a literal: one statement per operand type.
#define STENCIL_MMA_M16N8K16(TYPE)                                            \
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32." TYPE "." TYPE ".f32 " \
               "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"     \
               : "+f"(s.acc[c][0]), "+f"(s.acc[c][1]), "+f"(s.acc[c][2]),    \
                 "+f"(s.acc[c][3])                                           \
               : "r"(s.a[0]), "r"(s.a[1]), "r"(s.a[2]), "r"(s.a[3]),         \
                 "r"(s.b[0]), "r"(s.b[1]))
#pragma unroll
    for (int c = 0; c < kChains; ++c) {
      if constexpr (BF16)
        STENCIL_MMA_M16N8K16("bf16");
      else
        STENCIL_MMA_M16N8K16("f16");
    }
#undef STENCIL_MMA_M16N8K16
#endif
  }
};
using MmaF16 = MmaM16N8K16<false>;
using MmaBF16 = MmaM16N8K16<true>;

struct MmaSpF16 {
  static constexpr int kChains = 8, kUnroll = 1, kMinSm = 80;
  // Dense-equivalent.
  static constexpr double kFlopPerInst = 2.0 * 16 * 8 * 32;
  struct State {
    float acc[kChains][4];
    // A: 16x32 2:4-sparse, stored compressed as 16x16 f16 = 4 regs per
    // thread; B: 32x8 dense f16 = 4 regs per thread.
    unsigned a[4], b[4], meta;
  };
  __device__ static __forceinline__ void init(State &s, unsigned lane) {
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      s.a[k] = f16Word(lane, k);
      s.b[k] = f16Word(lane << 1, k);
    }
    // Metadata: 2-bit indices of the two kept elements of every group of 4;
    // nibble 0b0100 = indices {0, 1}. With sparsity selector 0, threads 0,1
    // of each group of four supply it (the other lanes' words are ignored).
    s.meta = 0x44444444u;
  }
  __device__ static __forceinline__ void step(State &s) {
#ifdef STENCIL_SM80
#pragma unroll
    for (int c = 0; c < kChains; ++c)
      asm volatile(
          "mma" STENCIL_MMA_SP ".sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 "
          "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9,%10,%11}, {%0,%1,%2,%3}, "
          "%12, 0x0;\n"
          : "+f"(s.acc[c][0]), "+f"(s.acc[c][1]), "+f"(s.acc[c][2]),
            "+f"(s.acc[c][3])
          : "r"(s.a[0]), "r"(s.a[1]), "r"(s.a[2]), "r"(s.a[3]), "r"(s.b[0]),
            "r"(s.b[1]), "r"(s.b[2]), "r"(s.b[3]), "r"(s.meta));
#endif
  }
};

/// f64 mma.sync m{M}n8k{K}: m8n8k4 (sm_80), and the shapes PTX ISA 7.8
/// added for sm_90, m16n8k4, m16n8k8 and m16n8k16. Per thread, M K / 32
/// doubles of A, 8 K / 32 of B and 8 M / 32 of C/D: m8n8k4 A 1, B 1, C/D 2;
/// m16n8k4 A 2, B 1; m16n8k8 A 4, B 2; m16n8k16 A 8, B 4; C/D 4.
template <int M, int K> struct MmaF64 {
  static constexpr int kChains = 8, kUnroll = 1, kMinSm = M == 8 ? 80 : 90;
  static constexpr double kFlopPerInst = 2.0 * M * 8 * K;
  static constexpr int kA = M * K / 32, kB = 8 * K / 32;
  struct State {
    double acc[kChains][8 * M / 32];
    double a[kA], b[kB];
  };
  __device__ static __forceinline__ void init(State &s, unsigned lane) {
#pragma unroll
    for (int k = 0; k < kA; ++k)
      s.a[k] = f64Value(lane, k);
#pragma unroll
    for (int k = 0; k < kB; ++k)
      s.b[k] = 0x1p-10 * f64Value(lane, kA + k);
  }
  __device__ static __forceinline__ void step(State &s) {
#ifdef STENCIL_SM80
#pragma unroll
    for (int c = 0; c < kChains; ++c) {
      if constexpr (M == 8) {
        asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 "
                     "{%0,%1}, {%2}, {%3}, {%0,%1};\n"
                     : "+d"(s.acc[c][0]), "+d"(s.acc[c][1])
                     : "d"(s.a[0]), "d"(s.b[0]));
      }
#ifdef STENCIL_SM90
      else if constexpr (K == 4) {
        asm volatile("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 "
                     "{%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};\n"
                     : "+d"(s.acc[c][0]), "+d"(s.acc[c][1]), "+d"(s.acc[c][2]),
                       "+d"(s.acc[c][3])
                     : "d"(s.a[0]), "d"(s.a[1]), "d"(s.b[0]));
      } else if constexpr (K == 8) {
        asm volatile("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 "
                     "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                     : "+d"(s.acc[c][0]), "+d"(s.acc[c][1]), "+d"(s.acc[c][2]),
                       "+d"(s.acc[c][3])
                     : "d"(s.a[0]), "d"(s.a[1]), "d"(s.a[2]), "d"(s.a[3]),
                       "d"(s.b[0]), "d"(s.b[1]));
      } else {
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 "
                     "{%0,%1,%2,%3}, {%4,%5,%6,%7,%8,%9,%10,%11}, "
                     "{%12,%13,%14,%15}, {%0,%1,%2,%3};\n"
                     : "+d"(s.acc[c][0]), "+d"(s.acc[c][1]), "+d"(s.acc[c][2]),
                       "+d"(s.acc[c][3])
                     : "d"(s.a[0]), "d"(s.a[1]), "d"(s.a[2]), "d"(s.a[3]),
                       "d"(s.a[4]), "d"(s.a[5]), "d"(s.a[6]), "d"(s.a[7]),
                       "d"(s.b[0]), "d"(s.b[1]), "d"(s.b[2]), "d"(s.b[3]));
      }
#endif
    }
#endif
  }
};
using MmaF64M8N8K4 = MmaF64<8, 4>;
using MmaF64M16N8K4 = MmaF64<16, 4>;
using MmaF64M16N8K8 = MmaF64<16, 8>;
using MmaF64M16N8K16 = MmaF64<16, 16>;

// CUDA-core FMA: acc = a * b + acc on every chain, T float (fma.rn.f32,
// FFMA) or double (fma.rn.f64, DFMA). One warp-level FFMA/DFMA issues at
// most once per cycle per SM sub-partition, as does everything else, so the
// loop is unrolled 32 times (256 FMAs per iteration) to make its
// counter/branch overhead negligible (< 2 % of the issue slots).
template <typename T> struct Fma {
  static constexpr int kChains = 8, kUnroll = 32, kMinSm = 80;
  static constexpr double kFlopPerInst = 2.0 * 32;
  struct State {
    T acc[kChains];
    T a, b;
  };
  __device__ static __forceinline__ void init(State &s, unsigned lane) {
    s.a = T(f64Value(lane, 0));
    s.b = T(0x1p-10 * f64Value(lane, 1));
  }
  __device__ static __forceinline__ void step(State &s) {
#pragma unroll
    for (int c = 0; c < kChains; ++c) {
      if constexpr (std::is_same_v<T, float>)
        asm volatile("fma.rn.f32 %0, %1, %2, %0;\n"
                     : "+f"(s.acc[c])
                     : "f"(s.a), "f"(s.b));
      else
        asm volatile("fma.rn.f64 %0, %1, %2, %0;\n"
                     : "+d"(s.acc[c])
                     : "d"(s.a), "d"(s.b));
    }
  }
};
using FmaF32 = Fma<float>;
using FmaF64 = Fma<double>;

// Zeroes every accumulator of a State (float or double arrays).
template <typename T, int N> __device__ __forceinline__ void zero(T (&x)[N]) {
#pragma unroll
  for (int i = 0; i < N; ++i)
    x[i] = T(0);
}
template <typename T, int N, int M>
__device__ __forceinline__ void zero(T (&x)[N][M]) {
#pragma unroll
  for (int i = 0; i < N; ++i)
    zero(x[i]);
}
template <typename T, int N> __device__ __forceinline__ float total(T (&x)[N]) {
  float s = 0.0f;
#pragma unroll
  for (int i = 0; i < N; ++i)
    s += float(x[i]);
  return s;
}
template <typename T, int N, int M>
__device__ __forceinline__ float total(T (&x)[N][M]) {
  float s = 0.0f;
#pragma unroll
  for (int i = 0; i < N; ++i)
    s += total(x[i]);
  return s;
}

template <typename Op>
__global__ void __launch_bounds__(kThreads) peakKernel(int iters, float *sink) {
  typename Op::State s;
  zero(s.acc);
  Op::init(s, threadIdx.x & 31);
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int u = 0; u < Op::kUnroll; ++u)
      Op::step(s);
  }
  float r = total(s.acc);
  // Practically never true; keeps the results live.
  if (r == 1234.5f)
    sink[blockIdx.x * blockDim.x + threadIdx.x] = r;
}

struct Peak {
  bool ran = false;
  double ms = 0, tflops = 0;
  int blocks = 0, blocksPerSm = 0, iters = 0, chains = 0, unroll = 0;
};

int smOf(const cudaDeviceProp &prop) { return prop.major * 10 + prop.minor; }

/// Times peakKernel<Op> (best of 3 after a warm-up) on one full wave of
/// blocks; `ran` is false (nothing launched) when the device or the code the
/// runtime chose for it predates Op::kMinSm.
template <typename Op>
Peak measurePeak(const cudaDeviceProp &prop, int iters, float *sink) {
  Peak p;
  p.iters = iters;
  p.chains = Op::kChains;
  p.unroll = Op::kUnroll;
  cudaFuncAttributes attr;
  RT_CHECK(cudaFuncGetAttributes(&attr, peakKernel<Op>));
  if (smOf(prop) < Op::kMinSm || attr.ptxVersion < Op::kMinSm)
    return p;
  RT_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &p.blocksPerSm, peakKernel<Op>, kThreads, 0));
  p.blocksPerSm = std::max(p.blocksPerSm, 1);
  p.blocks = p.blocksPerSm * prop.multiProcessorCount;

  cudaEvent_t start, stop;
  RT_CHECK(cudaEventCreate(&start));
  RT_CHECK(cudaEventCreate(&stop));
  // Warm-up (clocks up, module loaded).
  peakKernel<Op><<<p.blocks, kThreads>>>(iters / 10 + 1, sink);
  RT_CHECK(cudaGetLastError());
  RT_CHECK(cudaDeviceSynchronize());
  double best = 1e30;
  for (int rep = 0; rep < 3; ++rep) {
    RT_CHECK(cudaEventRecord(start));
    peakKernel<Op><<<p.blocks, kThreads>>>(iters, sink);
    RT_CHECK(cudaGetLastError());
    RT_CHECK(cudaEventRecord(stop));
    RT_CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    RT_CHECK(cudaEventElapsedTime(&ms, start, stop));
    best = std::min(best, double(ms));
  }
  RT_CHECK(cudaEventDestroy(start));
  RT_CHECK(cudaEventDestroy(stop));
  double warps = double(p.blocks) * (kThreads / 32);
  double flop = warps * iters * Op::kUnroll * Op::kChains * Op::kFlopPerInst;
  p.ran = true;
  p.ms = best;
  p.tflops = flop / (best * 1e-3) / 1e12;
  return p;
}

void printConfig(const Peak &p, const char *per) {
  std::printf("  %d blocks (%d per SM) x %d threads, %d iterations x %d "
              "independent chains per %s",
              p.blocks, p.blocksPerSm, kThreads, p.iters, p.chains, per);
  if (p.unroll > 1)
    std::printf(" x %d unrolled", p.unroll);
  std::printf("\n");
}

/// The figures of this run, by unit, for --profile-out.
std::map<std::string, double> measuredTflops;

void printMachine(const char *unit, const Peak &p) {
  std::printf("ROOFLINE unit=%s tflops=%.3f\n", unit, p.tflops);
  measuredTflops[unit] = p.tflops;
}

/// Writes the device profile (docs/DeviceProfile.md) of this run to `path`:
/// the measured bandwidth and peaks and the device's on-chip limits.
int writeProfile(const char *path, int device, const cudaDeviceProp &prop,
                 double gbs) {
  std::FILE *f = std::fopen(path, "w");
  if (!f) {
    std::fprintf(stderr, "stencil-run: error: cannot write '%s'\n", path);
    return 2;
  }
  char date[32] = "";
  std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof(date), "%Y-%m-%d", std::gmtime(&now));
  std::fprintf(f, "# stencil device profile v1 (docs/DeviceProfile.md)\n");
  std::fprintf(f, "version = 1\n");
  std::fprintf(f, "name = %s\n", prop.name);
  std::fprintf(f, "chip = sm_%d%d\n", prop.major, prop.minor);
  std::fprintf(f, "source = stencil-run --roofline, device %d, %s\n", device,
               date);
  std::fprintf(f, "sms = %d\n", prop.multiProcessorCount);
  std::fprintf(f, "shared_bytes_per_sm = %zu\n",
               prop.sharedMemPerMultiprocessor);
  std::fprintf(f, "shared_bytes_per_block = %zu\n",
               prop.sharedMemPerBlockOptin);
  std::fprintf(f, "registers_per_sm = %d\n", prop.regsPerMultiprocessor);
  std::fprintf(f, "bandwidth_gbs = %.1f\n", gbs);
  for (const auto &[unit, tflops] : measuredTflops)
    std::fprintf(f, "peak.%s = %.1f\n", unit.c_str(), tflops);
  if (std::fclose(f) != 0) {
    std::fprintf(stderr, "stencil-run: error: cannot write '%s'\n", path);
    return 2;
  }
  std::printf("device profile written to %s\n", path);
  return 0;
}

/// Prints a measured peak: "<label>: <ms> ms, <rate> TFLOP/s (<flop> flop
/// per [lane per ]instruction)", its launch configuration and its ROOFLINE
/// line for `unit`. `perLane`: a CUDA-core instruction (counted per lane,
/// chains per thread), else a warp-level MMA.
void reportPeak(const std::string &label, const char *flop, bool perLane,
                const char *unit, const Peak &p) {
  std::printf("%s: %.3f ms, %.1f TFLOP/s (%s flop per %sinstruction)\n",
              label.c_str(), p.ms, p.tflops, flop, perLane ? "lane per " : "");
  printConfig(p, perLane ? "thread" : "warp");
  printMachine(unit, p);
}

} // namespace

int runRoofline(int device, std::size_t copyBytes, const char *profileOut) {
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
  double gbs = 0;
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
    gbs = 2.0 * double(copyBytes) * reps / (ms * 1e-3) / 1e9;
    std::printf("bandwidth: cuMemcpyDtoD %.3f GiB x %d: %.3f ms, %.1f GB/s "
                "(read + write bytes)\n",
                double(copyBytes) / (1u << 30), reps, ms, gbs);
    std::printf("  memory-bound stencil ceiling (1 read + 1 write per point): "
                "f16/bf16 %.1f, f32 %.1f, f64 %.1f GStencil/s\n",
                gbs / 4.0, gbs / 8.0, gbs / 16.0);
    std::printf("ROOFLINE unit=bandwidth gbs=%.3f\n", gbs);
    DRV_CHECK(cuEventDestroy(start));
    DRV_CHECK(cuEventDestroy(stop));
    DRV_CHECK(cuMemFree(src));
    DRV_CHECK(cuMemFree(dst));
  }

  // (b)-(e) Arithmetic-unit throughput. The iteration counts give roughly
  // 5-20 ms per kernel on an A100/H100/H200.
  float *sink = nullptr;
  RT_CHECK(cudaMalloc(&sink, sizeof(float) * prop.multiProcessorCount *
                                 prop.maxThreadsPerMultiProcessor));

  // (b), (c) f16 tensor cores.
  reportPeak("mma.sync m16n8k16 f16*f16+f32", "2*16*8*16", false, "mma.f16",
             measurePeak<MmaF16>(prop, 16384, sink));
  reportPeak("mma.sync m16n8k16 bf16*bf16+f32", "2*16*8*16", false,
             "mma.bf16", measurePeak<MmaBF16>(prop, 16384, sink));
  Peak sparse = measurePeak<MmaSpF16>(prop, 16384, sink);
  std::printf("mma.sp   m16n8k32 f16*f16+f32: %.3f ms, %.1f TFLOP/s "
              "dense-equivalent (2*16*8*32 flop per instruction; %.1f "
              "TFLOP/s of multiplications actually performed)\n",
              sparse.ms, sparse.tflops, sparse.tflops / 2);
  printConfig(sparse, "warp");
  printMachine("mma.sp.f16", sparse);

  // (d) f64 tensor cores.
  reportPeak("mma.sync m8n8k4   f64*f64+f64", "2*8*8*4", false, "mma.f64",
             measurePeak<MmaF64M8N8K4>(prop, 16384, sink));
  struct Sm90Shape {
    const char *shape, *unit, *flop;
    Peak (*measure)(const cudaDeviceProp &, int, float *);
    int iters;
  };
  const Sm90Shape sm90Shapes[] = {
      {"m16n8k4 ", "mma.f64.m16n8k4", "2*16*8*4", measurePeak<MmaF64M16N8K4>,
       16384},
      {"m16n8k8 ", "mma.f64.m16n8k8", "2*16*8*8", measurePeak<MmaF64M16N8K8>,
       8192},
      {"m16n8k16", "mma.f64.m16n8k16", "2*16*8*16",
       measurePeak<MmaF64M16N8K16>, 8192},
  };
  for (const Sm90Shape &s : sm90Shapes) {
    Peak p = s.measure(prop, s.iters, sink);
    if (!p.ran) {
      std::printf("mma.sync %s f64*f64+f64: skipped (needs sm_90; device is "
                  "sm_%d%d)\n",
                  s.shape, prop.major, prop.minor);
      continue;
    }
    reportPeak(std::string("mma.sync ") + s.shape + " f64*f64+f64", s.flop,
               false, s.unit, p);
  }

  // (e) CUDA cores.
  reportPeak("fma.rn.f32 (FFMA)", "2", true, "fma.f32",
             measurePeak<FmaF32>(prop, 4096, sink));
  reportPeak("fma.rn.f64 (DFMA)", "2", true, "fma.f64",
             measurePeak<FmaF64>(prop, 2048, sink));

  RT_CHECK(cudaFree(sink));
  return profileOut ? writeProfile(profileOut, device, prop, gbs) : 0;
}
