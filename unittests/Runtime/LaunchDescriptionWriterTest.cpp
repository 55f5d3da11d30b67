//===- LaunchDescriptionWriterTest.cpp - the description's writer ---------===//
//
// The writer half of the launch description codec: a description with every
// key, written in the writer's order by hand, reads and writes back to the
// same bytes; so does a general (body) stencil with a Dirichlet boundary;
// and what the writer leaves out reads as absent.
//
//===----------------------------------------------------------------------===//

#include "../Support/SmallRecipe.h"
#include "LaunchDescription.h"

#include "gtest/gtest.h"

#include <cstring>
#include <sstream>

using namespace stencil_run;

namespace {

/// `text` parsed (it must be valid) and written again.
std::string rewrite(const std::string &text,
                    const LaunchDescriptionNotes &notes) {
  LaunchDescription desc;
  std::string error;
  std::vector<std::string> warnings;
  EXPECT_TRUE(
      parseLaunchDescriptionText(text, "dir/k.launch", desc, error, warnings))
      << error;
  EXPECT_TRUE(warnings.empty());
  std::ostringstream os;
  writeLaunchDescription(desc, os, notes);
  return os.str();
}

TEST(LaunchDescriptionWriterTest, EveryKeyWritesBackTheSameBytes) {
  // A 1-D kernel with a repacking recipe (SmallRecipe.h), fused steps with a
  // band and a tail kernel, and every key the benchmark scripts read.
  std::string text =
      "# stencil launch description v1, written by stencil-translate\n"
      "version = 1\n"
      "kernel = k_sptc\n"
      "ptx = k_sptc.ptx\n"
      "rank = 1\n"
      "element_type = f16\n"
      "accumulator = f32\n"
      "offsets = -1;0;1\n"
      "weights = 0.25,-0.5,0.75\n"
      "boundary = periodic\n"
      "# time steps in the source op: 7\n"
      "steps_per_launch = 3\n"
      "composed_abs_sum = 0.10000000000000001\n"
      "composed_points = 7\n"
      "band_kernel = k_band\n"
      "band_tile = 32\n"
      "band_block = 128,1,1\n"
      "band_margins = 3\n"
      "tail_kernel = k_tail\n"
      "tail_steps = 1\n"
      "tail_tile = 64\n"
      "tail_block = 256,1,1\n"
      "tail_shared_bytes = 512\n"
      "tile = 64\n"
      "block = 256,1,1\n"
      "shared_bytes = 4096\n"
      "unit = mma.sp.f16\n"
      "unit_flops_per_point = 12.5\n"
      "schedule = rows\n"
      "vector_width = 4\n"
      "edge_unit = fma.f32\n"
      "edge_flops_per_point = 6\n"
      "chain_abs_sum = 1.5\n"
      "fft_error_bound = 2.0000000000000002e-07\n" +
      mlir::stencil::test::smallRecipeCoefficients({0.25, -0.5, 0.75}) + "\n" +
      mlir::stencil::test::kSmallRecipeKeys +
      "args = in,out,coeffs,sizes\n"
      "# pipeline: lower-to-sptc\n"
      "# chosen by --lower-to-auto for the device profile h200\n";
  LaunchDescriptionNotes notes;
  notes.sourceSteps = 7;
  notes.pipeline = "lower-to-sptc";
  notes.deviceProfile = "h200";
  EXPECT_EQ(rewrite(text, notes), text);
}

TEST(LaunchDescriptionWriterTest, BodyAndDirichletWriteBack) {
  std::string text = "# stencil launch description v1, written by a test\n"
                     "version = 1\n"
                     "kernel = k\n"
                     "ptx = /abs/k.ptx\n"
                     "rank = 2\n"
                     "element_type = f64\n"
                     "accumulator = f64\n"
                     "body = 0.5*a(0,0) + 0.2*max(a(-1,0), a(1,0))\n"
                     "boundary = dirichlet(0.33333333333333331)\n"
                     "# time steps in the source op: 0\n"
                     "tile = 32,8\n"
                     "block = 64,2,1\n"
                     "shared_bytes = 0\n"
                     "weights_global = k_weights\n"
                     "args = sizes,out,in\n";
  // A weights global needs linear weights: a body kernel says why it has no
  // recipe instead.
  std::string withReason = text;
  withReason.replace(withReason.find("weights_global = k_weights"),
                     strlen("weights_global = k_weights"),
                     "repack_unsupported = a general stencil");
  LaunchDescriptionNotes notes;
  notes.writer = "a test";
  EXPECT_EQ(rewrite(withReason, notes), withReason);
}

TEST(LaunchDescriptionWriterTest, LeavesOutWhatIsAbsent) {
  LaunchDescription desc;
  desc.kernel = "k";
  desc.ptx = "k.ptx";
  desc.rank = 1;
  desc.elementType = ElemType::F32;
  desc.offsets = {{0}};
  desc.weights = {1.0};
  desc.tile = {128};
  desc.block[0] = 128;
  desc.args = {"in", "out", "coeffs", "sizes"};
  std::ostringstream os;
  writeLaunchDescription(desc, os);
  const std::string text = os.str();
  for (const char *key :
       {"steps_per_launch", "composed", "band_", "tail_", "unit", "schedule",
        "vector_width", "edge_", "chain_abs_sum", "fft_error_bound",
        "coefficients", "repack", "weights_global", "# pipeline", "# chosen"})
    EXPECT_EQ(text.find(key), std::string::npos) << key << " in\n" << text;
  EXPECT_EQ(rewrite(text, {}), text);
}

TEST(LaunchDescriptionWriterTest, ReaderChecksTheBenchmarkKeys) {
  std::string base = "version = 1\nkernel = k\nptx = k.ptx\nrank = 1\n"
                     "element_type = f32\noffsets = 0\nweights = 1\n"
                     "boundary = halo\ntile = 8\nblock = 8\n";
  auto error = [&](const std::string &extra) {
    LaunchDescription desc;
    std::string message;
    std::vector<std::string> warnings;
    EXPECT_FALSE(parseLaunchDescriptionText(base + extra, "k.launch", desc,
                                            message, warnings))
        << extra;
    return message;
  };
  EXPECT_NE(error("vector_width = 32\n").find("vector_width must be"),
            std::string::npos);
  EXPECT_NE(error("edge_unit = fma.f32\n").find("missing key"),
            std::string::npos);
  EXPECT_NE(error("unit = fma.f32\nunit_flops_per_point = -1\n")
                .find("unit_flops_per_point must be a finite number"),
            std::string::npos);
}

} // namespace
