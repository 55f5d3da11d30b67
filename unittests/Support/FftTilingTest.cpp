//===- FftTilingTest.cpp - the FFT tile math and its fragment model -------===//
//
// Issue 13: the packed DFT matrices and the CRT / Ruritanian index maps give
// the reference DFT of a tile, and the whole tile pipeline (forward stages,
// product by the spectrum in the accumulators, swizzled inverse stage, other
// inverse stages) reproduces T direct steps, within the documented error
// bound, on random asymmetric weights, for m8n8k4 and m16n8k4. A mutated load
// map or spectrum breaks the bound.
//
//===----------------------------------------------------------------------===//

#include "stencil/Support/FftTileModel.h"
#include "stencil/Support/FftTiling.h"
#include "stencil/Support/StencilShape.h"

#include "gtest/gtest.h"

#include <cmath>
#include <complex>
#include <optional>
#include <random>
#include <set>

using namespace mlir::stencil;

namespace {

struct TestStencil {
  int64_t rank;
  std::vector<int64_t> offsets; // rank-major, outermost first
  std::vector<double> weights;
};

TestStencil makeStencil(ShapeKind kind, unsigned rank, int64_t radius,
                        std::mt19937_64 &rng) {
  TestStencil s;
  s.rank = rank;
  auto offsets = makeOffsets(kind, rank, radius);
  s.offsets.assign(offsets.begin(), offsets.end());
  std::uniform_real_distribution<double> dist(0.01, 1.0);
  double sum = 0;
  for (size_t i = 0; i < s.offsets.size() / rank; ++i) {
    s.weights.push_back(dist(rng));
    sum += s.weights.back();
  }
  // Normalised so the steps neither blow up nor vanish (|H| <= 1).
  for (double &w : s.weights)
    w /= sum;
  return s;
}

/// An irregular pattern: the centre and `points` random offsets within
/// `radius`.
TestStencil makeIrregular(unsigned rank, int64_t radius, unsigned points,
                          std::mt19937_64 &rng) {
  TestStencil s;
  s.rank = rank;
  std::uniform_int_distribution<int64_t> off(-radius, radius);
  std::set<std::vector<int64_t>> seen;
  seen.insert(std::vector<int64_t>(rank, 0));
  while (seen.size() < points + 1) {
    std::vector<int64_t> o(rank);
    for (auto &v : o)
      v = off(rng);
    seen.insert(o);
  }
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  double sum = 0;
  for (const auto &o : seen) {
    s.offsets.insert(s.offsets.end(), o.begin(), o.end());
    s.weights.push_back(dist(rng));
    sum += std::abs(s.weights.back());
  }
  for (double &w : s.weights)
    w /= sum;
  return s;
}

std::vector<int64_t> tileSizes(const FftTilePlan &plan) {
  std::vector<int64_t> n;
  for (int64_t d = 0; d < plan.getRank(); ++d)
    n.push_back(plan.getTileSize(d));
  return n;
}

/// T steps of b[x] = Sum_o w_o a[x + o] on the tile, in long double: taken
/// circularly (no `outside` value), or as a window of a larger grid whose
/// values outside the tile are `outside` (what the tile's valid region sees).
std::vector<long double> directSteps(const TestStencil &s,
                                     const std::vector<int64_t> &n,
                                     std::vector<long double> a, int64_t steps,
                                     std::optional<long double> outside) {
  int64_t rank = s.rank, points = a.size();
  std::vector<long double> b(points);
  std::vector<int64_t> x(rank);
  for (int64_t t = 0; t < steps; ++t) {
    for (int64_t p = 0; p < points; ++p) {
      int64_t rest = p;
      for (int64_t d = rank - 1; d >= 0; --d) {
        x[d] = rest % n[d];
        rest /= n[d];
      }
      long double sum = 0;
      for (size_t i = 0; i < s.weights.size(); ++i) {
        int64_t q = 0;
        bool in = true;
        for (int64_t d = 0; d < rank; ++d) {
          int64_t c = x[d] + s.offsets[i * rank + d];
          if (!outside)
            c = (c % n[d] + n[d]) % n[d];
          in = in && c >= 0 && c < n[d];
          q = q * n[d] + c;
        }
        sum += (long double)s.weights[i] * (in ? a[q] : *outside);
      }
      b[p] = sum;
    }
    std::swap(a, b);
  }
  return a;
}

/// Whether tile point p is at distance >= T r_d from the tile's edges.
bool isValid(const FftTilePlan &plan, int64_t p) {
  int64_t rank = plan.getRank();
  for (int64_t d = rank - 1; d >= 0; --d) {
    int64_t n = plan.getTileSize(d), x = p % n;
    p /= n;
    int64_t margin = plan.fusedSteps * plan.radii[d];
    if (x < margin || x >= n - margin)
      return false;
  }
  return true;
}

FftTilePlan planFor(const TestStencil &s, int64_t steps,
                    bool cooleyTukey = true, int64_t maxElements = 4096) {
  std::vector<int64_t> radii(s.rank, 0);
  for (size_t i = 0; i < s.weights.size(); ++i)
    for (int64_t d = 0; d < s.rank; ++d)
      radii[d] =
          std::max<int64_t>(radii[d], std::abs(s.offsets[i * s.rank + d]));
  std::string why;
  auto plan = chooseFftTile(radii, steps, maxElements, &why, cooleyTukey);
  EXPECT_TRUE(plan.has_value()) << why;
  return *plan;
}

/// Runs the model on two random tiles and returns max |error| over the valid
/// region (non-circular reference) and over the whole tile (circular
/// reference), relative to max |input|.
struct TileErrors {
  double valid = 0, circular = 0, bound = 0;
};

TileErrors
runTile(const TestStencil &s, const FftTilePlan &plan, FftMmaShape shape,
        std::mt19937_64 &rng, const std::vector<int64_t> *mutatedMap = nullptr,
        const std::vector<std::complex<double>> *mutatedSpectrum = nullptr) {
  std::vector<int64_t> n = tileSizes(plan);
  int64_t points = 1;
  for (int64_t v : n)
    points *= v;
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  std::vector<double> re(points), im(points);
  for (int64_t p = 0; p < points; ++p) {
    re[p] = dist(rng);
    im[p] = dist(rng);
  }
  std::vector<long double> reL(re.begin(), re.end()), imL(im.begin(), im.end());
  auto spectrum = computeFftSpectrum(plan, s.offsets, s.weights);
  auto map = getFftLoadMap(plan);
  TileErrors errors;
  errors.bound = getFftErrorBound(plan, spectrum);
  simulateFftTile(plan, shape, mutatedMap ? *mutatedMap : map,
                  mutatedSpectrum ? *mutatedSpectrum : spectrum, re, im);
  auto reC = directSteps(s, n, reL, plan.fusedSteps, std::nullopt);
  auto imC = directSteps(s, n, imL, plan.fusedSteps, std::nullopt);
  auto reW = directSteps(s, n, reL, plan.fusedSteps, 1e6L);
  auto imW = directSteps(s, n, imL, plan.fusedSteps, -1e6L);
  for (int64_t p = 0; p < points; ++p) {
    errors.circular =
        std::max({errors.circular, (double)std::fabs(re[p] - reC[p]),
                  (double)std::fabs(im[p] - imC[p])});
    if (isValid(plan, p))
      errors.valid = std::max({errors.valid, (double)std::fabs(re[p] - reW[p]),
                               (double)std::fabs(im[p] - imW[p])});
  }
  return errors;
}

TEST(FftTiling, PaddedExtentsAndFactors) {
  EXPECT_EQ(getFftPaddedExtent(7), 8);
  EXPECT_EQ(getFftPaddedExtent(8), 8);
  EXPECT_EQ(getFftPaddedExtent(9), 16);
  EXPECT_TRUE(arePfaFactors({8, 7, 9}));
  EXPECT_FALSE(arePfaFactors({8, 6}));
  EXPECT_FALSE(arePfaFactors({1}));
}

TEST(FftTiling, LoadMapIsTheCrtMap) {
  FftTilePlan plan;
  plan.radii = {1};
  plan.factors = {{8, 7, 9}};
  auto map = getFftLoadMap(plan);
  ASSERT_EQ(map.size(), 504u);
  std::set<int64_t> seen(map.begin(), map.end());
  EXPECT_EQ(seen.size(), 504u) << "the CRT map is a bijection";
  // Extents 8, 8, 16: n -> (n mod 8, n mod 7, n mod 9).
  for (int64_t n = 0; n < 504; ++n)
    EXPECT_EQ(map[n], (n % 8) * 128 + (n % 7) * 16 + n % 9);
}

TEST(FftTiling, RuritanianFrequency) {
  FftTilePlan plan;
  plan.radii = {1};
  plan.factors = {{8, 7}};
  std::set<int64_t> seen;
  for (int64_t k0 = 0; k0 < 8; ++k0)
    for (int64_t k1 = 0; k1 < 7; ++k1)
      seen.insert(getFftFrequency(plan, 0, {k0, k1}));
  EXPECT_EQ(seen.size(), 56u);
  EXPECT_EQ(getFftFrequency(plan, 0, {1, 0}), 7);
  EXPECT_EQ(getFftFrequency(plan, 0, {0, 1}), 8);
  EXPECT_EQ(getFftFrequency(plan, 0, {0, 7}), -1) << "padding";
}

TEST(FftTiling, SwizzledRowsArePermutations) {
  for (int64_t p : {8, 16}) {
    std::set<int64_t> rows;
    for (int64_t c = 0; c < p / 4; ++c)
      for (unsigned lane = 0; lane < 4; ++lane)
        rows.insert(getDftFragmentRow(c, lane, true));
    EXPECT_EQ(rows.size(), size_t(p));
    EXPECT_EQ(*rows.rbegin(), p - 1);
  }
}

// The forward fragments give the reference DFT at the Ruritanian
// frequencies, for 1-, 2- and 3-D tiles and both MMA shapes.
TEST(FftTiling, ForwardFragmentsGiveTheReferenceDft) {
  std::mt19937_64 rng(13);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  std::vector<FftTilePlan> plans(3);
  plans[0].radii = {1};
  plans[0].factors = {{16, 9, 7}};
  plans[1].radii = {1, 1};
  plans[1].factors = {{8, 7}, {9}};
  plans[2].radii = {1, 1, 1};
  plans[2].factors = {{5}, {8}, {7, 3}};
  // Cooley-Tukey: 1-D 4096 (four-step) and 2-D 64 x 64.
  plans.resize(5);
  plans[3].radii = {1};
  plans[3].factors = {{8, 8, 8, 8}};
  plans[3].cooleyTukey = true;
  plans[4].radii = {1, 1};
  plans[4].factors = {{8, 8}, {8, 8}};
  plans[4].cooleyTukey = true;
  for (const FftTilePlan &plan : plans)
    for (FftMmaShape shape : {FftMmaShape::M8N8K4, FftMmaShape::M16N8K4}) {
      std::vector<int64_t> n = tileSizes(plan);
      int64_t rank = n.size(), points = 1;
      for (int64_t v : n)
        points *= v;
      std::vector<double> re(points), im(points);
      for (int64_t p = 0; p < points; ++p) {
        re[p] = dist(rng);
        im[p] = dist(rng);
      }
      auto out = simulateFftForward(plan, shape, getFftLoadMap(plan), re, im);
      // exp(-2 pi i m / N_d) for m < N_d.
      std::vector<std::vector<std::complex<long double>>> roots(rank);
      for (int64_t d = 0; d < rank; ++d)
        for (int64_t m = 0; m < n[d]; ++m) {
          long double angle = -2 * M_PIl * m / n[d];
          roots[d].emplace_back(std::cos(angle), std::sin(angle));
        }
      auto extents = plan.getAxisExtents();
      double maxErr = 0;
      for (size_t e = 0; e < out.size(); ++e) {
        // Decode the axis indices and the frequency per dimension.
        std::vector<int64_t> idx(extents.size());
        int64_t rest = e;
        for (int64_t j = extents.size() - 1; j >= 0; --j) {
          idx[j] = rest % extents[j];
          rest /= extents[j];
        }
        std::vector<int64_t> k(rank);
        bool padding = false;
        size_t first = 0;
        for (int64_t d = 0; d < rank; ++d) {
          size_t count = plan.factors[d].size();
          k[d] = getFftFrequency(
              plan, d, llvm::ArrayRef<int64_t>(idx).slice(first, count));
          first += count;
          padding = padding || k[d] < 0;
        }
        if (padding) {
          EXPECT_EQ(out[e], std::complex<double>(0.0)) << "padding stays 0";
          continue;
        }
        std::complex<long double> ref = 0;
        for (int64_t p = 0; p < points; ++p) {
          int64_t r = p;
          std::complex<long double> w = 1;
          for (int64_t d = rank - 1; d >= 0; --d) {
            w *= roots[d][(r % n[d]) * k[d] % n[d]];
            r /= n[d];
          }
          ref += std::complex<long double>(re[p], im[p]) * w;
        }
        maxErr = std::max(
            maxErr, (double)std::abs(std::complex<long double>(out[e]) - ref));
      }
      EXPECT_LT(maxErr, 1e-12) << "tile " << points << " points";
    }
}

TEST(FftTiling, SpectrumIsTheKernelDftToTheT) {
  std::mt19937_64 rng(7);
  TestStencil s = makeIrregular(2, 2, 9, rng);
  FftTilePlan plan;
  plan.fusedSteps = 3;
  plan.radii = {2, 2};
  plan.factors = {{8, 7}, {9}};
  auto spectrum = computeFftSpectrum(plan, s.offsets, s.weights);
  ASSERT_EQ(spectrum.size(), size_t(plan.getNumArrayElements()));
  // Position (k0, k1 | k2): k_y = Ruritanian(k0, k1), k_x = k2.
  for (int64_t k0 = 0; k0 < 8; ++k0)
    for (int64_t k1 = 0; k1 < 7; ++k1)
      for (int64_t k2 = 0; k2 < 9; ++k2) {
        int64_t ky = getFftFrequency(plan, 0, {k0, k1});
        std::complex<double> h = 0;
        for (size_t i = 0; i < s.weights.size(); ++i) {
          double angle = 2 * M_PI *
                         (double(ky * s.offsets[2 * i]) / 56.0 +
                          double(k2 * s.offsets[2 * i + 1]) / 9.0);
          h += s.weights[i] * std::polar(1.0, angle);
        }
        std::complex<double> expected = h * h * h / (56.0 * 9.0);
        EXPECT_LT(std::abs(spectrum[(k0 * 8 + k1) * 16 + k2] - expected),
                  1e-15);
      }
}

// The whole pipeline reproduces T direct steps: everywhere against the
// circular reference, and on the valid region against the true stencil with
// arbitrary values outside the tile.
TEST(FftTiling, TileReproducesDirectSteps) {
  std::mt19937_64 rng(2026);
  struct Case {
    TestStencil stencil;
    std::vector<int64_t> steps;
  };
  std::vector<Case> cases;
  cases.push_back({makeStencil(ShapeKind::Star, 1, 1, rng), {1, 4, 16}});
  cases.push_back({makeStencil(ShapeKind::Star, 1, 3, rng), {1, 5}});
  cases.push_back({makeIrregular(1, 4, 4, rng), {2}});
  cases.push_back({makeStencil(ShapeKind::Star, 2, 1, rng), {1, 4, 9}});
  cases.push_back({makeStencil(ShapeKind::Box, 2, 1, rng), {1, 4}});
  cases.push_back({makeStencil(ShapeKind::Box, 2, 3, rng), {1, 3}});
  cases.push_back({makeIrregular(2, 3, 7, rng), {2}});
  cases.push_back({makeStencil(ShapeKind::Star, 3, 1, rng), {1, 3}});
  cases.push_back({makeStencil(ShapeKind::Box, 3, 1, rng), {2}});
  cases.push_back({makeStencil(ShapeKind::Star, 3, 2, rng), {1}});
  for (const Case &c : cases)
    for (int64_t steps : c.steps)
      for (bool cooleyTukey : {false, true}) {
        FftTilePlan plan = planFor(c.stencil, steps, cooleyTukey);
        if (cooleyTukey && c.stencil.rank < 3 && !plan.cooleyTukey) {
          // The tailoring took a PFA tile (memory-bound T = 1): run the
          // Cooley-Tukey one all the same.
          plan.cooleyTukey = true;
          plan.factors.assign(c.stencil.rank, {});
          for (auto &fs : plan.factors)
            fs.assign(c.stencil.rank == 1 ? 4 : 2, 8);
        }
        for (FftMmaShape shape : {FftMmaShape::M8N8K4, FftMmaShape::M16N8K4}) {
          TileErrors e = runTile(c.stencil, plan, shape, rng);
          SCOPED_TRACE("rank " + std::to_string(c.stencil.rank) + ", " +
                       std::to_string(c.stencil.weights.size()) +
                       " points, T = " + std::to_string(steps) +
                       (plan.cooleyTukey ? ", Cooley-Tukey" : ", PFA"));
          EXPECT_LE(e.circular, e.bound);
          EXPECT_LE(e.valid, e.bound);
          // The bound is a useful tolerance, not a vacuous one.
          EXPECT_LT(e.bound, 1e-9);
        }
      }
}

TEST(FftTiling, MutatedLoadMapOrSpectrumFails) {
  std::mt19937_64 rng(99);
  TestStencil s = makeStencil(ShapeKind::Star, 2, 1, rng);
  for (bool cooleyTukey : {false, true}) {
    FftTilePlan plan = planFor(s, 4, cooleyTukey);
    ASSERT_EQ(plan.cooleyTukey, cooleyTukey);
    // Swap two entries of the load map (points of the valid region).
    auto map = getFftLoadMap(plan);
    std::swap(map[20 * 64 + 21], map[30 * 64 + 9]);
    TileErrors e = runTile(s, plan, FftMmaShape::M8N8K4, rng, &map);
    EXPECT_GT(e.valid, 1000 * e.bound);
  }
  FftTilePlan plan = planFor(s, 4);
  TileErrors e;
  // One spectrum entry off by 1e-9 relative.
  auto spectrum = computeFftSpectrum(plan, s.offsets, s.weights);
  for (auto &v : spectrum)
    if (std::abs(v) > 0) {
      v *= 1 + 1e-9;
      break;
    }
  e = runTile(s, plan, FftMmaShape::M16N8K4, rng, nullptr, &spectrum);
  EXPECT_GT(e.circular, e.bound);
}

// The kernel's layout: slot = e XOR (XOR over the other axes of F(digit)),
// F = getFftSlotSwizzle. A quarter warp is lanes (g, t), g in {g0, g0 + 1}
// (g0 even), t < 4; its 8 16-byte accesses must fall in distinct slots mod 8.
// Stages along axis a < m-1: g runs along the last axis (the low three bits),
// t along a (loads of element 4c + t, stores of 2t + i). Along the last
// axis: g runs along axis m-2, t along the low bits (loads 4c + t, stores
// 2t + i).
TEST(FftTiling, SwizzledLayoutIsConflictFree) {
  auto distinct = [](auto slotOf) {
    std::set<int64_t> slots;
    for (int64_t g = 0; g < 2; ++g)
      for (int64_t t = 0; t < 4; ++t)
        slots.insert(slotOf(g, t) & 7);
    return slots.size() == 8;
  };
  for (int64_t g0 : {0, 2, 4, 6})
    for (int64_t c = 0; c < 4; ++c) {
      int64_t i = c % 2;
      // a < m-1: low bits g0 + g, swizzle F(n_a).
      EXPECT_TRUE(distinct([&](int64_t g, int64_t t) {
        return (g0 + g) ^ getFftSlotSwizzle(4 * c + t);
      })) << "loads, g0 "
          << g0 << " chunk " << c;
      EXPECT_TRUE(distinct([&](int64_t g, int64_t t) {
        return (g0 + g) ^ getFftSlotSwizzle(8 * (c / 2) + 2 * t + i);
      })) << "stores, g0 "
          << g0 << " accumulator " << i;
      // The last axis: low bits from t, swizzle F(n_{m-2}) = F(g0 + g).
      EXPECT_TRUE(distinct([&](int64_t g, int64_t t) {
        return (4 * c + t) ^ getFftSlotSwizzle(g0 + g);
      })) << "last-axis loads, g0 "
          << g0;
      EXPECT_TRUE(distinct([&](int64_t g, int64_t t) {
        return (2 * t + i) ^ getFftSlotSwizzle(g0 + g);
      })) << "last-axis stores, g0 "
          << g0;
    }
  // Without the swizzle (F = 0) the stage loads conflict.
  EXPECT_FALSE(distinct([&](int64_t g, int64_t t) { return g; }));
}

// The Cooley-Tukey layout: getFftCtSlot is a bijection, and every quarter
// warp (lanes (g, t), g in {g0, g0 + 1}, t < 4) of the load and accumulator
// layouts along either axis, and of the grid loads (8 consecutive p1, or in
// 1-D 8 consecutive p0), touches 8 distinct 16-byte slots.
TEST(FftTiling, CooleyTukeyLayoutIsConflictFree) {
  std::set<int64_t> all;
  for (int64_t p0 = 0; p0 < 64; ++p0)
    for (int64_t p1 = 0; p1 < 64; ++p1) {
      int64_t slot = getFftCtSlot(p0, p1);
      EXPECT_EQ(slot / 64, p0) << "rows stay in place";
      all.insert(slot);
    }
  EXPECT_EQ(all.size(), 4096u);
  auto distinct = [](auto slotOf) {
    std::set<int64_t> slots;
    for (unsigned q = 0; q < 8; ++q)
      slots.insert(slotOf(q) & 7);
    return slots.size() == 8;
  };
  int64_t checked = 0;
  for (int64_t unit = 0; unit < 64; ++unit)
    for (unsigned quarter = 0; quarter < 4; ++quarter)
      for (int64_t chunk = 0; chunk < 2; ++chunk)
        for (bool acc : {false, true}) {
          auto pos = [&](unsigned q) {
            return getFftCtPosition(8 * quarter + q, chunk, acc);
          };
          EXPECT_TRUE(distinct([&](unsigned q) {
            return getFftCtSlot(unit, pos(q));
          })) << "along axis 1, row "
              << unit;
          EXPECT_TRUE(distinct([&](unsigned q) {
            return getFftCtSlot(pos(q), unit);
          })) << "along axis 0, column "
              << unit;
          checked += 2;
        }
  EXPECT_EQ(checked, 64 * 4 * 2 * 2 * 2);
  for (int64_t p0 = 0; p0 < 64; ++p0)
    for (int64_t p1 = 0; p1 < 64; p1 += 8) {
      EXPECT_TRUE(
          distinct([&](unsigned q) { return getFftCtSlot(p0, p1 + q); }));
      EXPECT_TRUE(
          distinct([&](unsigned q) { return getFftCtSlot(p1 + q, p0); }));
    }
  // Without the swizzle the loads along axis 0 (one column) all conflict.
  EXPECT_FALSE(distinct(
      [&](unsigned q) { return 64 * getFftCtPosition(q, 0, false) + 5; }));
}

// The packed constants are the matrices of (C1), and the packed spectrum and
// twiddles are read at the positions the passes use.
TEST(FftTiling, CooleyTukeyPackingMatchesPositions) {
  auto frag = packFftCtFragments();
  ASSERT_EQ(frag.size(), 6u * 32);
  for (unsigned lane = 0; lane < 32; ++lane) {
    int64_t g = lane / 4, t = lane % 4;
    EXPECT_LT(std::abs(frag[32 + lane] -
                       std::polar(1.0, -2 * M_PI * g * (4 + t) / 8)),
              1e-14);
    EXPECT_LT(std::abs(frag[5 * 32 + lane] -
                       std::polar(1.0, -2 * M_PI * (2 * t + 1) * g / 64)),
              1e-14);
  }
  std::vector<std::complex<double>> spectrum(4096);
  for (int64_t e = 0; e < 4096; ++e)
    spectrum[e] = double(e);
  auto packed = packFftCtSpectrum(spectrum);
  EXPECT_EQ(packed[(7 * 2 + 1) * 32 + 9],
            double(64 * getFftCtPosition(9, 1, true) + 7));
  auto twiddles = packFftCtTwiddles();
  int64_t p0 = getFftCtPosition(13, 0, false);
  EXPECT_LT(std::abs(twiddles[(5 * 4 + 0) * 32 + 13] -
                     std::polar(1.0, -2 * M_PI * (p0 * 5) / 4096)),
            1e-14);
}

TEST(FftTiling, TailoringChoosesATileWithAValidRegion) {
  for (int64_t steps : {1, 2, 4, 8, 16}) {
    auto plan = chooseFftTile({1, 1}, steps, 4096);
    ASSERT_TRUE(plan.has_value()) << steps;
    EXPECT_GT(plan->getValidSize(0), 0);
    EXPECT_GT(plan->getValidSize(1), 0);
    EXPECT_LE(plan->getNumArrayElements(), 4096);
    if (steps == 1)
      continue; // memory-bound: the PFA tile with the least work wins.
    EXPECT_TRUE(plan->cooleyTukey) << steps;
    EXPECT_TRUE(plan->hasCooleyTukeyShape());
    auto pfa = chooseFftTile({1, 1}, steps, 4096, nullptr,
                             /*allowCooleyTukey=*/false);
    ASSERT_TRUE(pfa.has_value()) << steps;
    EXPECT_FALSE(pfa->cooleyTukey);
    for (const auto &fs : pfa->factors)
      EXPECT_TRUE(arePfaFactors(fs));
    EXPECT_LE(getFftTileCost(*plan), getFftTileCost(*pfa)) << steps;
  }
  // The choice is no worse than explicit alternatives.
  for (int64_t steps : {1, 4, 16}) {
    auto chosen = chooseFftTile({1}, steps, 4096);
    ASSERT_TRUE(chosen.has_value());
    for (std::vector<int64_t> fs :
         {std::vector<int64_t>{8, 7}, std::vector<int64_t>{16, 9, 7},
          std::vector<int64_t>{16, 7, 5}}) {
      FftTilePlan other = *chosen;
      other.factors = {llvm::SmallVector<int64_t, 3>(fs.begin(), fs.end())};
      if (other.getValidSize(0) > 0) {
        EXPECT_LE(getFftTileCost(*chosen), getFftTileCost(other)) << steps;
      }
    }
  }
  // 3-D has no Cooley-Tukey tile; a budget below 4096 elements leaves none.
  EXPECT_FALSE(chooseFftTile({1, 1, 1}, 1, 4096)->cooleyTukey);
  EXPECT_FALSE(chooseFftTile({1, 1}, 1, 2048)->cooleyTukey);
  // In 1-D the 4096-point tile reaches T = 64 for radius 1.
  auto deep = chooseFftTile({1}, 64, 4096);
  ASSERT_TRUE(deep.has_value());
  EXPECT_TRUE(deep->cooleyTukey);
  EXPECT_EQ(deep->getValidSize(0), 4096 - 128);
  std::string why;
  EXPECT_FALSE(chooseFftTile({1, 1, 1}, 8, 4096, &why).has_value());
  EXPECT_NE(why.find("8 fused steps"), std::string::npos) << why;
  EXPECT_FALSE(chooseFftTile({1000}, 4, 4096, &why).has_value());
}

} // namespace
