//===- CostModelTest.cpp - The performance model of seed 001 --------------===//
//
// The seed's formulas on hand-computed cases: the fusion redundancy of its
// Figure 6 (Box-2D1R fused over 3 steps: 49 points against 27), the four
// scenarios of section 4.1 with A100 figures (the arithmetic intensities of
// its Table 3 cases), the sweet spot of eq. 19; then the prediction of a
// compiled kernel from a launch record, the constants' lookup, and the
// device profile format.
//
//===----------------------------------------------------------------------===//

#include "stencil/Analysis/CostModel.h"
#include "stencil/Analysis/DeviceProfile.h"
#include "stencil/Dialect/Stencil/IR/StencilDialect.h"
#include "stencil/Support/GPUTarget.h"
#include "stencil/Support/StencilShape.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::stencil;

namespace {

// A100 (seed 001, 5.3): f64 CUDA cores 9.7 TFLOP/s, f64 Tensor Cores 19.5,
// f32 CUDA cores 19.5, in GFLOP/s.
constexpr double kCuF64 = 9700, kTcF64 = 19500, kCuF32 = 19500;

TEST(CostModelTest, FusionRedundancyOfFigure6) {
  // Box-2D1R, 3 steps: one 7 x 7 kernel (49 MACs) instead of 3 x 9.
  EXPECT_DOUBLE_EQ(getFusionRedundancy(49, 9, 3), 49.0 / 27.0);
  EXPECT_DOUBLE_EQ(getBoxFusionRedundancy(1, 2, 3), 49.0 / 27.0);
  // Eq. 10 in 3-D: (2 * 2 * 2 + 1)^3 / (2 * 5^3).
  EXPECT_DOUBLE_EQ(getBoxFusionRedundancy(2, 3, 2), 729.0 / 250.0);
  // No fusion, no redundancy.
  EXPECT_DOUBLE_EQ(getBoxFusionRedundancy(3, 2, 1), 1.0);
}

TEST(CostModelTest, Roofline) {
  EXPECT_DOUBLE_EQ(getRooflineBound(9700, 1555, 2.0), 3110);
  EXPECT_DOUBLE_EQ(getRooflineBound(9700, 1555, 10.0), 9700);
  // Heat-2D f16 (K = 5), 4 bytes per point, 10 flops: 1555 / 4 points/ns.
  EXPECT_DOUBLE_EQ(getStencilBound(19500, 1555, 10, 4), 1555.0 / 4);
  // Compute-bound: 19500 / 100.
  EXPECT_DOUBLE_EQ(getStencilBound(19500, 1555, 100, 4), 195);
}

TEST(CostModelTest, Scenario1BothMemoryBound) {
  // Heat-2D f64, t = 1: I_CU = 5 / 8, I_TC = 2 I_CU (S = 0.5); both below
  // their ridges at 1555 GB/s: the same speed (eq. 14).
  UnitComparison c =
      compareWithCudaCores(kTcF64, 0.5, 1.0, kCuF64, 1555, 5, 8, 1);
  EXPECT_EQ(c.scenario, Scenario::BothMemoryBound);
  EXPECT_DOUBLE_EQ(c.speedup, 1.0);
}

TEST(CostModelTest, Scenario2TensorCoreComputeBound) {
  // Case 1 of Table 3: Box-2D1R f64 fused over 3 steps, I_CU = 3.375 below
  // the CUDA cores' ridge (9700 / 1555 = 6.2); on Tensor Cores with S = 0.25
  // and alpha = 49 / 27, I_TC = 24.5: compute-bound, slower (eq. 15, 16):
  // (S / alpha) P_TC / (B I_CU).
  double alpha = getBoxFusionRedundancy(1, 2, 3);
  UnitComparison c =
      compareWithCudaCores(kTcF64, 0.25, alpha, kCuF64, 1555, 9, 8, 3);
  EXPECT_EQ(c.scenario, Scenario::TensorCoreComputeBound);
  EXPECT_NEAR(c.speedup, 0.25 / alpha * kTcF64 / (1555 * 3.375), 1e-12);
  EXPECT_LT(c.speedup, 1.0);
}

TEST(CostModelTest, Scenario3CudaCoreComputeBound) {
  // Case 3: Box-2D1R f32 over 7 steps, I_CU = 7 * 9 / 4 = 15.75 above the
  // ridge of 10 (19500 / 1950); Tensor Cores (156 TFLOP/s, S = 1, alpha =
  // 225 / 63) stay memory-bound: faster by B I_CU / P_CU (eq. 17).
  double alpha = getBoxFusionRedundancy(1, 2, 7);
  EXPECT_DOUBLE_EQ(alpha, 225.0 / 63.0);
  UnitComparison c =
      compareWithCudaCores(156000, 1.0, alpha, kCuF32, 1950, 9, 4, 7);
  EXPECT_EQ(c.scenario, Scenario::CudaCoreComputeBound);
  EXPECT_NEAR(c.speedup, 1950 * 15.75 / kCuF32, 1e-12);
  EXPECT_GT(c.speedup, 1.0);
}

TEST(CostModelTest, Scenario4AndTheSweetSpot) {
  // Case 5: Box-3D1R f64 over 3 steps, I_CU = 10.125 (both compute-bound at
  // 1555 GB/s): the speedup is (S / alpha) P_TC / P_CU (eq. 18), above 1
  // exactly in the sweet spot alpha < S P_TC / P_CU (eq. 19).
  UnitComparison out =
      compareWithCudaCores(kTcF64, 0.5, 1.81, kCuF64, 1555, 27, 8, 3);
  EXPECT_EQ(out.scenario, Scenario::BothComputeBound);
  EXPECT_NEAR(out.speedup, 0.5 / 1.81 * kTcF64 / kCuF64, 1e-12);
  EXPECT_LT(out.speedup, 1.0);
  EXPECT_FALSE(isInSweetSpot(1.81, 0.5, kTcF64, kCuF64));

  UnitComparison in =
      compareWithCudaCores(kTcF64, 0.75, 1.2, kCuF64, 1555, 27, 8, 3);
  EXPECT_EQ(in.scenario, Scenario::BothComputeBound);
  EXPECT_NEAR(in.speedup, 0.75 / 1.2 * kTcF64 / kCuF64, 1e-12);
  EXPECT_GT(in.speedup, 1.0);
  EXPECT_TRUE(isInSweetSpot(1.2, 0.75, kTcF64, kCuF64));
}

/// A launch record as HostLaunch.cpp writes it.
DictionaryAttr makeRecord(MLIRContext &ctx, StringRef type, int64_t rank,
                          ArrayRef<int64_t> tile, int64_t fused, StringRef unit,
                          double flops, PatternAttr pattern) {
  Builder b(&ctx);
  SmallVector<NamedAttribute> attrs = {
      b.getNamedAttr("kernel", b.getStringAttr("k")),
      b.getNamedAttr("rank", b.getI64IntegerAttr(rank)),
      b.getNamedAttr("element_type", b.getStringAttr(type)),
      b.getNamedAttr("steps", b.getI64IntegerAttr(12)),
      b.getNamedAttr("tile", b.getDenseI64ArrayAttr(tile)),
      b.getNamedAttr("block", b.getDenseI64ArrayAttr({256, 1, 1})),
      b.getNamedAttr("shared_bytes", b.getI64IntegerAttr(0)),
      b.getNamedAttr("unit", b.getStringAttr(unit)),
      b.getNamedAttr("unit_flops_per_point", b.getF64FloatAttr(flops))};
  if (fused > 1)
    attrs.push_back(
        b.getNamedAttr("steps_per_launch", b.getI64IntegerAttr(fused)));
  if (pattern)
    attrs.push_back(b.getNamedAttr(
        "source", b.getDictionaryAttr(b.getNamedAttr("pattern", pattern))));
  return b.getDictionaryAttr(attrs);
}

TEST(CostModelTest, KernelFromLaunchRecord) {
  MLIRContext ctx;
  ctx.loadDialect<StencilDialect>();
  // Heat-2D (star, radius 1), f64, 4 fused steps on 32 x 32 tiles:
  // A = (32 + 8)^2 / 32^2, M' = 8 (1 + A) / 4.
  auto star = PatternAttr::get(&ctx, 2, makeStarOffsets(2, 1));
  FailureOr<KernelWork> work = getKernelWork(
      makeRecord(ctx, "f64", 2, {32, 32}, 4, "fma.f64", 12.5, star));
  ASSERT_TRUE(succeeded(work));
  EXPECT_EQ(work->stepsPerLaunch, 4);
  EXPECT_EQ(work->elementBytes, 8);
  EXPECT_DOUBLE_EQ(work->stencilFlopsPerPoint, 10);
  EXPECT_DOUBLE_EQ(work->stagedInputsPerPoint, 1.5625);
  EXPECT_DOUBLE_EQ(work->getBytesPerPoint(), 8 * 2.5625 / 4);
  EXPECT_DOUBLE_EQ(work->getWorkInflation(), 1.25);

  // The radii come per dimension: a 3-D star of radius 2 on a 64 x 16 x 1
  // tile (innermost first) reads 68 / 64 * 20 / 16 * 5 inputs per output.
  auto star3 = PatternAttr::get(&ctx, 3, makeStarOffsets(3, 2));
  FailureOr<KernelWork> w3 = getKernelWork(
      makeRecord(ctx, "f16", 3, {64, 16, 1}, 1, "mma.f16", 64, star3));
  ASSERT_TRUE(succeeded(w3));
  EXPECT_DOUBLE_EQ(w3->stagedInputsPerPoint, 68.0 / 64 * 20.0 / 16 * 5);

  // No unit: not a kernel the model can place.
  Builder b(&ctx);
  EXPECT_TRUE(failed(getKernelWork(
      b.getDictionaryAttr(b.getNamedAttr("kernel", b.getStringAttr("k"))))));
}

TEST(CostModelTest, PredictionIsTheCalibratedRoofline) {
  DeviceProfile profile;
  profile.bandwidthGBs = 3000;
  profile.unitTflops["mma.sp.f16"] = 900;
  KernelWork work;
  work.elementBytes = 2;
  work.unit = "mma.sp.f16";
  work.unitFlopsPerPoint = 300;
  // M' = 2 * (1 + 1) = 4 bytes: 750 points/ns by bandwidth, 3000 by the unit.
  FailureOr<KernelPrediction> roof = predictKernel(work, profile, {});
  ASSERT_TRUE(succeeded(roof));
  EXPECT_DOUBLE_EQ(roof->bandwidthBound, 750);
  EXPECT_DOUBLE_EQ(roof->unitBound, 3000);
  EXPECT_DOUBLE_EQ(roof->bound, 750);
  EXPECT_TRUE(roof->memoryBound);
  EXPECT_DOUBLE_EQ(roof->predicted, 750);
  // eta_mem 0.5, eta_unit 0.25, gamma 1: 1 / (1 / 375 + 1 / 750) = 250.
  FailureOr<KernelPrediction> p =
      predictKernel(work, profile, ModelConstants{0.5, 0.25, 1.0});
  ASSERT_TRUE(succeeded(p));
  EXPECT_NEAR(p->predicted, 250, 1e-9);
  // gamma 0: the slower side alone.
  p = predictKernel(work, profile, ModelConstants{0.5, 0.25, 0.0});
  EXPECT_NEAR(p->predicted, 375, 1e-9);
  // A unit the profile has no peak for.
  work.unit = "fma.f64";
  EXPECT_TRUE(failed(predictKernel(work, profile, {})));
}

TEST(CostModelTest, ConstantsLookup) {
  // Fused depths beyond the measured ones take the deepest measured.
  ModelConstants four = getModelConstants("cuda-core-f4", 2, 8);
  ModelConstants nine = getModelConstants("cuda-core-f9", 2, 8);
  EXPECT_EQ(nine.memoryEfficiency, four.memoryEfficiency);
  EXPECT_EQ(nine.unitEfficiency, four.unitEfficiency);
  EXPECT_EQ(nine.overlap, four.overlap);
  // The row sweep has entries of its own in 2-D f16 and f64; elsewhere (f32,
  // a depth of its own missing) the next smaller depth, then the staged
  // CUDA-core kernels' of the same depth.
  auto same = [](ModelConstants a, ModelConstants b) {
    return a.memoryEfficiency == b.memoryEfficiency &&
           a.unitEfficiency == b.unitEfficiency && a.overlap == b.overlap;
  };
  EXPECT_FALSE(same(getModelConstants("cuda-core-rows-f2", 2, 8),
                    getModelConstants("cuda-core-f2", 2, 8)));
  EXPECT_TRUE(same(getModelConstants("cuda-core-rows-f6", 2, 8),
                   getModelConstants("cuda-core-rows-f4", 2, 8)));
  EXPECT_TRUE(same(getModelConstants("cuda-core-rows-f3", 2, 4),
                   getModelConstants("cuda-core-f3", 2, 4)));
  EXPECT_TRUE(same(getModelConstants("cuda-core-rows-f3", 3, 8),
                   getModelConstants("cuda-core-f3", 3, 8)));
  // Vector columns: their own entries per width where measured (f16), else
  // the plane sums' (W = 4 in f32).
  EXPECT_FALSE(same(getModelConstants("cuda-core-vsums-w8-f1", 3, 2),
                    getModelConstants("cuda-core-vsums-w4-f1", 3, 2)));
  EXPECT_FALSE(same(getModelConstants("cuda-core-vsums-w4-f1", 3, 2),
                    getModelConstants("cuda-core-sums-f1", 3, 2)));
  EXPECT_TRUE(same(getModelConstants("cuda-core-vsums-w4-f1", 3, 4),
                   getModelConstants("cuda-core-sums-f1", 3, 4)));
  // The fused low-rank chain: its depth's entry, else the next smaller one.
  EXPECT_FALSE(same(getModelConstants("tc-lowrank-f4", 2, 2),
                    getModelConstants("tc-lowrank", 2, 2)));
  EXPECT_TRUE(same(getModelConstants("tc-lowrank-f6", 2, 2),
                   getModelConstants("tc-lowrank-f4", 2, 2)));
  // A pipeline the table does not know: the roofline itself.
  ModelConstants none = getModelConstants("no-such-pipeline", 2, 2);
  EXPECT_EQ(none.memoryEfficiency, 1.0);
  EXPECT_EQ(none.unitEfficiency, 1.0);
  EXPECT_EQ(none.overlap, 0.0);
  // Every constant is an efficiency and an overlap.
  for (StringRef pipeline :
       {"sptc", "tc", "tc-lowrank", "cuda-core-f1", "cuda-core-f4",
        "cuda-core-rows-f2", "cuda-core-rows-f4", "fft-f1", "fft-f4"})
    for (int64_t rank : {1, 2, 3})
      for (int64_t bytes : {2, 4, 8}) {
        ModelConstants c = getModelConstants(pipeline, rank, bytes);
        EXPECT_GT(c.memoryEfficiency, 0.0);
        EXPECT_LE(c.memoryEfficiency, 1.0);
        EXPECT_GT(c.unitEfficiency, 0.0);
        EXPECT_LE(c.unitEfficiency, 1.0);
        EXPECT_GE(c.overlap, 0.0);
        EXPECT_LE(c.overlap, 1.0);
      }
}

TEST(DeviceProfileTest, BuiltinsParseAndRoundTrip) {
  for (StringRef name : getBuiltinDeviceProfileNames()) {
    auto profile = getBuiltinDeviceProfile(name);
    ASSERT_TRUE(bool(profile)) << llvm::toString(profile.takeError());
    EXPECT_GT(profile->bandwidthGBs, 0);
    for (StringRef unit : {"mma.sp.f16", "mma.f16", "fma.f32", "fma.f64"})
      EXPECT_GT(profile->getUnitTflops(unit), 0)
          << name.str() << " " << unit.str();
    // The f64 MMA the pipelines issue on the profile's chip (m8n8k4 before
    // sm_90, m16n8k4 from sm_90 on); the RTX PRO 6000 has no f64 Tensor
    // Cores and no published figure for them.
    StringRef f64Unit =
        hasMmaF64M16N8K4(profile->chip) ? "mma.f64.m16n8k4" : "mma.f64";
    if (name == "rtx-pro-6000")
      EXPECT_EQ(profile->getUnitTflops(f64Unit), 0);
    else
      EXPECT_GT(profile->getUnitTflops(f64Unit), 0) << name.str();
    // Measured profiles are calibrated, published figures are not.
    EXPECT_EQ(profile->calibrated, name == "h100" || name == "h200")
        << name.str();
    std::string text;
    llvm::raw_string_ostream os(text);
    printDeviceProfile(*profile, os);
    auto again = parseDeviceProfile(text);
    ASSERT_TRUE(bool(again)) << llvm::toString(again.takeError());
    EXPECT_EQ(again->name, profile->name);
    EXPECT_EQ(again->calibrated, profile->calibrated);
    EXPECT_EQ(again->sms, profile->sms);
    EXPECT_EQ(again->sharedBytesPerBlock, profile->sharedBytesPerBlock);
    EXPECT_NEAR(again->bandwidthGBs, profile->bandwidthGBs, 0.05);
    EXPECT_EQ(again->unitTflops.size(), profile->unitTflops.size());
    for (const auto &[unit, tflops] : profile->unitTflops)
      EXPECT_NEAR(again->getUnitTflops(unit), tflops, 0.05);
  }
  EXPECT_FALSE(bool(getBuiltinDeviceProfile("v100")));
  llvm::consumeError(getBuiltinDeviceProfile("v100").takeError());
  // The warpgroup MMAs (sparse and dense) fall back on the warp-level peaks,
  // unless the profile measured their own; a unit nobody measured has none.
  auto h100 = getBuiltinDeviceProfile("h100");
  ASSERT_TRUE(bool(h100));
  EXPECT_EQ(h100->getUnitTflops("wgmma.sp.f16"),
            h100->getUnitTflops("mma.sp.f16"));
  h100->unitTflops["wgmma.sp.f16"] = 1500;
  EXPECT_EQ(h100->getUnitTflops("wgmma.sp.f16"), 1500);
  EXPECT_EQ(h100->getUnitTflops("wgmma.f16"), h100->getUnitTflops("mma.f16"));
  EXPECT_GT(h100->getUnitTflops("wgmma.f16"), 0);
  EXPECT_EQ(h100->getUnitTflops("wgmma.bf16"), 0);
}

TEST(DeviceProfileTest, ByChip) {
  auto h100 = lookupDeviceProfile("", "sm_90");
  ASSERT_TRUE(bool(h100));
  EXPECT_EQ(h100->chip, "sm_90");
  auto a100 = lookupDeviceProfile("", "sm_86");
  ASSERT_TRUE(bool(a100));
  EXPECT_EQ(a100->chip, "sm_80");
  // Blackwell: the data-center and the workstation chip, by generation.
  for (auto [chip, profileChip] :
       {std::pair<StringRef, StringRef>{"sm_100", "sm_100"},
        {"sm_100a", "sm_100"},
        {"sm_120", "sm_120"},
        {"sm_120a", "sm_120"},
        {"sm_90a", "sm_90"}}) {
    auto profile = lookupDeviceProfile("", chip);
    ASSERT_TRUE(bool(profile)) << chip.str();
    EXPECT_EQ(profile->chip, profileChip) << chip.str();
  }
  // Chips of no profile's generation.
  for (StringRef chip : {"sm_75", "sm_103", "sm_110", "sm_121"}) {
    auto none = lookupDeviceProfile("", chip);
    EXPECT_FALSE(bool(none)) << chip.str();
    llvm::consumeError(none.takeError());
  }
}

TEST(DeviceProfileTest, Calibrated) {
  auto parsed = parseDeviceProfile("version = 1\ncalibrated = false\n"
                                   "bandwidth_gbs = 100\npeak.fma.f32 = 1\n");
  ASSERT_TRUE(bool(parsed)) << llvm::toString(parsed.takeError());
  EXPECT_FALSE(parsed->calibrated);
  std::string text;
  llvm::raw_string_ostream os(text);
  printDeviceProfile(*parsed, os);
  EXPECT_NE(text.find("calibrated = false\n"), std::string::npos);
  auto bad = parseDeviceProfile("version = 1\ncalibrated = maybe\n"
                                "bandwidth_gbs = 100\npeak.fma.f32 = 1\n");
  ASSERT_FALSE(bool(bad));
  EXPECT_NE(llvm::toString(bad.takeError())
                .find("'calibrated' needs true or false, got 'maybe'"),
            std::string::npos);
}

/// The message of a parse that must fail.
std::string parseError(StringRef text) {
  auto profile = parseDeviceProfile(text);
  if (profile)
    return "(parsed)";
  return llvm::toString(profile.takeError());
}

TEST(DeviceProfileTest, Errors) {
  EXPECT_EQ(parseError("version = 1\nbandwidth_gbs = 10\npeak.fma.f32 = 1\n"
                       "bandwith = 3\n"),
            "device profile line 4: unknown key 'bandwith'");
  EXPECT_EQ(parseError("version = 1\nbandwidth_gbs = fast\n"),
            "device profile line 2: 'bandwidth_gbs' needs a positive "
            "number, got 'fast'");
  EXPECT_EQ(parseError("version = 2\n"),
            "device profile line 1: unsupported version 2 (this compiler "
            "reads version 1)");
  EXPECT_EQ(parseError("bandwidth_gbs = 10\npeak.fma.f32 = 1\n"),
            "device profile: no 'version = 1' line");
  EXPECT_EQ(parseError("version = 1\npeak.fma.f32 = 1\n"),
            "device profile: no 'bandwidth_gbs'");
  EXPECT_EQ(parseError("version = 1\nbandwidth_gbs = 10\n"),
            "device profile: no 'peak.<unit>' line (e.g. peak.fma.f32)");
  EXPECT_EQ(parseError("version = 1\nbandwidth_gbs = 10\npeak.fma.f32 = 1\n"
                       "peak.fma.f32 = 2\n"),
            "device profile line 4: second peak for unit 'fma.f32'");
  EXPECT_EQ(parseError("version = 1\nsms\n"),
            "device profile line 2: expected 'key = value', got 'sms'");
  // Comments and blank lines are fine.
  EXPECT_EQ(parseError("# c\n\nversion = 1 # v\nbandwidth_gbs = 10\n"
                       "peak.fma.f32 = 1\n"),
            "(parsed)");
}

TEST(DeviceProfileTest, FromFile) {
  SmallString<128> path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("device", "profile", path));
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    ASSERT_FALSE(ec);
    os << "version = 1\nname = test\nbandwidth_gbs = 100\npeak.fma.f64 = 1\n";
  }
  auto profile = lookupDeviceProfile(path, "sm_90");
  ASSERT_TRUE(bool(profile)) << llvm::toString(profile.takeError());
  EXPECT_EQ(profile->name, "test");
  EXPECT_DOUBLE_EQ(profile->getUnitTflops("fma.f64"), 1);
  llvm::sys::fs::remove(path);
  auto missing = lookupDeviceProfile(path, "sm_90");
  EXPECT_FALSE(bool(missing));
  llvm::consumeError(missing.takeError());
}

} // namespace

TEST(CostModelTest, HaloBytesComeFromL2) {
  // Heat-2D f64 on 32 x 32 tiles, one step: M' = 8 (1 + 34^2 / 32^2) =
  // 17.03 bytes; DRAM sees 2 D = 16. rho = 1 keeps M'; rho = 2 leaves the
  // DRAM traffic (17.03 / 2 < 16); a halo of A = 3 with rho = 2 binds again:
  // 8 (1 + 3) / 2 = 16 = 2 D, the boundary.
  KernelWork work;
  work.elementBytes = 8;
  work.stagedInputsPerPoint = 34.0 * 34.0 / (32.0 * 32.0);
  EXPECT_DOUBLE_EQ(work.getEffectiveBytesPerPoint(1), work.getBytesPerPoint());
  EXPECT_DOUBLE_EQ(work.getEffectiveBytesPerPoint(2), 16);
  work.stagedInputsPerPoint = 5;
  EXPECT_DOUBLE_EQ(work.getEffectiveBytesPerPoint(2), 24);
  // Fused steps divide both.
  work.stepsPerLaunch = 4;
  EXPECT_DOUBLE_EQ(work.getEffectiveBytesPerPoint(4), 4);
}

TEST(CostModelTest, ResidentWarpsFromRegistersAndSharedMemory) {
  DeviceProfile h100;
  h100.registersPerSM = 65536;
  h100.sharedBytesPerSM = 233472;
  KernelWork work;
  work.threads = 128;
  // Unknown registers: unknown occupancy.
  EXPECT_EQ(getResidentWarps(work, h100), 0);
  // 191 registers: 191 * 32 = 6112 -> 6144 per warp, 24576 per block of 4
  // warps, 2 blocks in 65536: 8 warps. 167: 5376 per warp, 3 blocks, 12.
  work.registers = 191;
  EXPECT_EQ(getResidentWarps(work, h100), 8);
  work.registers = 167;
  EXPECT_EQ(getResidentWarps(work, h100), 12);
  // 32 registers of 256 threads: 8 blocks by registers, 64 warps (the cap).
  work.threads = 256;
  work.registers = 32;
  EXPECT_EQ(getResidentWarps(work, h100), 64);
  // 64 KiB dynamic + 1 byte static + 1 KiB reserved: 3 blocks of 8 warps.
  work.sharedBytes = 65536;
  work.staticSharedBytes = 1;
  EXPECT_EQ(getResidentWarps(work, h100), 24);
  // A profile without the register file: unknown.
  EXPECT_EQ(getResidentWarps(work, DeviceProfile()), 0);
}

TEST(CostModelTest, OccupancyScalesTheUnitSide) {
  DeviceProfile profile;
  profile.bandwidthGBs = 3000;
  profile.registersPerSM = 65536;
  profile.unitTflops["mma.sp.f16"] = 900;
  KernelWork work;
  work.elementBytes = 2;
  work.threads = 128;
  work.registers = 191; // 8 warps
  work.unit = "mma.sp.f16";
  work.unitFlopsPerPoint = 900; // unit bound 1000, bandwidth bound 750
  ModelGlobals globals;
  globals.saturatingWarps = 16;
  // o = 8 / 16: t_unit = 1 / 500 > t_mem = 1 / 750.
  FailureOr<KernelPrediction> p =
      predictKernel(work, profile, ModelConstants(), globals);
  ASSERT_TRUE(succeeded(p));
  EXPECT_EQ(p->residentWarps, 8);
  EXPECT_DOUBLE_EQ(p->unitBound, 1000);
  EXPECT_NEAR(p->predicted, 500, 1e-9);
  // 12 warps: o = 3 / 4, 750 either way.
  work.registers = 167;
  p = predictKernel(work, profile, ModelConstants(), globals);
  EXPECT_NEAR(p->predicted, 750, 1e-9);
  // Without W_sat, the roofline.
  work.registers = 191;
  p = predictKernel(work, profile, ModelConstants());
  EXPECT_NEAR(p->predicted, 750, 1e-9);
}

TEST(CostModelTest, FftEdgeBlocks) {
  // A 2-D FFT kernel, radius 1, 2 fused steps, V = 60 x 120 valid points per
  // tile (the record's tile is innermost first, the last dimension's doubled
  // for the two tiles of a block).
  KernelWork work;
  work.rank = 2;
  work.stepsPerLaunch = 2;
  work.tile = {240, 60};
  work.radii = {1, 1};
  work.edgeFlopsPerPoint = 20;
  work.edgeUnit = "fma.f64";
  // No grid: no edge term.
  EXPECT_DOUBLE_EQ(getEdgeBlockShare(work), 0);
  // 1000 x 1000: J_0 = ceil(996 / 60) = 17 rows of blocks, J_1 =
  // ceil(996 / 120) = 9 tiles, 5 blocks; interior (15 / 17) (3 / 5).
  work.gridSizes = {1000, 1000};
  EXPECT_DOUBLE_EQ(getEdgeBlockShare(work), 1 - 15.0 / 17 * 3.0 / 5);
  // A grid of one tile: every block is an edge block.
  work.gridSizes = {10, 10};
  EXPECT_DOUBLE_EQ(getEdgeBlockShare(work), 1);

  // The term: s E / (eta_edge P_fma.f64) added to the time per point.
  DeviceProfile profile;
  profile.bandwidthGBs = 3000;
  profile.unitTflops["mma.f64.m16n8k4"] = 60;
  profile.unitTflops["fma.f64"] = 30;
  work.elementBytes = 8;
  work.unit = "mma.f64.m16n8k4";
  work.unitFlopsPerPoint = 600; // unit bound 100; bandwidth 3000 / 8 = 375
  work.stagedInputsPerPoint = 1;
  work.gridSizes = {1000, 1000};
  double share = 1 - 15.0 / 17 * 3.0 / 5;
  ModelGlobals globals;
  globals.edgeEfficiency = 0.1;
  FailureOr<KernelPrediction> p =
      predictKernel(work, profile, ModelConstants(), globals);
  ASSERT_TRUE(succeeded(p));
  EXPECT_DOUBLE_EQ(p->edgeShare, share);
  EXPECT_NEAR(p->predicted, 1 / (1.0 / 100 + share * 20 / (0.1 * 30e3)), 1e-9);
  // The edge path's unit must have a peak.
  profile.unitTflops.erase("fma.f64");
  EXPECT_TRUE(failed(predictKernel(work, profile, ModelConstants(), globals)));
}
