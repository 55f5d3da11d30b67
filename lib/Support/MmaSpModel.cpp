//===- MmaSpModel.cpp - CPU model of the warp-level mma.sp data path ------===//

#include "stencil/Support/MmaSpModel.h"

#include <cassert>

using namespace mlir;
using namespace mlir::stencil;

MatrixPos mlir::stencil::getACompressedPos(unsigned lane, unsigned i) {
  assert(lane < kWarpSize && i < 8 && "no such A element");
  unsigned groupId = lane >> 2, threadInGroup = lane % 4;
  bool upperRow = (i & 2) != 0; // a2, a3, a6, a7
  bool upperK = i >= 4;         // a4..a7: dense columns 16..31
  return {groupId + (upperRow ? 8u : 0u),
          2 * threadInGroup + (i & 1) + (upperK ? 8u : 0u)};
}

MatrixPos mlir::stencil::getBPos(unsigned lane, unsigned i) {
  assert(lane < kWarpSize && i < 8 && "no such B element");
  unsigned groupId = lane >> 2, threadInGroup = lane % 4;
  return {2 * threadInGroup + (i & 1) + 8 * (i >> 1), groupId};
}

MatrixPos mlir::stencil::getCPos(unsigned lane, unsigned i) {
  assert(lane < kWarpSize && i < 4 && "no such C element");
  unsigned groupId = lane >> 2, threadInGroup = lane % 4;
  return {groupId + 8 * (i >> 1), 2 * threadInGroup + (i & 1)};
}

MetadataSlot mlir::stencil::getMetadataSlot(unsigned row,
                                            unsigned compressedCol,
                                            unsigned selector) {
  assert(row < kMmaSpM && compressedCol < kMmaSpKCompressed && selector < 2 &&
         "no such metadata slot");
  unsigned chunk = compressedCol / 2;  // 0..7, dense columns 4*chunk..+3
  unsigned halfK = chunk / 4;          // which lane of the pair
  unsigned chunkInHalf = chunk % 4;    // nibble within the half-word
  unsigned lane = 4 * (row % 8) + 2 * selector + halfK;
  unsigned bit = 16 * (row / 8) + 4 * chunkInHalf + 2 * (compressedCol % 2);
  return {lane, bit};
}

void mlir::stencil::simulateMmaSpM16N8K32(const WarpFragmentsM16N8K32 &frag,
                                          unsigned selector,
                                          float d[kWarpSize][4]) {
  assert(selector < 2 && "m16n8k32 f16 takes sparsity selector 0 or 1");
  // Scatter every register to its logical position.
  double values[kMmaSpM][kMmaSpKCompressed] = {};
  double b[kMmaSpK][kMmaSpN] = {};
  double c[kMmaSpM][kMmaSpN] = {};
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    for (unsigned i = 0; i < 8; ++i) {
      MatrixPos a = getACompressedPos(lane, i);
      values[a.row][a.col] = frag.a[lane][i];
      MatrixPos bp = getBPos(lane, i);
      b[bp.row][bp.col] = frag.b[lane][i];
    }
    for (unsigned i = 0; i < 4; ++i) {
      MatrixPos cp = getCPos(lane, i);
      c[cp.row][cp.col] = frag.c[lane][i];
    }
  }
  // Decode the metadata of the selected lane pair into the dense A. Equal
  // indices within a chunk are undefined behaviour on the hardware; here the
  // two values simply add up.
  double denseA[kMmaSpM][kMmaSpK] = {};
  for (unsigned row = 0; row < kMmaSpM; ++row) {
    for (unsigned cc = 0; cc < kMmaSpKCompressed; ++cc) {
      MetadataSlot slot = getMetadataSlot(row, cc, selector);
      unsigned index = (frag.meta[slot.lane] >> slot.bit) & 3u;
      denseA[row][4 * (cc / 2) + index] += values[row][cc];
    }
  }
  // D = A * B + C, then gather D by the accumulator layout.
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    for (unsigned i = 0; i < 4; ++i) {
      MatrixPos p = getCPos(lane, i);
      double sum = c[p.row][p.col];
      for (unsigned k = 0; k < kMmaSpK; ++k)
        sum += denseA[p.row][k] * b[k][p.col];
      d[lane][i] = static_cast<float>(sum);
    }
  }
}

bool mlir::stencil::compressTwoFour(ArraySpan<float> denseA,
                                    std::vector<float> &values,
                                    std::vector<uint8_t> &indices) {
  assert(denseA.size() == kMmaSpM * kMmaSpK && "A must be 16x32");
  values.assign(kMmaSpM * kMmaSpKCompressed, 0.0f);
  indices.assign(kMmaSpM * kMmaSpKCompressed, 0);
  for (unsigned row = 0; row < kMmaSpM; ++row) {
    for (unsigned chunk = 0; chunk < kMmaSpK / 4; ++chunk) {
      const float *group = &denseA[row * kMmaSpK + 4 * chunk];
      uint8_t picked[2];
      unsigned count = 0;
      for (unsigned j = 0; j < 4; ++j) {
        if (group[j] == 0.0f)
          continue;
        if (count == 2)
          return false;
        picked[count++] = j;
      }
      // Complete with zero placeholders, keeping the pair strictly increasing.
      for (uint8_t j = 0; count < 2; ++j) {
        if (count == 1 && picked[0] == j)
          continue;
        if (count == 1 && picked[0] > j) {
          picked[1] = picked[0];
          picked[0] = j;
        } else {
          picked[count] = j;
        }
        ++count;
      }
      for (unsigned s = 0; s < 2; ++s) {
        unsigned at = row * kMmaSpKCompressed + 2 * chunk + s;
        indices[at] = picked[s];
        values[at] = group[picked[s]];
      }
    }
  }
  return true;
}

std::vector<float> mlir::stencil::expandTwoFour(ArraySpan<float> values,
                                                ArraySpan<uint8_t> indices) {
  assert(values.size() == kMmaSpM * kMmaSpKCompressed &&
         indices.size() == values.size() && "compressed A must be 16x16");
  std::vector<float> dense(kMmaSpM * kMmaSpK, 0.0f);
  for (unsigned row = 0; row < kMmaSpM; ++row)
    for (unsigned cc = 0; cc < kMmaSpKCompressed; ++cc) {
      unsigned at = row * kMmaSpKCompressed + cc;
      dense[row * kMmaSpK + 4 * (cc / 2) + indices[at]] += values[at];
    }
  return dense;
}

void mlir::stencil::packMmaSpM16N8K32(ArraySpan<float> values,
                                      ArraySpan<uint8_t> indices,
                                      ArraySpan<float> b, ArraySpan<float> c,
                                      unsigned selector,
                                      WarpFragmentsM16N8K32 &frag) {
  assert(values.size() == kMmaSpM * kMmaSpKCompressed &&
         indices.size() == values.size() && "compressed A must be 16x16");
  assert(b.size() == kMmaSpK * kMmaSpN && "B must be 32x8");
  assert(c.size() == kMmaSpM * kMmaSpN && "C must be 16x8");
  assert(selector < 2 && "m16n8k32 f16 takes sparsity selector 0 or 1");
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    frag.meta[lane] = 0;
    for (unsigned i = 0; i < 8; ++i) {
      MatrixPos a = getACompressedPos(lane, i);
      frag.a[lane][i] = values[a.row * kMmaSpKCompressed + a.col];
      MatrixPos bp = getBPos(lane, i);
      frag.b[lane][i] = b[bp.row * kMmaSpN + bp.col];
    }
    for (unsigned i = 0; i < 4; ++i) {
      MatrixPos cp = getCPos(lane, i);
      frag.c[lane][i] = c[cp.row * kMmaSpN + cp.col];
    }
  }
  for (unsigned row = 0; row < kMmaSpM; ++row) {
    for (unsigned cc = 0; cc < kMmaSpKCompressed; ++cc) {
      unsigned index = indices[row * kMmaSpKCompressed + cc];
      assert(index < 4 && "2-bit index out of range");
      assert((cc % 2 == 0 ||
              indices[row * kMmaSpKCompressed + cc - 1] < index) &&
             "indices must increase within a chunk");
      MetadataSlot slot = getMetadataSlot(row, cc, selector);
      frag.meta[slot.lane] |= uint32_t(index & 3u) << slot.bit;
    }
  }
}

std::vector<float>
mlir::stencil::unpackAccumulatorM16N8K32(const float d[kWarpSize][4]) {
  std::vector<float> out(kMmaSpM * kMmaSpN, 0.0f);
  for (unsigned lane = 0; lane < kWarpSize; ++lane)
    for (unsigned i = 0; i < 4; ++i) {
      MatrixPos p = getCPos(lane, i);
      out[p.row * kMmaSpN + p.col] = d[lane][i];
    }
  return out;
}

bool mlir::stencil::isOrderedMetadataWord(uint32_t word) {
  for (unsigned nibble = 0; nibble < 8; ++nibble) {
    unsigned pair = (word >> (4 * nibble)) & 0xFu;
    if ((pair & 3u) >= (pair >> 2))
      return false;
  }
  return true;
}

bool mlir::stencil::simulateStMatrix(const uint32_t regs[kWarpSize][4],
                                     unsigned num, bool trans,
                                     ArraySpan<uint64_t> addresses,
                                     std::vector<uint16_t> &smem) {
  if ((num != 1 && num != 2 && num != 4) || addresses.size() != kWarpSize)
    return false;
  for (unsigned m = 0; m < num; ++m)
    for (unsigned row = 0; row < 8; ++row) {
      uint64_t address = addresses[8 * m + row];
      if (address % 16 != 0 || address / 2 + 8 > smem.size())
        return false;
    }
  for (unsigned m = 0; m < num; ++m)
    for (unsigned lane = 0; lane < kWarpSize; ++lane)
      for (unsigned half = 0; half < 2; ++half) {
        unsigned g = lane / 4, col = 2 * (lane % 4) + half;
        // Element (g, col) goes to row g, position col; transposed, to row
        // col, position g.
        unsigned storedRow = trans ? col : g, position = trans ? g : col;
        smem[addresses[8 * m + storedRow] / 2 + position] =
            uint16_t(regs[lane][m] >> (16 * half));
      }
  return true;
}
