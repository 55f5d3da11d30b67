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
// candidate of the 54 cases of bench/auto_cases.py (368 kernels, their
// registers from CUDA 13's ptxas), one run on an NVIDIA H100 80GB HBM3,
// 2026-11-24: bench/results/2026-11-24-h100-auto2-table{1,2,3}.txt, profile
// 2026-11-24-h100-auto2-profile.txt. In sample these constants put auto
// within 5% of the best candidate on 53 of the 54 cases (worst 0.90); leave
// one stencil out, on 50 (worst 0.65); the median prediction error is 3.9%,
// the 90th percentile 22% (bench/NOTES.md, "Choosing the pipeline").
static const ModelEntry kEntries[] = {
    {"cuda-core-f1", 1, 2, {0.94, 0.20, 0.6}},
    {"cuda-core-f1", 1, 8, {0.94, 1.00, 0.1}},
    {"cuda-core-f1", 2, 2, {0.44, 0.53, 1.0}},
    {"cuda-core-f1", 2, 4, {0.94, 0.48, 0.5}},
    {"cuda-core-f1", 2, 8, {1.00, 0.81, 0.4}},
    {"cuda-core-f1", 3, 2, {0.20, 0.48, 1.0}},
    {"cuda-core-f1", 3, 8, {0.53, 0.47, 0.4}},
    {"cuda-core-f2", 1, 2, {0.66, 0.20, 0.7}},
    {"cuda-core-f2", 1, 8, {0.95, 0.41, 0.1}},
    {"cuda-core-f2", 2, 2, {0.28, 0.47, 1.0}},
    {"cuda-core-f2", 2, 4, {0.63, 0.87, 0.5}},
    {"cuda-core-f2", 2, 8, {1.00, 0.55, 1.0}},
    {"cuda-core-f2", 3, 2, {0.10, 0.38, 0.9}},
    {"cuda-core-f2", 3, 8, {0.32, 0.36, 0.7}},
    {"cuda-core-f3", 1, 2, {0.47, 0.20, 0.7}},
    {"cuda-core-f3", 1, 8, {1.00, 0.21, 0.2}},
    {"cuda-core-f3", 2, 2, {0.20, 0.46, 1.0}},
    {"cuda-core-f3", 2, 4, {0.50, 0.62, 0.5}},
    {"cuda-core-f3", 2, 8, {0.84, 0.33, 0.6}},
    {"cuda-core-f3", 3, 2, {0.08, 0.25, 0.7}},
    {"cuda-core-f4", 1, 2, {0.40, 0.24, 1.0}},
    {"cuda-core-f4", 1, 8, {0.98, 0.22, 0.3}},
    {"cuda-core-f4", 2, 2, {0.16, 0.48, 1.0}},
    {"cuda-core-f4", 2, 4, {0.72, 0.08, 0.2}},
    {"cuda-core-f4", 2, 8, {0.65, 0.35, 0.7}},
    {"cuda-core-f4", 3, 2, {0.07, 0.21, 0.5}},
    {"fft-f1", 1, 8, {0.36, 0.12, 0.1}},
    {"fft-f1", 2, 8, {0.45, 0.49, 0.0}},
    {"fft-f1", 3, 8, {0.21, 0.44, 0.0}},
    {"fft-f2", 1, 8, {0.71, 0.13, 0.4}},
    {"fft-f2", 2, 8, {0.59, 0.52, 0.0}},
    {"fft-f2", 3, 8, {0.17, 0.48, 0.0}},
    {"fft-f3", 1, 8, {0.82, 0.14, 0.7}},
    {"fft-f3", 2, 8, {0.63, 0.57, 0.1}},
    {"fft-f3", 3, 8, {1.00, 0.49, 0.1}},
    {"fft-f4", 1, 8, {0.80, 0.15, 0.9}},
    {"fft-f4", 2, 8, {0.87, 0.62, 0.3}},
    {"fft-f4", 3, 8, {0.87, 0.55, 0.5}},
    {"sptc", 1, 2, {1.00, 0.06, 0.0}},
    {"sptc", 2, 2, {0.95, 0.67, 1.0}},
    {"sptc", 3, 2, {0.72, 0.53, 1.0}},
    {"tc", 1, 2, {1.00, 0.57, 0.1}},
    {"tc", 1, 8, {0.68, 0.89, 1.0}},
    {"tc", 2, 2, {0.86, 1.00, 0.6}},
    {"tc", 2, 8, {0.95, 1.00, 0.6}},
    {"tc", 3, 2, {0.49, 0.53, 0.0}},
    {"tc", 3, 8, {0.31, 0.26, 0.0}},
    {"tc-lowrank", 2, 2, {1.00, 0.83, 0.9}},
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

// {rho, W_sat, eta_edge}, fitted with the table above (bench/calibrate.py
// searches them on a grid and fits the table for each).
ModelGlobals mlir::stencil::getModelGlobals() {
  ModelGlobals globals;
  globals.l2BandwidthRatio = 2.0;
  globals.saturatingWarps = 16;
  globals.edgeEfficiency = 0.1;
  return globals;
}
