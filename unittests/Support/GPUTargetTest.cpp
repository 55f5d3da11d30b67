//===- GPUTargetTest.cpp - Chip names -------------------------------------===//

#include "stencil/Support/GPUTarget.h"

#include "gtest/gtest.h"

using namespace mlir::stencil;

TEST(GPUTargetTest, SMVersion) {
  EXPECT_EQ(getSMVersion("sm_80"), 80u);
  EXPECT_EQ(getSMVersion("sm_86"), 86u);
  EXPECT_EQ(getSMVersion("sm_90"), 90u);
  EXPECT_EQ(getSMVersion("sm_90a"), 90u);
  EXPECT_EQ(getSMVersion("sm_100f"), 100u);
  EXPECT_EQ(getSMVersion("sm_120"), 120u);
  // Not chip names.
  EXPECT_FALSE(getSMVersion("sm_"));
  EXPECT_FALSE(getSMVersion("sm90"));
  EXPECT_FALSE(getSMVersion("sm_90x"));
  EXPECT_FALSE(getSMVersion("sm_90aa"));
  EXPECT_FALSE(getSMVersion("gfx90a"));
  EXPECT_FALSE(getSMVersion(""));
}

TEST(GPUTargetTest, ArchSpecific) {
  EXPECT_TRUE(isArchSpecificChip("sm_90a"));
  EXPECT_FALSE(isArchSpecificChip("sm_90"));
  EXPECT_FALSE(isArchSpecificChip("sm_100f"));
  EXPECT_FALSE(isArchSpecificChip("gfx90a"));
  EXPECT_TRUE(hasWarpgroupMma("sm_90a"));
  EXPECT_FALSE(hasWarpgroupMma("sm_90"));
  EXPECT_FALSE(hasWarpgroupMma("sm_100a"));
  EXPECT_FALSE(hasWarpgroupMma("sm_80"));
}
