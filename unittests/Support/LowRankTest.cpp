//===- LowRankTest.cpp - Rank decompositions of stencil weights -----------===//
//
// The LoRAStencil math (seed 003, II-D and III-C) on random weights: every
// decomposition reproduces W, symmetric weights have rank <= h + 1 and PMA
// finds exactly that many terms, asymmetric ones are full rank and PMA
// refuses them; the fused chain's truncation (svdWithinResidual) is the
// shortest within its bound and moves t direct steps by no more than it.
//
//===----------------------------------------------------------------------===//

#include "stencil/Support/LowRank.h"
#include "stencil/Support/StepComposition.h"

#include "gtest/gtest.h"

#include <cmath>
#include <random>

using namespace mlir::stencil;

namespace {

double maxDifference(const SquareMatrix &x, const SquareMatrix &y) {
  double d = 0;
  for (size_t i = 0; i < x.values.size(); ++i)
    d = std::max(d, std::abs(x.values[i] - y.values[i]));
  return d;
}

/// W[i][j] = g(|i - h|, |j - h|): row and column symmetric (the radially
/// symmetric weights of section II-C are a special case).
SquareMatrix symmetricWeights(int64_t h, std::mt19937_64 &rng) {
  std::uniform_real_distribution<double> dist(0.05, 1.0);
  std::vector<double> g((h + 1) * (h + 1));
  for (double &x : g)
    x = dist(rng);
  SquareMatrix w(2 * h + 1);
  for (int64_t i = 0; i < w.n; ++i)
    for (int64_t j = 0; j < w.n; ++j)
      w.at(i, j) = g[std::abs(i - h) * (h + 1) + std::abs(j - h)];
  return w;
}

/// Eq. 9 on an (m + n - 1)^2 tile `x`: Sum_k U_k x V_k, m x m.
DenseMatrix chainSum(const RankDecomposition &terms, const DenseMatrix &x,
                     int64_t m) {
  DenseMatrix sum(m, m);
  for (int64_t k = 0; k < terms.rank(); ++k) {
    DenseMatrix chain = multiply(multiply(expandU(terms.u[k], m), x),
                                 expandV(terms.v[k], m));
    for (size_t e = 0; e < sum.values.size(); ++e)
      sum.values[e] += chain.values[e];
  }
  return sum;
}

SquareMatrix randomWeights(int64_t n, std::mt19937_64 &rng) {
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  SquareMatrix w(n);
  for (double &x : w.values)
    x = dist(rng);
  return w;
}

TEST(LowRank, RankOne) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> dist(0.1, 1.0);
  SquareMatrix w(7);
  std::vector<double> a(7), b(7);
  for (int i = 0; i < 7; ++i) {
    a[i] = dist(rng);
    b[i] = -dist(rng);
  }
  for (int i = 0; i < 7; ++i)
    for (int j = 0; j < 7; ++j)
      w.at(i, j) = a[i] * b[j];
  EXPECT_EQ(numericalRank(w, 1e-12), 1);
  RankDecomposition svd = svdDecomposition(w, 1e-12);
  EXPECT_EQ(svd.rank(), 1);
  EXPECT_LT(maxDifference(svd.reconstruct(7), w), 1e-14);
}

TEST(LowRank, SymmetricWeightsHaveRankAtMostHPlusOne) {
  std::mt19937_64 rng(42);
  for (int64_t h = 1; h <= 7; ++h) {
    SquareMatrix w = symmetricWeights(h, rng);
    EXPECT_LE(numericalRank(w, 1e-12), h + 1) << "h=" << h;
    std::optional<RankDecomposition> pma = pyramidalDecomposition(w, 1e-12);
    ASSERT_TRUE(pma.has_value()) << "h=" << h;
    EXPECT_LE(pma->rank(), h + 1);
    EXPECT_LT(maxDifference(pma->reconstruct(w.n), w), 1e-12) << "h=" << h;
    // Term k lives on the centred (n - 2k) x (n - 2k) window (eq. 15).
    for (int64_t k = 0; k < pma->rank(); ++k)
      for (int64_t e = 0; e < k; ++e) {
        EXPECT_EQ(pma->u[k][e], 0.0);
        EXPECT_EQ(pma->v[k][w.n - 1 - e], 0.0);
      }
    RankDecomposition svd = svdDecomposition(w, 1e-12);
    EXPECT_LE(svd.rank(), h + 1);
    EXPECT_LT(maxDifference(svd.reconstruct(w.n), w), 1e-12) << "h=" << h;
  }
}

TEST(LowRank, AsymmetricWeightsAreFullRank) {
  std::mt19937_64 rng(3);
  for (int64_t n : {3, 5, 7, 15}) {
    SquareMatrix w = randomWeights(n, rng);
    EXPECT_EQ(numericalRank(w, 1e-12), n);
    EXPECT_FALSE(pyramidalDecomposition(w, 1e-12).has_value());
    RankDecomposition svd = svdDecomposition(w, 1e-12);
    EXPECT_EQ(svd.rank(), n);
    EXPECT_LT(maxDifference(svd.reconstruct(n), w), 1e-12) << "n=" << n;
    // Singular values come largest first.
    std::vector<double> sigma = singularValues(w);
    EXPECT_TRUE(std::is_sorted(sigma.rbegin(), sigma.rend()));
  }
}

TEST(LowRank, StarWeightsNeedTheSVD) {
  // A cross: zero corner pivot with a non-zero border, so PMA refuses; the
  // row plus the column is rank 2.
  SquareMatrix w(5);
  double row[5] = {0.1, 0.2, 0.3, 0.25, 0.15};
  double col[5] = {0.05, 0.12, 0.0, 0.22, 0.07};
  for (int j = 0; j < 5; ++j)
    w.at(2, j) = row[j];
  for (int i = 0; i < 5; ++i)
    w.at(i, 2) += col[i];
  EXPECT_FALSE(pyramidalDecomposition(w, 1e-12).has_value());
  RankDecomposition svd = svdDecomposition(w, 1e-12);
  EXPECT_EQ(svd.rank(), 2);
  EXPECT_LT(maxDifference(svd.reconstruct(5), w), 1e-14);
}

TEST(LowRank, MatrixChainsComputeTheStencil) {
  // Eq. 9: for an m x m tile, sum_k U_k X V_k with the banded expansions of
  // eqs. 5-6 is the stencil of W on X (the tile plus its halo), for the
  // pyramidal terms of symmetric weights and the SVD terms of random ones.
  std::mt19937_64 rng(17);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  for (int64_t h = 1; h <= 4; ++h) {
    const int64_t n = 2 * h + 1, m = 8;
    for (bool symmetric : {true, false}) {
      SquareMatrix w = symmetric ? symmetricWeights(h, rng)
                                 : randomWeights(n, rng);
      RankDecomposition terms = symmetric
                                    ? *pyramidalDecomposition(w, 1e-12)
                                    : svdDecomposition(w, 1e-12);
      DenseMatrix x(m + 2 * h, m + 2 * h);
      for (double &v : x.values)
        v = dist(rng);
      DenseMatrix sum = chainSum(terms, x, m);
      for (int64_t p = 0; p < m; ++p)
        for (int64_t q = 0; q < m; ++q) {
          double expected = 0;
          for (int64_t i = 0; i < n; ++i)
            for (int64_t j = 0; j < n; ++j)
              expected += w.at(i, j) * x.at(p + i, q + j);
          EXPECT_NEAR(sum.at(p, q), expected, 1e-12)
              << "h=" << h << " symmetric=" << symmetric;
        }
    }
  }
}

/// A random 2-D star (STAR) or box of radius 1, positive weights summing to
/// 1, asymmetric.
LinearStencil randomStep(bool star, std::mt19937_64 &rng) {
  std::uniform_real_distribution<double> dist(0.05, 1.0);
  LinearStencil s;
  s.rank = 2;
  double sum = 0;
  for (int64_t dy = -1; dy <= 1; ++dy)
    for (int64_t dx = -1; dx <= 1; ++dx) {
      if (star && dy != 0 && dx != 0)
        continue;
      s.offsets.append({dy, dx});
      s.weights.push_back(dist(rng));
      sum += s.weights.back();
    }
  for (double &w : s.weights)
    w /= sum;
  return s;
}

TEST(LowRank, ResidualTruncationIsTheShortestWithinTheBound) {
  std::mt19937_64 rng(29);
  for (int64_t n : {3, 5, 9}) {
    SquareMatrix w = randomWeights(n, rng);
    double absSum = 0;
    for (double x : w.values)
      absSum += std::abs(x);
    for (double fraction : {1e-13, 1e-3, 0.05, 0.3}) {
      double bound = fraction * absSum;
      RankDecomposition terms = svdWithinResidual(w, bound);
      EXPECT_LE(residualAbsSum(w, terms), bound) << n << " " << fraction;
      // One term fewer (the leading terms of the same SVD) exceeds it.
      if (terms.rank() > 0) {
        RankDecomposition shorter = terms;
        shorter.u.pop_back();
        shorter.v.pop_back();
        EXPECT_GT(residualAbsSum(w, shorter), bound) << n << " " << fraction;
      }
    }
    // A bound of 0 (up to rounding) keeps every term of a full-rank matrix.
    EXPECT_EQ(svdWithinResidual(w, 1e-12 * absSum).rank(), n);
  }
  // A rank-1 matrix needs one term.
  SquareMatrix one(5);
  for (int64_t i = 0; i < 5; ++i)
    for (int64_t j = 0; j < 5; ++j)
      one.at(i, j) = (i + 1.0) * (0.5 - 0.1 * j);
  EXPECT_EQ(svdWithinResidual(one, 1e-12).rank(), 1);
}

TEST(LowRank, ComposedChainsComputeFusedStepsWithinTheBound) {
  // --stencil-decompose low-rank with fused-steps=t: the chain of the
  // truncated SVD of the t-fold composed weights (bound u S_t, u = 2^-11 for
  // f16) against t direct steps of the step stencil on a random tile, in
  // f64: the difference stays within the residual abs-sum times max |x|
  // (plus f64 rounding), which is at most u S_t max |x|. A star composes to
  // t + 1 terms (each step is rank 2); a random box needs more.
  std::mt19937_64 rng(31);
  std::uniform_real_distribution<double> dist(0.0, 1.0);
  const double u = std::ldexp(1.0, -11);
  for (bool star : {true, false})
    for (int64_t t = 2; t <= 4; ++t) {
      LinearStencil step = randomStep(star, rng);
      LinearStencil composed = *composeSteps(step, t);
      SquareMatrix w =
          getWeightMatrix(t, composed.offsets, composed.weights);
      double absSum = 0;
      for (double x : w.values)
        absSum += std::abs(x);
      RankDecomposition terms = svdWithinResidual(w, u * absSum);
      double residual = residualAbsSum(w, terms);
      EXPECT_LE(residual, u * absSum);
      if (star) {
        EXPECT_LE(terms.rank(), t + 1) << "t=" << t;
      }
      // t direct steps on an (m + 2t) tile shrink it to m x m.
      const int64_t h = t, m = 8;
      DenseMatrix x(m + 2 * h, m + 2 * h);
      for (double &v : x.values)
        v = dist(rng);
      DenseMatrix direct = x;
      for (int64_t s = 1; s <= t; ++s) {
        DenseMatrix next(direct.rows - 2, direct.cols - 2);
        for (int64_t p = 0; p < next.rows; ++p)
          for (int64_t q = 0; q < next.cols; ++q)
            for (unsigned i = 0; i < step.getNumPoints(); ++i)
              next.at(p, q) += step.weights[i] *
                               direct.at(p + 1 + step.getPoint(i)[0],
                                         q + 1 + step.getPoint(i)[1]);
        direct = next;
      }
      DenseMatrix chain = chainSum(terms, x, m);
      for (size_t e = 0; e < chain.values.size(); ++e)
        EXPECT_LE(std::abs(chain.values[e] - direct.values[e]),
                  residual + 1e-13) // max |x| <= 1
            << "star=" << star << " t=" << t;
    }
}

} // namespace
