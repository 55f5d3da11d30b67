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

TEST(GPUTargetTest, KnownChips) {
  for (const char *chip : {"sm_70", "sm_75", "sm_80", "sm_86", "sm_89", "sm_90",
                           "sm_90a", "sm_100", "sm_100a", "sm_100f", "sm_103",
                           "sm_110", "sm_120", "sm_120a", "sm_121"})
    EXPECT_TRUE(isKnownChip(chip)) << chip;
  // Well-formed names LLVM 22 has no processor for, and not chip names.
  for (const char *chip : {"sm_999", "sm_91", "sm_90f", "sm_86a", "gfx90a", "",
                           "sm_90,warps=8", "SM_90"})
    EXPECT_FALSE(isKnownChip(chip)) << chip;
  // Every known chip is a chip name.
  for (llvm::StringRef chip : getKnownChips())
    EXPECT_TRUE(getSMVersion(chip).has_value()) << chip.str();
}

TEST(GPUTargetTest, MinPTXVersion) {
  // The oldest `.target` LLVM 22 emits for each chip (llc -mattr=+ptxNN).
  EXPECT_EQ(getMinPTXVersion("sm_70"), 60u);
  EXPECT_EQ(getMinPTXVersion("sm_75"), 63u);
  EXPECT_EQ(getMinPTXVersion("sm_80"), 70u);
  EXPECT_EQ(getMinPTXVersion("sm_86"), 71u);
  EXPECT_EQ(getMinPTXVersion("sm_89"), 78u);
  EXPECT_EQ(getMinPTXVersion("sm_90"), 78u);
  EXPECT_EQ(getMinPTXVersion("sm_90a"), 80u);
  EXPECT_EQ(getMinPTXVersion("sm_100"), 86u);
  EXPECT_EQ(getMinPTXVersion("sm_100a"), 86u);
  EXPECT_EQ(getMinPTXVersion("sm_100f"), 88u);
  EXPECT_EQ(getMinPTXVersion("sm_103"), 88u);
  EXPECT_EQ(getMinPTXVersion("sm_120"), 87u);
  EXPECT_EQ(getMinPTXVersion("sm_121"), 88u);
  EXPECT_FALSE(getMinPTXVersion("sm_999"));
  EXPECT_FALSE(getMinPTXVersion(""));
  // No chip needs a PTX ISA LLVM does not emit.
  for (llvm::StringRef chip : getKnownChips()) {
    std::optional<unsigned> version = getMinPTXVersion(chip);
    ASSERT_TRUE(version.has_value()) << chip.str();
    EXPECT_TRUE(isKnownPTXVersion(*version)) << chip.str();
    EXPECT_LE(*version, kMaxPTXVersion) << chip.str();
  }
}

TEST(GPUTargetTest, PTXFeatures) {
  std::string error;
  EXPECT_EQ(parsePTXFeatures("+ptx85", error), 85u);
  EXPECT_EQ(parsePTXFeatures("+ptx70", error), 70u);
  EXPECT_EQ(parsePTXFeatures("+ptx90", error), 90u);
  EXPECT_TRUE(error.empty());
  for (const char *bad : {"", "garbage", "+ptx", "ptx85", "+ptx91", "+ptx79",
                          "+ptx85,+ptx86", "-ptx85", "+ptx8.5", "+sm_90"}) {
    error.clear();
    EXPECT_FALSE(parsePTXFeatures(bad, error)) << bad;
    EXPECT_NE(error.find("+ptxNN"), std::string::npos) << bad;
  }
  EXPECT_EQ(formatPTXVersion(85), "8.5");
  EXPECT_EQ(formatPTXVersion(90), "9.0");
  EXPECT_EQ(getPTXFeature(86), "+ptx86");
}

TEST(GPUTargetTest, Instructions) {
  using I = GPUInstructions;
  for (I i : {I::Fma, I::CpAsync, I::Mma, I::MmaSp, I::MmaSpOrderedMetadata,
              I::Wgmma})
    EXPECT_EQ(parseInstructionsName(getInstructionsName(i)), i);
  EXPECT_FALSE(parseInstructionsName("tcgen05"));

  EXPECT_TRUE(chipHasInstructions("sm_70", I::Fma));
  EXPECT_FALSE(chipHasInstructions("sm_70", I::CpAsync));
  EXPECT_FALSE(chipHasInstructions("sm_75", I::MmaSp));
  for (const char *chip : {"sm_80", "sm_86", "sm_89", "sm_90", "sm_90a",
                           "sm_100a", "sm_103", "sm_120", "sm_121"}) {
    EXPECT_TRUE(chipHasInstructions(chip, I::Mma)) << chip;
    EXPECT_TRUE(chipHasInstructions(chip, I::MmaSp)) << chip;
    EXPECT_TRUE(chipHasInstructions(chip, I::MmaSpOrderedMetadata)) << chip;
  }
  // wgmma: sm_90a only (not sm_90, not Blackwell's sm_100a).
  EXPECT_TRUE(chipHasInstructions("sm_90a", I::Wgmma));
  for (const char *chip : {"sm_80", "sm_90", "sm_100a", "sm_120a"})
    EXPECT_FALSE(chipHasInstructions(chip, I::Wgmma)) << chip;
  // Unknown chips have nothing.
  EXPECT_FALSE(chipHasInstructions("sm_999", I::Fma));
  EXPECT_FALSE(chipHasInstructions("", I::Fma));

  EXPECT_TRUE(hasMmaF64M16N8K4("sm_90"));
  EXPECT_TRUE(hasMmaF64M16N8K4("sm_100a"));
  EXPECT_FALSE(hasMmaF64M16N8K4("sm_89"));
  EXPECT_FALSE(hasMmaF64M16N8K4("sm_999"));

  EXPECT_EQ(describeChipsWith(I::MmaSp),
            "sm_80 or later: sm_80, sm_86, sm_89, sm_90, sm_90a, sm_100a, "
            "sm_120, ...");
  EXPECT_EQ(describeChipsWith(I::Wgmma), "sm_90a only");
}

TEST(GPUTargetTest, RequiredPTXVersion) {
  using I = GPUInstructions;
  // The newest of the chip's and the instructions' minima.
  EXPECT_EQ(getRequiredPTXVersion("sm_80", {I::MmaSp, I::CpAsync}), 71u);
  EXPECT_EQ(getRequiredPTXVersion("sm_80", {I::MmaSp, I::MmaSpOrderedMetadata}),
            85u);
  EXPECT_EQ(getRequiredPTXVersion("sm_90", {I::Mma}), 78u);
  EXPECT_EQ(getRequiredPTXVersion("sm_90a", {I::Mma}), 80u);
  EXPECT_EQ(
      getRequiredPTXVersion("sm_100a", {I::MmaSp, I::MmaSpOrderedMetadata}),
      86u);
  EXPECT_EQ(getRequiredPTXVersion("sm_120", {I::Fma}), 87u);
  EXPECT_EQ(getRequiredPTXVersion("sm_121", {I::Mma}), 88u);
  EXPECT_EQ(getRequiredPTXVersion("sm_70", {I::Fma}), 60u);
  // An unknown chip: the instructions' only.
  EXPECT_EQ(getRequiredPTXVersion("sm_999", {I::MmaSpOrderedMetadata}), 85u);

  EXPECT_EQ(getPTXFeatures("sm_100a", "", {I::Mma}), "+ptx86");
  EXPECT_EQ(getPTXFeatures("sm_80", "", {I::MmaSp, I::MmaSpOrderedMetadata}),
            "+ptx85");
  EXPECT_EQ(getPTXFeatures("sm_80", "+ptx88", {I::Mma}), "+ptx88");
}

TEST(GPUTargetTest, CheckTarget) {
  using I = GPUInstructions;
  const I sptc[] = {I::MmaSp, I::MmaSpOrderedMetadata, I::CpAsync};
  // Accepted: every chip with mma.sp, default or new-enough features.
  for (const char *chip : {"sm_80", "sm_86", "sm_89", "sm_90", "sm_90a",
                           "sm_100", "sm_100a", "sm_103", "sm_120", "sm_121"})
    EXPECT_EQ(checkGPUTarget("--lower-to-sptc", chip, "", sptc), "") << chip;
  EXPECT_EQ(checkGPUTarget("--lower-to-sptc", "sm_80", "+ptx85", sptc), "");
  EXPECT_EQ(checkGPUTarget("--lower-to-sptc", "sm_100a", "+ptx88", sptc), "");

  auto fails = [](const std::string &error, const char *part) {
    return error.find(part) != std::string::npos;
  };
  // A chip without the instructions.
  std::string e = checkGPUTarget("--lower-to-sptc", "sm_75", "", sptc);
  EXPECT_EQ(e, "--lower-to-sptc needs a chip with the sparse Tensor Cores' "
               "mma.sp (sm_80 or later: sm_80, sm_86, sm_89, sm_90, sm_90a, "
               "sm_100a, sm_120, ...); got 'sm_75'");
  // Empty, unknown, and an option string with commas.
  EXPECT_TRUE(fails(checkGPUTarget("--lower-to-tc", "", "", {I::Mma}),
                    "needs a chip (sm_80 or later"));
  EXPECT_TRUE(fails(checkGPUTarget("--lower-to-tc", "sm_999", "", {I::Mma}),
                    "'sm_999' is not a chip LLVM's NVPTX backend knows"));
  EXPECT_TRUE(fails(checkGPUTarget("--lower-to-fft", "gfx90a", "", {I::Mma}),
                    "'gfx90a' is not a chip"));
  e = checkGPUTarget("--lower-to-sptc", "sm_90,warps=8", "", sptc);
  EXPECT_TRUE(fails(e, "separated by spaces, not commas")) << e;
  EXPECT_TRUE(fails(e, "--lower-to-sptc=\"chip=sm_90 warps=8\"")) << e;
  // Features: garbage, older than the chip, older than the instructions.
  EXPECT_TRUE(fails(
      checkGPUTarget("--lower-to-cuda-core", "sm_90", "garbage", {I::Fma}),
      "features='garbage' is not a PTX ISA version"));
  e = checkGPUTarget("--lower-to-tc", "sm_90", "+ptx70", {I::Mma});
  EXPECT_TRUE(fails(e, "older than chip=sm_90 needs (PTX 7.8, +ptx78)")) << e;
  e = checkGPUTarget("--lower-to-sptc", "sm_80", "+ptx80", sptc);
  EXPECT_TRUE(fails(e, "older than mma.sp::ordered_metadata needs (PTX 8.5"))
      << e;
  e = checkGPUTarget("--lower-to-sptc", "sm_100a", "+ptx85", sptc);
  EXPECT_TRUE(fails(e, "older than chip=sm_100a needs (PTX 8.6")) << e;
  // Without instructions (--lower-to-auto): the chip and features only.
  EXPECT_EQ(checkGPUTarget("--lower-to-auto", "sm_75", "", {}), "");
  EXPECT_NE(checkGPUTarget("--lower-to-auto", "", "", {}), "");
  EXPECT_NE(checkGPUChip("--lower-to-auto", "sm_999"), "");
  EXPECT_EQ(checkGPUChip("--lower-to-auto", "sm_120"), "");
}

TEST(GPUTargetTest, CheckLLVMOptLevel) {
  for (int level : {-1, 0, 1, 2, 3})
    EXPECT_EQ(checkLLVMOptLevel(level), "") << level;
  EXPECT_EQ(checkLLVMOptLevel(4),
            "opt-level must be 0 to 3, or -1 (by kernel: 3, or the level the "
            "kernel's conversion asks); got 4");
  EXPECT_NE(checkLLVMOptLevel(-2), "");
  EXPECT_NE(checkLLVMOptLevel(INT32_MIN), "");
}
