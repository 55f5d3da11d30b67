//===- CoefficientPacking.cpp - Packed operands of the TC kernels --------===//
//
// LLVM-free (CoefficientPacking.h): part of the StencilPacking library that
// the compiler and libStencilRuntime share.
//
//===----------------------------------------------------------------------===//

#include "stencil/Support/CoefficientPacking.h"
#include "stencil/Support/MmaModel.h"
#include "stencil/Support/MmaSpModel.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstring>
#include <initializer_list>

using namespace mlir;
using namespace mlir::stencil;

void mlir::stencil::buildStackedOperand(ArraySpan<uint16_t> valueBits,
                                        ArraySpan<uint8_t> indices, int64_t row,
                                        int64_t rowsPerBlock,
                                        std::vector<uint16_t> &values,
                                        std::vector<uint8_t> &stackedIndices) {
  const int64_t l = rowsPerBlock;
  assert(l > 0 && kMmaSpM % l == 0 && "L must divide 16");
  values.assign(kMmaSpM * kMmaSpKCompressed, 0);
  stackedIndices.assign(kMmaSpM * kMmaSpKCompressed, 0);
  // Empty groups: zeros at positions (0, 1).
  for (size_t i = 1; i < stackedIndices.size(); i += 2)
    stackedIndices[i] = 1;
  for (int64_t b = 0; b < kMmaSpM / l; ++b) {
    for (int64_t i = 0; i < l; ++i) {
      // Row i of block b is logical row b * L + i; its L compressed columns
      // start at compressed column b * L (logical column b * 2L).
      for (int64_t cc = 0; cc < l; ++cc) {
        int64_t src = (row * l + i) * l + cc;
        int64_t dst = (b * l + i) * kMmaSpKCompressed + b * l + cc;
        values[dst] = valueBits[src];
        stackedIndices[dst] = indices[src];
      }
    }
  }
}

std::vector<uint32_t>
mlir::stencil::packSpTCCoefficients(ArraySpan<uint16_t> valueBits,
                                    ArraySpan<uint8_t> indices, int64_t numRows,
                                    int64_t rowsPerBlock) {
  SpTCCoefficientLayout layout{numRows};
  std::vector<uint32_t> words(layout.size(), 0);
  std::vector<uint16_t> values;
  std::vector<uint8_t> stacked;
  for (int64_t o = 0; o < numRows; ++o) {
    buildStackedOperand(valueBits, indices, o, rowsPerBlock, values, stacked);
    unsigned selector = o % 2;
    for (unsigned lane = 0; lane < kWarpSize; ++lane) {
      // 1. The lane's eight A values, two per word, low half first.
      for (unsigned i = 0; i < 8; ++i) {
        MatrixPos a = getACompressedPos(lane, i);
        uint32_t bits = values[a.row * kMmaSpKCompressed + a.col];
        words[SpTCCoefficientLayout::valueWord(o, lane, i / 2)] |=
            bits << (16 * (i % 2));
      }
    }
    // 2. Every index goes to its metadata slot for this row's selector.
    for (unsigned r = 0; r < kMmaSpM; ++r) {
      for (unsigned cc = 0; cc < kMmaSpKCompressed; ++cc) {
        MetadataSlot slot = getMetadataSlot(r, cc, selector);
        words[layout.metadataWord(o, slot.lane)] |=
            uint32_t(stacked[r * kMmaSpKCompressed + cc]) << slot.bit;
      }
    }
  }
  return words;
}

std::vector<uint32_t>
mlir::stencil::packTCCoefficients(ArraySpan<uint16_t> kernelBits,
                                  int64_t numRows, int64_t rowsPerBlock) {
  const int64_t l = rowsPerBlock;
  assert(l > 0 && kMmaSpM % l == 0 && "L must divide 16");
  std::vector<uint32_t> words(TCCoefficientLayout::size(numRows), 0);
  for (int64_t o = 0; o < numRows; ++o) {
    // The stacked 16 x 32 operand: block b holds K_o at rows b L, columns
    // b 2L.
    uint16_t stacked[kMmaSpM][kMmaSpK] = {};
    for (int64_t b = 0; b < kMmaSpM / l; ++b)
      for (int64_t i = 0; i < l; ++i)
        for (int64_t c = 0; c < 2 * l; ++c)
          stacked[b * l + i][b * 2 * l + c] =
              kernelBits[(o * l + i) * 2 * l + c];
    for (unsigned lane = 0; lane < kWarpSize; ++lane)
      for (unsigned half = 0; half < 2; ++half)
        for (unsigned i = 0; i < 8; ++i) {
          MatrixPos a = getAPosM16N8K16(lane, i);
          uint32_t bits = stacked[a.row][16 * half + a.col];
          words[TCCoefficientLayout::word(o, lane, half, i / 2)] |=
              bits << (16 * (i % 2));
        }
  }
  return words;
}

std::vector<uint32_t>
mlir::stencil::packLowRankColumnWeights(ArraySpan<uint16_t> uBits,
                                        int64_t numTerms, int64_t radius) {
  assert(static_cast<int64_t>(uBits.size()) == numTerms * (2 * radius + 1) &&
         "one weight per term and offset");
  std::vector<uint32_t> words(numTerms * 64, 0);
  for (int64_t k = 0; k < numTerms; ++k)
    for (unsigned lane = 0; lane < kWarpSize; ++lane)
      for (unsigned i = 0; i < 4; ++i) {
        MatrixPos pos = getBPosM16N8K16(lane, i);
        int64_t dy = pos.row - pos.col - radius;
        if (dy < -radius || dy > radius)
          continue;
        uint32_t bits = uBits[k * (2 * radius + 1) + dy + radius];
        words[(k * 32 + lane) * 2 + i / 2] |= bits << (16 * (i % 2));
      }
  return words;
}

double TCF64CoefficientLayout::getB(ArraySpan<double> rowWeights, int64_t row,
                                    int64_t chunk, int64_t k, int64_t n) const {
  int64_t dx = 4 * chunk + k - n - radius;
  if (dx < -radius || dx > radius)
    return 0.0;
  return rowWeights[row * (2 * radius + 1) + dx + radius];
}

std::vector<uint32_t>
mlir::stencil::packTCF64Coefficients(ArraySpan<double> rowWeights,
                                     int64_t numRows, int64_t radius) {
  TCF64CoefficientLayout layout{numRows, radius};
  assert(static_cast<int64_t>(rowWeights.size()) ==
             numRows * (2 * radius + 1) &&
         "one weight per row and offset");
  std::vector<uint32_t> words(layout.size(), 0);
  for (int64_t o = 0; o < numRows; ++o)
    for (int64_t c = 0; c < layout.numChunks(); ++c)
      for (unsigned lane = 0; lane < kWarpSize; ++lane) {
        MatrixPos pos = getBPosM8N8K4(lane);
        double b = layout.getB(rowWeights, o, c, pos.row, pos.col);
        uint64_t bits;
        std::memcpy(&bits, &b, sizeof(bits));
        words[layout.word(o, c, lane)] = static_cast<uint32_t>(bits);
        words[layout.word(o, c, lane) + 1] = static_cast<uint32_t>(bits >> 32);
      }
  return words;
}

//===----------------------------------------------------------------------===//
// Rounding to the operand type
//===----------------------------------------------------------------------===//

/// Round to nearest, ties to even, of the double `value` into a binary
/// format of `expBits` exponent and `manBits` fraction bits (16 in all),
/// straight from the double's 53-bit significand.
static uint16_t roundToBinary16(double value, unsigned expBits,
                                unsigned manBits) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  uint16_t sign = uint16_t((bits >> 63) << 15);
  int64_t exponent = int64_t((bits >> 52) & 0x7ff);
  uint64_t fraction = bits & ((uint64_t(1) << 52) - 1);
  const uint16_t expMask = uint16_t(((1u << expBits) - 1) << manBits);
  if (exponent == 0x7ff) // Infinity or NaN (quiet).
    return sign | expMask |
           (fraction ? uint16_t(1u << (manBits - 1)) : uint16_t(0));
  if (exponent == 0 && fraction == 0)
    return sign;
  // value = significand * 2^(e - 52), significand < 2^53.
  uint64_t significand = exponent ? fraction | (uint64_t(1) << 52) : fraction;
  int64_t e = exponent ? exponent - 1023 : -1022;
  const int64_t bias = (int64_t(1) << (expBits - 1)) - 1;
  const int64_t minExponent = 1 - bias;
  // Keep manBits fraction bits at exponent max(e, minExponent); below the
  // normal range the unit is that of the subnormals.
  int64_t shift = 52 - int64_t(manBits) + std::max<int64_t>(0, minExponent - e);
  if (exponent == 0) // A double subnormal is far below any 16-bit format.
    return sign;
  uint64_t quotient;
  if (shift >= 64) {
    quotient = 0;
  } else {
    quotient = significand >> shift;
    uint64_t remainder = significand & ((uint64_t(1) << shift) - 1);
    uint64_t half = uint64_t(1) << (shift - 1);
    if (remainder > half || (remainder == half && (quotient & 1)))
      ++quotient;
  }
  if (e < minExponent)
    // A subnormal, or the smallest normal if rounding carried into it (the
    // carry lands in the exponent field).
    return sign | uint16_t(quotient);
  // Normal: quotient has the implicit bit at manBits (or manBits + 1 after
  // a carry).
  if (quotient >> (manBits + 1)) {
    quotient >>= 1;
    ++e;
  }
  int64_t field = e + bias;
  if (field >= (int64_t(1) << expBits) - 1)
    return sign | expMask;
  return sign | uint16_t(field << manBits) |
         uint16_t(quotient & ((uint64_t(1) << manBits) - 1));
}

uint16_t mlir::stencil::roundToOperandBits(double value, OperandType type) {
  switch (type) {
  case OperandType::f16:
    return roundToBinary16(value, 5, 10);
  case OperandType::bf16:
    return roundToBinary16(value, 8, 7);
  case OperandType::f64:
    break;
  }
  assert(false && "f64 operands are not 16-bit");
  return 0;
}

//===----------------------------------------------------------------------===//
// Repacking
//===----------------------------------------------------------------------===//

const char *mlir::stencil::getRepackKindName(RepackKind kind) {
  switch (kind) {
  case RepackKind::sptc:
    return "sptc";
  case RepackKind::tc:
    return "tc";
  case RepackKind::tcF64:
    return "tc-f64";
  }
  return "?";
}

/// Sets `value` to the one of `values` whose getName is `name`; false when
/// none is.
template <typename Enum>
static bool parseByName(const std::string &name,
                        std::initializer_list<Enum> values,
                        const char *(*getName)(Enum), Enum &value) {
  for (Enum v : values)
    if (name == getName(v)) {
      value = v;
      return true;
    }
  return false;
}

bool mlir::stencil::parseRepackKind(const std::string &name, RepackKind &kind) {
  return parseByName(name,
                     {RepackKind::sptc, RepackKind::tc, RepackKind::tcF64},
                     getRepackKindName, kind);
}

const char *mlir::stencil::getOperandTypeName(OperandType type) {
  switch (type) {
  case OperandType::f16:
    return "f16";
  case OperandType::bf16:
    return "bf16";
  case OperandType::f64:
    return "f64";
  }
  return "?";
}

bool mlir::stencil::parseOperandType(const std::string &name,
                                     OperandType &type) {
  return parseByName(name,
                     {OperandType::f16, OperandType::bf16, OperandType::f64},
                     getOperandTypeName, type);
}

int64_t RepackRecipe::getNumSlots() const {
  switch (kind) {
  case RepackKind::sptc:
    return numRows * rowsPerBlock * rowsPerBlock;
  case RepackKind::tc:
    return numRows * rowsPerBlock * 2 * rowsPerBlock;
  case RepackKind::tcF64:
    return numRows * (2 * radius + 1);
  }
  return 0;
}

std::string RepackRecipe::verify(int64_t numWeights) const {
  constexpr int64_t kMaxRows = 1 << 16;
  if (numRows <= 0 || numRows > kMaxRows)
    return "the number of kernel rows " + std::to_string(numRows) +
           " is not in 1.." + std::to_string(kMaxRows);
  if (kind == RepackKind::tcF64) {
    if (type != OperandType::f64)
      return "tc-f64 packs f64 operands";
    if (radius < 0 || radius > 64)
      return "the radius " + std::to_string(radius) + " is not in 0..64";
  } else {
    if (type == OperandType::f64)
      return std::string(getRepackKindName(kind)) +
             " packs 16-bit operands (f16 or bf16)";
    if (rowsPerBlock <= 0 || kMmaSpM % rowsPerBlock != 0)
      return "rows per block " + std::to_string(rowsPerBlock) +
             " does not divide 16";
  }
  int64_t slots = getNumSlots();
  if (int64_t(map.size()) != slots)
    return "the map has " + std::to_string(map.size()) + " entries, not " +
           std::to_string(slots);
  for (int64_t entry : map)
    if (entry < -1 || entry >= numWeights)
      return "map entry " + std::to_string(entry) +
             " is not a weight index (0.." + std::to_string(numWeights - 1) +
             ") or -1";
  if (kind == RepackKind::sptc) {
    if (int64_t(indices.size()) != slots)
      return "the indices have " + std::to_string(indices.size()) +
             " entries, not " + std::to_string(slots);
    for (size_t k = 0; k < indices.size(); k += 2)
      if (indices[k] > 3 || indices[k + 1] > 3 || indices[k] >= indices[k + 1])
        return "the 2:4 indices of slots " + std::to_string(k) + " and " +
               std::to_string(k + 1) + " are not increasing positions 0..3";
  } else if (!indices.empty()) {
    return std::string(getRepackKindName(kind)) + " takes no indices";
  }
  return "";
}

bool mlir::stencil::repackCoefficients(const RepackRecipe &recipe,
                                       ArraySpan<double> weights,
                                       std::vector<uint32_t> &words,
                                       std::string &error) {
  error = recipe.verify(int64_t(weights.size()));
  if (!error.empty()) {
    error = "malformed repacking recipe: " + error;
    return false;
  }
  for (size_t j = 0; j < weights.size(); ++j)
    if (!std::isfinite(weights[j])) {
      error = "weight " + std::to_string(j) + " is not finite";
      return false;
    }
  if (recipe.kind == RepackKind::tcF64) {
    std::vector<double> rowWeights(recipe.map.size(), 0.0);
    for (size_t k = 0; k < recipe.map.size(); ++k)
      if (recipe.map[k] >= 0)
        rowWeights[k] = weights[recipe.map[k]];
    words = packTCF64Coefficients(rowWeights, recipe.numRows, recipe.radius);
    return true;
  }
  std::vector<uint16_t> bits(recipe.map.size(), 0);
  for (size_t k = 0; k < recipe.map.size(); ++k)
    if (recipe.map[k] >= 0)
      bits[k] = roundToOperandBits(weights[recipe.map[k]], recipe.type);
  if (recipe.kind == RepackKind::sptc)
    words = packSpTCCoefficients(bits, recipe.indices, recipe.numRows,
                                 recipe.rowsPerBlock);
  else
    words = packTCCoefficients(bits, recipe.numRows, recipe.rowsPerBlock);
  return true;
}
