//===- LaunchPlan.h - The launches of a run, host side ----------*- C++ -*-===//
//
// What libStencilRuntime computes before it touches the GPU: from a launch
// description, a grid and a number of steps, the checks of the arguments,
// the launch geometry of the kernel and of its band kernel, and the
// argument words of each launch. Plain C++17 without CUDA, so the unit
// tests check it on a machine without a GPU; StencilRuntime.cpp and
// stencil-run launch what it says.
//
//===----------------------------------------------------------------------===//
#ifndef STENCIL_RUNTIME_LAUNCHPLAN_H
#define STENCIL_RUNTIME_LAUNCHPLAN_H

#include "LaunchDescription.h"
#include "stencil-runtime/StencilStatus.h"

#include <cstdint>
#include <string>
#include <vector>

namespace stencil_runtime {

/// The launches of one run.
struct LaunchPlan {
  /// Blocks of the kernel: x over the innermost dimension, y the next, z
  /// the outermost (3-D); each dimension's tiles of the description.
  unsigned grid[3] = {1, 1, 1};
  unsigned block[3] = {1, 1, 1};
  unsigned sharedBytes = 0;
  /// The band kernel's blocks (countBandTiles) and threads; 0 blocks when
  /// the description has no band kernel.
  unsigned bandBlocks = 0;
  unsigned bandBlock[3] = {1, 1, 1};
  /// A run of S steps is `launches` = floor(S / F) launches of the kernel
  /// (F = steps_per_launch; each followed by the band kernel's), then
  /// `tailLaunches` = (S mod F) / tail_steps launches of the tail kernel,
  /// all ping-ponging: launch l of the run (counting both kinds) reads
  /// buffer l mod 2 (`in` for even l) and writes the other, so the result
  /// is in `out` when totalLaunches() is odd and in `in` when it is even
  /// (also for S = 0: no launch, the result is `in`).
  int64_t launches = 0;
  int64_t tailLaunches = 0;
  /// The tail kernel's blocks (its tile, like `grid`), threads and dynamic
  /// shared memory; all 1 (0 bytes) without tail launches.
  unsigned tailGrid[3] = {1, 1, 1};
  unsigned tailBlock[3] = {1, 1, 1};
  unsigned tailSharedBytes = 0;
  int64_t totalLaunches() const { return launches + tailLaunches; }
  /// Whether the run's result is in `out` (else in `in`).
  bool resultInOut() const { return totalLaunches() % 2 == 1; }
  /// Grid points.
  uint64_t points = 0;
};

/// The stencil's radius per dimension, outermost first (the largest
/// |offset| component of each).
std::vector<int64_t> getRadii(const stencil_run::LaunchDescription &desc);

/// Checks `sizes` (outermost first) and `steps` against `desc` and plans the
/// launches; on failure returns the status and sets `error`. Fails for: a
/// rank other than the description's; a size below 2 r + 1 along its
/// dimension (the stencil does not fit) or above 2^40; a negative `steps`;
/// steps that whole launches cannot make (not a multiple of
/// steps_per_launch for a description without a tail kernel, or a
/// remainder that tail_steps does not divide); more blocks along a launch
/// dimension than CUDA allows (2^31 - 1 along x, 65535 along y and z, for
/// the kernel and, when it runs, the tail kernel), or a band grid outside
/// 1 .. 2^31 - 1.
stencil_status planLaunches(const stencil_run::LaunchDescription &desc,
                            const std::vector<int64_t> &sizes, int64_t steps,
                            LaunchPlan &plan, std::string &error);

/// Checks that `steps` (>= 0) are whole launches of `desc`'s kernel and
/// tail kernel, and counts them (LaunchPlan::launches, tailLaunches); on
/// failure sets `error` (which says how to get a tail kernel when the
/// description has none) and returns STENCIL_ERROR_STEPS.
stencil_status planSteps(const stencil_run::LaunchDescription &desc,
                         int64_t steps, int64_t &launches,
                         int64_t &tailLaunches, std::string &error);

/// The fewest steps >= `steps` (>= 0) that whole launches make: `steps`
/// itself with a one-step tail kernel, else rounded up to a multiple of
/// steps_per_launch (or to a remainder the tail's steps divide).
int64_t roundUpToWholeLaunches(const stencil_run::LaunchDescription &desc,
                               int64_t steps);

/// The kernel parameters of a launch reading `in` and writing `out`, one
/// 64-bit word each (pointers and i64), in the order of the description's
/// `args`: a buffer is the (allocated, aligned, offset, size, stride) of a
/// 1-D memref of its elements (`numCoeffs` 32-bit words for coeffs), sizes
/// one word per dimension, outermost first. The band kernel takes the same.
std::vector<uint64_t>
getKernelArguments(const stencil_run::LaunchDescription &desc, uint64_t in,
                   uint64_t out, uint64_t coeffs, uint64_t numCoeffs,
                   const std::vector<int64_t> &sizes);

} // namespace stencil_runtime

#endif
