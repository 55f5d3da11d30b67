//===- CostModel.cpp - The performance model of "Do We Need TCs?" ---------===//

#include "stencil/Analysis/CostModel.h"
#include "stencil/Dialect/Stencil/IR/StencilDialect.h"

#include "llvm/ADT/StringSwitch.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

using namespace mlir;
using namespace mlir::stencil;

double mlir::stencil::getFusionRedundancy(int64_t fusedPoints, int64_t points,
                                          int64_t t) {
  return double(fusedPoints) / (double(t) * double(points));
}

double mlir::stencil::getBoxFusionRedundancy(int64_t radius, int64_t rank,
                                             int64_t t) {
  return std::pow(double(2 * radius * t + 1), double(rank)) /
         (double(t) * std::pow(double(2 * radius + 1), double(rank)));
}

double mlir::stencil::getRooflineBound(double peakGflops, double bandwidthGBs,
                                       double intensity) {
  return std::min(peakGflops, bandwidthGBs * intensity);
}

double mlir::stencil::getStencilBound(double peakGflops, double bandwidthGBs,
                                      double unitFlops, double bytesPerPoint) {
  return std::min(peakGflops / unitFlops, bandwidthGBs / bytesPerPoint);
}

UnitComparison mlir::stencil::compareWithCudaCores(
    double tcGflops, double sparsity, double alpha, double cuGflops,
    double bandwidthGBs, int64_t points, int64_t elementBytes, int64_t t) {
  // Eq. 8 and 11: I_CU = t K / D, I_TC = t (alpha / S) K / D.
  double cuIntensity = double(t) * double(points) / double(elementBytes);
  double tcIntensity = alpha / sparsity * cuIntensity;
  bool cuMemory = bandwidthGBs * cuIntensity < cuGflops;
  bool tcMemory = bandwidthGBs * tcIntensity < tcGflops;
  // Eq. 13.
  double speedup = sparsity / alpha *
                   getRooflineBound(tcGflops, bandwidthGBs, tcIntensity) /
                   getRooflineBound(cuGflops, bandwidthGBs, cuIntensity);
  Scenario scenario = cuMemory ? (tcMemory ? Scenario::BothMemoryBound
                                           : Scenario::TensorCoreComputeBound)
                               : (tcMemory ? Scenario::CudaCoreComputeBound
                                           : Scenario::BothComputeBound);
  return {scenario, speedup};
}

bool mlir::stencil::isInSweetSpot(double alpha, double sparsity,
                                  double tcGflops, double cuGflops) {
  return alpha < sparsity * tcGflops / cuGflops;
}

double KernelWork::getBytesPerPoint() const {
  return double(elementBytes) * (1.0 + stagedInputsPerPoint) /
         double(stepsPerLaunch);
}

double KernelWork::getEffectiveBytesPerPoint(double l2BandwidthRatio) const {
  double dram = 2.0 * double(elementBytes) / double(stepsPerLaunch);
  return std::max(dram, getBytesPerPoint() / l2BandwidthRatio);
}

double KernelWork::getWorkInflation() const {
  return stencilFlopsPerPoint > 0 ? unitFlopsPerPoint / stencilFlopsPerPoint
                                  : 0.0;
}

static int64_t getElementBytes(StringRef type) {
  return llvm::StringSwitch<int64_t>(type)
      .Case("f16", 2)
      .Case("bf16", 2)
      .Case("f32", 4)
      .Case("f64", 8)
      .Default(0);
}

FailureOr<KernelWork> mlir::stencil::getKernelWork(DictionaryAttr record) {
  KernelWork work;
  auto getInt = [&](StringRef key, int64_t fallback) {
    auto attr = record.getAs<IntegerAttr>(key);
    return attr ? attr.getInt() : fallback;
  };
  auto kernel = record.getAs<StringAttr>("kernel");
  auto type = record.getAs<StringAttr>("element_type");
  auto unit = record.getAs<StringAttr>("unit");
  auto flops = record.getAs<FloatAttr>("unit_flops_per_point");
  if (!kernel || !type || !unit || !flops)
    return failure();
  work.kernel = kernel.getValue().str();
  work.rank = getInt("rank", 0);
  work.elementBytes = getElementBytes(type.getValue());
  work.stepsPerLaunch = getInt("steps_per_launch", 1);
  work.steps = getInt("steps", 1);
  work.unit = unit.getValue().str();
  work.unitFlopsPerPoint = flops.getValueAsDouble();
  work.sharedBytes = getInt("shared_bytes", 0);
  if (auto schedule = record.getAs<StringAttr>("schedule"))
    work.schedule = schedule.getValue().str();
  work.vectorWidth = getInt("vector_width", 1);
  if (auto edge = record.getAs<FloatAttr>("edge_flops_per_point")) {
    work.edgeFlopsPerPoint = edge.getValueAsDouble();
    if (auto edgeUnit = record.getAs<StringAttr>("edge_unit"))
      work.edgeUnit = edgeUnit.getValue().str();
  }
  if (auto block = record.getAs<DenseI64ArrayAttr>("block"))
    if (!block.empty())
      work.threads = block[0];
  auto tile = record.getAs<DenseI64ArrayAttr>("tile");
  if (tile)
    work.tile.assign(tile.asArrayRef().begin(), tile.asArrayRef().end());
  if (auto source = record.getAs<DictionaryAttr>("source"))
    if (auto pattern = source.getAs<PatternAttr>("pattern")) {
      work.stencilFlopsPerPoint = 2.0 * pattern.getNumPoints();
      // A = Prod_d (n_d + 2 t r_d) / n_d; the record's tile is innermost
      // first, the pattern's points outermost first.
      if (tile && int64_t(tile.size()) == work.rank) {
        SmallVector<int64_t> radii(work.rank, 0);
        for (unsigned i = 0; i < pattern.getNumPoints(); ++i)
          for (auto [d, c] : llvm::enumerate(pattern.getPoint(i)))
            if (int64_t(d) < work.rank)
              radii[d] = std::max<int64_t>(radii[d], std::abs(c));
        work.radii.assign(radii.begin(), radii.end());
        for (int64_t d = 0; d < work.rank; ++d) {
          int64_t n = tile[work.rank - 1 - d];
          if (n > 0)
            work.stagedInputsPerPoint *=
                double(n + 2 * work.stepsPerLaunch * radii[d]) / double(n);
        }
      }
    }
  if (work.elementBytes == 0 || work.stepsPerLaunch < 1 ||
      !(work.unitFlopsPerPoint > 0))
    return failure();
  return work;
}

int64_t mlir::stencil::getResidentWarps(const KernelWork &work,
                                        const DeviceProfile &profile) {
  if (work.registers <= 0 || work.threads <= 0 || profile.registersPerSM <= 0)
    return 0;
  int64_t warps = (work.threads + 31) / 32;
  int64_t perWarp = (work.registers * 32 + 255) / 256 * 256;
  int64_t blocks = profile.registersPerSM / (perWarp * warps);
  int64_t shared = work.sharedBytes + work.staticSharedBytes;
  if (shared > 0 && profile.sharedBytesPerSM > 0)
    blocks = std::min(blocks, profile.sharedBytesPerSM / (shared + 1024));
  // 64 warps per SM on sm_80 and sm_90; above W_sat it does not matter.
  return std::min<int64_t>(blocks * warps, 64);
}

double mlir::stencil::getEdgeBlockShare(const KernelWork &work) {
  int64_t rank = work.rank;
  if (work.edgeFlopsPerPoint <= 0 || int64_t(work.gridSizes.size()) != rank ||
      int64_t(work.tile.size()) != rank || int64_t(work.radii.size()) != rank)
    return 0;
  double interior = 1;
  for (int64_t d = 0; d < rank; ++d) {
    bool last = d == rank - 1;
    int64_t valid = work.tile[rank - 1 - d] / (last ? 2 : 1);
    int64_t span = work.gridSizes[d] - 2 * work.stepsPerLaunch * work.radii[d];
    if (valid <= 0)
      return 0;
    int64_t tiles = span > 0 ? (span + valid - 1) / valid : 1;
    // Along the last dimension a block takes two tiles.
    int64_t blocks = last ? (tiles + 1) / 2 : tiles;
    interior *= double(std::max<int64_t>(blocks - 2, 0)) / double(blocks);
  }
  return 1 - interior;
}

FailureOr<KernelPrediction> mlir::stencil::predictKernel(
    const KernelWork &work, const DeviceProfile &profile,
    const ModelConstants &constants, const ModelGlobals &globals) {
  double tflops = profile.getUnitTflops(work.unit);
  if (!(tflops > 0) || !(profile.bandwidthGBs > 0))
    return failure();
  KernelPrediction p;
  p.bandwidthBound =
      profile.bandwidthGBs /
      work.getEffectiveBytesPerPoint(std::max(globals.l2BandwidthRatio, 1e-9));
  p.unitBound = tflops * 1e3 / work.unitFlopsPerPoint;
  p.memoryBound = p.bandwidthBound <= p.unitBound;
  p.bound = std::min(p.bandwidthBound, p.unitBound);
  p.residentWarps = getResidentWarps(work, profile);
  double occupancy = 1;
  if (globals.saturatingWarps > 0 && p.residentWarps > 0)
    occupancy =
        std::min(1.0, double(p.residentWarps) / globals.saturatingWarps);
  double memTime = 1.0 / (constants.memoryEfficiency * p.bandwidthBound);
  double unitTime = 1.0 / (constants.unitEfficiency * occupancy * p.unitBound);
  double edgeTime = 0;
  if (globals.edgeEfficiency > 0 && work.edgeFlopsPerPoint > 0) {
    p.edgeShare = getEdgeBlockShare(work);
    if (p.edgeShare > 0) {
      double edgeTflops = profile.getUnitTflops(work.edgeUnit);
      if (!(edgeTflops > 0))
        return failure();
      edgeTime = p.edgeShare * work.edgeFlopsPerPoint /
                 (globals.edgeEfficiency * edgeTflops * 1e3);
    }
  }
  p.predicted =
      1.0 / (std::max(memTime, unitTime) +
             constants.overlap * std::min(memTime, unitTime) + edgeTime);
  return p;
}
