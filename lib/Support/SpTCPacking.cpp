//===- SpTCPacking.cpp - Coefficient packing for the SpTC kernel ----------===//

#include "stencil/Support/SpTCPacking.h"
#include "stencil/Support/MmaSpModel.h"

#include <cassert>

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

int64_t mlir::stencil::getStackedInputOffset(int64_t k, int64_t rowsPerBlock,
                                             llvm::ArrayRef<int64_t> inputOffsets) {
  int64_t block = k / (2 * rowsPerBlock);
  int64_t column = k % (2 * rowsPerBlock);
  return block * rowsPerBlock + inputOffsets[column];
}
