//===- SpTCPacking.cpp - B-operand plans of the Tensor Core kernels -------===//

#include "stencil/Support/SpTCPacking.h"
#include "stencil/Support/MmaSpModel.h"

#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <cassert>
#include <map>
#include <set>

using namespace mlir;
using namespace mlir::stencil;

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
