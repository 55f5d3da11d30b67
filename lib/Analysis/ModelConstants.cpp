//===- ModelConstants.cpp - The measured constants of the cost model ------===//
//
// The efficiencies of CostModel.h, per pipeline, rank and element size, and
// the run that set them. bench/calibrate.py fits them from a run of
// bench/run-auto.sh and prints this table; update both together.
//
//===----------------------------------------------------------------------===//

#include "stencil/Analysis/CostModel.h"

using namespace mlir;
using namespace mlir::stencil;

namespace {
struct ModelEntry {
  /// The pipeline ("sptc", "tc", "tc-lowrank", "cuda-core", "fft").
  StringRef pipeline;
  /// 0: any rank / element size.
  int64_t rank;
  int64_t elementBytes;
  ModelConstants constants;
};
} // namespace

// {pipeline, rank, element bytes, {eta_mem, eta_unit, gamma}}, fitted by
// bench/calibrate.py (grouping: pipeline x element size x rank) on every
// candidate of the 54 cases of bench/auto_cases.py (336 kernels), one run on
// an NVIDIA H100 80GB HBM3, 2026-11-24: bench/results/
// 2026-11-24-h100-auto-table{1,2,3}.txt, profile
// 2026-11-24-h100-auto-profile.txt (the built-in h100 profile). Leave one
// stencil out, these constants put auto within 5% of the best candidate on
// 43 of the 54 cases (worst 0.60); in sample the median prediction error is
// 4.9%, the 90th percentile 18% (bench/NOTES.md, "Choosing the pipeline").
static const ModelEntry kEntries[] = {
    {"cuda-core-f1", 1, 2, {0.93, 0.24, 0.7}},
    {"cuda-core-f1", 1, 8, {0.94, 1.00, 0.1}},
    {"cuda-core-f1", 2, 2, {0.51, 0.59, 1.0}},
    {"cuda-core-f1", 2, 4, {0.92, 0.74, 0.3}},
    {"cuda-core-f1", 2, 8, {1.00, 0.65, 0.0}},
    {"cuda-core-f1", 3, 2, {0.27, 0.53, 1.0}},
    {"cuda-core-f1", 3, 8, {0.98, 0.17, 0.0}},
    {"cuda-core-f2", 1, 2, {0.66, 0.20, 0.7}},
    {"cuda-core-f2", 1, 8, {0.94, 0.65, 0.1}},
    {"cuda-core-f2", 2, 2, {0.36, 0.56, 1.0}},
    {"cuda-core-f2", 2, 4, {0.71, 0.39, 1.0}},
    {"cuda-core-f2", 2, 8, {1.00, 0.76, 0.6}},
    {"cuda-core-f2", 3, 2, {0.23, 0.19, 0.4}},
    {"cuda-core-f3", 1, 2, {0.47, 0.20, 0.7}},
    {"cuda-core-f3", 1, 8, {1.00, 0.21, 0.2}},
    {"cuda-core-f3", 2, 2, {0.28, 0.55, 1.0}},
    {"cuda-core-f3", 2, 4, {0.48, 0.93, 0.1}},
    {"cuda-core-f3", 2, 8, {0.95, 0.68, 1.0}},
    {"cuda-core-f3", 3, 2, {0.18, 0.21, 0.5}},
    {"cuda-core-f4", 1, 2, {0.40, 0.24, 1.0}},
    {"cuda-core-f4", 1, 8, {1.00, 0.23, 0.4}},
    {"cuda-core-f4", 2, 2, {0.25, 0.54, 1.0}},
    {"cuda-core-f4", 2, 4, {0.54, 0.14, 0.6}},
    {"cuda-core-f4", 2, 8, {0.59, 0.38, 0.0}},
    {"fft-f1", 1, 8, {0.50, 0.12, 0.1}},
    {"fft-f1", 2, 8, {0.47, 0.41, 0.0}},
    {"fft-f1", 3, 8, {0.65, 0.46, 1.0}},
    {"fft-f2", 1, 8, {0.69, 0.14, 0.5}},
    {"fft-f2", 2, 8, {0.56, 0.44, 0.0}},
    {"fft-f2", 3, 8, {0.60, 0.34, 0.1}},
    {"fft-f3", 1, 8, {0.62, 0.15, 0.6}},
    {"fft-f3", 2, 8, {0.54, 0.44, 0.0}},
    {"fft-f3", 3, 8, {0.17, 0.34, 0.0}},
    {"fft-f4", 1, 8, {0.39, 0.18, 0.6}},
    {"fft-f4", 2, 8, {0.55, 0.47, 0.0}},
    {"fft-f4", 3, 8, {0.25, 0.79, 0.9}},
    {"sptc", 1, 2, {1.00, 0.06, 0.0}},
    {"sptc", 2, 2, {1.00, 0.30, 0.5}},
    {"sptc", 3, 2, {0.96, 0.23, 0.9}},
    {"tc", 1, 2, {1.00, 0.59, 0.1}},
    {"tc", 1, 8, {0.66, 1.00, 0.7}},
    {"tc", 2, 2, {1.00, 0.48, 0.5}},
    {"tc", 2, 8, {0.90, 0.45, 0.0}},
    {"tc", 3, 2, {0.52, 0.27, 0.0}},
    {"tc", 3, 8, {0.63, 0.27, 0.0}},
    {"tc-lowrank", 2, 2, {0.83, 0.20, 0.0}},
};

ModelConstants mlir::stencil::getModelConstants(StringRef pipeline,
                                                int64_t rank,
                                                int64_t elementBytes) {
  // The most specific entry: the pipeline before the rank before the
  // element size; then the pipeline without its fused steps.
  const ModelEntry *best = nullptr;
  int bestScore = -1;
  for (const ModelEntry &entry : kEntries) {
    if ((!entry.pipeline.empty() && entry.pipeline != pipeline) ||
        (entry.rank != 0 && entry.rank != rank) ||
        (entry.elementBytes != 0 && entry.elementBytes != elementBytes))
      continue;
    int score = (entry.pipeline.empty() ? 0 : 4) + (entry.rank ? 2 : 0) +
                (entry.elementBytes ? 1 : 0);
    if (score > bestScore) {
      best = &entry;
      bestScore = score;
    }
  }
  // A fused depth without entries takes those of the next smaller one
  // measured, then of the pipeline without fused steps.
  auto [base, depth] = pipeline.rsplit("-f");
  int64_t t = 0;
  if ((!best || best->pipeline.empty()) && !depth.getAsInteger(10, t) && t > 0)
    return getModelConstants(t > 1 ? (base + "-f" + std::to_string(t - 1)).str()
                                   : base.str(),
                             rank, elementBytes);
  return best ? best->constants : ModelConstants();
}
