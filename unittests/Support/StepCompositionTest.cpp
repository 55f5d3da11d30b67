//===- StepCompositionTest.cpp - Composed weights against single steps ----===//
//
// Support/StepComposition: the t-fold composed weights (hand-computed
// cases), and a fused launch by composition (composed weights on the exact
// region, t direct steps on the band) against t single steps of stencil-run's
// own reference (tools/stencil-run, independent code), within the derived
// bound, for random asymmetric stencils in 1-D, 2-D and 3-D on odd, tiny and
// interior-less grids; a mutated composed weight, or a margin one point too
// narrow, fails.
//
//===----------------------------------------------------------------------===//

#include "stencil/Support/StepComposition.h"

#include "HostUtil.h"

#include "gtest/gtest.h"

#include <cmath>
#include <random>
#include <set>

using namespace mlir::stencil;

namespace {

double identity(double x) { return x; }

LinearStencil make(unsigned rank, std::vector<int64_t> offsets,
                   std::vector<double> weights) {
  LinearStencil s;
  s.rank = rank;
  s.offsets.assign(offsets.begin(), offsets.end());
  s.weights.assign(weights.begin(), weights.end());
  return s;
}

/// A random stencil of `rank` with per-dimension radii `radii`: the center,
/// the extreme offsets (so the radii are what they say) and random others,
/// random asymmetric weights of either sign.
LinearStencil randomStencil(std::mt19937 &gen, unsigned rank,
                            std::vector<int64_t> radii, int extra) {
  std::uniform_real_distribution<double> weight(-0.4, 0.6);
  LinearStencil s;
  s.rank = rank;
  auto add = [&](std::vector<int64_t> o) {
    s.offsets.append(o.begin(), o.end());
    s.weights.push_back(weight(gen));
  };
  add(std::vector<int64_t>(rank, 0));
  for (unsigned d = 0; d < rank; ++d) {
    std::vector<int64_t> o(rank, 0);
    o[d] = radii[d];
    add(o);
    o[d] = -radii[d];
    if (d % 2 == 0)
      add(o);
  }
  for (int i = 0; i < extra; ++i) {
    std::vector<int64_t> o(rank);
    for (unsigned d = 0; d < rank; ++d)
      o[d] = std::uniform_int_distribution<int64_t>(-radii[d], radii[d])(gen);
    add(o);
  }
  return s;
}

/// t single steps by stencil-run's reference, f64 (no rounding between
/// steps beyond f64's).
std::vector<double> referenceSteps(const LinearStencil &s,
                                   const std::vector<int64_t> &dims,
                                   const std::vector<double> &grid,
                                   int64_t steps) {
  stencil_run::ReferenceStencil ref;
  ref.rank = s.rank;
  ref.dims = dims;
  for (unsigned i = 0; i < s.getNumPoints(); ++i) {
    auto p = s.getPoint(i);
    ref.offsets.push_back(std::vector<int64_t>(p.begin(), p.end()));
  }
  ref.weights.assign(s.weights.begin(), s.weights.end());
  ref.elementType = stencil_run::ElemType::F64;
  ref.boundary = stencil_run::Boundary::Halo;
  double maxAbs = 0;
  return stencil_run::runReference(ref, grid, steps, 1, maxAbs);
}

std::vector<double> randomGrid(std::mt19937 &gen,
                               const std::vector<int64_t> &dims) {
  int64_t n = 1;
  for (int64_t d : dims)
    n *= d;
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  std::vector<double> grid(n);
  for (double &v : grid)
    v = value(gen);
  return grid;
}

double maxAbsDiff(llvm::ArrayRef<double> a, llvm::ArrayRef<double> b) {
  double e = 0;
  for (size_t i = 0; i < a.size(); ++i)
    e = std::max(e, std::fabs(a[i] - b[i]));
  return e;
}

TEST(StepComposition, HandComputed1D) {
  // [a, b, c] twice: [a^2, 2ab, b^2 + 2ac, 2bc, c^2] on -2..2.
  double a = 0.25, b = -0.5, c = 0.125;
  auto composed = composeSteps(make(1, {-1, 0, 1}, {a, b, c}), 2);
  ASSERT_TRUE(composed);
  EXPECT_EQ(composed->offsets, (llvm::SmallVector<int64_t>{-2, -1, 0, 1, 2}));
  EXPECT_EQ(composed->weights,
            (llvm::SmallVector<double>{a * a, 2 * a * b, b * b + 2 * a * c,
                                       2 * b * c, c * c}));
  // An asymmetric pattern: offsets {0, 2} weights {p, q}, three steps:
  // p^3 at 0, 3p^2q at 2, 3pq^2 at 4, q^3 at 6; the box is [-6, 6] but only
  // non-zero weights are kept.
  auto three = composeSteps(make(1, {0, 2}, {0.5, 0.25}), 3);
  ASSERT_TRUE(three);
  EXPECT_EQ(three->offsets, (llvm::SmallVector<int64_t>{0, 2, 4, 6}));
  EXPECT_EQ(three->weights,
            (llvm::SmallVector<double>{0.125, 0.1875, 0.09375, 0.015625}));
  // t = 1 is the step itself, duplicates merged, lexicographic order.
  auto one = composeSteps(make(1, {1, -1, 1}, {0.5, 0.25, 0.5}), 1);
  ASSERT_TRUE(one);
  EXPECT_EQ(one->offsets, (llvm::SmallVector<int64_t>{-1, 1}));
  EXPECT_EQ(one->weights, (llvm::SmallVector<double>{0.25, 1.0}));
}

TEST(StepComposition, HandComputedHeat2D) {
  // The 5-point star (c center, e each neighbour) twice: 13 points; c^2 +
  // 4e^2 at the center, 2ce at distance 1, e^2 at (+-2, 0) and (0, +-2),
  // 2e^2 at the diagonals.
  double c = 0.5, e = 0.125;
  auto composed = composeSteps(
      make(2, {-1, 0, 0, -1, 0, 0, 0, 1, 1, 0}, {e, e, c, e, e}), 2);
  ASSERT_TRUE(composed);
  ASSERT_EQ(composed->getNumPoints(), 13u);
  for (unsigned i = 0; i < 13; ++i) {
    auto o = composed->getPoint(i);
    int64_t l1 = std::abs(o[0]) + std::abs(o[1]);
    double expected = l1 == 0                    ? c * c + 4 * e * e
                      : l1 == 1                  ? 2 * c * e
                      : (o[0] == 0 || o[1] == 0) ? e * e
                                                 : 2 * e * e;
    EXPECT_EQ(composed->weights[i], expected) << o[0] << "," << o[1];
  }
  EXPECT_EQ(composed->getRadii(), (llvm::SmallVector<int64_t>{2, 2}));
  EXPECT_EQ(getComposedMargins(make(2, {0, -3, 1, 0}, {1, 1}), 4),
            (llvm::SmallVector<int64_t>{4, 12}));
}

TEST(StepComposition, TooLargeIsRejected) {
  // A 3-D box of radius 3, 16 steps: radius 48, 97^3 points.
  std::mt19937 gen(7);
  LinearStencil box = randomStencil(gen, 3, {3, 3, 3}, 20);
  EXPECT_FALSE(composeSteps(box, 16));
  EXPECT_TRUE(composeSteps(box, 2));
  // Offsets near the dialect's limit overflow nothing.
  EXPECT_FALSE(composeSteps(make(1, {(int64_t(1) << 31) - 1}, {1.0}), 3));
}

struct Case {
  unsigned rank;
  std::vector<int64_t> radii;
  int extra;
  int64_t t;
  std::vector<int64_t> dims;
};

TEST(StepComposition, FusedLaunchMatchesSingleSteps) {
  std::mt19937 gen(2026);
  std::vector<Case> cases = {
      // 1-D: odd sizes, a grid without exact region, the smallest grid.
      {1, {1}, 0, 2, {37}},
      {1, {3}, 2, 3, {61}},
      {1, {2}, 1, 4, {13}},
      {1, {1}, 0, 3, {3}},
      // 2-D: asymmetric radii, irregular points, odd and tiny grids.
      {2, {1, 1}, 4, 2, {23, 19}},
      {2, {1, 2}, 5, 3, {31, 29}},
      {2, {3, 1}, 6, 2, {17, 41}},
      {2, {2, 2}, 8, 4, {21, 23}},
      {2, {1, 1}, 3, 3, {5, 7}},
      // 3-D.
      {3, {1, 1, 1}, 10, 2, {11, 13, 9}},
      {3, {1, 2, 1}, 6, 3, {15, 9, 17}},
      {3, {1, 1, 1}, 4, 4, {5, 5, 5}},
  };
  for (const Case &c : cases) {
    LinearStencil step = randomStencil(gen, c.rank, c.radii, c.extra);
    auto composed = composeSteps(step, c.t);
    ASSERT_TRUE(composed);
    EXPECT_EQ(composed->getRadii(),
              getComposedMargins(step, c.t)); // extremes reach t r_d
    std::vector<double> grid = randomGrid(gen, c.dims);
    std::vector<double> single = referenceSteps(step, c.dims, grid, c.t);
    llvm::SmallVector<double> fused =
        applyComposedLaunch(step, *composed, c.t, c.dims, grid, identity);
    double bound = getCompositionErrorBound(step, c.t, composed->getNumPoints(),
                                            std::ldexp(1.0, -53));
    double err = maxAbsDiff(fused, single);
    EXPECT_LE(err, bound) << "rank " << c.rank << " t " << c.t;
    EXPECT_GT(bound, 0);
    // The model's own direct steps agree with the reference bit for bit
    // (same order of summation).
    EXPECT_EQ(
        maxAbsDiff(applyHaloSteps(step, c.dims, grid, c.t, identity), single),
        0.0);
  }
}

TEST(StepComposition, MutationsFail) {
  std::mt19937 gen(99);
  LinearStencil step = randomStencil(gen, 2, {1, 2}, 5);
  int64_t t = 3;
  std::vector<int64_t> dims = {29, 33};
  auto composed = composeSteps(step, t);
  ASSERT_TRUE(composed);
  std::vector<double> grid = randomGrid(gen, dims);
  std::vector<double> single = referenceSteps(step, dims, grid, t);
  double bound = getCompositionErrorBound(step, t, composed->getNumPoints(),
                                          std::ldexp(1.0, -53));
  ASSERT_LE(
      maxAbsDiff(applyComposedLaunch(step, *composed, t, dims, grid, identity),
                 single),
      bound);
  // One composed weight off by one part in 10^9 of the weights' scale.
  for (unsigned i :
       {0u, composed->getNumPoints() / 2, composed->getNumPoints() - 1}) {
    LinearStencil mutated = *composed;
    mutated.weights[i] += 1e-9;
    EXPECT_GT(
        maxAbsDiff(applyComposedLaunch(step, mutated, t, dims, grid, identity),
                   single),
        bound)
        << "weight " << i;
  }
  // The band cannot be left alone: the composed step on the exact region
  // with the rest of the interior kept (a halo of width t r_d, as a kernel
  // without the band's direct steps would leave it) is not t steps.
  llvm::SmallVector<int64_t> margins = getComposedMargins(step, t);
  llvm::SmallVector<double> frozen =
      applyComposedLaunch(step, *composed, t, dims, grid, identity);
  for (int64_t y = 0; y < dims[0]; ++y)
    for (int64_t x = 0; x < dims[1]; ++x)
      if (y < margins[0] || y >= dims[0] - margins[0] || x < margins[1] ||
          x >= dims[1] - margins[1])
        frozen[y * dims[1] + x] = grid[y * dims[1] + x];
  EXPECT_GT(maxAbsDiff(frozen, single), bound);
}

TEST(StepComposition, BandTilesAreEnumeratedOnce) {
  // Every tile that holds a point outside the exact region is decoded from
  // exactly one band index, and no other tile is: odd sizes, tiles larger
  // than the grid, margins wider than a tile or than the grid.
  std::mt19937 gen(5);
  for (int trial = 0; trial < 300; ++trial) {
    unsigned rank = 1 + trial % 3;
    std::vector<int64_t> dims(rank), tile(rank), margins(rank);
    for (unsigned d = 0; d < rank; ++d) {
      dims[d] = std::uniform_int_distribution<int64_t>(1, 90)(gen);
      tile[d] = std::uniform_int_distribution<int64_t>(1, 40)(gen);
      margins[d] = std::uniform_int_distribution<int64_t>(0, 30)(gen);
    }
    BandTiling band = BandTiling::get(dims, tile, margins);
    std::set<std::vector<int64_t>> expected;
    std::vector<int64_t> j(rank, 0);
    int64_t total = 1;
    for (unsigned d = 0; d < rank; ++d)
      total *= band.counts[d];
    for (int64_t t = 0; t < total; ++t) {
      int64_t rem = t;
      bool reaches = false;
      for (int64_t d = rank - 1; d >= 0; --d) {
        j[d] = rem % band.counts[d];
        rem /= band.counts[d];
        int64_t first = j[d] * tile[d];
        int64_t last = std::min(first + tile[d], dims[d]) - 1;
        if (first < margins[d] || last >= dims[d] - margins[d])
          reaches = true;
      }
      if (reaches)
        expected.insert(j);
    }
    ASSERT_EQ(band.getNumTiles(), int64_t(expected.size()))
        << "trial " << trial;
    std::set<std::vector<int64_t>> decoded;
    for (int64_t b = 0; b < band.getNumTiles(); ++b) {
      llvm::SmallVector<int64_t> tileIndex = band.decode(b);
      decoded.insert(std::vector<int64_t>(tileIndex.begin(), tileIndex.end()));
    }
    EXPECT_EQ(decoded, expected) << "trial " << trial;
    // stencil-run counts the band kernel's blocks with its own copy of the
    // formula (it does not link the compiler).
    EXPECT_EQ(stencil_run::countBandTiles(dims, tile, margins),
              band.getNumTiles())
        << "trial " << trial;
  }
}

} // namespace
