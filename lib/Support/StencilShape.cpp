//===- StencilShape.cpp - Offsets and weights of a stencil ----------------===//

#include "stencil/Support/StencilShape.h"

#include "mlir/Support/LLVM.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cstdlib>
#include <numeric>

using namespace mlir;
using namespace mlir::stencil;

SmallVector<int64_t> mlir::stencil::makeBoxOffsets(unsigned rank,
                                                   int64_t radius) {
  SmallVector<int64_t> offsets;
  SmallVector<int64_t> point(rank, -radius);
  if (rank == 0 || radius < 0)
    return offsets;
  while (true) {
    offsets.append(point.begin(), point.end());
    // Odometer increment, last dimension fastest.
    int d = rank - 1;
    while (d >= 0 && point[d] == radius)
      point[d--] = -radius;
    if (d < 0)
      break;
    ++point[d];
  }
  return offsets;
}

SmallVector<int64_t> mlir::stencil::makeStarOffsets(unsigned rank,
                                                    int64_t radius) {
  // The star's own points (not the box filtered, which costs radius^rank),
  // then the box's lexicographic order.
  std::vector<std::vector<int64_t>> points;
  if (rank == 0 || radius < 0)
    return {};
  points.emplace_back(rank, 0);
  for (unsigned d = 0; d < rank; ++d)
    for (int64_t c = 1; c <= radius; ++c)
      for (int64_t sign : {-1, 1}) {
        points.emplace_back(rank, 0);
        points.back()[d] = sign * c;
      }
  llvm::sort(points);
  SmallVector<int64_t> offsets;
  for (const std::vector<int64_t> &point : points)
    offsets.append(point.begin(), point.end());
  return offsets;
}

SmallVector<int64_t> mlir::stencil::makeOffsets(ShapeKind kind, unsigned rank,
                                                int64_t radius) {
  return kind == ShapeKind::Star ? makeStarOffsets(rank, radius)
                                 : makeBoxOffsets(rank, radius);
}

SmallVector<int64_t> mlir::stencil::getRadii(unsigned rank,
                                             ArrayRef<int64_t> offsets) {
  SmallVector<int64_t> radii(rank, 0);
  for (size_t i = 0; i < offsets.size(); ++i)
    radii[i % rank] = std::max<int64_t>(radii[i % rank], std::abs(offsets[i]));
  return radii;
}

uint64_t mlir::stencil::getShapeNumPoints(ShapeKind kind, unsigned rank,
                                         int64_t radius) {
  if (rank == 0 || radius < 0)
    return 0;
  // 2r + 1 fits in uint64_t for any non-negative int64_t r.
  uint64_t side = 2 * static_cast<uint64_t>(radius) + 1;
  if (kind == ShapeKind::Star)
    return llvm::SaturatingAdd(
        llvm::SaturatingMultiply(uint64_t(rank), side - 1), uint64_t(1));
  uint64_t count = 1;
  for (unsigned d = 0; d < rank; ++d)
    count = llvm::SaturatingMultiply(count, side);
  return count;
}

std::optional<std::pair<ShapeKind, int64_t>>
mlir::stencil::classifyOffsets(unsigned rank, ArrayRef<int64_t> offsets) {
  if (rank == 0 || offsets.empty() || offsets.size() % rank != 0)
    return std::nullopt;
  SmallVector<int64_t> radii = getRadii(rank, offsets);
  int64_t radius = *llvm::max_element(radii);
  // Compare point counts before building a candidate: the work stays
  // proportional to the input, whatever the radius (an offset of 2^31 - 1 in
  // a two-point pattern must not build a star of 2^33 points).
  uint64_t numPoints = offsets.size() / rank;
  for (ShapeKind kind : {ShapeKind::Star, ShapeKind::Box})
    if (getShapeNumPoints(kind, rank, radius) == numPoints &&
        ArrayRef<int64_t>(makeOffsets(kind, rank, radius)) == offsets)
      return std::make_pair(kind, radius);
  return std::nullopt;
}

std::optional<unsigned>
mlir::stencil::findDuplicatePoint(unsigned rank, ArrayRef<int64_t> offsets) {
  // Point indices sorted by point (stably, so equal points keep their order):
  // the first repeat is the smallest second index of two equal neighbours.
  // No allocation per point.
  if (rank == 0)
    return std::nullopt;
  auto point = [&](unsigned i) { return offsets.slice(i * rank, rank); };
  std::vector<unsigned> order(offsets.size() / rank);
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](unsigned a, unsigned b) {
    return std::lexicographical_compare(point(a).begin(), point(a).end(),
                                        point(b).begin(), point(b).end());
  });
  std::optional<unsigned> first;
  for (size_t k = 1; k < order.size(); ++k)
    if (point(order[k]) == point(order[k - 1]) &&
        (!first || order[k] < *first))
      first = order[k];
  return first;
}

void LinearCombination::add(ArrayRef<int64_t> offset, double weight) {
  terms[std::vector<int64_t>(offset.begin(), offset.end())] += weight;
}

void LinearCombination::addScaled(const LinearCombination &other,
                                  double factor) {
  for (const auto &[offset, weight] : other.terms)
    terms[offset] += factor * weight;
}

void LinearCombination::scale(double factor) {
  for (auto &term : terms)
    term.second *= factor;
}

bool LinearCombination::isZero() const {
  return llvm::all_of(terms, [](const auto &term) { return term.second == 0; });
}

void LinearCombination::finish(SmallVectorImpl<int64_t> &offsets,
                               SmallVectorImpl<double> &weights) const {
  offsets.clear();
  weights.clear();
  for (const auto &[offset, weight] : terms) {
    if (weight == 0.0)
      continue;
    offsets.append(offset.begin(), offset.end());
    weights.push_back(weight);
  }
}
