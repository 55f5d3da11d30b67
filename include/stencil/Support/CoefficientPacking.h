//===- CoefficientPacking.h - Packed operands of the TC kernels -*- C++ -*-===//
//
// Data packing of SPIDER section 3.3.2, for the m16n8k32 f16
// `mma.sp` the Sparse Tensor Core kernel issues (layouts in
// docs/MmaSparseLayout.md).
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
// The dense forms (`mma.sync` m16n8k16 and, for f64, m8n8k4) and the
// low-rank chain's second stage follow (their layouts below).
//
// **Repacking** (weights replaced at run time). The packing takes
// per-kernel-row arrays of values (`stencil.sparse_row_gemm`'s compressed
// values, `stencil.row_gemm`'s kernels, the f64 form's row weights). For the
// kernels of one step per launch each of those values is either a weight of
// the stencil or a structural zero, and which one depends only on the
// pattern. `--convert-stencil-to-sptc` records that dependency, a
// `RepackRecipe` (value slot -> index of the weight in the pattern's
// order, or -1), in the launch description; `repackCoefficients` rebuilds
// the values from new weights (rounded as the compiler rounds them,
// `roundToOperandBits`) and calls the same packing functions the compiler's
// `--stencil-sptc-pack` calls.
//
// This file and its .cpp use only the C++ standard library (ArraySpan.h
// stands for llvm::ArrayRef), like MmaModel.h and MmaSpModel.h whose
// fragment positions they use: the three make the StencilPacking library
// that libStencilRuntime and stencil-run link without LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_SUPPORT_COEFFICIENTPACKING_H
#define STENCIL_SUPPORT_COEFFICIENTPACKING_H

#include "stencil/Support/ArraySpan.h"

#include <cstdint>
#include <string>
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
void buildStackedOperand(ArraySpan<uint16_t> valueBits,
                         ArraySpan<uint8_t> indices, int64_t row,
                         int64_t rowsPerBlock, std::vector<uint16_t> &values,
                         std::vector<uint8_t> &stackedIndices);

/// The coefficient buffer of a `stencil.sparse_row_gemm` (layout above).
std::vector<uint32_t> packSpTCCoefficients(ArraySpan<uint16_t> valueBits,
                                           ArraySpan<uint8_t> indices,
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
std::vector<uint32_t> packTCCoefficients(ArraySpan<uint16_t> kernelBits,
                                         int64_t numRows, int64_t rowsPerBlock);

/// The low-rank chain (`--lower-to-tc=low-rank`, LoRAStencil,
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
  int64_t size() const {
    return TCCoefficientLayout::size(numTerms) + numTerms * 64;
  }
};

/// The stage-2 words (LowRankColumnLayout, without the row words before
/// them) of the `K x (2h + 1)` column weights u, as f16 bit patterns.
std::vector<uint32_t> packLowRankColumnWeights(ArraySpan<uint16_t> uBits,
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
  static int64_t getNumChunks(int64_t radius) {
    return (8 + 2 * radius + 3) / 4;
  }
  int64_t numChunks() const { return getNumChunks(radius); }
  int64_t word(int64_t row, int64_t chunk, unsigned lane) const {
    return ((row * numChunks() + chunk) * 32 + lane) * 2;
  }
  int64_t size() const { return numRows * numChunks() * 64; }
  /// B_c[k][n] of kernel row `row` (above) from the row-major
  /// `numRows x (2r + 1)` weights w_o(dx) at [o * (2r + 1) + dx + r].
  double getB(ArraySpan<double> rowWeights, int64_t row, int64_t chunk,
              int64_t k, int64_t n) const;
};

/// The f64 coefficient buffer (layout above) of the row weights.
std::vector<uint32_t> packTCF64Coefficients(ArraySpan<double> rowWeights,
                                            int64_t numRows, int64_t radius);

/// The element type a Tensor Core kernel's A operands are rounded to.
enum class OperandType { f16, bf16, f64 };

/// The bit pattern of `value` rounded to nearest, ties to even, in the IEEE
/// binary16 (f16) or bfloat16 (bf16) format, from the double directly (no
/// intermediate float rounding): the same bits as llvm::APFloat's
/// conversion with rmNearestTiesToEven (unit-tested against it), overflow
/// to infinity, subnormals kept. NaN gives a quiet NaN of the same sign.
uint16_t roundToOperandBits(double value, OperandType type);

/// The packing function a recipe calls (the `repack` key of the launch
/// description).
enum class RepackKind {
  /// packSpTCCoefficients (mma.sp; values `numRows x L x L`, f16 or bf16).
  sptc,
  /// packTCCoefficients (mma.sync m16n8k16; kernels `numRows x L x 2L`).
  tc,
  /// packTCF64Coefficients (m8n8k4 f64; row weights `numRows x (2r + 1)`).
  tcF64,
};

/// How a kernel's coefficient words follow from the stencil's weights.
struct RepackRecipe {
  RepackKind kind = RepackKind::sptc;
  OperandType type = OperandType::f16;
  int64_t numRows = 0;
  int64_t rowsPerBlock = 0;
  /// The innermost radius r (tcF64 only).
  int64_t radius = 0;
  /// sptc: the 2-bit positions of the compressed values (`numRows x L x
  /// L`), which a pattern fixes.
  std::vector<uint8_t> indices;
  /// Per value slot (the packing function's input array, row-major): the
  /// index of the weight it holds in the pattern's offset order, or -1 for
  /// a structural zero.
  std::vector<int64_t> map;

  /// The number of value slots the packing function takes.
  int64_t getNumSlots() const;
  /// An empty string if the recipe is well formed (sizes, indices, map
  /// entries below `numWeights`), else what is wrong.
  std::string verify(int64_t numWeights) const;
};

/// The name of a kind and type in the launch description (`sptc`, `tc`,
/// `tc-f64`; `f16`, `bf16`, `f64`), and back (false for an unknown name).
const char *getRepackKindName(RepackKind kind);
bool parseRepackKind(const std::string &name, RepackKind &kind);
const char *getOperandTypeName(OperandType type);
bool parseOperandType(const std::string &name, OperandType &type);

/// The coefficient words of `recipe` for `weights` (one per offset of the
/// pattern, in its order). Returns false, with the reason in `error`, for a
/// malformed recipe, a wrong number of weights or a weight that is not
/// finite.
bool repackCoefficients(const RepackRecipe &recipe, ArraySpan<double> weights,
                        std::vector<uint32_t> &words, std::string &error);

} // namespace stencil
} // namespace mlir

#endif // STENCIL_SUPPORT_COEFFICIENTPACKING_H
