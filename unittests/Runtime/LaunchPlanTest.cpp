//===- LaunchPlanTest.cpp - The runtime's host-side launch planning ------===//
//
// runtime/lib/LaunchPlan.h: the checks of a run's grid and steps, the launch
// geometry of a kernel, its band and tail kernels (a run of any number of
// steps: fused launches, then tail launches, and where the result ends),
// and the argument words, on
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
  ASSERT_EQ(planLaunches(desc, {100, 1000}, 6, plan, error), STENCIL_SUCCESS)
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
  ASSERT_EQ(planLaunches(desc, {3, 3}, 0, plan, error), STENCIL_SUCCESS);
  EXPECT_EQ(plan.launches, 0);
}

TEST(LaunchPlan, Misuse) {
  LaunchDescription desc = describe("", /*rx=*/3);
  LaunchPlan plan;
  std::string error;
  EXPECT_EQ(planLaunches(desc, {100}, 1, plan, error),
            STENCIL_ERROR_RANK_MISMATCH);
  EXPECT_NE(error.find("1 dimensions but kernel 'k' is of rank 2"),
            std::string::npos)
      << error;
  // Radius 3 along x needs 7 points; radius 1 along y 3.
  EXPECT_EQ(planLaunches(desc, {100, 6}, 1, plan, error),
            STENCIL_ERROR_GRID_TOO_SMALL);
  EXPECT_NE(error.find("dimension 1 (outermost first) has 6 points, fewer "
                       "than the 7 of the stencil (radius 3)"),
            std::string::npos)
      << error;
  EXPECT_EQ(planLaunches(desc, {2, 7}, 1, plan, error),
            STENCIL_ERROR_GRID_TOO_SMALL);
  EXPECT_EQ(planLaunches(desc, {3, 7}, 1, plan, error), STENCIL_SUCCESS);
  EXPECT_EQ(planLaunches(desc, {3, 7}, -1, plan, error),
            STENCIL_ERROR_INVALID_ARGUMENT);
  // 65535 blocks along y at most: 16 rows each.
  EXPECT_EQ(planLaunches(desc, {65535 * 16, 7}, 1, plan, error),
            STENCIL_SUCCESS);
  EXPECT_EQ(planLaunches(desc, {65535 * 16 + 1, 7}, 1, plan, error),
            STENCIL_ERROR_GRID_TOO_LARGE);
  EXPECT_NE(error.find("dimension 1 needs 65536 blocks, more than CUDA's "
                       "65535"),
            std::string::npos)
      << error;
  EXPECT_EQ(planLaunches(desc, {(int64_t(1) << 40) + 1, 7}, 1, plan, error),
            STENCIL_ERROR_GRID_TOO_LARGE);
}

TEST(LaunchPlan, FusedStepsAndBand) {
  LaunchDescription desc =
      describe("steps_per_launch = 3\nband_kernel = k_band\nband_tile = 8,4\n"
               "band_block = 64,1,1\nband_margins = 3,3\n"
               "composed_abs_sum = 1\ncomposed_points = 25\n");
  LaunchPlan plan;
  std::string error;
  // No tail kernel in this description: whole launches only.
  EXPECT_EQ(planLaunches(desc, {50, 60}, 4, plan, error), STENCIL_ERROR_STEPS);
  EXPECT_NE(error.find("steps = 4 is not a multiple of the kernel's "
                       "steps_per_launch = 3"),
            std::string::npos)
      << error;
  ASSERT_EQ(planLaunches(desc, {50, 60}, 9, plan, error), STENCIL_SUCCESS)
      << error;
  EXPECT_EQ(plan.launches, 3);
  // The band's blocks are countBandTiles' (its tile and margins outermost
  // first here, innermost first in the description).
  EXPECT_EQ(plan.bandBlocks,
            unsigned(countBandTiles({50, 60}, {4, 8}, {3, 3})));
  EXPECT_GT(plan.bandBlocks, 0u);
  EXPECT_EQ(plan.bandBlock[0], 64u);
}

/// The tail lines of a kernel fusing `f` steps, as the compiler writes
/// them (a one-step tail kernel with its own tile and threads).
std::string tailLines(int f, int tailSteps = 1) {
  return "steps_per_launch = " + std::to_string(f) +
         "\ntail_kernel = k_tail\ntail_steps = " + std::to_string(tailSteps) +
         "\ntail_tile = 64,8\ntail_block = 128,1,1\ntail_shared_bytes = 32\n";
}

TEST(LaunchPlan, TailCoversEverySteps) {
  // Every F and S: floor(S / F) fused launches, S mod F one-step tail
  // launches, together exactly S steps; the result ends in `out` when the
  // launches of both kinds are odd in number (launch l reads buffer l mod
  // 2), in `in` when even (S = 0 included).
  for (int f : {1, 2, 3, 4, 8}) {
    LaunchDescription desc = describe(f > 1 ? tailLines(f) : "");
    for (int64_t s : {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 15, 16, 17, 100,
                      1001}) {
      LaunchPlan plan;
      std::string error;
      ASSERT_EQ(planLaunches(desc, {100, 1000}, s, plan, error),
                STENCIL_SUCCESS)
          << "F = " << f << ", S = " << s << ": " << error;
      EXPECT_EQ(plan.launches, s / f) << "F = " << f << ", S = " << s;
      EXPECT_EQ(plan.tailLaunches, s % f) << "F = " << f << ", S = " << s;
      EXPECT_EQ(plan.launches * f + plan.tailLaunches * 1, s);
      EXPECT_EQ(plan.totalLaunches(), s / f + s % f);
      EXPECT_EQ(plan.resultInOut(), (s / f + s % f) % 2 == 1)
          << "F = " << f << ", S = " << s;
      // The fused launches keep the kernel's geometry.
      EXPECT_EQ(plan.grid[0], 32u);
      EXPECT_EQ(plan.grid[1], 7u);
      EXPECT_EQ(plan.sharedBytes, 64u);
      if (plan.tailLaunches > 0) {
        // The tail's own tile (innermost first: 64 x 8) and threads.
        EXPECT_EQ(plan.tailGrid[0], 16u); // ceil(1000 / 64)
        EXPECT_EQ(plan.tailGrid[1], 13u); // ceil(100 / 8)
        EXPECT_EQ(plan.tailGrid[2], 1u);
        EXPECT_EQ(plan.tailBlock[0], 128u);
        EXPECT_EQ(plan.tailSharedBytes, 32u);
      } else {
        EXPECT_EQ(plan.tailGrid[0], 1u);
        EXPECT_EQ(plan.tailSharedBytes, 0u);
      }
    }
  }
}

TEST(LaunchPlan, TailParityExamples) {
  // Heat-2D of the README: 4 fused steps, 10 steps = 2 fused launches and 2
  // tail launches: 4 launches, the result back in `in`; 7 steps = 1 + 3:
  // in `in`; 5 steps = 1 + 1: in `in`; 3 steps = 0 + 3: in `out`.
  LaunchDescription desc = describe(tailLines(4));
  LaunchPlan plan;
  std::string error;
  struct {
    int64_t steps, launches, tails;
    bool inOut;
  } cases[] = {{10, 2, 2, false}, {7, 1, 3, false}, {5, 1, 1, false},
               {3, 0, 3, true},   {4, 1, 0, true},  {1, 0, 1, true},
               {2, 0, 2, false},  {0, 0, 0, false}};
  for (const auto &c : cases) {
    ASSERT_EQ(planLaunches(desc, {20, 30}, c.steps, plan, error),
              STENCIL_SUCCESS)
        << error;
    EXPECT_EQ(plan.launches, c.launches) << c.steps;
    EXPECT_EQ(plan.tailLaunches, c.tails) << c.steps;
    EXPECT_EQ(plan.resultInOut(), c.inOut) << c.steps;
  }
}

TEST(LaunchPlan, TailOfSeveralSteps) {
  // A tail of 2 steps per launch (the format allows it): 8 fused steps,
  // S mod 8 must be even.
  LaunchDescription desc = describe(tailLines(8, /*tailSteps=*/2));
  LaunchPlan plan;
  std::string error;
  ASSERT_EQ(planLaunches(desc, {20, 30}, 14, plan, error), STENCIL_SUCCESS)
      << error;
  EXPECT_EQ(plan.launches, 1);
  EXPECT_EQ(plan.tailLaunches, 3);
  EXPECT_EQ(planLaunches(desc, {20, 30}, 13, plan, error), STENCIL_ERROR_STEPS);
  EXPECT_NE(error.find("steps = 13 leaves 5 after launches of 8 steps, not a "
                       "multiple of the tail kernel's 2 steps per launch"),
            std::string::npos)
      << error;
}

TEST(LaunchPlan, NoTailRefusesWithHowTo) {
  // A description without a tail (written before tails) keeps refusing
  // S mod F != 0, and says how to get a tail kernel.
  for (int f : {2, 3, 4, 8}) {
    LaunchDescription desc =
        describe("steps_per_launch = " + std::to_string(f) + "\n");
    for (int64_t s : {1, 2, 3, 5, 7, 10, 4 * 8 + 1}) {
      LaunchPlan plan;
      std::string error;
      stencil_status status = planLaunches(desc, {20, 30}, s, plan, error);
      if (s % f == 0) {
        EXPECT_EQ(status, STENCIL_SUCCESS) << error;
        EXPECT_EQ(plan.launches, s / f);
        EXPECT_EQ(plan.tailLaunches, 0);
        continue;
      }
      EXPECT_EQ(status, STENCIL_ERROR_STEPS) << "F = " << f << ", S = " << s;
      EXPECT_NE(error.find("steps = " + std::to_string(s) +
                           " is not a multiple of the kernel's "
                           "steps_per_launch = " +
                           std::to_string(f)),
                std::string::npos)
          << error;
      EXPECT_NE(error.find("has no tail kernel for the " +
                           std::to_string(s % f) + " left over"),
                std::string::npos)
          << error;
      EXPECT_NE(error.find("compile the stencil again"), std::string::npos)
          << error;
    }
  }
}

TEST(LaunchPlan, RoundUpToWholeLaunches) {
  // With a one-step tail every count is whole; without, a multiple of F;
  // with a 2-step tail of F = 8, an even remainder.
  LaunchDescription oneStep = describe(tailLines(4));
  LaunchDescription none = describe("steps_per_launch = 4\n");
  LaunchDescription twoStep = describe(tailLines(8, /*tailSteps=*/2));
  for (int64_t s = 0; s < 40; ++s) {
    EXPECT_EQ(roundUpToWholeLaunches(oneStep, s), s);
    EXPECT_EQ(roundUpToWholeLaunches(none, s), (s + 3) / 4 * 4);
    EXPECT_EQ(roundUpToWholeLaunches(twoStep, s), (s + 1) / 2 * 2);
  }
}

TEST(LaunchPlan, TailGridTooLarge) {
  // The tail's tile of one row: 65536 rows need more y blocks than CUDA
  // allows, checked only when the tail runs.
  LaunchDescription desc = describe(
      "steps_per_launch = 2\ntail_kernel = k_tail\ntail_steps = 1\n"
      "tail_tile = 64,1\ntail_block = 64\n");
  LaunchPlan plan;
  std::string error;
  EXPECT_EQ(planLaunches(desc, {65536, 30}, 4, plan, error), STENCIL_SUCCESS)
      << error;
  EXPECT_EQ(planLaunches(desc, {65536, 30}, 5, plan, error),
            STENCIL_ERROR_GRID_TOO_LARGE);
  EXPECT_NE(error.find("the tail kernel's launch grid's dimension 1 needs "
                       "65536 blocks"),
            std::string::npos)
      << error;
}

TEST(LaunchPlan, TailKeysValidated) {
  auto parse = [](const std::string &extra, std::string &error) {
    std::string text =
        "version = 1\nkernel = k\nptx = k.ptx\nrank = 2\n"
        "element_type = f64\noffsets = -1,0;0,-1;0,0;0,1;1,0\n"
        "weights = 0.1,0.2,0.3,0.2,0.2\nboundary = halo\ntile = 32,16\n"
        "block = 256\n" +
        extra;
    LaunchDescription desc;
    std::vector<std::string> warnings;
    bool ok = parseLaunchDescriptionText(text, "t.launch", desc, error,
                                         warnings);
    EXPECT_TRUE(warnings.empty()) << warnings.front();
    return ok;
  };
  std::string error;
  EXPECT_TRUE(parse(tailLines(4), error)) << error;
  // All four keys or none.
  EXPECT_FALSE(parse("steps_per_launch = 4\ntail_kernel = t\n", error));
  EXPECT_NE(error.find("missing key 'tail_steps'"), std::string::npos) << error;
  EXPECT_FALSE(parse("steps_per_launch = 4\ntail_shared_bytes = 0\n", error));
  EXPECT_NE(error.find("missing key 'tail_kernel'"), std::string::npos)
      << error;
  // A tail needs fused steps, and fewer steps than a launch.
  EXPECT_FALSE(parse("tail_kernel = t\ntail_steps = 1\ntail_tile = 1,1\n"
                     "tail_block = 32\n",
                     error));
  EXPECT_NE(error.find("needs steps_per_launch > 1"), std::string::npos)
      << error;
  EXPECT_FALSE(parse(tailLines(4, /*tailSteps=*/4), error));
  EXPECT_NE(error.find("tail_steps must be an integer from 1 to 3"),
            std::string::npos)
      << error;
  EXPECT_FALSE(parse(tailLines(4, /*tailSteps=*/0), error));
  EXPECT_FALSE(parse("steps_per_launch = 4\ntail_kernel = t\ntail_steps = 1\n"
                     "tail_tile = 64\ntail_block = 32\n",
                     error));
  EXPECT_NE(error.find("tail_tile must have 2 integers"), std::string::npos)
      << error;
  EXPECT_FALSE(parse("steps_per_launch = 4\ntail_kernel = t\ntail_steps = 1\n"
                     "tail_tile = 64,1\ntail_block = 2048\n",
                     error));
  EXPECT_FALSE(parse("steps_per_launch = 4\ntail_kernel = t\ntail_steps = 1\n"
                     "tail_tile = 64,1\ntail_block = 32\n"
                     "tail_shared_bytes = -1\n",
                     error));
  EXPECT_NE(error.find("bad tail_shared_bytes"), std::string::npos) << error;
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
