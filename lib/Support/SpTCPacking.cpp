//===- SpTCPacking.cpp - Coefficient packing for the SpTC kernel ----------===//

#include "stencil/Support/SpTCPacking.h"
#include "stencil/Support/MmaModel.h"
#include "stencil/Support/MmaSpModel.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/bit.h"

#include <algorithm>
#include <cassert>
#include <map>
#include <set>

using namespace mlir;
using namespace mlir::stencil;

void mlir::stencil::buildStackedOperand(llvm::ArrayRef<uint16_t> valueBits,
                                        llvm::ArrayRef<uint8_t> indices,
                                        int64_t row, int64_t rowsPerBlock,
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

std::vector<uint32_t> mlir::stencil::packSpTCCoefficients(
    llvm::ArrayRef<uint16_t> valueBits, llvm::ArrayRef<uint8_t> indices,
    int64_t numRows, int64_t rowsPerBlock) {
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
mlir::stencil::packTCCoefficients(llvm::ArrayRef<uint16_t> kernelBits,
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
mlir::stencil::packLowRankColumnWeights(llvm::ArrayRef<uint16_t> uBits,
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

double TCF64CoefficientLayout::getB(llvm::ArrayRef<double> rowWeights,
                                    int64_t row, int64_t chunk, int64_t k,
                                    int64_t n) const {
  int64_t dx = 4 * chunk + k - n - radius;
  if (dx < -radius || dx > radius)
    return 0.0;
  return rowWeights[row * (2 * radius + 1) + dx + radius];
}

std::vector<uint32_t>
mlir::stencil::packTCF64Coefficients(llvm::ArrayRef<double> rowWeights,
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
        uint64_t bits = llvm::bit_cast<uint64_t>(
            layout.getB(rowWeights, o, c, pos.row, pos.col));
        words[layout.word(o, c, lane)] = static_cast<uint32_t>(bits);
        words[layout.word(o, c, lane) + 1] = static_cast<uint32_t>(bits >> 32);
      }
  return words;
}

int64_t mlir::stencil::getStackedInputOffset(int64_t k, int64_t rowsPerBlock,
                                             llvm::ArrayRef<int64_t> inputOffsets) {
  int64_t block = k / (2 * rowsPerBlock);
  int64_t column = k % (2 * rowsPerBlock);
  return block * rowsPerBlock + inputOffsets[column];
}

static int64_t roundUp(int64_t v, int64_t m) { return (v + m - 1) / m * m; }

int64_t mlir::stencil::getBankConflictDegree(llvm::ArrayRef<int64_t> elements) {
  std::map<int64_t, std::set<int64_t>> wordsPerBank;
  for (int64_t element : elements) {
    int64_t word = element / 2;
    wordsPerBank[word % 32].insert(word);
  }
  int64_t degree = 0;
  for (const auto &entry : wordsPerBank)
    degree = std::max<int64_t>(degree, entry.second.size());
  return degree;
}

int64_t mlir::stencil::countSpTCBankConflicts(const SpTCBOperandPlan &plan,
                                              int64_t pitch, int64_t rank) {
  int64_t total = 0;
  for (int64_t warp = 0; warp < (rank == 1 ? 1 : 4); ++warp) {
    for (unsigned i = 0; i < 8; i += plan.paired ? 2 : 1) {
      int64_t elements[kWarpSize];
      for (unsigned lane = 0; lane < kWarpSize; ++lane) {
        int64_t g = lane / 4, t = lane % 4;
        if (rank == 1) {
          elements[lane] = int64_t(kMmaSpM) * g + plan.pad + plan.dx[i][t];
        } else {
          int64_t column = int64_t(kMmaSpM) * warp + plan.pad + plan.dx[i][t];
          elements[lane] =
              g * pitch + SpTCBOperandPlan::swizzle(column, plan.swizzleBit);
        }
      }
      total += getBankConflictDegree(elements);
    }
  }
  return total;
}

SpTCBOperandPlan mlir::stencil::planSpTCBOperand(
    llvm::ArrayRef<int64_t> inputOffsets, int64_t rowsPerBlock, int64_t rank,
    int64_t innermostTile) {
  SpTCBOperandPlan plan;
  int64_t dxMin = 0, dxMax = 0;
  for (unsigned i = 0; i < 8; ++i)
    for (unsigned t = 0; t < 4; ++t) {
      plan.dx[i][t] = getStackedInputOffset(getBPos(t, i).row, rowsPerBlock,
                                            inputOffsets);
      dxMin = std::min(dxMin, plan.dx[i][t]);
      dxMax = std::max(dxMax, plan.dx[i][t]);
    }
  plan.pad = roundUp(-dxMin, 8);
  plan.paired = true;
  for (unsigned p = 0; p < 4; ++p)
    for (unsigned t = 0; t < 4; ++t)
      plan.paired &= plan.dx[2 * p + 1][t] == plan.dx[2 * p][t] + 1 &&
                     (plan.pad + plan.dx[2 * p][t]) % 2 == 0;
  // The block's last MMA starts at innermostTile - 16 and reads up to dxMax
  // past it.
  int64_t minPitch =
      roundUp(plan.pad + innermostTile - int64_t(kMmaSpM) + dxMax + 1, 8);
  plan.pitch = minPitch;
  if (rank == 1)
    return plan;
  // The swizzle keeps 8-byte halves, so only paired (4-byte) loads use it.
  llvm::SmallVector<int64_t> swizzles = {0};
  if (plan.paired)
    swizzles.append({3, 4, 5});
  int64_t best = -1;
  SpTCBOperandPlan candidate = plan;
  for (int64_t bit : swizzles) {
    candidate.swizzleBit = bit;
    for (int64_t pitch = minPitch; pitch < minPitch + 64; pitch += 8) {
      int64_t conflicts = countSpTCBankConflicts(candidate, pitch, rank);
      if (best < 0 || conflicts < best) {
        best = conflicts;
        plan.pitch = pitch;
        plan.swizzleBit = bit;
      }
    }
  }
  return plan;
}
