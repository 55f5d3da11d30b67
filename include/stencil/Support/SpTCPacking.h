//===- SpTCPacking.h - Coefficient packing for the SpTC kernel --*- C++ -*-===//
//
// Data packing of SPIDER section 3.3.2, for the m16n8k32 f16 `mma.sp` the
// Sparse Tensor Core kernel issues (layouts in docs/MmaSparseLayout.md).
//
// One MMA covers 16 consecutive outputs along the innermost dimension. With
// L = rows_per_block < 16, its A operand stacks 16 / L kernel matrices
// (L x 2L each) on the diagonal: logical row b * L + i, logical column
// b * 2L + c hold K[i][c] of block b, everything else is zero. 2L is a
// multiple of 4, so no group of 4 straddles two blocks; the groups off the
// diagonal are empty (values 0, indices (0, 1)).
//
// The coefficient buffer holds, for kernel row o and lane l, the lane's eight
// compressed A values as four 32-bit words (f16 pairs, first value in the low
// half) at words [(o * 32 + l) * 4, +4): each thread reads its values
// contiguously, and the MMAs follow each other. The metadata follows: one
// word per lane for every pair of kernel rows (2p, 2p + 1), row 2p in the
// lane pair of sparsity selector 0 and row 2p + 1 in that of selector 1, so a
// single register serves two MMAs (SPIDER's concatenated metadata).
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_SUPPORT_SPTCPACKING_H
#define STENCIL_SUPPORT_SPTCPACKING_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <vector>

namespace mlir {
namespace stencil {

/// Where the kernel finds its operands in the coefficient buffer.
struct SpTCCoefficientLayout {
  int64_t numRows = 0;

  /// The word holding A values (a_{2j}, a_{2j+1}) of `lane` for kernel row o.
  static int64_t valueWord(int64_t row, unsigned lane, unsigned j) {
    return (row * 32 + lane) * 4 + j;
  }
  /// The metadata word of `lane` for kernel row o; use it with sparsity
  /// selector `row % 2`.
  int64_t metadataWord(int64_t row, unsigned lane) const {
    return numRows * 128 + (row / 2) * 32 + lane;
  }
  /// The total number of words.
  int64_t size() const { return numRows * 128 + (numRows + 1) / 2 * 32; }
};

/// The compressed 16 x 16 A operand of kernel row `row` (values as f16 bit
/// patterns, 2-bit indices), stacking 16 / L copies of the row's L x 2L
/// matrix. `valueBits` and `indices` are the #rows x L x L arrays of
/// `stencil.sparse_row_gemm`.
void buildStackedOperand(llvm::ArrayRef<uint16_t> valueBits,
                         llvm::ArrayRef<uint8_t> indices, int64_t row,
                         int64_t rowsPerBlock, std::vector<uint16_t> &values,
                         std::vector<uint8_t> &stackedIndices);

/// The coefficient buffer of a `stencil.sparse_row_gemm` (layout above).
std::vector<uint32_t> packSpTCCoefficients(llvm::ArrayRef<uint16_t> valueBits,
                                           llvm::ArrayRef<uint8_t> indices,
                                           int64_t numRows,
                                           int64_t rowsPerBlock);

/// Dense Tensor Core packing (`--lower-to-tc`): the stacked 16 x 32 operand
/// of every kernel row (as above, uncompressed) is the A of two
/// `mma.sync.m16n8k16` (K = 0..15, then 16..31; MmaModel.h). Lane l's words
/// for kernel row o are [(o * 32 + l) * 8, +8): words 4h .. 4h + 3 hold its
/// a_0..a_7 of half h as f16 pairs, low half first.
struct TCCoefficientLayout {
  static int64_t word(int64_t row, unsigned lane, unsigned half, unsigned j) {
    return (row * 32 + lane) * 8 + 4 * half + j;
  }
  static int64_t size(int64_t numRows) { return numRows * 256; }
};

/// The dense coefficient buffer from the `#rows x L x 2L` kernels of a
/// `stencil.row_gemm`, given as f16 bit patterns.
std::vector<uint32_t> packTCCoefficients(llvm::ArrayRef<uint16_t> kernelBits,
                                         int64_t numRows,
                                         int64_t rowsPerBlock);

/// The low-rank chain (`--lower-to-tc=low-rank`, LoRAStencil, seed 003,
/// section II-D, eq. 9): a 2-D stencil of radius h with W = Sum_k u_k v_k^T
/// is Sum_k U_k (X V_k). Stage 1 is the dense row form of v_k (above; kernel
/// row k, T-tiles of 8 rows starting 8 apart at y_0 - h), stage 2 contracts
/// 16 rows of T (two T-tiles p, p + 1) into 8 output rows with one
/// m16n8k16 whose A is T itself: the accumulators c_0..c_3 of T-tiles p and
/// p + 1, rounded to f16 pairs, are a_0..a_3 and a_4..a_7 (the m16n8k16 C
/// and A fragments coincide, MmaModel.h), so no value moves between lanes
/// (the goal of LoRAStencil's butterfly vector swapping, III-D, which the
/// f64 m8n8k4 fragments need and these do not). Its B (16 x 8) holds
///     B_k[kk][n] = u_k(kk - n - h)       (zero where |kk - n - h| > h),
/// which needs 8 + 2h <= 16 rows: h <= 4. Lane l = 4g + t holds b_i at
/// B[2t + (i & 1) + 8 (i >> 1)][g], as two f16 pairs after the row words:
/// word TCCoefficientLayout::size(K) + (k * 32 + l) * 2 + p holds
/// (b_{2p}, b_{2p+1}), low half first.
struct LowRankColumnLayout {
  int64_t numTerms = 0;
  static constexpr int64_t kMaxRadius = 4;
  int64_t word(int64_t term, unsigned lane, unsigned pair) const {
    return TCCoefficientLayout::size(numTerms) + (term * 32 + lane) * 2 + pair;
  }
  /// All words: the row words of stage 1, then these.
  int64_t size() const { return TCCoefficientLayout::size(numTerms) + numTerms * 64; }
};

/// The stage-2 words (LowRankColumnLayout, without the row words before
/// them) of the `K x (2h + 1)` column weights u, as f16 bit patterns.
std::vector<uint32_t> packLowRankColumnWeights(llvm::ArrayRef<uint16_t> uBits,
                                               int64_t numTerms,
                                               int64_t radius);

/// f64 dense Tensor Core packing (`--lower-to-tc` on f64 grids, one
/// `mma.sync.m8n8k4` f64 per K-chunk; MmaModel.h). Unlike the f16 form the
/// roles are swapped so that each lane stores two consecutive outputs: A
/// (8 x 4) holds inputs, 8 rows of the grid (or 8 segments in 1-D) by 4
/// consecutive `x`, B (4 x 8) the weights, and C (8 x 8) 8 rows by 8
/// consecutive outputs. For a kernel row o with 1-D weights w_o(dx),
/// |dx| <= r, and an n-tile of 8 outputs starting at x_0, K-chunk c
/// (0 <= c < C = ceil((8 + 2r) / 4)) holds the inputs x_0 - r + 4c + k,
/// k < 4, so
///     B_c[k][n] = w_o(4c + k - n - r)        (zero where |dx| > r),
/// and Sum_c A_c B_c is the row's contribution to the 8 x 8 outputs. Lane
/// l = 4g + t holds b_0 = B_c[t][g]; its f64 for row o and chunk c is the
/// word pair [((o * C + c) * 32 + l) * 2, +2), low word first.
struct TCF64CoefficientLayout {
  int64_t numRows = 0;
  int64_t radius = 0;

  /// K-chunks of 4 inputs per n-tile of 8 outputs.
  static int64_t getNumChunks(int64_t radius) { return (8 + 2 * radius + 3) / 4; }
  int64_t numChunks() const { return getNumChunks(radius); }
  int64_t word(int64_t row, int64_t chunk, unsigned lane) const {
    return ((row * numChunks() + chunk) * 32 + lane) * 2;
  }
  int64_t size() const { return numRows * numChunks() * 64; }
  /// B_c[k][n] of kernel row `row` (above) from the row-major
  /// `numRows x (2r + 1)` weights w_o(dx) at [o * (2r + 1) + dx + r].
  double getB(llvm::ArrayRef<double> rowWeights, int64_t row, int64_t chunk,
              int64_t k, int64_t n) const;
};

/// The f64 coefficient buffer (layout above) of the row weights.
std::vector<uint32_t> packTCF64Coefficients(llvm::ArrayRef<double> rowWeights,
                                            int64_t numRows, int64_t radius);

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
