//===- Decomposition.cpp - Slabs of a grid over several GPUs --------------===//
//
// See Decomposition.h.
//
//===----------------------------------------------------------------------===//

#include "Decomposition.h"
#include "LaunchPlan.h"

#include <algorithm>

using namespace stencil_runtime;

static int64_t roundUp(int64_t v, int64_t m) { return (v + m - 1) / m * m; }

bool stencil_runtime::planDecomposition(int64_t planes, int64_t radius,
                                        int64_t stepsPerLaunch, bool periodic,
                                        int ranks, int64_t alignment,
                                        Decomposition &out, std::string &error,
                                        int64_t minHalo) {
  if (ranks < 1 || radius < 0 || stepsPerLaunch < 1 || alignment < 1 ||
      planes < 1 || minHalo < 0 || minHalo > (int64_t(1) << 40)) {
    error = "bad decomposition arguments: " + std::to_string(planes) +
            " planes, radius " + std::to_string(radius) + ", " +
            std::to_string(stepsPerLaunch) + " steps per launch, " +
            std::to_string(ranks) + " ranks, alignment " +
            std::to_string(alignment);
    return false;
  }
  if (radius > (int64_t(1) << 40) / stepsPerLaunch) {
    error = "the halo of radius " + std::to_string(radius) + " x " +
            std::to_string(stepsPerLaunch) + " steps is too wide";
    return false;
  }
  Decomposition d;
  d.periodic = periodic;
  d.halo = ranks > 1
               ? roundUp(std::max(radius * stepsPerLaunch, minHalo), alignment)
               : 0;
  // Own bounds: rank i starts at round(i N / P) rounded up to the alignment
  // (the first at 0, the last ends at N).
  std::vector<int64_t> bounds(ranks + 1);
  for (int i = 0; i <= ranks; ++i) {
    // i N / P without overflow for N < 2^62 / P.
    int64_t start = planes / ranks * i + planes % ranks * i / ranks;
    bounds[i] =
        i == ranks ? planes : std::min(planes, roundUp(start, alignment));
  }
  for (int i = 0; i < ranks; ++i) {
    Slab s;
    s.ownBegin = bounds[i];
    s.ownEnd = bounds[i + 1];
    if (ranks > 1 && s.ownPlanes() < std::max<int64_t>(d.halo, 1)) {
      error = std::to_string(planes) + " planes over " + std::to_string(ranks) +
              " GPUs give rank " + std::to_string(i) + " " +
              std::to_string(s.ownPlanes()) +
              " planes, fewer than the halo of " + std::to_string(d.halo) +
              " (radius " + std::to_string(radius) + " x " +
              std::to_string(stepsPerLaunch) + " steps per launch" +
              (alignment > 1 ? ", aligned to " + std::to_string(alignment)
                             : std::string()) +
              "): use fewer GPUs";
      return false;
    }
    if (ranks > 1 && (i > 0 || periodic)) {
      s.lowNeighbor = (i + ranks - 1) % ranks;
      s.haloLow = d.halo;
    }
    if (ranks > 1 && (i + 1 < ranks || periodic)) {
      s.highNeighbor = (i + 1) % ranks;
      s.haloHigh = d.halo;
    }
    d.slabs.push_back(s);
  }
  out = std::move(d);
  return true;
}

std::vector<Transfer>
stencil_runtime::getExchangeSchedule(const Decomposition &d) {
  std::vector<Transfer> schedule;
  if (d.halo == 0)
    return schedule;
  for (int i = 0; i < int(d.slabs.size()); ++i) {
    const Slab &s = d.slabs[i];
    if (s.lowNeighbor >= 0) {
      // My first own planes become the lower neighbour's upper halo.
      const Slab &low = d.slabs[s.lowNeighbor];
      schedule.push_back(
          {i, s.lowNeighbor, s.haloLow, low.haloLow + low.ownPlanes(), d.halo});
    }
    if (s.highNeighbor >= 0) {
      // My last own planes become the upper neighbour's lower halo.
      schedule.push_back(
          {i, s.highNeighbor, s.haloLow + s.ownPlanes() - d.halo, 0, d.halo});
    }
  }
  return schedule;
}

RankLaunches stencil_runtime::planRankLaunches(const Decomposition &d, int rank,
                                               int64_t minPlanes) {
  RankLaunches plan;
  const Slab &s = d.slabs[rank];
  const int64_t h = d.halo;
  plan.interiorBegin = 0;
  plan.interiorEnd = s.localPlanes();
  if (h == 0 || s.ownPlanes() < 2 * h || s.ownPlanes() < minPlanes ||
      3 * h < minPlanes || (s.haloLow == 0 && s.haloHigh == 0))
    return plan;
  plan.overlap = true;
  if (s.haloLow > 0) {
    plan.interiorBegin = s.haloLow;
    plan.windows.push_back({0, 3 * h, h, s.haloLow, h});
  }
  if (s.haloHigh > 0) {
    plan.interiorEnd = s.haloLow + s.ownPlanes();
    plan.windows.push_back(
        {s.localPlanes() - 3 * h, 3 * h, h, plan.interiorEnd - h, h});
  }
  return plan;
}

int64_t
stencil_runtime::getSlabAlignment(const stencil_run::LaunchDescription &desc) {
  if (desc.unit.rfind("fma.", 0) == 0)
    return 1;
  return desc.tile.empty() ? 1 : std::max<int64_t>(1, desc.tile.back());
}

int64_t
stencil_runtime::getSlabMinHalo(const stencil_run::LaunchDescription &desc) {
  if (desc.fftErrorBound <= 0 || desc.tile.empty())
    return 0;
  return desc.tile.back() + getRadii(desc)[0] * desc.stepsPerLaunch;
}
