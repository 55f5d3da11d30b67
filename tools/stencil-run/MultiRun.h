//===- MultiRun.h - stencil-run over several GPUs ---------------*- C++ -*-===//
//
// stencil-run --gpus N: the grid split over N GPUs by
// libStencilMultiGpu (runtime/include/stencil-runtime/StencilMultiGpu.h),
// timed with and without the overlap of exchange and compute, and the
// two apart. Built when NCCL is found (STENCIL_RUN_HAVE_MULTI_GPU).
//
//===----------------------------------------------------------------------===//
#ifndef STENCIL_RUN_MULTIRUN_H
#define STENCIL_RUN_MULTIRUN_H

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

struct stencil_multi;

namespace stencil_run {

class MultiGpuRun {
public:
  /// Splits the grid `dims` of the kernel at `descPath` over `gpus` ranks
  /// on devices 0 .. gpus - 1, or all on device `oneDevice` when it is not
  /// negative (a test on one GPU). On failure `error` is set.
  MultiGpuRun(const std::string &descPath, const std::vector<int64_t> &dims,
              int gpus, int oneDevice, std::string &error);
  ~MultiGpuRun();
  bool ok() const { return multi != nullptr; }

  /// Uploads planes [first, first + count) from `host` (packed elements).
  bool upload(const void *host, int64_t first, int64_t count,
              std::string &error);
  /// Uploads the whole grid, `chunkPlanes` planes at a time, each chunk
  /// made by `planes(first, count)` (packed elements).
  bool
  upload(const std::function<std::vector<uint8_t>(int64_t, int64_t)> &planes,
         int64_t chunkPlanes, std::string &error);
  /// Runs `steps` steps with `flags` (STENCIL_MULTI_*); returns the wall
  /// time in ms from the first launch queued to the last one done.
  bool run(int64_t steps, unsigned flags, double &ms, std::string &error);
  /// Planes [first, first + count) of the result (packed elements).
  bool download(int64_t first, int64_t count, std::vector<uint8_t> &out,
                std::string &error);
  /// One line per rank: its planes, halos and whether it overlaps.
  std::string describe() const;
  int64_t halo() const;
  /// The first own plane of each rank.
  std::vector<int64_t> slabStarts() const;

private:
  stencil_multi *multi = nullptr;
  size_t planeBytes = 0;
  std::vector<int64_t> dims;
};

struct LaunchDescription;
struct Options;

/// stencil-run --gpus N --no-single: the grid is never whole on the host.
/// The input is made and uploaded in chunks of planes; a separate run is
/// checked against the f64 reference on windows of planes (every slab
/// boundary, the grid's edges, 3 random planes). Returns the exit code.
int runMultiOnly(const LaunchDescription &desc, const Options &opts);

/// stencil-run --gpus N after the 1-GPU run of `hostInput` (packed
/// elements), whose packed `result` took `ms` and whose check gave
/// `checkWord`, `maxErr` and `tol`: the same input over N GPUs, compared
/// bit for bit with `result`, then the time split and the MULTI line.
/// Returns 1 when the results differ, else 0.
int runMultiAfterSingle(const LaunchDescription &desc, const Options &opts,
                        int deviceCount, const std::vector<uint8_t> &hostInput,
                        const std::vector<uint8_t> &result, double ms,
                        const std::string &checkWord, double maxErr,
                        double tol);

} // namespace stencil_run

#endif
