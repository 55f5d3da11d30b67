//===- RunDriver.h - what stencil-run's modes share -------------*- C++ -*-===//
//
// The options of stencil-run (StencilRun.cpp parses them), its error exits,
// and the check against the f64 CPU reference, for the drivers of its modes:
// one GPU (StencilRun.cpp) and several (MultiRun.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef STENCIL_RUN_RUNDRIVER_H
#define STENCIL_RUN_RUNDRIVER_H

#include "LaunchDescription.h"

#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace stencil_run {

/// stencil-run's command line (see its --help).
struct Options {
  std::string descPath;
  std::vector<int64_t> grid;
  int steps = 10;
  bool stepsGiven = false;
  int warmup = 1;
  std::string input, saveInput, saveOutput, ptxOverride;
  std::vector<double> weights; ///< --weights; empty: the compiled ones
  uint64_t seed = 1;
  bool check = true;
  int checkSteps = 2;
  double checkLimit = 2e10;
  unsigned threads = 0;
  int device = 0;
  bool verbose = false;
  int gpus = 1;
  bool noSingle = false;
  bool sameDevice = false;
  bool roofline = false;
  size_t copyBytes = size_t(1) << 30;
  std::string profileOut;
};

/// Prints "stencil-run: error: MSG" and exits with 2.
[[noreturn]] void fatal(const std::string &msg);
/// Exits with 2 and the error's name where `res` is not CUDA_SUCCESS.
void checkCu(CUresult res, const char *expr, const char *file, int line);
#define CU(expr) ::stencil_run::checkCu((expr), #expr, __FILE__, __LINE__)

/// "N0xN1x..." (outermost first).
std::string gridText(const std::vector<int64_t> &g);
/// Threads of the host work (input, packing, the reference): --threads, or
/// all.
unsigned hostThreads(const Options &opts);

struct CheckResult {
  double maxErr = 0;
  double tol = 0;
  double maxAbs = 0;
  size_t worst = 0;
  size_t bad = 0;
  bool pass = false;
};

/// Compares `gpu` with `steps` steps of the CPU reference on the grid
/// `dims` from `input`; only planes [planeBegin, planeEnd) of the
/// outermost dimension (all for planeEnd < 0), which `gpu` holds.
CheckResult check(const LaunchDescription &desc, const Options &opts,
                  const std::vector<int64_t> &dims,
                  const std::vector<double> &input,
                  const std::vector<double> &gpu, int steps,
                  int64_t planeBegin = 0, int64_t planeEnd = -1);

} // namespace stencil_run

#endif
