//===- SpTCPacking.h - B-operand plans of the Tensor Core kernels -*- C++
//-*-===//
//
// How the lanes of the SPIDER kernels (section 3.2, the row swap folded into
// load offsets) read their B operands from shared memory, and the bank
// conflicts of those reads. The coefficient (A operand) packing of section
// 3.3.2 is in CoefficientPacking.h, which this header includes: it is
// LLVM-free, shared with libStencilRuntime.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_SUPPORT_SPTCPACKING_H
#define STENCIL_SUPPORT_SPTCPACKING_H

#include "stencil/Support/CoefficientPacking.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <vector>

namespace mlir {
namespace stencil {

/// The innermost offset, relative to the first of the MMA's 16 outputs, of
/// the input point that row `k` (0..31) of the B operand holds: block
/// b = k / 2L, logical column c = k % 2L, offset b * L + inputOffsets[c].
int64_t getStackedInputOffset(int64_t k, int64_t rowsPerBlock,
                              llvm::ArrayRef<int64_t> inputOffsets);

/// How the lanes of a warp read their B operand from shared memory, decided
/// at compile time (the row swap of SPIDER 3.2 folded into constants).
struct SpTCBOperandPlan {
  /// dx[i][t]: the innermost input offset, relative to the MMA's first
  /// output, of b_i in the lanes with threadInGroup t (B row
  /// getBPos(t, i).row).
  int64_t dx[8][4];
  /// b_{2p} and b_{2p+1} are adjacent and 4-byte aligned in every lane: one
  /// 32-bit load per register instead of two 16-bit ones.
  bool paired = false;
  /// The shared-memory row: it starts `pad` elements before the block's
  /// first output and holds `pitch` elements (multiples of 8), which covers
  /// every offset any B operand of the block reads.
  int64_t pad = 0, pitch = 0;
  /// The swizzle of a shared-memory row (0: none): the two 8-byte halves of
  /// every 16-byte chunk whose column has bit `swizzleBit` set trade places,
  /// so column c is stored at swizzle(c). The paired swap makes the four
  /// lanes of a group read words {a, a + 1, a + 8, a + 9} of a row (the
  /// second half of the MMA's K reads 16 elements further), which use two
  /// of the four 4-byte slots of a chunk; with rows starting on 16-byte
  /// boundaries no pitch then avoids a 2-way bank conflict. Swapping halves
  /// in every other chunk moves a + 8 and a + 9 to the other two slots.
  int64_t swizzleBit = 0;

  /// The stored column of column `column` of a shared-memory row.
  static int64_t swizzle(int64_t column, int64_t bit) {
    return bit ? column ^ (((column >> bit) & 1) << 2) : column;
  }
};

/// The plan for a block whose tile is `innermostTile` outputs wide along the
/// innermost dimension; in 2-D and 3-D with paired loads, the pitch (among
/// the first eight candidates) and swizzle (none, or bit 3, 4 or 5) with the
/// fewest bank conflicts, preferring no swizzle, then the narrowest pitch.
SpTCBOperandPlan planSpTCBOperand(llvm::ArrayRef<int64_t> inputOffsets,
                                  int64_t rowsPerBlock, int64_t rank,
                                  int64_t innermostTile);

/// The bank-conflict degree of one warp's shared-memory load of the 16-bit
/// elements at `elements` (one per lane): the most distinct 4-byte words
/// that fall into one of the 32 banks.
int64_t getBankConflictDegree(llvm::ArrayRef<int64_t> elements);

/// The bank-conflict degree (4-byte banks, 32 of them) summed over the B
/// loads of one warp and over the first four warps of a block (16 outputs
/// apart), with shared-memory rows of `pitch` elements swizzled as the plan
/// says (in 1-D the MMA columns are 16 elements apart in one row instead).
int64_t countSpTCBankConflicts(const SpTCBOperandPlan &plan, int64_t pitch,
                               int64_t rank);

} // namespace stencil
} // namespace mlir

#endif // STENCIL_SUPPORT_SPTCPACKING_H
