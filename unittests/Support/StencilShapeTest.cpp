//===- StencilShapeTest.cpp - Tests of the IR-free stencil helpers --------===//

#include "stencil/Support/StencilShape.h"

#include "gtest/gtest.h"

using namespace mlir::stencil;

namespace {

TEST(StencilShape, BoxIsLexicographic) {
  llvm::SmallVector<int64_t> box = makeBoxOffsets(2, 1);
  std::vector<int64_t> expected = {-1, -1, -1, 0, -1, 1, 0, -1, 0,
                                   0,  0,  1,  1, -1, 1, 0,  1, 1};
  EXPECT_EQ(std::vector<int64_t>(box.begin(), box.end()), expected);
}

TEST(StencilShape, PointCounts) {
  for (unsigned rank = 1; rank <= 3; ++rank) {
    for (int64_t r = 0; r <= 7; ++r) {
      size_t side = 2 * r + 1, boxPoints = 1;
      for (unsigned d = 0; d < rank; ++d)
        boxPoints *= side;
      EXPECT_EQ(makeBoxOffsets(rank, r).size(), boxPoints * rank);
      EXPECT_EQ(makeStarOffsets(rank, r).size(), (2 * rank * r + 1) * rank);
    }
  }
}

TEST(StencilShape, StarOrder) {
  llvm::SmallVector<int64_t> star = makeStarOffsets(2, 1);
  std::vector<int64_t> expected = {-1, 0, 0, -1, 0, 0, 0, 1, 1, 0};
  EXPECT_EQ(std::vector<int64_t>(star.begin(), star.end()), expected);
}

TEST(StencilShape, Classify) {
  for (unsigned rank = 1; rank <= 3; ++rank) {
    for (int64_t r = 1; r <= 3; ++r) {
      auto box = classifyOffsets(rank, makeBoxOffsets(rank, r));
      ASSERT_TRUE(box.has_value());
      // In 1-D a star and a box of the same radius are the same points.
      EXPECT_EQ(box->first, rank == 1 ? ShapeKind::Star : ShapeKind::Box);
      EXPECT_EQ(box->second, r);
      auto star = classifyOffsets(rank, makeStarOffsets(rank, r));
      ASSERT_TRUE(star.has_value());
      EXPECT_EQ(star->first, ShapeKind::Star);
      EXPECT_EQ(star->second, r);
    }
  }
  // Same points as a star, another order: not the canonical star.
  std::vector<int64_t> shuffled = {0, 0, -1, 0, 0, -1, 0, 1, 1, 0};
  EXPECT_FALSE(classifyOffsets(2, shuffled).has_value());
  std::vector<int64_t> irregular = {-2, 1, 0, 0, 1, -1};
  EXPECT_FALSE(classifyOffsets(2, irregular).has_value());
}

TEST(StencilShape, Radii) {
  std::vector<int64_t> offsets = {-2, 1, 0, 0, 1, -3};
  llvm::SmallVector<int64_t> radii = getRadii(2, offsets);
  ASSERT_EQ(radii.size(), 2u);
  EXPECT_EQ(radii[0], 2);
  EXPECT_EQ(radii[1], 3);
}

TEST(StencilShape, Duplicates) {
  std::vector<int64_t> unique = {0, 1, 1, 0, 0, 0};
  EXPECT_FALSE(findDuplicatePoint(2, unique).has_value());
  std::vector<int64_t> dup = {0, 1, 1, 0, 0, 1};
  ASSERT_TRUE(findDuplicatePoint(2, dup).has_value());
  EXPECT_EQ(*findDuplicatePoint(2, dup), 2u);
}

TEST(LinearCombination, MergesAndDropsZeros) {
  LinearCombination lc(2);
  const int64_t a[] = {0, 1}, b[] = {-1, 0}, c[] = {1, 1};
  lc.add(a, 0.25);
  lc.add(b, 0.5);
  lc.add(a, 0.25); // merged with the first
  lc.add(c, 1.0);
  lc.add(c, -1.0); // cancels
  EXPECT_FALSE(lc.isZero());
  llvm::SmallVector<int64_t> offsets;
  llvm::SmallVector<double> weights;
  lc.finish(offsets, weights);
  std::vector<int64_t> expectedOffsets = {-1, 0, 0, 1};
  EXPECT_EQ(std::vector<int64_t>(offsets.begin(), offsets.end()),
            expectedOffsets);
  ASSERT_EQ(weights.size(), 2u);
  EXPECT_EQ(weights[0], 0.5);
  EXPECT_EQ(weights[1], 0.5);
}

TEST(LinearCombination, ScaleAndAddScaled) {
  LinearCombination x(1), y(1);
  const int64_t m[] = {-1}, p[] = {1};
  x.add(m, 2.0);
  y.add(p, 3.0);
  x.addScaled(y, -0.5);
  x.scale(2.0);
  llvm::SmallVector<int64_t> offsets;
  llvm::SmallVector<double> weights;
  x.finish(offsets, weights);
  ASSERT_EQ(weights.size(), 2u);
  EXPECT_EQ(weights[0], 4.0);
  EXPECT_EQ(weights[1], -3.0);
  LinearCombination z(1);
  z.add(m, 1.0);
  z.scale(0.0);
  EXPECT_TRUE(z.isZero());
}

TEST(StencilShape, NumPointsWithoutBuilding) {
  for (unsigned rank = 1; rank <= 3; ++rank)
    for (int64_t r = 0; r <= 5; ++r)
      for (ShapeKind kind : {ShapeKind::Star, ShapeKind::Box})
        EXPECT_EQ(getShapeNumPoints(kind, rank, r),
                  makeOffsets(kind, rank, r).size() / rank);
  // Saturates instead of overflowing, for any radius.
  EXPECT_EQ(getShapeNumPoints(ShapeKind::Box, 3, int64_t(1) << 31), UINT64_MAX);
  EXPECT_EQ(getShapeNumPoints(ShapeKind::Box, 3, INT64_MAX), UINT64_MAX);
  EXPECT_EQ(getShapeNumPoints(ShapeKind::Star, 3, INT64_MAX), UINT64_MAX);
  EXPECT_EQ(getShapeNumPoints(ShapeKind::Star, 2, kMaxOffset),
            4 * uint64_t(kMaxOffset) + 1);
}

TEST(StencilShape, ClassifyHugeOffsetsQuickly) {
  // Two points with an offset of 2^31 - 1: neither a star nor a box, found
  // without building either (this used to hang the printer).
  std::vector<int64_t> offsets = {0, 0, 0, kMaxOffset};
  EXPECT_FALSE(classifyOffsets(2, offsets).has_value());
  // A genuine star of radius 1 is still recognised.
  llvm::SmallVector<int64_t> star = makeStarOffsets(2, 1);
  auto shape = classifyOffsets(2, star);
  ASSERT_TRUE(shape.has_value());
  EXPECT_EQ(shape->first, ShapeKind::Star);
  EXPECT_EQ(shape->second, 1);
}

TEST(StencilShape, StarIsTheBoxFiltered) {
  // The star is built from its own points; it must equal the definition:
  // the box's points with at most one non-zero component, in box order.
  for (unsigned rank = 1; rank <= 3; ++rank)
    for (int64_t r = 0; r <= 4; ++r) {
      llvm::SmallVector<int64_t> box = makeBoxOffsets(rank, r), expected;
      for (size_t i = 0; i < box.size(); i += rank) {
        auto point = llvm::ArrayRef<int64_t>(box).slice(i, rank);
        if (llvm::count_if(point, [](int64_t c) { return c != 0; }) <= 1)
          expected.append(point.begin(), point.end());
      }
      EXPECT_EQ(makeStarOffsets(rank, r), expected) << rank << " " << r;
    }
}

} // namespace
