//===- DecompositionTest.cpp - Slabs over N ranks, simulated on the CPU ---===//
//
// Issue 19: the decomposition (runtime/lib/Decomposition.h) must give the
// single grid's result exactly. N ranks are simulated on the CPU: each
// holds its slab with its halos, runs every launch as F steps of the
// runner's reference on its local grid (what a kernel of F steps per
// launch does there, boundary semantics at the local edges included), then
// the exchange schedule copies the planes between ranks; the own planes
// gathered at the end must equal the reference on the whole grid bit for
// bit, for random stencils (rank 1 to 3, radius 0 to 3 along the outermost
// dimension), boundaries halo, periodic and Dirichlet, 1 to 5 ranks, 1 to 3
// steps per launch, alignments 1 and 4, f16, f32 and f64; with and without
// the overlap's interior launch and boundary windows (planRankLaunches).
//
//===----------------------------------------------------------------------===//

#include "Decomposition.h"
#include "HostUtil.h"

#include "gtest/gtest.h"

#include <cstring>
#include <random>
#include <set>

using namespace stencil_runtime;
using namespace stencil_run;

namespace {

TEST(Decomposition, SlabsAndSchedule) {
  Decomposition d;
  std::string error;
  ASSERT_TRUE(planDecomposition(10, 1, 2, /*periodic=*/false, 3, 1, d, error))
      << error;
  EXPECT_EQ(d.halo, 2);
  ASSERT_EQ(d.slabs.size(), 3u);
  EXPECT_EQ(d.slabs[0].ownBegin, 0);
  EXPECT_EQ(d.slabs[0].ownEnd, 3);
  EXPECT_EQ(d.slabs[1].ownEnd, 6);
  EXPECT_EQ(d.slabs[2].ownEnd, 10);
  EXPECT_EQ(d.slabs[0].haloLow, 0);
  EXPECT_EQ(d.slabs[0].haloHigh, 2);
  EXPECT_EQ(d.slabs[2].haloHigh, 0);
  EXPECT_EQ(d.slabs[0].lowNeighbor, -1);
  EXPECT_EQ(d.slabs[1].localPlanes(), 7);
  std::vector<Transfer> s = getExchangeSchedule(d);
  ASSERT_EQ(s.size(), 4u);
  // Rank 0's last two own planes (local 1, 2) to rank 1's lower halo.
  EXPECT_EQ(s[0].src, 0);
  EXPECT_EQ(s[0].dst, 1);
  EXPECT_EQ(s[0].srcPlane, 1);
  EXPECT_EQ(s[0].dstPlane, 0);
  // Rank 1's first own planes (local 2, 3) to rank 0's upper halo (3, 4).
  EXPECT_EQ(s[1].src, 1);
  EXPECT_EQ(s[1].dst, 0);
  EXPECT_EQ(s[1].srcPlane, 2);
  EXPECT_EQ(s[1].dstPlane, 3);

  // Periodic: the first and the last rank are neighbours; global planes
  // of the first rank's lower halo wrap.
  ASSERT_TRUE(planDecomposition(10, 1, 1, /*periodic=*/true, 2, 1, d, error));
  EXPECT_EQ(d.slabs[0].lowNeighbor, 1);
  EXPECT_EQ(d.slabs[1].highNeighbor, 0);
  EXPECT_EQ(d.slabs[0].globalPlane(0, 10), 9);
  EXPECT_EQ(getExchangeSchedule(d).size(), 4u);

  // Alignment: every held range starts on a multiple of 4.
  ASSERT_TRUE(planDecomposition(100, 1, 3, false, 3, 4, d, error)) << error;
  EXPECT_EQ(d.halo, 4);
  for (const Slab &slab : d.slabs)
    EXPECT_EQ((slab.ownBegin - slab.haloLow) % 4, 0);

  // A least halo (an FFT kernel's tile + r F), rounded to the alignment.
  ASSERT_TRUE(planDecomposition(100, 1, 2, false, 2, 6, d, error, 8)) << error;
  EXPECT_EQ(d.halo, 12);

  // One rank: the whole grid, no halo, nothing to exchange.
  ASSERT_TRUE(planDecomposition(7, 3, 2, true, 1, 1, d, error));
  EXPECT_EQ(d.halo, 0);
  EXPECT_EQ(d.slabs[0].localPlanes(), 7);
  EXPECT_TRUE(getExchangeSchedule(d).empty());
}

TEST(Decomposition, Errors) {
  Decomposition d;
  std::string error;
  EXPECT_FALSE(planDecomposition(10, 2, 2, false, 3, 1, d, error));
  EXPECT_NE(error.find("fewer than the halo of 4"), std::string::npos) << error;
  EXPECT_NE(error.find("use fewer GPUs"), std::string::npos);
  EXPECT_FALSE(planDecomposition(10, 1, 1, false, 0, 1, d, error));
  EXPECT_NE(error.find("bad decomposition arguments"), std::string::npos);
  EXPECT_FALSE(planDecomposition(10, -1, 1, false, 2, 1, d, error));
  EXPECT_FALSE(planDecomposition(10, 1, 0, false, 2, 1, d, error));
  EXPECT_FALSE(planDecomposition(3, 0, 1, false, 4, 1, d, error));
  EXPECT_NE(error.find("0 planes"), std::string::npos) << error;
}

/// Runs F steps of `s` on planes [begin, end) of the local grid `in`
/// (`plane` points each) as a grid of its own.
std::vector<double> launchOn(const ReferenceStencil &s,
                             const std::vector<double> &in, size_t plane,
                             int64_t begin, int64_t end, int64_t steps) {
  ReferenceStencil sub = s;
  sub.dims[0] = end - begin;
  std::vector<double> part(in.begin() + begin * plane,
                           in.begin() + end * plane);
  double maxAbs = 0;
  return runReference(sub, part, int(steps), 1, maxAbs);
}

/// Runs `launches` launches of `stepsPerLaunch` steps of `s` on `input`
/// split over `ranks` ranks (CPU simulation; see the file comment). With
/// `overlap`, each launch follows planRankLaunches: the exchange into the
/// input's halos, the interior launch into the output, whose planes within
/// the halo of a cut edge are then overwritten with garbage (what a kernel
/// may leave there), the boundary windows into temporaries and their exact
/// planes copied over the garbage. Without it, each rank runs its whole
/// local grid after the exchange.
std::vector<double>
simulate(const ReferenceStencil &s, const std::vector<double> &input, int ranks,
         int64_t stepsPerLaunch, int launches, int64_t alignment, bool overlap,
         std::string &error, int *overlapped = nullptr, int64_t minHalo = 0) {
  int64_t radius = 0;
  for (const auto &o : s.offsets)
    radius = std::max<int64_t>(radius, std::abs(o[0]));
  Decomposition d;
  if (!planDecomposition(s.dims[0], radius, stepsPerLaunch,
                         s.boundary == Boundary::Periodic, ranks, alignment, d,
                         error, minHalo))
    return {};
  size_t plane = 1;
  for (size_t k = 1; k < s.dims.size(); ++k)
    plane *= size_t(s.dims[k]);
  // Two buffers per rank, both starting as the held planes of the input.
  std::vector<std::vector<double>> local(ranks), other(ranks);
  for (int r = 0; r < ranks; ++r) {
    for (int64_t i = 0; i < d.slabs[r].localPlanes(); ++i) {
      int64_t g = d.slabs[r].globalPlane(i, s.dims[0]);
      local[r].insert(local[r].end(), input.begin() + g * plane,
                      input.begin() + (g + 1) * plane);
    }
    other[r] = local[r];
  }
  std::vector<Transfer> schedule = getExchangeSchedule(d);
  const int64_t h = d.halo;
  for (int l = 0; l < launches; ++l) {
    // The transfers read own planes and write halo planes: disjoint.
    for (const Transfer &t : schedule)
      std::copy(local[t.src].begin() + t.srcPlane * plane,
                local[t.src].begin() + (t.srcPlane + t.planes) * plane,
                local[t.dst].begin() + t.dstPlane * plane);
    for (int r = 0; r < ranks; ++r) {
      const Slab &slab = d.slabs[r];
      RankLaunches plan = planRankLaunches(d, r, 2 * radius + 1);
      if (!overlap || !plan.overlap) {
        other[r] =
            launchOn(s, local[r], plane, 0, slab.localPlanes(), stepsPerLaunch);
        continue;
      }
      if (overlapped)
        ++*overlapped;
      std::vector<double> interior =
          launchOn(s, local[r], plane, plan.interiorBegin, plan.interiorEnd,
                   stepsPerLaunch);
      std::copy(interior.begin(), interior.end(),
                other[r].begin() + plan.interiorBegin * plane);
      if (slab.haloLow > 0)
        std::fill(other[r].begin() + plan.interiorBegin * plane,
                  other[r].begin() + (plan.interiorBegin + h) * plane, 1e30);
      if (slab.haloHigh > 0)
        std::fill(other[r].begin() + (plan.interiorEnd - h) * plane,
                  other[r].begin() + plan.interiorEnd * plane, -1e30);
      for (const BoundaryWindow &w : plan.windows) {
        std::vector<double> temp = launchOn(s, local[r], plane, w.begin,
                                            w.begin + w.planes, stepsPerLaunch);
        std::copy(temp.begin() + w.copyFrom * plane,
                  temp.begin() + (w.copyFrom + w.copyPlanes) * plane,
                  other[r].begin() + w.copyTo * plane);
      }
    }
    std::swap(local, other);
  }
  std::vector<double> result(input.size());
  for (int r = 0; r < ranks; ++r) {
    const Slab &slab = d.slabs[r];
    std::copy(local[r].begin() + slab.haloLow * plane,
              local[r].begin() + (slab.haloLow + slab.ownPlanes()) * plane,
              result.begin() + slab.ownBegin * plane);
  }
  return result;
}

TEST(Decomposition, OverlapPlan) {
  Decomposition d;
  std::string error;
  // 40 planes, halo 2, 3 ranks: own 13, 13, 14.
  ASSERT_TRUE(planDecomposition(40, 1, 2, false, 3, 1, d, error)) << error;
  RankLaunches first = planRankLaunches(d, 0, 3);
  ASSERT_TRUE(first.overlap);
  EXPECT_EQ(first.interiorBegin, 0); // the global edge: no window
  EXPECT_EQ(first.interiorEnd, 13);
  ASSERT_EQ(first.windows.size(), 1u);
  EXPECT_EQ(first.windows[0].begin, 15 - 6);
  EXPECT_EQ(first.windows[0].planes, 6);
  EXPECT_EQ(first.windows[0].copyFrom, 2);
  EXPECT_EQ(first.windows[0].copyTo, 11);
  EXPECT_EQ(first.windows[0].copyPlanes, 2);
  RankLaunches middle = planRankLaunches(d, 1, 3);
  ASSERT_TRUE(middle.overlap);
  EXPECT_EQ(middle.interiorBegin, 2);
  EXPECT_EQ(middle.interiorEnd, 15);
  ASSERT_EQ(middle.windows.size(), 2u);
  EXPECT_EQ(middle.windows[0].begin, 0);
  EXPECT_EQ(middle.windows[0].copyTo, 2);
  EXPECT_EQ(middle.windows[1].begin, 17 - 6);
  EXPECT_EQ(middle.windows[1].copyTo, 13);
  // A slab thinner than two halos does not overlap.
  ASSERT_TRUE(planDecomposition(9, 1, 2, false, 3, 1, d, error)) << error;
  EXPECT_FALSE(planRankLaunches(d, 1, 3).overlap);
  // Nor does one rank or a halo of 0.
  ASSERT_TRUE(planDecomposition(9, 0, 2, false, 3, 1, d, error)) << error;
  EXPECT_FALSE(planRankLaunches(d, 1, 1).overlap);
}

TEST(Decomposition, SimulatedRanksEqualOneGrid) {
  std::mt19937_64 rng(19);
  int checked = 0, overlapped = 0;
  for (int trial = 0; trial < 300; ++trial) {
    ReferenceStencil s;
    s.rank = 1 + trial % 3;
    int64_t r0 = rng() % 4;
    int ranks = 1 + rng() % 5;
    int64_t f = 1 + rng() % 3;
    int launches = 1 + rng() % 3;
    int64_t alignment = rng() % 4 == 0 ? 4 : 1;
    s.boundary = Boundary(rng() % 3);
    s.dirichletValue = 0.5;
    s.elementType = ElemType(rng() % 3 == 0   ? ElemType::F16
                             : rng() % 2 == 0 ? ElemType::F32
                                              : ElemType::F64);
    // Sometimes a least halo (an FFT kernel's); enough planes for every
    // rank's halo, often for the overlap's two.
    int64_t minHalo = rng() % 4 == 0 ? alignment + r0 * f : 0;
    int64_t halo =
        ((std::max(r0 * f, minHalo) + alignment - 1) / alignment) * alignment;
    int64_t per = halo + alignment + (rng() % 2 ? 0 : halo + 2 * r0 + 1);
    s.dims.push_back(std::max<int64_t>(2 * r0 + 1, ranks * per) +
                     int64_t(rng() % 9));
    for (int k = 1; k < s.rank; ++k)
      s.dims.push_back(5 + rng() % 6);
    std::set<std::vector<int64_t>> points;
    int count = 1 + rng() % 7;
    for (int i = 0; i < count; ++i) {
      std::vector<int64_t> p = {int64_t(rng() % (2 * r0 + 1)) - r0};
      for (int k = 1; k < s.rank; ++k)
        p.push_back(int64_t(rng() % 5) - 2);
      points.insert(p);
    }
    std::vector<int64_t> outer = {r0};
    for (int k = 1; k < s.rank; ++k)
      outer.push_back(0);
    points.insert(outer); // reach the full outermost radius
    std::uniform_real_distribution<double> w(-0.4, 0.6);
    for (const auto &p : points) {
      s.offsets.push_back(p);
      s.weights.push_back(w(rng) / double(points.size()));
    }
    size_t n = 1;
    for (int64_t d : s.dims)
      n *= size_t(d);
    std::vector<double> input = randomInput(n, s.elementType, rng(), 1);
    double maxAbs = 0;
    std::vector<double> expected =
        runReference(s, input, int(f * launches), 1, maxAbs);
    for (bool overlap : {false, true}) {
      std::string error;
      std::vector<double> got = simulate(
          s, input, ranks, f, launches, alignment, overlap, error, &overlapped);
      ASSERT_TRUE(error.empty()) << error;
      ASSERT_EQ(got.size(), expected.size());
      ASSERT_EQ(
          std::memcmp(got.data(), expected.data(), got.size() * sizeof(double)),
          0)
          << "trial " << trial << ": " << ranks << " ranks, rank " << s.rank
          << " radius " << r0 << ", " << f << " steps per launch, boundary "
          << int(s.boundary) << ", alignment " << alignment << ", overlap "
          << overlap;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 600);
  // Most multi-rank cases are thick enough to overlap.
  EXPECT_GT(overlapped, 300);
}

} // namespace
