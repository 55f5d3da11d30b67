//===- LaunchPlanTest.cpp - The runtime's host-side launch planning ------===//
//
// runtime/lib/LaunchPlan.h: the checks of a run's grid and steps, the launch
// geometry of a kernel and its band kernel, and the argument words, on
// launch descriptions like the compiler writes (no GPU).
//
//===----------------------------------------------------------------------===//

#include "LaunchPlan.h"
#include "HostUtil.h"
#include "LaunchDescription.h"

#include "gtest/gtest.h"

using namespace stencil_run;
using namespace stencil_runtime;

namespace {

/// A 2-D description: Heat-2D's offsets (radius 1 along y, `rx` along x)
/// with the given extra lines.
LaunchDescription describe(const std::string &extra, int64_t rx = 1) {
  std::string text = "version = 1\nkernel = k\nptx = k.ptx\nrank = 2\n"
                     "element_type = f64\noffsets = -1,0;0," +
                     std::to_string(-rx) + ";0,0;0," + std::to_string(rx) +
                     ";1,0\nweights = 0.1,0.2,0.3,0.2,0.2\nboundary = halo\n"
                     "tile = 32,16\nblock = 256,1,1\nshared_bytes = 64\n"
                     "args = in,out,coeffs,sizes\n" +
                     extra;
  LaunchDescription desc;
  std::string error;
  std::vector<std::string> warnings;
  EXPECT_TRUE(
      parseLaunchDescriptionText(text, "test.launch", desc, error, warnings))
      << error;
  return desc;
}

TEST(LaunchPlan, Geometry) {
  LaunchDescription desc = describe("");
  EXPECT_EQ(getRadii(desc), (std::vector<int64_t>{1, 1}));
  LaunchPlan plan;
  std::string error;
  // 100 rows (outermost) of 1000: x blocks of the innermost tile (32),
  // y blocks of 16 rows.
  ASSERT_EQ(planLaunches(desc, {100, 1000}, 6, plan, error),
            PlanStatus::Success)
      << error;
  EXPECT_EQ(plan.grid[0], 32u); // ceil(1000 / 32)
  EXPECT_EQ(plan.grid[1], 7u);  // ceil(100 / 16)
  EXPECT_EQ(plan.grid[2], 1u);
  EXPECT_EQ(plan.block[0], 256u);
  EXPECT_EQ(plan.sharedBytes, 64u);
  EXPECT_EQ(plan.launches, 6);
  EXPECT_EQ(plan.points, 100000u);
  EXPECT_EQ(plan.bandBlocks, 0u);
  // Zero steps: nothing to launch, still a valid run.
  ASSERT_EQ(planLaunches(desc, {3, 3}, 0, plan, error), PlanStatus::Success);
  EXPECT_EQ(plan.launches, 0);
}

TEST(LaunchPlan, Misuse) {
  LaunchDescription desc = describe("", /*rx=*/3);
  LaunchPlan plan;
  std::string error;
  EXPECT_EQ(planLaunches(desc, {100}, 1, plan, error),
            PlanStatus::RankMismatch);
  EXPECT_NE(error.find("1 dimensions but kernel 'k' is of rank 2"),
            std::string::npos)
      << error;
  // Radius 3 along x needs 7 points; radius 1 along y 3.
  EXPECT_EQ(planLaunches(desc, {100, 6}, 1, plan, error),
            PlanStatus::GridTooSmall);
  EXPECT_NE(error.find("dimension 1 (outermost first) has 6 points, fewer "
                       "than the 7 of the stencil (radius 3)"),
            std::string::npos)
      << error;
  EXPECT_EQ(planLaunches(desc, {2, 7}, 1, plan, error),
            PlanStatus::GridTooSmall);
  EXPECT_EQ(planLaunches(desc, {3, 7}, 1, plan, error), PlanStatus::Success);
  EXPECT_EQ(planLaunches(desc, {3, 7}, -1, plan, error),
            PlanStatus::InvalidArgument);
  // 65535 blocks along y at most: 16 rows each.
  EXPECT_EQ(planLaunches(desc, {65535 * 16, 7}, 1, plan, error),
            PlanStatus::Success);
  EXPECT_EQ(planLaunches(desc, {65535 * 16 + 1, 7}, 1, plan, error),
            PlanStatus::GridTooLarge);
  EXPECT_NE(error.find("dimension 1 needs 65536 blocks, more than CUDA's "
                       "65535"),
            std::string::npos)
      << error;
  EXPECT_EQ(planLaunches(desc, {(int64_t(1) << 40) + 1, 7}, 1, plan, error),
            PlanStatus::GridTooLarge);
}

TEST(LaunchPlan, FusedStepsAndBand) {
  LaunchDescription desc =
      describe("steps_per_launch = 3\nband_kernel = k_band\nband_tile = 8,4\n"
               "band_block = 64,1,1\nband_margins = 3,3\n"
               "composed_abs_sum = 1\ncomposed_points = 25\n");
  LaunchPlan plan;
  std::string error;
  EXPECT_EQ(planLaunches(desc, {50, 60}, 4, plan, error), PlanStatus::Steps);
  EXPECT_NE(error.find("steps = 4 is not a multiple of the kernel's "
                       "steps_per_launch = 3"),
            std::string::npos)
      << error;
  ASSERT_EQ(planLaunches(desc, {50, 60}, 9, plan, error), PlanStatus::Success)
      << error;
  EXPECT_EQ(plan.launches, 3);
  // The band's blocks are countBandTiles' (its tile and margins outermost
  // first here, innermost first in the description).
  EXPECT_EQ(plan.bandBlocks,
            unsigned(countBandTiles({50, 60}, {4, 8}, {3, 3})));
  EXPECT_GT(plan.bandBlocks, 0u);
  EXPECT_EQ(plan.bandBlock[0], 64u);
}

TEST(LaunchPlan, Arguments) {
  LaunchDescription desc = describe("");
  // in, out, coeffs as 1-D memrefs (allocated, aligned, offset, size,
  // stride), then the sizes outermost first.
  std::vector<uint64_t> words =
      getKernelArguments(desc, 0x1000, 0x2000, 0x3000, 7, {5, 9});
  std::vector<uint64_t> expected = {0x1000, 0x1000, 0,  45, 1,      0x2000,
                                    0x2000, 0,      45, 1,  0x3000, 0x3000,
                                    0,      7,      1,  5,  9};
  EXPECT_EQ(words, expected);
  // Another order of the description's args.
  desc.args = {"sizes", "out", "in", "coeffs"};
  words = getKernelArguments(desc, 0x1000, 0x2000, 0x3000, 7, {5, 9});
  expected = {5, 9,  0x2000, 0x2000, 0,      45, 1, 0x1000, 0x1000,
              0, 45, 1,      0x3000, 0x3000, 0,  7, 1};
  EXPECT_EQ(words, expected);
}

} // namespace
