//===- MultiRun.cpp - stencil-run over several GPUs -----------------------===//
//
// See MultiRun.h.
//
//===----------------------------------------------------------------------===//

#include "MultiRun.h"
#include "HostUtil.h"
#include "LaunchPlan.h"
#include "RunDriver.h"

#include "stencil-runtime/StencilMultiGpu.h"
#include "stencil-runtime/StencilRuntime.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <random>

using namespace stencil_run;

MultiGpuRun::MultiGpuRun(const std::string &descPath,
                         const std::vector<int64_t> &dims, int gpus,
                         int oneDevice, std::string &error)
    : dims(dims) {
  std::vector<int> devices(gpus);
  for (int i = 0; i < gpus; ++i)
    devices[i] = oneDevice >= 0 ? oneDevice : i;
  if (stencil_multi_create(descPath.c_str(), dims.data(), int(dims.size()),
                           devices.data(), gpus, 0,
                           &multi) != STENCIL_SUCCESS) {
    error = stencil_multi_last_error();
    multi = nullptr;
    return;
  }
  stencil_kernel *kernel = nullptr;
  stencil_multi_local(multi, 0, nullptr, nullptr, &kernel);
  planeBytes = stencil_element_size(stencil_kernel_element_type(kernel));
  for (size_t k = 1; k < dims.size(); ++k)
    planeBytes *= size_t(dims[k]);
}

MultiGpuRun::~MultiGpuRun() { stencil_multi_destroy(multi); }

bool MultiGpuRun::upload(const void *host, int64_t first, int64_t count,
                         std::string &error) {
  if (stencil_multi_upload(multi, host, first, count) != STENCIL_SUCCESS) {
    error = stencil_multi_last_error();
    return false;
  }
  return true;
}

bool MultiGpuRun::upload(
    const std::function<std::vector<uint8_t>(int64_t, int64_t)> &planes,
    int64_t chunkPlanes, std::string &error) {
  for (int64_t first = 0; first < dims[0]; first += chunkPlanes) {
    int64_t count = std::min(chunkPlanes, dims[0] - first);
    if (!upload(planes(first, count).data(), first, count, error))
      return false;
  }
  return true;
}

bool MultiGpuRun::run(int64_t steps, unsigned flags, double &ms,
                      std::string &error) {
  if (stencil_multi_synchronize(multi) != STENCIL_SUCCESS) {
    error = stencil_multi_last_error();
    return false;
  }
  auto start = std::chrono::steady_clock::now();
  if (stencil_multi_run(multi, steps, flags) != STENCIL_SUCCESS ||
      stencil_multi_synchronize(multi) != STENCIL_SUCCESS) {
    error = stencil_multi_last_error();
    return false;
  }
  ms = std::chrono::duration<double, std::milli>(
           std::chrono::steady_clock::now() - start)
           .count();
  return true;
}

bool MultiGpuRun::download(int64_t first, int64_t count,
                           std::vector<uint8_t> &out, std::string &error) {
  out.resize(size_t(count) * planeBytes);
  if (stencil_multi_download(multi, out.data(), first, count) !=
      STENCIL_SUCCESS) {
    error = stencil_multi_last_error();
    return false;
  }
  return true;
}

std::string MultiGpuRun::describe() const {
  std::string s;
  for (int r = 0; r < stencil_multi_num_ranks(multi); ++r) {
    int64_t b = 0, e = 0, lo = 0, hi = 0;
    stencil_multi_slab(multi, r, &b, &e, &lo, &hi);
    int device = -1;
    stencil_multi_local(multi, r, &device, nullptr, nullptr);
    s += "  rank " + std::to_string(r) + " (device " + std::to_string(device) +
         "): planes [" + std::to_string(b) + ", " + std::to_string(e) +
         "), halos " + std::to_string(lo) + " + " + std::to_string(hi) +
         (stencil_multi_overlaps(multi, r) ? ", exchange overlapped"
                                           : ", no overlap") +
         "\n";
  }
  return s;
}

int64_t MultiGpuRun::halo() const { return stencil_multi_halo(multi); }

std::vector<int64_t> MultiGpuRun::slabStarts() const {
  std::vector<int64_t> starts;
  for (int r = 0; r < stencil_multi_num_ranks(multi); ++r) {
    int64_t b = 0;
    stencil_multi_slab(multi, r, &b, nullptr, nullptr, nullptr);
    starts.push_back(b);
  }
  return starts;
}

//===----------------------------------------------------------------------===//
// The drivers of stencil-run --gpus N
//===----------------------------------------------------------------------===//

/// The four timings of a run over several GPUs (ms).
namespace {
struct MultiTimes {
  double overlap = 0, noOverlap = 0, compute = 0, exchange = 0;
};
} // namespace

/// Times `steps` steps with the overlap, without it, the compute alone and
/// the exchange alone (on whatever the buffers hold).
static MultiTimes timeSplit(MultiGpuRun &run, int steps) {
  MultiTimes t;
  std::string error;
  if (!run.run(steps, 0, t.overlap, error) ||
      !run.run(steps, STENCIL_MULTI_NO_OVERLAP, t.noOverlap, error) ||
      !run.run(steps, STENCIL_MULTI_COMPUTE_ONLY, t.compute, error) ||
      !run.run(steps, STENCIL_MULTI_EXCHANGE_ONLY, t.exchange, error))
    fatal("multi-gpu: " + error);
  return t;
}

static void printSplit(const MultiTimes &t, int steps, size_t points) {
  std::printf("multi-gpu time (%d steps): %.4f ms with the overlap (%.3f "
              "GStencil/s), %.4f ms without; compute alone %.4f ms, exchange "
              "alone %.4f ms (hidden: %.4f ms)\n",
              steps, t.overlap, double(steps) * points / (t.overlap * 1e6),
              t.noOverlap, t.compute, t.exchange,
              t.compute + t.exchange - t.overlap);
}

/// The machine-readable MULTI line of a run over `opts.gpus` GPUs;
/// `msOneGpu` < 0 when there was no 1-GPU run (then no speedup, and no
/// bitwise comparison).
static void printMultiLine(const LaunchDescription &desc, const Options &opts,
                           size_t points, const MultiTimes &t, double msOneGpu,
                           const char *bitwise, const std::string &check,
                           double maxErr, double tol) {
  char single[64] = "ms_1gpu=none";
  if (msOneGpu >= 0)
    std::snprintf(single, sizeof(single), "ms_1gpu=%.6f speedup=%.4f", msOneGpu,
                  msOneGpu / t.overlap);
  std::printf("MULTI kernel=%s gpus=%d grid=%s type=%s steps=%d ms=%.6f "
              "ms_no_overlap=%.6f ms_compute=%.6f ms_exchange=%.6f "
              "gstencil_s=%.6f %s bitwise=%s check=%s max_err=%.6g tol=%.6g\n",
              desc.kernel.c_str(), opts.gpus, gridText(opts.grid).c_str(),
              elemTypeName(desc.elementType), opts.steps, t.overlap,
              t.noOverlap, t.compute, t.exchange,
              double(opts.steps) * points / (t.overlap * 1e6), single, bitwise,
              check.c_str(), maxErr, tol);
}

/// The grid of `opts` split over its --gpus ranks (all on --device with
/// --same-device, else devices 0 .. N - 1 of the `deviceCount`); exits on
/// failure.
static std::unique_ptr<MultiGpuRun> openRun(const Options &opts,
                                            int deviceCount) {
  if (opts.gpus > deviceCount && !opts.sameDevice)
    fatal("--gpus " + std::to_string(opts.gpus) + " but only " +
          std::to_string(deviceCount) + " CUDA device(s)");
  std::string error;
  auto run =
      std::make_unique<MultiGpuRun>(opts.descPath, opts.grid, opts.gpus,
                                    opts.sameDevice ? opts.device : -1, error);
  if (!run->ok())
    fatal("multi-gpu: " + error);
  return run;
}

int stencil_run::runMultiOnly(const LaunchDescription &desc,
                              const Options &opts) {
  const std::vector<int64_t> &dims = opts.grid;
  const ElemType et = desc.elementType;
  const unsigned threads = hostThreads(opts);
  size_t plane = 1;
  for (size_t k = 1; k < dims.size(); ++k)
    plane *= size_t(dims[k]);
  const size_t points = plane * size_t(dims[0]);
  const size_t planeBytes = plane * elemTypeBytes(et);
  CU(cuInit(0));
  int count = 0;
  CU(cuDeviceGetCount(&count));
  std::unique_ptr<MultiGpuRun> split = openRun(opts, count);
  MultiGpuRun &run = *split;
  std::string error;
  std::printf("grid: %s %s (%zu points, %.1f GB per buffer) over %d GPUs, "
              "halo %lld planes\n%s",
              gridText(dims).c_str(), elemTypeName(et), points,
              double(points) * elemTypeBytes(et) / 1e9, opts.gpus,
              static_cast<long long>(run.halo()), run.describe().c_str());
  auto planes = [&](int64_t first, int64_t n) {
    return packElements(randomInputRange(size_t(first) * plane,
                                         size_t(n) * plane, et, opts.seed,
                                         threads),
                        et, threads);
  };
  const int64_t chunk =
      std::max<int64_t>(1, int64_t((size_t(1) << 30) / planeBytes));
  std::printf("input: random uniform [-1, 1), seed %llu, rounded to %s, "
              "made and uploaded %lld planes at a time\n",
              static_cast<unsigned long long>(opts.seed), elemTypeName(et),
              static_cast<long long>(chunk));
  if (!run.upload(planes, chunk, error))
    fatal("multi-gpu: " + error);
  double ms = 0;
  int warm = int(stencil_runtime::roundUpToWholeLaunches(desc, opts.warmup));
  if (warm && !run.run(warm, 0, ms, error))
    fatal("multi-gpu: " + error);
  MultiTimes t = timeSplit(run, opts.steps);
  printSplit(t, opts.steps, points);

  std::string checkWord = "SKIPPED";
  int exitCode = 0;
  double worstErr = 0, worstTol = 0;
  if (opts.check) {
    // A separate run from the input, checked on windows of planes.
    const int checkSteps =
        std::min(int(stencil_runtime::roundUpToWholeLaunches(
                     desc, opts.checkSteps)),
                 opts.steps);
    if (!run.upload(planes, chunk, error) || !run.run(checkSteps, 0, ms, error))
      fatal("multi-gpu: " + error);
    const int64_t n = dims[0];
    const int64_t reach =
        int64_t(checkSteps) * stencil_runtime::getRadii(desc)[0];
    const int64_t w = std::max<int64_t>(run.halo(), 1) + 2;
    std::vector<int64_t> centers = run.slabStarts();
    centers.push_back(n);
    std::mt19937_64 rng(opts.seed);
    for (int i = 0; i < 3; ++i)
      centers.push_back(int64_t(rng() % uint64_t(n)));
    std::sort(centers.begin(), centers.end());
    std::vector<std::pair<int64_t, int64_t>> windows;
    for (int64_t c : centers) {
      int64_t b = std::max<int64_t>(0, c - w), e = std::min(n, c + w);
      if (!windows.empty() && b <= windows.back().second)
        windows.back().second = std::max(windows.back().second, e);
      else
        windows.push_back({b, e});
    }
    const bool periodic = desc.boundary == Boundary::Periodic;
    bool pass = true;
    int64_t checkedPlanes = 0;
    for (auto [p0, p1] : windows) {
      // The window's planes and `reach` more on each side (wrapped when
      // periodic, clipped at the grid's edges, where the semantics is the
      // grid's): the reference is exact on [p0, p1).
      int64_t lo = periodic ? reach : std::min(reach, p0);
      int64_t hi = periodic ? reach : std::min(reach, n - p1);
      std::vector<double> input;
      for (int64_t i = p0 - lo; i < p1 + hi; ++i) {
        int64_t g = ((i % n) + n) % n;
        std::vector<double> v =
            randomInputRange(size_t(g) * plane, plane, et, opts.seed, threads);
        input.insert(input.end(), v.begin(), v.end());
      }
      std::vector<uint8_t> bytes;
      if (!run.download(p0, p1 - p0, bytes, error))
        fatal("multi-gpu: " + error);
      std::vector<int64_t> local = dims;
      local[0] = p1 - p0 + lo + hi;
      CheckResult r =
          check(desc, opts, local, input, unpackElements(bytes, et, threads),
                checkSteps, lo, lo + p1 - p0);
      std::printf("check: planes [%lld, %lld), %d steps vs f64 CPU reference: "
                  "max abs error %.6g, tolerance %.6g: %s\n",
                  static_cast<long long>(p0), static_cast<long long>(p1),
                  checkSteps, r.maxErr, r.tol, r.pass ? "PASS" : "FAIL");
      pass &= r.pass;
      worstErr = std::max(worstErr, r.maxErr);
      worstTol = std::max(worstTol, r.tol);
      checkedPlanes += p1 - p0;
    }
    std::printf("check: %lld of %lld planes (every slab boundary, the edges, "
                "3 random) checked: %s\n",
                static_cast<long long>(checkedPlanes),
                static_cast<long long>(n), pass ? "PASS" : "FAIL");
    checkWord = pass ? "PASS" : "FAIL";
    exitCode = pass ? 0 : 1;
  }
  printMultiLine(desc, opts, points, t, -1, "skipped", checkWord, worstErr,
                 worstTol);
  return exitCode;
}

int stencil_run::runMultiAfterSingle(const LaunchDescription &desc,
                                     const Options &opts, int deviceCount,
                                     const std::vector<uint8_t> &hostInput,
                                     const std::vector<uint8_t> &result,
                                     double ms, const std::string &checkWord,
                                     double maxErr, double tol) {
  const std::vector<int64_t> &dims = opts.grid;
  const ElemType et = desc.elementType;
  size_t points = 1;
  for (int64_t d : dims)
    points *= size_t(d);
  std::unique_ptr<MultiGpuRun> split = openRun(opts, deviceCount);
  MultiGpuRun &run = *split;
  std::string error;
  std::printf("multi-gpu: %d GPUs, halo %lld planes\n%s", opts.gpus,
              static_cast<long long>(run.halo()), run.describe().c_str());
  double ms1 = 0;
  if (!run.upload(hostInput.data(), 0, dims[0], error) ||
      (opts.warmup > 0 &&
       !run.run(int(stencil_runtime::roundUpToWholeLaunches(desc,
                                                             opts.warmup)),
                0, ms1, error)) ||
      !run.upload(hostInput.data(), 0, dims[0], error) ||
      !run.run(opts.steps, 0, ms1, error))
    fatal("multi-gpu: " + error);
  std::vector<uint8_t> multiResult;
  if (!run.download(0, dims[0], multiResult, error))
    fatal("multi-gpu: " + error);
  size_t differ = 0, first = 0;
  for (size_t i = 0; i < multiResult.size(); ++i)
    if (multiResult[i] != result[i] && differ++ == 0)
      first = i;
  const bool same = differ == 0;
  std::printf("multi-gpu: result after %d steps %s the 1-GPU result bit for "
              "bit",
              opts.steps, same ? "equals" : "DIFFERS FROM");
  if (!same)
    std::printf(" (%zu bytes differ, the first at element %zu)", differ,
                first / elemTypeBytes(et));
  std::printf("\n");
  MultiTimes t = timeSplit(run, opts.steps);
  printSplit(t, opts.steps, points);
  printMultiLine(desc, opts, points, t, ms, same ? "yes" : "NO", checkWord,
                 maxErr, tol);
  return same ? 0 : 1;
}
