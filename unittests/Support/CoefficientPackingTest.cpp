//===- CoefficientPackingTest.cpp - The runtime's half of the packing -----===//
//
// libStencilRuntime packs replaced weights with CoefficientPacking.h, which
// has no LLVM: its rounding to f16 and bf16 must give APFloat's bits (what
// the compiler used to round with) for every double, and a recipe that is
// malformed or weights that cannot be packed must be refused with a reason.
// That the recipes the compiler records give the compiled words for new
// weights is tested on every example in Pipelines/RepackTest.cpp.
//
//===----------------------------------------------------------------------===//

#include "stencil/Support/CoefficientPacking.h"

#include "llvm/ADT/APFloat.h"

#include "HalfBits.h"
#include "SmallRecipe.h"
#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

using namespace mlir::stencil;
using mlir::stencil::test::smallRecipe;

namespace {

uint16_t apfloatBits(double v, OperandType type) {
  return test::toBits16(v, type == OperandType::bf16
                               ? llvm::APFloat::BFloat()
                               : llvm::APFloat::IEEEhalf());
}

double fromBits(uint64_t bits) {
  double v;
  std::memcpy(&v, &bits, sizeof(v));
  return v;
}

/// Doubles near the interesting places of a 16-bit format: exact values,
/// the ties between neighbours and one ulp (of the double) either side,
/// the subnormal range, the overflow threshold.
std::vector<double> edgeCases(OperandType type) {
  std::vector<double> cases = {0.0,
                               -0.0,
                               1.0,
                               -1.0,
                               65504.0,
                               65519.999,
                               65520.0,
                               65536.0,
                               1e300,
                               -1e300,
                               std::numeric_limits<double>::infinity(),
                               -std::numeric_limits<double>::infinity(),
                               std::numeric_limits<double>::denorm_min(),
                               std::numeric_limits<double>::min(),
                               1e-300};
  unsigned manBits = type == OperandType::bf16 ? 7 : 10;
  int minExp = type == OperandType::bf16 ? -126 : -14;
  int maxExp = type == OperandType::bf16 ? 127 : 15;
  for (int e = minExp - manBits - 2; e <= maxExp + 1; ++e)
    for (int64_t m = 0; m < 8; ++m) {
      // Tie between k and k + 1 ulps at exponent e, and around it.
      double ulp = std::ldexp(1.0, std::max(e, minExp) - int(manBits));
      double base = std::ldexp(1.0, e) + m * ulp;
      for (double x : {base, base + ulp / 2})
        for (double v : {x, std::nextafter(x, 0.0), std::nextafter(x, 1e308)})
          for (double s : {1.0, -1.0})
            cases.push_back(s * v);
    }
  return cases;
}

TEST(CoefficientPacking, RoundingMatchesAPFloat) {
  std::mt19937_64 rng(18);
  for (OperandType type : {OperandType::f16, OperandType::bf16}) {
    for (double v : edgeCases(type))
      ASSERT_EQ(roundToOperandBits(v, type), apfloatBits(v, type))
          << getOperandTypeName(type) << " of " << v;
    // Random bit patterns (every exponent) and random magnitudes where the
    // formats live.
    std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
    std::uniform_int_distribution<int> exponent(-160, 140);
    for (int i = 0; i < 200000; ++i) {
      double v =
          i % 2 ? std::ldexp(mantissa(rng), exponent(rng)) : fromBits(rng());
      if (std::isnan(v))
        continue;
      ASSERT_EQ(roundToOperandBits(v, type), apfloatBits(v, type))
          << getOperandTypeName(type) << " of " << v;
    }
  }
  // NaN: a quiet NaN, sign kept.
  uint16_t nan = roundToOperandBits(std::nan(""), OperandType::f16);
  EXPECT_EQ(nan & 0x7c00, 0x7c00);
  EXPECT_NE(nan & 0x3ff, 0);
}

TEST(CoefficientPacking, RepackPlacesTheWeights) {
  RepackRecipe recipe = smallRecipe();
  ASSERT_EQ(recipe.verify(3), "");
  std::vector<uint32_t> words;
  std::string error;
  std::vector<double> weights = {0.25, -0.5, 0.75};
  ASSERT_TRUE(repackCoefficients(recipe, weights, words, error)) << error;
  // The same as packing the values the map selects.
  std::vector<uint16_t> bits;
  for (int64_t j : recipe.map)
    bits.push_back(roundToOperandBits(weights[j], OperandType::f16));
  EXPECT_EQ(words, packSpTCCoefficients(bits, recipe.indices, 1, 2));
  // Other weights, other words.
  std::vector<uint32_t> other;
  ASSERT_TRUE(
      repackCoefficients(recipe, std::vector<double>{1, 2, 3}, other, error));
  EXPECT_NE(words, other);
}

TEST(CoefficientPacking, RepackRefusesBadInput) {
  std::vector<uint32_t> words;
  std::string error;
  RepackRecipe recipe = smallRecipe();
  EXPECT_FALSE(
      repackCoefficients(recipe, std::vector<double>{1, 2}, words, error));
  EXPECT_NE(error.find("not a weight index"), std::string::npos) << error;
  EXPECT_FALSE(repackCoefficients(
      recipe, std::vector<double>{1, std::nan(""), 3}, words, error));
  EXPECT_NE(error.find("weight 1 is not finite"), std::string::npos) << error;

  auto expectInvalid = [](RepackRecipe r, const char *what) {
    std::string why = r.verify(3);
    EXPECT_NE(why.find(what), std::string::npos) << "got '" << why << "'";
  };
  RepackRecipe r = smallRecipe();
  r.map.pop_back();
  expectInvalid(r, "the map has 3 entries, not 4");
  r = smallRecipe();
  r.map[0] = -2;
  expectInvalid(r, "map entry -2");
  r = smallRecipe();
  r.indices = {1, 0, 1, 2};
  expectInvalid(r, "not increasing");
  r = smallRecipe();
  r.indices.pop_back();
  expectInvalid(r, "the indices have 3 entries");
  r = smallRecipe();
  r.rowsPerBlock = 3;
  expectInvalid(r, "does not divide 16");
  r = smallRecipe();
  r.numRows = 0;
  expectInvalid(r, "kernel rows 0");
  r = smallRecipe();
  r.type = OperandType::f64;
  expectInvalid(r, "16-bit operands");
  r = smallRecipe();
  r.kind = RepackKind::tcF64;
  expectInvalid(r, "tc-f64 packs f64");
  r = smallRecipe();
  r.kind = RepackKind::tc;
  r.map.resize(8, -1);
  expectInvalid(r, "takes no indices");
}

TEST(CoefficientPacking, Names) {
  for (RepackKind kind :
       {RepackKind::sptc, RepackKind::tc, RepackKind::tcF64}) {
    RepackKind parsed;
    ASSERT_TRUE(parseRepackKind(getRepackKindName(kind), parsed));
    EXPECT_EQ(parsed, kind);
  }
  for (OperandType type :
       {OperandType::f16, OperandType::bf16, OperandType::f64}) {
    OperandType parsed;
    ASSERT_TRUE(parseOperandType(getOperandTypeName(type), parsed));
    EXPECT_EQ(parsed, type);
  }
  RepackKind kind;
  OperandType type;
  EXPECT_FALSE(parseRepackKind("sparse", kind));
  EXPECT_FALSE(parseOperandType("f32", type));
}

} // namespace
