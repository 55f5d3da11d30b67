//===- SparStencil.h - Flatten-and-crush and 2:4 matching -------*- C++ -*-===//
//
// IR-free math of SparStencil in the frame of this project's
// `mma.sp.m16n8k32` kernel: adaptive layout morphing (section 3.1), the
// conflict graph and hierarchical two-level matching of structured sparsity
// conversion (section 3.2, Definitions 1-3, Algorithm 1), and the analytical
// cost of a layout (section 3.3, eq. 9).
//
// Flatten-and-crush (3.1). One MMA computes 16 outputs for each of its 8
// columns. With layout (r1, r2), r1 r2 = 16, the 16 outputs of an MMA column
// are an r2 x r1 block: r2 consecutive rows along y (r2 = 1 in 1-D) by r1
// consecutive outputs along x; output m = u r1 + v lies at (0, u, v) from
// the column's origin. Stencil flattening writes each output as the kernel
// vector times the flattened window it reads; crushing the horizontal
// duplicates (eq. 3, the r1 outputs of a row share inputs) and the vertical
// ones (eq. 4, the r2 rows share input rows) leaves one matrix column per
// distinct input point of the block: column c at offset o_c = (dz, dy, dx)
// from the origin, and
//
//     A'[m][c] = w(o_c - (0, u, v))     (0 where that is no stencil point),
//     out(origin + (0, u, v)) = Sum_c A'[m][c] in(origin + o_c).
//
// A dense k x k box gives k' = (k + r1 - 1)(k + r2 - 1) columns, the k' of
// eq. 9; a star reads far fewer (its off-centre rows hold one point each).
// Each row of A' is the stencil shifted by (u, v): the staircase of Def. 4.
//
// Units. The kernel loads the B operand in registers of two adjacent K
// positions (2s, 2s + 1) with one 32-bit shared-memory load, so the columns
// come in units: the inputs (dz, dy, 2a) and (dz, dy, 2a + 1) of one row,
// kept together (one may be all zero). A unit is the node of the graphs
// below; this keeps the paired loads of the strided-swap kernel.
//
// Conflict graph (Def. 1, on units). Units p and q conflict when some row m
// has more than two non-zeros in their four columns,
//     nnz_m(p) + nnz_m(q) > 2,
// and a group of 4 K positions holding two non-conflicting units is then 2:4
// in every row. A valid matching (Def. 3) pairs non-conflicting units; an
// unmatched unit shares its group with a zero unit (Def. 2's zero columns).
// Problem 1 (fewest zero columns) is a maximum matching in the complement of
// the conflict graph, the compatibility graph.
//
// Hierarchical two-level matching (Alg. 1). The units fall into blocks, one
// per input row (dz, dy), each ordered by a: the self-similar staircase of
// 3.2 (a block is a sub-matrix B_i of 3.1). Level 1 pairs whole blocks i and
// i + s1, s1 = max(floor(m / 2), 1) for m blocks, unit t with unit t, when
// they are the same size and every pair is compatible; level 2 pairs unit u
// of each remaining block of g units with u + s2, s2 = max(ceil(g / 2), 1),
// when compatible, and leaves it to a zero unit otherwise. Theorem 1 makes
// those pairs conflict-free for a k-staircase; here every pair is checked
// against the conflict graph, so any pattern is handled. With horizontal
// crushing only, layout (16, 1), the heuristic is maximum on every star and
// box (unit-tested against Edmonds); with vertical crushing the blocks of
// neighbouring output rows overlap, the staircase argument no longer holds
// and the heuristic falls short. Whenever it matches fewer units than a
// maximum matching, the maximum matching of the compatibility graph from
// Edmonds' blossom algorithm (Boost Graph,
// `edmonds_maximum_cardinality_matching`) is taken instead, as 3.2 says.
//
// The matched order. Groups of two units (4 K positions, the second unit of
// a group may be zero) are laid out in order, 8 groups per MMA (K = 32);
// the last MMA is padded with zero groups. MMA q of the stencil multiplies
// A'_q (16 x 32) by the B whose row 2s + e (s < 16, e < 2) is the input at
// (origin + offset of unit slot s of q) + (0, 0, e).
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_SUPPORT_SPARSTENCIL_H
#define STENCIL_SUPPORT_SPARSTENCIL_H

#include "stencil/Support/SparseKernel.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mlir {
namespace stencil {

/// Outputs per MMA column: r2 rows along y by r1 along x (r1 r2 = 16).
struct FlattenLayout {
  int64_t r1 = 16;
  int64_t r2 = 1;
  bool operator==(const FlattenLayout &other) const {
    return r1 == other.r1 && r2 == other.r2;
  }
};

/// The layouts a stencil of `rank` can take: (16, 1) in 1-D; (16, 1),
/// (8, 2), (4, 4), (2, 8) otherwise.
llvm::SmallVector<FlattenLayout> getFlattenLayouts(int64_t rank);

/// One unit: the two inputs at offset (dz, dy, 2a) and (dz, dy, 2a + 1)
/// from an MMA column's origin (dz = 0 below 3-D, dy = 0 in 1-D).
struct GatherUnit {
  int64_t dz = 0, dy = 0, dx = 0; // dx = 2a, even
  bool operator==(const GatherUnit &other) const {
    return dz == other.dz && dy == other.dy && dx == other.dx;
  }
  bool operator<(const GatherUnit &other) const {
    return std::array<int64_t, 3>{dz, dy, dx} <
           std::array<int64_t, 3>{other.dz, other.dy, other.dx};
  }
};

/// The flattened and crushed kernel of a stencil under one layout.
struct FlattenedKernel {
  int64_t rank = 0;
  FlattenLayout layout;
  /// The units, sorted by (dz, dy, dx): blocks of one input row each.
  llvm::SmallVector<GatherUnit> units;
  /// A' as a 16 x (2 #units) matrix; columns 2k and 2k + 1 are unit k.
  KernelMatrix matrix;
};

/// Flattens and crushes the stencil with offsets `offsets` (`rank`
/// components each, outermost first, concatenated) and `weights` (one per
/// offset; zero weights are dropped) for `layout` (section 3.1). Returns
/// std::nullopt, with `why`, for a layout the rank cannot take.
std::optional<FlattenedKernel> flattenAndCrush(int64_t rank,
                                               llvm::ArrayRef<int64_t> offsets,
                                               llvm::ArrayRef<double> weights,
                                               FlattenLayout layout,
                                               std::string *why = nullptr);

/// The flattened kernel a gathered row form holds: kernel matrices
/// (`#rows x 16 x 32`, row-major) whose 16 units read `gather` (`#rows x 16
/// x (dz, dy, dx)`). Units whose columns are zero in every row are padding
/// and dropped; a unit met twice has its columns added.
FlattenedKernel collectUnits(int64_t rank, FlattenLayout layout,
                             llvm::ArrayRef<double> kernels,
                             llvm::ArrayRef<int64_t> gather);

/// The conflict graph of the units (Def. 1 on units): the pairs (p, q),
/// p < q, that some row holds more than two non-zeros of.
std::vector<std::pair<int64_t, int64_t>>
buildConflictGraph(const FlattenedKernel &kernel);

/// How a matching was found.
enum class MatchingMethod { TwoLevel, Blossom };

/// A valid matching (Def. 3) as the groups of the matched order: group i
/// holds units groups[i].first and groups[i].second (-1: a zero unit).
struct UnitMatching {
  std::vector<std::pair<int64_t, int64_t>> groups;
  MatchingMethod method = MatchingMethod::TwoLevel;
  /// The pairs the heuristic found and the maximum matching's size.
  int64_t twoLevelPairs = 0, maximumPairs = 0;
};

/// Algorithm 1 on the blocks of `kernel` (header comment), or Edmonds'
/// maximum matching when that pairs more units.
UnitMatching matchUnits(const FlattenedKernel &kernel);

/// Only the hierarchical two-level heuristic (for tests and reports).
UnitMatching matchUnitsTwoLevel(const FlattenedKernel &kernel);

/// The matched kernel: MMA q's A'_q and the unit each of its 16 pair slots
/// reads (std::nullopt for a zero unit; its A' columns are zero).
struct MatchedKernel {
  int64_t rank = 0;
  FlattenLayout layout;
  /// #mmas x 16 x 32, row-major.
  std::vector<double> kernels;
  /// #mmas x 16 slots.
  std::vector<std::optional<GatherUnit>> slots;
  int64_t numMmas() const { return int64_t(slots.size()) / 16; }
  KernelMatrix getKernel(int64_t mma) const;
  /// The slots' (dz, dy, dx), #mmas x 16 x 3 (`gather_offsets`); a zero
  /// unit reads the origin.
  std::vector<int64_t> getGatherOffsets() const;
};

/// Lays out the groups of `matching` in order, 8 per MMA.
MatchedKernel buildMatchedKernel(const FlattenedKernel &kernel,
                                 const UnitMatching &matching);

/// The analytical cost of a layout (section 3.3): MMAs per MMA column of 16
/// outputs (eq. 9 with N = 8), and what they read.
struct LayoutCost {
  /// mma.sp.m16n8k32 per 16 x 8 outputs.
  int64_t mmas = 0;
  /// Non-zero weights over the kept slots of those MMAs (16 x 16 each).
  double slotUse = 0;
  /// B operand bytes (shared memory) per output point: 512 per MMA.
  double operandBytesPerPoint = 0;
};

/// The cost of `mmas` mma.sp per 16 x 8 outputs for a stencil with `points`
/// non-zero weights, each output row holding every weight once (a matched
/// layout, or the strided swap's kernel rows).
LayoutCost getMmaCost(int64_t mmas, int64_t points);

/// The cost of the matched kernel of a stencil with `points` non-zero
/// weights.
LayoutCost getLayoutCost(const MatchedKernel &kernel, int64_t points);

} // namespace stencil
} // namespace mlir

#endif // STENCIL_SUPPORT_SPARSTENCIL_H
