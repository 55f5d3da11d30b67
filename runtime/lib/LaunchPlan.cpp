//===- LaunchPlan.cpp - The launches of a run, host side ------------------===//
//
// See LaunchPlan.h.
//
//===----------------------------------------------------------------------===//

#include "LaunchPlan.h"
#include "HostUtil.h"

#include <algorithm>
#include <cstdlib>

using namespace stencil_run;

namespace stencil_runtime {

/// The largest grid dimension a run takes (the point count then stays far
/// from overflowing 64 bits in 3-D too: 2^40 per dimension is checked
/// with the product below).
static constexpr int64_t kMaxSize = int64_t(1) << 40;

std::vector<int64_t> getRadii(const LaunchDescription &desc) {
  std::vector<int64_t> radii(desc.rank, 0);
  for (const std::vector<int64_t> &o : desc.offsets)
    for (int d = 0; d < desc.rank && d < int(o.size()); ++d)
      radii[d] = std::max<int64_t>(radii[d], std::llabs(o[d]));
  return radii;
}

stencil_status planLaunches(const LaunchDescription &desc,
                            const std::vector<int64_t> &sizes, int64_t steps,
                            LaunchPlan &plan, std::string &error) {
  plan = LaunchPlan();
  if (int(sizes.size()) != desc.rank) {
    error = "the grid has " + std::to_string(sizes.size()) +
            " dimensions but kernel '" + desc.kernel + "' is of rank " +
            std::to_string(desc.rank);
    return STENCIL_ERROR_RANK_MISMATCH;
  }
  std::vector<int64_t> radii = getRadii(desc);
  uint64_t points = 1;
  for (int d = 0; d < desc.rank; ++d) {
    if (sizes[d] < 2 * radii[d] + 1) {
      error = "grid dimension " + std::to_string(d) +
              " (outermost first) has " + std::to_string(sizes[d]) +
              " points, fewer than the " + std::to_string(2 * radii[d] + 1) +
              " of the stencil (radius " + std::to_string(radii[d]) + ")";
      return STENCIL_ERROR_GRID_TOO_SMALL;
    }
    if (sizes[d] > kMaxSize) {
      error = "grid dimension " + std::to_string(d) + " has " +
              std::to_string(sizes[d]) + " points, more than 2^40";
      return STENCIL_ERROR_GRID_TOO_LARGE;
    }
    points *= uint64_t(sizes[d]);
    if (points > (uint64_t(1) << 62)) {
      error = "the grid has more than 2^62 points";
      return STENCIL_ERROR_GRID_TOO_LARGE;
    }
  }
  plan.points = points;
  if (stencil_status s =
          planSteps(desc, steps, plan.launches, plan.tailLaunches, error);
      s != STENCIL_SUCCESS)
    return s;
  // Blocks per launch dimension of a tile (innermost first).
  auto gridOf = [&](const std::vector<int64_t> &tile, const char *which,
                    unsigned (&grid)[3]) {
    for (int k = 0; k < desc.rank; ++k) {
      int64_t n = sizes[desc.rank - 1 - k];
      int64_t blocks = (n + tile[k] - 1) / tile[k];
      int64_t limit = k == 0 ? 0x7fffffffLL : 65535;
      if (blocks > limit) {
        error = std::string(which) + "launch grid's dimension " +
                std::to_string(k) + " needs " + std::to_string(blocks) +
                " blocks, more than CUDA's " + std::to_string(limit);
        return false;
      }
      grid[k] = unsigned(blocks);
    }
    return true;
  };
  for (int k = 0; k < 3; ++k)
    plan.block[k] = desc.block[k];
  plan.sharedBytes = desc.sharedBytes;
  if (!gridOf(desc.tile, "the ", plan.grid))
    return STENCIL_ERROR_GRID_TOO_LARGE;
  if (plan.tailLaunches > 0) {
    for (int k = 0; k < 3; ++k)
      plan.tailBlock[k] = desc.tailBlock[k];
    plan.tailSharedBytes = desc.tailSharedBytes;
    if (!gridOf(desc.tailTile, "the tail kernel's ", plan.tailGrid))
      return STENCIL_ERROR_GRID_TOO_LARGE;
  }
  if (!desc.bandKernel.empty()) {
    // The description lists the band's tile and margins innermost first.
    std::vector<int64_t> tile(desc.bandTile.rbegin(), desc.bandTile.rend());
    std::vector<int64_t> margins(desc.bandMargins.rbegin(),
                                 desc.bandMargins.rend());
    int64_t blocks = countBandTiles(sizes, tile, margins);
    if (blocks < 1 || blocks > 0x7fffffffLL) {
      error = "the band kernel's grid of " + std::to_string(blocks) +
              " blocks is outside 1 .. 2^31 - 1";
      return STENCIL_ERROR_GRID_TOO_LARGE;
    }
    plan.bandBlocks = unsigned(blocks);
    for (int k = 0; k < 3; ++k)
      plan.bandBlock[k] = desc.bandBlock[k];
  }
  return STENCIL_SUCCESS;
}

stencil_status planSteps(const LaunchDescription &desc, int64_t steps,
                         int64_t &launches, int64_t &tailLaunches,
                         std::string &error) {
  launches = tailLaunches = 0;
  if (steps < 0) {
    error = "steps = " + std::to_string(steps) + " is negative";
    return STENCIL_ERROR_INVALID_ARGUMENT;
  }
  const int64_t f = desc.stepsPerLaunch;
  int64_t leftOver = steps % f;
  if (leftOver != 0 && desc.tailKernel.empty()) {
    error = "steps = " + std::to_string(steps) +
            " is not a multiple of the kernel's steps_per_launch = " +
            std::to_string(f) + " (each launch computes " + std::to_string(f) +
            " steps), and its launch description has no tail kernel for the " +
            std::to_string(leftOver) +
            " left over: compile the stencil again with this compiler "
            "(every kernel that fuses steps now carries a one-step tail "
            "kernel, the description's tail_* keys), or run a multiple of " +
            std::to_string(f) + " steps";
    return STENCIL_ERROR_STEPS;
  }
  if (leftOver != 0 && leftOver % desc.tailSteps != 0) {
    error = "steps = " + std::to_string(steps) + " leaves " +
            std::to_string(leftOver) + " after launches of " +
            std::to_string(f) + " steps, not a multiple of the tail kernel's " +
            std::to_string(desc.tailSteps) + " steps per launch";
    return STENCIL_ERROR_STEPS;
  }
  launches = steps / f;
  tailLaunches = leftOver == 0 ? 0 : leftOver / desc.tailSteps;
  return STENCIL_SUCCESS;
}

int64_t roundUpToWholeLaunches(const LaunchDescription &desc, int64_t steps) {
  const int64_t f = desc.stepsPerLaunch;
  int64_t g = desc.tailKernel.empty() ? f : desc.tailSteps;
  int64_t leftOver = steps % f;
  if (leftOver % g == 0)
    return steps;
  int64_t up = (leftOver + g - 1) / g * g;
  return up >= f ? steps - leftOver + f : steps - leftOver + up;
}

std::vector<uint64_t> getKernelArguments(const LaunchDescription &desc,
                                         uint64_t in, uint64_t out,
                                         uint64_t coeffs, uint64_t numCoeffs,
                                         const std::vector<int64_t> &sizes) {
  uint64_t points = 1;
  for (int64_t n : sizes)
    points *= uint64_t(n);
  std::vector<uint64_t> words;
  auto memref = [&](uint64_t p, uint64_t n) {
    words.insert(words.end(), {p, p, 0, n, 1});
  };
  for (const std::string &a : desc.args) {
    if (a == "in")
      memref(in, points);
    else if (a == "out")
      memref(out, points);
    else if (a == "coeffs")
      memref(coeffs, numCoeffs);
    else // sizes
      for (int64_t n : sizes)
        words.push_back(uint64_t(n));
  }
  return words;
}

} // namespace stencil_runtime
