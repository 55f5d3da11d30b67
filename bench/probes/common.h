// Shared by the hand-written measurement probes of bench/probes/*/probe.cu
// (not part of the compiler): each times a 3-D radius-1 stencil of a 16-bit
// grid (Heat-3D's 7-point star or the 27-point box) on a schedule the
// compiler does not generate, beside the compiler's kernels
// (bench/probes/run.sh). This header holds what they share: the error check,
// the weights, the f64 reference and error of a check, and the timing loop.
#ifndef STENCIL_BENCH_PROBE_COMMON_H
#define STENCIL_BENCH_PROBE_COMMON_H

#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#define CK(x)                                                                  \
  do {                                                                         \
    cudaError_t e = (x);                                                       \
    if (e != cudaSuccess) {                                                    \
      std::printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, \
                  __LINE__);                                                   \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

// The stencil's weights, w(dz, dy, dx) at (dz+1)*9 + (dy+1)*3 + dx+1.
__constant__ float cw[27];

// Whether point (dz, dy, dx) is one of the stencil's (STAR: the 7-point
// star of Heat-3D; else the 27-point box).
template <bool STAR>
__host__ __device__ constexpr bool hasPoint(int dz, int dy, int dx) {
  return STAR ? (dz != 0) + (dy != 0) + (dx != 0) <= 1 : true;
}

__device__ __forceinline__ unsigned smemAddr(const void *p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

// The plane sums' uses of a staged row r (0 .. OUT + 1: the rows from one
// above a thread's first output row to one below its last): f(k, dy, dz)
// for each of its output rows k that the row feeds (dy = r - 1 - k in
// [-1, 1]) and each plane offset dz in [-1, 1].
template <int OUT, class F>
__device__ __forceinline__ void forEachRowUse(int r, F f) {
#pragma unroll
  for (int k = 0; k < OUT; ++k) {
    const int dy = r - 1 - k;
    if (dy < -1 || dy > 1)
      continue;
#pragma unroll
    for (int dz = -1; dz <= 1; ++dz)
      f(k, dy, dz);
  }
}

// The copy engine's completion barriers and its bulk copies (PTX ISA,
// "mbarrier" and "cp.async.bulk"), for the probes that stage through it;
// `bar` is the shared-memory address of an 8-byte mbarrier.
__device__ __forceinline__ void mbarrierInit(unsigned bar, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar),
               "r"(count));
}
// After the initialisations, before the barrier that publishes them.
__device__ __forceinline__ void mbarrierInitFence() {
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}
// One arrival that also expects `bytes` more of the copies.
__device__ __forceinline__ void mbarrierExpect(unsigned bar, unsigned bytes) {
  asm volatile(
      "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar),
      "r"(bytes)
      : "memory");
}
// `bytes` (a multiple of 16, both addresses 16-byte aligned) from global
// `src` to shared `dst`, completing on `bar`.
__device__ __forceinline__ void bulkCopy(unsigned dst, const void *src,
                                         unsigned bytes, unsigned bar) {
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes "
      "[%0], [%1], %2, [%3];" ::"r"(dst),
      "l"(src), "r"(bytes), "r"(bar)
      : "memory");
}
// Waits until the phase of parity `parity` of `bar` has completed.
__device__ __forceinline__ void mbarrierWait(unsigned bar, unsigned parity) {
  asm volatile("{\n.reg .pred p;\nWAIT_%=:\n"
               "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
               "@!p bra WAIT_%=;\n}" ::"r"(bar),
               "r"(parity)
               : "memory");
}

// Random positive weights of the star and of the box, each summing to 1
// (so values in [0, 1) stay there), the same in every probe.
struct ProbeWeights {
  std::vector<float> star, box;
};
inline ProbeWeights makeWeights() {
  std::mt19937 rng(2025);
  std::uniform_real_distribution<float> dist(0.05f, 1.f);
  ProbeWeights w{std::vector<float>(27, 0.f), std::vector<float>(27, 0.f)};
  double ss = 0, sb = 0;
  for (int j = 0; j < 27; ++j) {
    w.box[j] = dist(rng);
    sb += w.box[j];
    int dz = j / 9 - 1, dy = j / 3 % 3 - 1, dx = j % 3 - 1;
    if (hasPoint<true>(dz, dy, dx)) {
      w.star[j] = dist(rng);
      ss += w.star[j];
    }
  }
  for (int j = 0; j < 27; ++j) {
    w.star[j] = (float)(w.star[j] / ss);
    w.box[j] = (float)(w.box[j] / sb);
  }
  return w;
}

// A check's input: nx x ny x nz values uniform in [0, 1) (seed 7), as f16
// and as the f64 values of those halves.
struct CheckGrid {
  int nx, ny, nz;
  std::vector<__half> half;
  std::vector<double> exact;
  size_t count() const { return half.size(); }
};
inline CheckGrid makeCheckGrid(int nx, int ny, int nz) {
  CheckGrid grid{nx, ny, nz, {}, {}};
  size_t count = (size_t)nx * ny * nz;
  grid.half.resize(count);
  grid.exact.resize(count);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(0.f, 1.f);
  for (size_t j = 0; j < count; ++j) {
    grid.half[j] = __float2half(dist(rng));
    grid.exact[j] = __half2float(grid.half[j]);
  }
  return grid;
}

// One step of the stencil w in f64 with the halo boundary (points on the
// grid's faces keep their value).
template <bool STAR>
std::vector<double> referenceStep(const std::vector<double> &in, int nx, int ny,
                                  int nz, const std::vector<double> &w) {
  std::vector<double> next = in;
  for (int z = 1; z < nz - 1; ++z)
    for (int y = 1; y < ny - 1; ++y)
      for (int x = 1; x < nx - 1; ++x) {
        double s = 0;
        for (int dz = -1; dz <= 1; ++dz)
          for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx)
              if (hasPoint<STAR>(dz, dy, dx))
                s += w[(dz + 1) * 9 + (dy + 1) * 3 + dx + 1] *
                     in[((size_t)(z + dz) * ny + y + dy) * nx + x + dx];
        next[((size_t)z * ny + y) * nx + x] = s;
      }
  return next;
}

// The largest |reference - result| over the grid.
inline double maxError(const std::vector<double> &reference,
                       const std::vector<__half> &result) {
  double maxErr = 0;
  for (size_t j = 0; j < reference.size(); ++j)
    maxErr = std::fmax(
        maxErr, std::fabs(reference[j] - (double)__half2float(result[j])));
  return maxErr;
}

// Two device grids of `count` halves, the ping-pong buffers of a check or
// a timing, holding `init` (zeros without it); freed with the object.
struct PingPong {
  __half *a = nullptr, *b = nullptr;
  size_t count;
  explicit PingPong(size_t count, const std::vector<__half> *init = nullptr)
      : count(count) {
    CK(cudaMalloc(&a, count * 2));
    CK(cudaMalloc(&b, count * 2));
    for (__half *grid : {a, b})
      if (init)
        CK(cudaMemcpy(grid, init->data(), count * 2, cudaMemcpyHostToDevice));
      else
        CK(cudaMemset(grid, 0, count * 2));
  }
  PingPong(const PingPong &) = delete;
  PingPong &operator=(const PingPong &) = delete;
  ~PingPong() {
    cudaFree(a);
    cudaFree(b);
  }
  // `grid` (a or b) on the host, after the kernels before it have run.
  std::vector<__half> read(const __half *grid) const {
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<__half> host(count);
    CK(cudaMemcpy(host.data(), grid, count * 2, cudaMemcpyDeviceToHost));
    return host;
  }
};

// Prints a check's line, "CHECK <label> max_err=... tol=... PASS|FAIL".
inline bool reportCheck(const char *label, double maxErr, double tol) {
  std::printf("CHECK %s max_err=%.3g tol=%.3g %s\n", label, maxErr, tol,
              maxErr <= tol ? "PASS" : "FAIL");
  return maxErr <= tol;
}

// Milliseconds of `steps` calls of launch(s) (s = 0, 1, ...: the step,
// whose parity picks the ping-pong buffers), after 4 warm-up calls.
template <class Launch> float timeSteps(int steps, Launch launch) {
  for (int s = 0; s < 4; ++s)
    launch(s);
  CK(cudaDeviceSynchronize());
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  CK(cudaEventRecord(e0));
  for (int s = 0; s < steps; ++s)
    launch(s);
  CK(cudaEventRecord(e1));
  CK(cudaEventSynchronize(e1));
  CK(cudaGetLastError());
  float ms = 0;
  CK(cudaEventElapsedTime(&ms, e0, e1));
  CK(cudaEventDestroy(e0));
  CK(cudaEventDestroy(e1));
  return ms;
}

// Whether the variant `name` runs: PROBE_ONLY, when set, is a
// comma-separated list of substrings, and a variant runs when its name
// contains one of them.
inline bool probeSelected(const std::string &name) {
  const char *only = std::getenv("PROBE_ONLY");
  if (!only)
    return true;
  std::string list = only;
  for (size_t b = 0, e; b <= list.size(); b = e + 1) {
    e = std::min(list.find(',', b), list.size());
    if (e > b && name.find(list.substr(b, e - b)) != std::string::npos)
      return true;
  }
  return false;
}

// GStencil/s of `steps` steps of an n^3 grid in `ms` milliseconds.
inline double gstencils(int n, int steps, float ms) {
  return (double)n * n * n * steps / (ms * 1e-3) / 1e9;
}

#endif // STENCIL_BENCH_PROBE_COMMON_H
