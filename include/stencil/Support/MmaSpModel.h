//===- MmaSpModel.h - CPU model of the mma.sp warp data path ---*- C++ -*-===//
//
// IR-free model of `mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32`
// (2:4 structured-sparse A), written from the PTX ISA alone (sections
// 9.7.14.6.1 "Sparse matrix storage" and 9.7.14.6.2.2 "Matrix Fragments for
// sparse mma.m16n8k32 with .f16 and .bf16 types"; C/D as in 9.7.14.5.8).
// docs/MmaSparseLayout.md gives the tables and their sources.
//
// Notation: lane L of the warp, groupID g = L >> 2, threadID_in_group
// t = L % 4. The logical A is 16x32 (row-major, K = 32); its compressed form
// is 16x16: compressed column cc of row r holds one of the two kept values of
// the 4-wide chunk cc / 2 (dense columns 4 * (cc / 2) .. + 3), and its 2-bit
// index within that chunk lives in a metadata word. Values are floats that
// stand for f16 inputs; accumulation is f32.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_SUPPORT_MMASPMODEL_H
#define STENCIL_SUPPORT_MMASPMODEL_H

#include "stencil/Support/ArraySpan.h"

#include <cstdint>
#include <vector>

namespace mlir {
namespace stencil {

/// Shape of the modelled instruction.
constexpr unsigned kMmaSpM = 16, kMmaSpN = 8, kMmaSpK = 32;
/// Columns of the compressed A (K / 2).
constexpr unsigned kMmaSpKCompressed = kMmaSpK / 2;
constexpr unsigned kWarpSize = 32;

/// The registers of the whole warp for one m16n8k32 f16 -> f32 `mma.sp`:
/// a[L][i] is a_i of lane L (four .f16x2 registers: a0..a7, low half first),
/// b[L][i] is b_i (four .f16x2 registers: b0..b7), c[L][i] is c_i (four .f32),
/// meta[L] the 32-bit metadata register `e` of lane L.
struct WarpFragmentsM16N8K32 {
  float a[kWarpSize][8];
  float b[kWarpSize][8];
  float c[kWarpSize][4];
  uint32_t meta[kWarpSize];
};

/// A (row, column) position in a matrix.
struct MatrixPos {
  unsigned row;
  unsigned col;
};

/// Where a 2-bit metadata index lives: bits [bit + 1 : bit] of meta[lane].
struct MetadataSlot {
  unsigned lane;
  unsigned bit;
};

/// Position of a_i of `lane` in the *compressed* 16x16 A:
/// row = g (i in {0,1,4,5}) or g + 8 (i in {2,3,6,7});
/// compressed col = 2 * t + (i & 1) + (i >= 4 ? 8 : 0), i.e. the two kept
/// values of dense chunk [4t, 4t + 3] (i < 4) or [4t + 16, 4t + 19] (i >= 4).
MatrixPos getACompressedPos(unsigned lane, unsigned i);

/// Position of b_i of `lane` in the 32x8 B:
/// row = 2 * t + (i & 1) + 8 * (i >> 1), col = g.
MatrixPos getBPos(unsigned lane, unsigned i);

/// Position of c_i (and d_i) of `lane` in the 16x8 C/D:
/// row = g + 8 * (i >> 1), col = 2 * t + (i & 1).
MatrixPos getCPos(unsigned lane, unsigned i);

/// Where the index of compressed element (row, cc) of A is read from under
/// `selector` (0 or 1): the lane pair 4 * (row % 8) + 2 * selector + {0, 1}
/// serves the group's rows row % 8 and row % 8 + 8; the first lane of the pair
/// holds dense columns 0..15, the second 16..31. Bits [15:0] hold row % 8,
/// bits [31:16] row % 8 + 8; chunk j of the half-row is nibble j, whose low
/// two bits index the first kept value (even cc) and high two bits the second
/// (odd cc).
MetadataSlot getMetadataSlot(unsigned row, unsigned compressedCol,
                             unsigned selector);

/// D = A * B + C exactly as the registers say: scatters a/b/c by the ISA
/// layout, decodes the metadata of the lane pair picked by `selector` (0 or 1;
/// other lanes' metadata is ignored), and writes d[L][i] at getCPos(L, i).
/// Products are summed in double and rounded to float once, so the result is
/// exact whenever the exact sum is representable in f32; the hardware's own
/// summation order and intermediate rounding are not modelled.
void simulateMmaSpM16N8K32(const WarpFragmentsM16N8K32 &frag,
                           unsigned selector, float d[kWarpSize][4]);

/// Splits a dense row-major 16x32 A into the compressed 16x16 `values` and
/// their dense in-chunk `indices` (row-major, 16x16). Groups with fewer than
/// two non-zeros are completed with zero placeholders so that each group's two
/// indices are distinct and increasing. Returns false if a group holds more
/// than two non-zeros.
bool compressTwoFour(ArraySpan<float> denseA, std::vector<float> &values,
                     std::vector<uint8_t> &indices);

/// Expands compressed `values`/`indices` (16x16 each) back to a dense 16x32 A.
std::vector<float> expandTwoFour(ArraySpan<float> values,
                                 ArraySpan<uint8_t> indices);

/// Fills the warp registers for D = A * B + C, where A is given compressed
/// (`values`, `indices`: 16x16 row-major, indices in 0..3 and strictly
/// increasing within each pair), `b` is 32x8 and `c` is 16x8 (row-major). The
/// metadata goes to the lane pair of `selector`; the other lanes' words are 0.
void packMmaSpM16N8K32(ArraySpan<float> values, ArraySpan<uint8_t> indices,
                       ArraySpan<float> b, ArraySpan<float> c,
                       unsigned selector, WarpFragmentsM16N8K32 &frag);

/// Gathers the per-lane accumulators (d[L][i]) into a row-major 16x8 matrix.
std::vector<float> unpackAccumulatorM16N8K32(const float d[kWarpSize][4]);

/// True if every nibble of `word` is one of the index pairs that
/// `mma.sp::ordered_metadata` accepts (0x4, 0x8, 0x9, 0xC, 0xD, 0xE: low index
/// in the low two bits, strictly smaller than the high one).
bool isOrderedMetadataWord(uint32_t word);

/// `stmatrix.sync.aligned.m8n8.x<num>{.trans}.shared.b16` (sm_90, PTX ISA
/// "Warp-level matrix store instruction: stmatrix"): the warp stores `num`
/// 8 x 8 matrices of b16. Matrix m is register m of every lane, lane 4 g + t
/// holding its elements (g, 2 t) in the low half and (g, 2 t + 1) in the
/// high half (the layout of a 16-bit mma C fragment); lane 8 m + i gives
/// the byte address of row i of matrix m, where 8 consecutive b16 go: row
/// i of the matrix, or with .trans its column i. `regs[L][m]` is register m
/// of lane L, `addresses[L]` lane L's address; `smem` is in b16 units.
/// Returns false for an address that is not 16-byte aligned or does not
/// fit in `smem`.
bool simulateStMatrix(const uint32_t regs[kWarpSize][4], unsigned num,
                      bool trans, ArraySpan<uint64_t> addresses,
                      std::vector<uint16_t> &smem);

} // namespace stencil
} // namespace mlir

#endif // STENCIL_SUPPORT_MMASPMODEL_H
