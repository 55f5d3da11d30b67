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
  /// The pipeline ("sptc", "tc", "tc-lowrank", "cuda-core", "fft"; the
  /// row sweep "cuda-core-rows", the 3-D plane sums "cuda-core-sums", with
  /// vector columns of W "cuda-core-vsums-wW"), with "-fT" for T fused
  /// steps.
  StringRef pipeline;
  /// 0: any rank / element size.
  int64_t rank;
  int64_t elementBytes;
  ModelConstants constants;
};
} // namespace

// {pipeline, rank, element bytes, {eta_mem, eta_unit, gamma}}, fitted by
// bench/calibrate.py (grouping: pipeline x element size x rank) on every
// candidate of the 54 cases of bench/auto_cases.py (436 kernels, their
// registers from CUDA 13's ptxas; the CUDA-core candidates stream 3-D
// stencils, stream=auto, and the Tensor Core ones include composed steps),
// measured on an NVIDIA H100 80GB HBM3, 2026-11-25, in three device calls
// (each case's candidates in one): bench/results/2026-11-25-h100-auto3-
// table{1,2,3}.txt, profile 2026-11-25-h100-auto3-profile.txt. In sample
// these constants put auto within 5% of the best candidate on 53 of the 54
// cases (worst 0.85); leave one stencil out, on 50 (worst 0.70); the median
// prediction error is 3.0%, the 90th percentile 17% (bench/NOTES.md,
// "Choosing the pipeline").
static const ModelEntry kEntries[] = {
    {"cuda-core-f1", 1, 2, {0.91, 0.15, 0.4}},
    {"cuda-core-f1", 1, 8, {0.94, 1.00, 0.1}},
    {"cuda-core-f1", 2, 2, {0.43, 0.54, 1.0}},
    {"cuda-core-f1", 2, 4, {0.92, 0.22, 0.1}},
    {"cuda-core-f1", 2, 8, {1.00, 0.77, 0.3}},
    {"cuda-core-f1", 3, 2, {0.64, 0.44, 1.0}},
    {"cuda-core-f1", 3, 8, {0.99, 0.51, 0.8}},
    {"cuda-core-f2", 1, 2, {0.66, 0.28, 1.0}},
    {"cuda-core-f2", 1, 8, {0.95, 0.39, 0.1}},
    {"cuda-core-f2", 2, 2, {0.28, 0.51, 1.0}},
    {"cuda-core-f2", 2, 4, {0.65, 0.61, 0.7}},
    {"cuda-core-f2", 2, 8, {1.00, 0.59, 1.0}},
    {"cuda-core-f2", 3, 2, {0.28, 0.35, 1.0}},
    {"cuda-core-f2", 3, 8, {0.84, 0.37, 0.7}},
    {"cuda-core-f3", 1, 2, {0.49, 0.26, 1.0}},
    {"cuda-core-f3", 1, 8, {1.00, 0.21, 0.2}},
    {"cuda-core-f3", 2, 2, {0.20, 0.53, 1.0}},
    {"cuda-core-f3", 2, 4, {0.95, 0.08, 0.4}},
    {"cuda-core-f3", 2, 8, {0.84, 0.34, 0.6}},
    {"cuda-core-f3", 3, 2, {0.27, 0.26, 1.0}},
    {"cuda-core-f3", 3, 8, {0.48, 0.22, 0.5}},
    // The 3-D plane sums with vector columns of W (`vector-width`, at the
    // candidates' tilings), fitted by `calibrate.py fit --only
    // '^cuda-core-vsums'` on their 23 kernels in the 12 three-dimensional
    // cases (those spilling more than kMaxSpillStoreBytes left out), H100,
    // 2026-11-27, bench/results/2026-11-27-h100-auto-vector-columns.txt:
    // auto within 5% of the best candidate on 11 of the 12 cases in sample
    // (worst 0.89), on 8 leaving each stencil out (worst 0.80).
    {"cuda-core-vsums-w2-f1", 3, 2, {0.53, 0.33, 0.0}},
    {"cuda-core-vsums-w2-f1", 3, 8, {0.78, 0.91, 0.5}},
    {"cuda-core-vsums-w4-f1", 3, 2, {0.60, 0.36, 0.0}},
    {"cuda-core-vsums-w8-f1", 3, 2, {0.65, 0.40, 0.1}},
    {"cuda-core-f4", 1, 2, {0.38, 0.23, 0.9}},
    {"cuda-core-f4", 1, 8, {1.00, 0.24, 0.4}},
    {"cuda-core-f4", 2, 2, {0.18, 0.52, 1.0}},
    {"cuda-core-f4", 2, 4, {0.69, 0.14, 0.9}},
    {"cuda-core-f4", 2, 8, {0.66, 0.40, 0.8}},
    {"cuda-core-f4", 3, 2, {0.18, 0.27, 1.0}},
    // The row sweep of 2-D linear stencils (schedule = rows: stream=auto
    // with 2 or more fused steps), fitted by `bench/calibrate.py fit
    // --only cuda-core-rows` with the globals below and the other entries
    // fixed, on the 18 two-dimensional cases of bench/auto_cases.py whose
    // fused CUDA-core candidates sweep rows (183 kernels, 48 of them row
    // sweeps), measured on an NVIDIA H100 80GB HBM3, 2026-11-25, one device
    // call: bench/results/2026-11-25-h100-auto-rows-table.txt. Auto within
    // 5% of the best candidate on 16 of those 18 cases (10 with the staged
    // kernels' constants), 14 leaving each stencil out (bench/NOTES.md,
    // "The row sweep in the model").
    {"cuda-core-rows-f2", 2, 2, {0.71, 0.77, 1.0}},
    {"cuda-core-rows-f2", 2, 8, {0.92, 1.00, 0.5}},
    {"cuda-core-rows-f3", 2, 2, {0.64, 0.67, 1.0}},
    {"cuda-core-rows-f3", 2, 8, {0.85, 1.00, 0.5}},
    {"cuda-core-rows-f4", 2, 2, {0.53, 0.64, 1.0}},
    {"cuda-core-rows-f4", 2, 8, {0.87, 1.00, 0.8}},
    // The streamed 3-D plane sums (schedule = plane-sums: the candidate
    // `plane-sums=true threads-y=4 outputs-per-thread=4 planes=64`),
    // fitted by `bench/calibrate.py fit --only cuda-core-sums` with the
    // globals below and the other entries fixed, on the 12 three-
    // dimensional cases of bench/auto_cases.py (81 kernels, 12 of them
    // plane sums), measured on an NVIDIA H100 80GB HBM3, 2026-11-27, one
    // device call: bench/results/2026-11-27-h100-auto-sums-table.txt. Auto
    // within 5% of the best candidate on 10 of those 12 cases in sample
    // with the run's profile (9 with the built-in h100), 7 leaving each
    // stencil out (bench/NOTES.md, "The plane sums in the model").
    {"cuda-core-sums-f1", 3, 2, {0.65, 0.44, 0.4}},
    {"cuda-core-sums-f1", 3, 8, {0.80, 0.58, 0.3}},
    {"fft-f1", 1, 8, {0.67, 0.12, 0.2}},
    {"fft-f1", 2, 8, {0.45, 0.49, 0.0}},
    {"fft-f1", 3, 8, {0.22, 0.44, 0.0}},
    {"fft-f2", 1, 8, {0.86, 0.13, 0.5}},
    {"fft-f2", 2, 8, {0.59, 0.52, 0.0}},
    {"fft-f2", 3, 8, {0.18, 0.48, 0.0}},
    {"fft-f3", 1, 8, {0.67, 0.13, 0.4}},
    {"fft-f3", 2, 8, {0.63, 0.57, 0.1}},
    {"fft-f3", 3, 8, {0.96, 0.49, 0.1}},
    {"fft-f4", 1, 8, {0.35, 0.15, 0.4}},
    {"fft-f4", 2, 8, {0.82, 0.63, 0.3}},
    {"fft-f4", 3, 8, {0.43, 0.55, 0.2}},
    {"sptc", 1, 2, {1.00, 0.06, 0.0}},
    {"sptc", 2, 2, {1.00, 0.45, 0.9}},
    {"sptc", 3, 2, {0.73, 0.38, 1.0}},
    {"sptc-f2", 1, 2, {0.81, 0.70, 0.1}},
    {"sptc-f2", 2, 2, {0.76, 0.61, 1.0}},
    {"sptc-f3", 1, 2, {0.82, 0.43, 0.5}},
    {"sptc-f3", 2, 2, {0.70, 0.59, 0.8}},
    {"sptc-f4", 1, 2, {0.78, 0.71, 0.9}},
    {"sptc-f4", 2, 2, {0.59, 0.75, 0.7}},
    {"tc", 1, 2, {0.99, 0.80, 0.1}},
    {"tc", 1, 8, {0.66, 0.55, 0.3}},
    {"tc", 2, 2, {0.95, 0.94, 1.0}},
    {"tc", 2, 8, {1.00, 0.77, 0.6}},
    {"tc", 3, 2, {0.49, 0.40, 0.0}},
    {"tc", 3, 8, {0.42, 0.27, 0.0}},
    {"tc-f2", 1, 2, {0.85, 0.49, 0.5}},
    {"tc-f2", 1, 8, {0.64, 0.08, 0.0}},
    {"tc-f2", 2, 2, {0.80, 0.99, 1.0}},
    {"tc-f2", 2, 8, {1.00, 0.68, 0.5}},
    {"tc-f3", 1, 2, {0.86, 0.20, 0.3}},
    {"tc-f3", 1, 8, {0.65, 0.08, 0.0}},
    {"tc-f3", 2, 2, {0.83, 0.87, 0.8}},
    {"tc-f3", 2, 8, {0.73, 0.60, 0.0}},
    {"tc-f4", 1, 2, {0.78, 0.86, 0.9}},
    {"tc-f4", 1, 8, {0.71, 0.15, 0.4}},
    {"tc-f4", 2, 2, {0.96, 0.35, 0.2}},
    {"tc-f4", 2, 8, {0.71, 0.88, 0.3}},
    {"tc-lowrank", 2, 2, {0.91, 0.63, 0.5}},
    // The low-rank chain of composed weights (`low-rank=true fused-steps=T`),
    // fitted by `calibrate.py fit --only '^tc-lowrank-f'` on its 4 kernels in
    // the 2 cases where the chain takes fused steps (Heat-2D f16, T = 2..4;
    // the f16 star of radius 2, T = 2), H100, 2026-11-27,
    // bench/results/2026-11-27-h100-auto-lowrank-fused.txt: with the one-step
    // chain's constants the model was 4-8% off on them (auto's choice the
    // same, the best measured on both).
    {"tc-lowrank-f2", 2, 2, {0.82, 0.69, 0.5}},
    {"tc-lowrank-f3", 2, 2, {0.85, 0.64, 0.6}},
    {"tc-lowrank-f4", 2, 2, {0.63, 0.53, 0.1}},
};

/// The most specific entry of `pipeline` for `rank` and `elementBytes`;
/// null when none matches.
static const ModelEntry *findEntry(StringRef pipeline, int64_t rank,
                                   int64_t elementBytes) {
  const ModelEntry *best = nullptr;
  int bestScore = -1;
  for (const ModelEntry &entry : kEntries) {
    if (entry.pipeline != pipeline || (entry.rank != 0 && entry.rank != rank) ||
        (entry.elementBytes != 0 && entry.elementBytes != elementBytes))
      continue;
    int score = (entry.rank ? 2 : 0) + (entry.elementBytes ? 1 : 0);
    if (score > bestScore) {
      best = &entry;
      bestScore = score;
    }
  }
  return best;
}

ModelConstants mlir::stencil::getModelConstants(StringRef pipeline,
                                                int64_t rank,
                                                int64_t elementBytes) {
  // The pipeline's own entry; a fused depth without entries takes those of
  // the next smaller one measured, then of the pipeline without fused steps.
  auto [base, depth] = pipeline.rsplit("-f");
  int64_t t = 0;
  bool fused = !depth.getAsInteger(10, t) && t > 0;
  if (const ModelEntry *entry = findEntry(pipeline, rank, elementBytes))
    return entry->constants;
  for (int64_t d = fused ? t - 1 : 0; d >= 1; --d)
    if (const ModelEntry *entry = findEntry(
            (base + "-f" + std::to_string(d)).str(), rank, elementBytes))
      return entry->constants;
  if (fused)
    if (const ModelEntry *entry = findEntry(base, rank, elementBytes))
      return entry->constants;
  // The plane sums with vector columns without entries of their own: the
  // plane sums'; the row sweep and the 3-D plane sums: the CUDA-core
  // kernels' of the same depth.
  if (pipeline.consume_front("cuda-core-vsums-")) {
    // (The width, "wW-".)
    pipeline = pipeline.drop_until([](char c) { return c == '-'; });
    return getModelConstants(("cuda-core-sums" + pipeline).str(), rank,
                             elementBytes);
  }
  for (StringRef schedule : {"cuda-core-rows-", "cuda-core-sums-"})
    if (pipeline.consume_front(schedule))
      return getModelConstants(("cuda-core-" + pipeline).str(), rank,
                               elementBytes);
  return ModelConstants();
}

// {rho, W_sat, eta_edge}, fitted with the table above (bench/calibrate.py
// searches them on a grid and fits the table for each).
ModelGlobals mlir::stencil::getModelGlobals() {
  ModelGlobals globals;
  globals.l2BandwidthRatio = 1.50;
  globals.saturatingWarps = 12;
  globals.edgeEfficiency = 0.10;
  return globals;
}
