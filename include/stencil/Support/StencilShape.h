//===- StencilShape.h - Offsets and weights of a stencil --------*- C++ -*-===//
//
// IR-free helpers on the neighbourhood of a stencil: the canonical star and
// box offset sets, their classification, per-dimension radii, and the merging
// of (offset, weight) terms into a coefficient list. Offsets are stored
// flattened, point after point, `rank` components each.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_SUPPORT_STENCILSHAPE_H
#define STENCIL_SUPPORT_STENCILSHAPE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

namespace mlir {
namespace stencil {

/// The named shapes of the papers (SPIDER section 2.2).
enum class ShapeKind { Star, Box };

/// The largest |component| of an offset the dialect represents: 2^31 - 1, so
/// that a radius, 2r + 1 and a tile plus its halo never overflow 64-bit index
/// arithmetic. Each pipeline checks the radius against its own (far smaller)
/// limits before doing any work proportional to it.
constexpr int64_t kMaxOffset = (int64_t(1) << 31) - 1;

/// The most points a pattern may have: 2^14, e.g. a 2-D box of radius 63
/// or a 3-D box of radius 12, far beyond any target's radius. A short form
/// names that many points in a few bytes, so the bound keeps parsing and
/// verifying fast (the parser fuzzer found a 1-D star of radius 969608).
constexpr uint64_t kMaxPatternPoints = uint64_t(1) << 14;

/// Every offset with components in [-radius, radius], lexicographic order
/// (first dimension slowest).
llvm::SmallVector<int64_t> makeBoxOffsets(unsigned rank, int64_t radius);

/// The offsets of `makeBoxOffsets` with at most one non-zero component, in the
/// same order: 2 * rank * radius + 1 points.
llvm::SmallVector<int64_t> makeStarOffsets(unsigned rank, int64_t radius);

/// The offsets of `kind` (star or box) of the given rank and radius.
llvm::SmallVector<int64_t> makeOffsets(ShapeKind kind, unsigned rank,
                                       int64_t radius);

/// The number of points of the star or box of `rank` and `radius`, computed
/// without building it: saturates at UINT64_MAX instead of overflowing, so it
/// can be checked against a limit before any work proportional to the radius.
uint64_t getShapeNumPoints(ShapeKind kind, unsigned rank, int64_t radius);

/// If `offsets` are exactly the canonical star or box of some radius >= 1
/// (same points, same order), returns that kind and radius. Where a star and
/// a box are the same points (rank 1, or radius 0) it is reported as a star.
std::optional<std::pair<ShapeKind, int64_t>>
classifyOffsets(unsigned rank, llvm::ArrayRef<int64_t> offsets);

/// max |offset_d| over the points, for each dimension d.
llvm::SmallVector<int64_t> getRadii(unsigned rank,
                                    llvm::ArrayRef<int64_t> offsets);

/// Index of the first point that occurs twice, if any.
std::optional<unsigned> findDuplicatePoint(unsigned rank,
                                           llvm::ArrayRef<int64_t> offsets);

/// Accumulates `weight * in[p + offset]` terms: repeated offsets are merged,
/// and `finish` drops terms whose weight is exactly zero and returns the rest
/// in lexicographic offset order.
class LinearCombination {
public:
  explicit LinearCombination(unsigned rank) : rank(rank) {}

  /// Adds `weight` to the coefficient of `offset`.
  void add(llvm::ArrayRef<int64_t> offset, double weight);
  /// Adds `scale * other` to this combination.
  void addScaled(const LinearCombination &other, double scale);
  /// Multiplies every coefficient by `scale`.
  void scale(double factor);
  /// True when every coefficient is zero (or none was added).
  bool isZero() const;

  /// The non-zero terms: offsets flattened, and one weight per offset.
  void finish(llvm::SmallVectorImpl<int64_t> &offsets,
              llvm::SmallVectorImpl<double> &weights) const;

  unsigned getRank() const { return rank; }

private:
  unsigned rank;
  std::map<std::vector<int64_t>, double> terms;
};

} // namespace stencil
} // namespace mlir

#endif // STENCIL_SUPPORT_STENCILSHAPE_H
