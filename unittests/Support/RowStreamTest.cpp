//===- RowStreamTest.cpp - The 2-D row sweep on the CPU -------------------===//
//
// Runs the row-streaming schedule of CudaCoreTiling (rowStream(): AN5D's
// register streaming of 2-D linear stencils, built by
// lib/Conversion/StencilToCudaCore/CudaCoreRowStream.cpp) thread by thread
// and iteration by iteration on the CPU, as the kernel does: the level-0
// rows loaded rowStreamUnroll() iterations ahead, per level 2 r_y + 1 partial
// sums in (dy, dx) order with the centre from a register and the x neighbours
// from the other parity's shared row, the completed row's boundary rule, and
// the block's stores. `steps` steps (launches of t fused steps, then one of S
// mod t) must equal S one-step launches bit for bit under the halo, Dirichlet
// and periodic boundaries. The data are small integers and the weights
// multiples of 1/8, so that every sum is exact in f64 whatever its order: what
// is compared is which values each output combines. Grids not multiples of the
// block, smaller than it, without interior; r_y != r_x, r_y = 0, r_x = 0,
// irregular random patterns.
//
//===----------------------------------------------------------------------===//

#include "stencil/Support/CudaCoreTiling.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <vector>

using namespace mlir::stencil;

namespace {

enum class Boundary { halo, dirichlet, periodic };

/// A 2-D stencil: offsets (dy, dx) and weights.
struct Stencil {
  std::vector<std::pair<int64_t, int64_t>> offsets;
  std::vector<double> weights;

  llvm::SmallVector<int64_t> radii() const {
    llvm::SmallVector<int64_t> r = {0, 0};
    for (auto [dy, dx] : offsets) {
      r[0] = std::max<int64_t>(r[0], std::abs(dy));
      r[1] = std::max<int64_t>(r[1], std::abs(dx));
    }
    return r;
  }
};

struct Grid {
  int64_t ny, nx;
  std::vector<double> values;
  double &at(int64_t y, int64_t x) { return values[y * nx + x]; }
  double at(int64_t y, int64_t x) const { return values[y * nx + x]; }
  bool contains(int64_t y, int64_t x) const {
    return y >= 0 && y < ny && x >= 0 && x < nx;
  }
};

int64_t wrap(int64_t c, int64_t n) { return ((c % n) + n) % n; }

/// The value a launch reads at (y, x), possibly outside the grid.
double readAt(const Grid &g, int64_t y, int64_t x, Boundary boundary,
              double boundaryValue) {
  if (boundary == Boundary::periodic)
    return g.at(wrap(y, g.ny), wrap(x, g.nx));
  if (g.contains(y, x))
    return g.at(y, x);
  return boundary == Boundary::dirichlet ? boundaryValue : 0.0;
}

/// One time step as one launch computes it (the runner's reference).
void referenceStep(const Stencil &s, const Grid &in, Grid &out,
                   Boundary boundary, double boundaryValue) {
  llvm::SmallVector<int64_t> r = s.radii();
  for (int64_t y = 0; y < in.ny; ++y)
    for (int64_t x = 0; x < in.nx; ++x) {
      if (boundary == Boundary::halo &&
          (y < r[0] || y >= in.ny - r[0] || x < r[1] || x >= in.nx - r[1]))
        continue;
      double sum = 0;
      for (size_t i = 0; i < s.offsets.size(); ++i)
        sum += s.weights[i] * readAt(in, y + s.offsets[i].first,
                                     x + s.offsets[i].second, boundary,
                                     boundaryValue);
      out.at(y, x) = sum;
    }
}

/// Blocks that took the interior sweep, over all launches of a test.
int64_t interiorBlocks = 0;

/// The per-row sweep of the block at (y0, x0): the interior one where the
/// block qualifies and `mayBeInterior`, else the general one.
void rowStreamBlock(const Stencil &s, const CudaCoreTiling &tiling,
                    const Grid &in, Grid &out, Boundary boundary,
                    double boundaryValue, int64_t y0, int64_t x0,
                    bool mayBeInterior) {
  ASSERT_TRUE(tiling.rowStream());
  int64_t steps = tiling.steps, ry = tiling.radii[0], rx = tiling.radii[1];
  // The row's columns: `outputs` per thread, thread t owning columns
  // t + j threads(); each column's schedule is the same whichever thread
  // runs it, so the model runs them column by column.
  int64_t slots = tiling.rowStreamSlots(), columns = tiling.rowWidth();
  ASSERT_EQ(columns, tiling.threads() * tiling.outputs);
  ASSERT_EQ(tiling.tile[1], columns - 2 * steps * rx);
  ASSERT_GE(tiling.tile[1], 1);
  // The points in (dy, dx) order, as the kernel sums them.
  std::map<std::pair<int64_t, int64_t>, double> points;
  for (size_t i = 0; i < s.offsets.size(); ++i)
    points[s.offsets[i]] += s.weights[i];
  auto mod = [&](int64_t x) { return ((x % slots) + slots) % slots; };

  {
    int64_t rows = std::min(tiling.tile[0], in.ny - y0);
    // Shared memory, and the iteration that last wrote each element (a
    // read of an element written in the same iteration is a race).
    std::vector<double> smem(tiling.sharedElements(), 0.0);
    std::vector<int64_t> writtenIn(smem.size(), -1);
    auto gridX = [&](int64_t c) { return x0 - tiling.halo[1] + c; };
    auto gridY = [&](int64_t local) { return y0 - tiling.halo[0] + local; };
    // The kernel's interior sweep: the block's rows (with the rows loaded
    // ahead past the last iteration) and columns all lie r or more from
    // the grid's edges. It has C rows, reads `in` unchecked and computes
    // every point: asserted here where the general sweep checks.
    int64_t swept =
        tiling.rowStreamIterations(tiling.tile[0]) + tiling.rowStreamUnroll();
    bool interior = mayBeInterior && gridY(0) >= ry &&
                    gridY(swept - 1) < in.ny - ry && gridX(0) >= rx &&
                    gridX(columns - 1) < in.nx - rx;
    if (interior) {
      ++interiorBlocks;
      ASSERT_EQ(rows, tiling.tile[0]);
    }
    auto loadRow = [&](int64_t c, int64_t local) {
      if (interior) {
        EXPECT_LT(local, swept);
        EXPECT_TRUE(in.contains(gridY(local), gridX(c)));
        return in.at(gridY(local), gridX(c));
      }
      return readAt(in, gridY(local), gridX(c), boundary, boundaryValue);
    };
    // Per thread: the partial sums, the levels' previous values, the
    // prefetched input.
    std::vector<std::vector<double>> acc(
        columns, std::vector<double>(steps * slots, 0.0));
    std::vector<std::vector<double>> previous(columns,
                                              std::vector<double>(steps, 0.0));
    // Rows loaded ahead: row i in slot i mod unroll.
    int64_t unroll = tiling.rowStreamUnroll();
    ASSERT_EQ(unroll % slots, 0);
    ASSERT_GE(unroll, 4);
    std::vector<std::vector<double>> ahead(columns,
                                           std::vector<double>(unroll));
    for (int64_t c = 0; c < columns; ++c)
      for (int64_t k = 0; k < unroll; ++k)
        ahead[c][k] = loadRow(c, k);
    int64_t iterations = tiling.rowStreamIterations(rows);
    ASSERT_EQ(iterations % unroll, 0);
    ASSERT_GE(iterations, rows + 2 * tiling.halo[0] + steps);
    for (int64_t i = 0; i < iterations; ++i) {
      std::vector<std::vector<double>> values(columns);
      for (int64_t c = 0; c < columns; ++c) {
        double current = ahead[c][i % unroll];
        ahead[c][i % unroll] = loadRow(c, i + unroll);
        auto write = [&](int64_t level, double v) {
          int64_t e = tiling.rowSlot(i % 2, level) + rx + c;
          smem.at(e) = v;
          writtenIn[e] = i;
        };
        write(0, current);
        values[c].push_back(current);
        for (int64_t level = 1; level <= steps; ++level) {
          int64_t q = i - 1 - (level - 1) * (ry + 1);
          double *sums = &acc[c][(level - 1) * slots];
          for (const auto &[offset, w] : points) {
            auto [dy, dx] = offset;
            double v = previous[c][level - 1];
            if (dx != 0) {
              int64_t e = tiling.rowSlot((i + 1) % 2, level - 1) + rx + c + dx;
              ASSERT_GE(e, tiling.rowSlot((i + 1) % 2, level - 1));
              ASSERT_LT(e, tiling.rowSlot((i + 1) % 2, level - 1) +
                               tiling.rowLength());
              EXPECT_NE(writtenIn[e], i) << "race";
              v = smem.at(e);
            }
            double &sum = sums[mod(q - dy)];
            sum = std::fma(w, v, sum);
          }
          int64_t local = q - ry;
          ASSERT_EQ(local, tiling.streamRow(level, i));
          double value = sums[mod(local)];
          sums[mod(local)] = 0.0;
          int64_t y = gridY(local), x = gridX(c);
          bool computed =
              boundary == Boundary::periodic ||
              (boundary == Boundary::dirichlet && in.contains(y, x)) ||
              (boundary == Boundary::halo && y >= ry && y < in.ny - ry &&
               x >= rx && x < in.nx - rx);
          // The interior sweep computes every row, the warm-up rows before
          // local row 0 too (they feed no output).
          if (interior && local >= 0) {
            EXPECT_TRUE(computed) << "interior block, row " << y;
          }
          bool written = interior || computed;
          if (!written)
            value = boundary == Boundary::dirichlet ? boundaryValue
                    : in.contains(y, x)             ? in.at(y, x)
                                                    : 0.0;
          if (level < steps) {
            write(level, value);
            values[c].push_back(value);
            continue;
          }
          if (local >= tiling.halo[0] && local < tiling.halo[0] + rows &&
              c >= tiling.halo[1] && c < tiling.halo[1] + tiling.tile[1] &&
              x < in.nx && written)
            out.at(y, x) = value;
        }
      }
      // The barrier: every column's values become the previous ones.
      for (int64_t c = 0; c < columns; ++c)
        previous[c] = values[c];
    }
  }
}

/// One launch of the row-streamed kernel of `tiling`.
void rowStreamLaunch(const Stencil &s, const CudaCoreTiling &tiling,
                     const Grid &in, Grid &out, Boundary boundary,
                     double boundaryValue) {
  for (int64_t y0 = 0; y0 < in.ny; y0 += tiling.tile[0])
    for (int64_t x0 = 0; x0 < in.nx; x0 += tiling.tile[1])
      rowStreamBlock(s, tiling, in, out, boundary, boundaryValue, y0, x0,
                     /*mayBeInterior=*/true);
}

/// One launch of the row-group kernel of `tiling` (rowGroups(): built by
/// lib/Conversion/StencilToCudaCore/CudaCoreRowGroups.cpp), barrier by
/// barrier: group g's input rows copied into buffer g mod 2 after the
/// barrier that starts group g - 1 (the asynchronous copies), then per
/// level, after a barrier, each column's phases over the group's rows into
/// 2 G partial sums, the completed rows' boundary rule, and the stores. A
/// read of shared memory written since the last barrier is a race.
void rowGroupsLaunch(const Stencil &s, const CudaCoreTiling &tiling,
                     const Grid &in, Grid &out, Boundary boundary,
                     double boundaryValue) {
  ASSERT_TRUE(tiling.rowGroups());
  int64_t steps = tiling.steps, ry = tiling.radii[0], rx = tiling.radii[1];
  int64_t group = tiling.rowGroupRows(), slots = tiling.rowGroupSlots();
  int64_t columns = tiling.rowWidth();
  ASSERT_EQ(tiling.outputs, 1);
  ASSERT_GE(tiling.tile[1], 1);
  // The phases cover -r_x .. r_x in order.
  int64_t next = -rx;
  for (int64_t p = 0; p < tiling.rowPhases; ++p) {
    auto [lo, hi] = tiling.rowPhaseRange(p);
    ASSERT_EQ(lo, next);
    ASSERT_GE(hi, lo);
    next = hi + 1;
  }
  ASSERT_EQ(next, rx + 1);
  std::map<std::pair<int64_t, int64_t>, double> points;
  for (size_t i = 0; i < s.offsets.size(); ++i)
    points[s.offsets[i]] += s.weights[i];
  auto mod = [&](int64_t x) { return ((x % slots) + slots) % slots; };

  for (int64_t y0 = 0; y0 < in.ny; y0 += tiling.tile[0])
    for (int64_t x0 = 0; x0 < in.nx; x0 += tiling.tile[1]) {
      int64_t rows = std::min(tiling.tile[0], in.ny - y0);
      std::vector<double> smem(tiling.sharedElements(), 0.0);
      std::vector<int64_t> writtenIn(smem.size(), -1);
      int64_t epoch = 0;
      auto gridX = [&](int64_t c) { return x0 - tiling.halo[1] + c; };
      auto gridY = [&](int64_t local) { return y0 - tiling.halo[0] + local; };
      int64_t groups = tiling.rowGroupCount(tiling.tile[0]);
      ASSERT_EQ(groups % 2, 0);
      int64_t swept = groups * group;
      bool interior = gridY(0) >= ry && gridY(swept - 1) < in.ny - ry &&
                      gridX(0) >= rx && gridX(columns - 1) < in.nx - rx;
      // The other blocks take the per-row sweep's general form.
      if (!interior) {
        rowStreamBlock(s, tiling, in, out, boundary, boundaryValue, y0, x0,
                       /*mayBeInterior=*/false);
        continue;
      }
      ++interiorBlocks;
      ASSERT_EQ(rows, tiling.tile[0]);
      auto write = [&](int64_t e, double v) {
        ASSERT_LT(e, (int64_t)smem.size());
        smem[e] = v;
        writtenIn[e] = epoch;
      };
      auto read = [&](int64_t e) {
        EXPECT_LT(writtenIn.at(e), epoch) << "race";
        return smem.at(e);
      };
      auto fetch = [&](int64_t g) {
        for (int64_t c = 0; c < columns; ++c)
          for (int64_t j = 0; j < group; ++j) {
            int64_t local = g * group + j;
            EXPECT_TRUE(in.contains(gridY(local), gridX(c)));
            write(tiling.rowGroupRow(0, g % 2, j) + rx + c,
                  in.at(gridY(local), gridX(c)));
          }
      };
      std::vector<std::vector<double>> acc(
          columns, std::vector<double>(steps * slots, 0.0));
      int64_t stored = 0;
      fetch(0);
      for (int64_t g = 0; g < groups; ++g) {
        int64_t q0 = g * group;
        ++epoch; // the barrier after the copies of group g
        if (g + 1 < groups)
          fetch(g + 1);
        for (int64_t level = 1; level <= steps; ++level) {
          if (level > 1)
            ++epoch; // the barrier before level `level`
          for (int64_t c = 0; c < columns; ++c) {
            double *sums = &acc[c][(level - 1) * slots];
            int64_t first = q0 - (level - 1) * ry; // its source rows
            for (int64_t p = 0; p < tiling.rowPhases; ++p) {
              auto [lo, hi] = tiling.rowPhaseRange(p);
              for (int64_t j = 0; j < group; ++j)
                for (const auto &[offset, w] : points) {
                  auto [dy, dx] = offset;
                  if (dx < lo || dx > hi)
                    continue;
                  int64_t e =
                      tiling.rowGroupRow(level - 1, g % 2, j) + rx + c + dx;
                  double &sum = sums[mod(first + j - dy)];
                  sum = std::fma(w, read(e), sum);
                }
            }
            for (int64_t j = 0; j < group; ++j) {
              int64_t local = q0 - level * ry + j;
              double value = sums[mod(local)];
              sums[mod(local)] = 0.0;
              // The interior sweep computes every row, the warm-up rows
              // before local row 0 too (they feed no output).
              int64_t y = gridY(local), x = gridX(c);
              if (local >= 0) {
                EXPECT_TRUE(
                    boundary != Boundary::halo ||
                    (y >= ry && y < in.ny - ry && x >= rx && x < in.nx - rx))
                    << "interior block, row " << y;
              }
              if (level < steps) {
                write(tiling.rowGroupRow(level, 0, j) + rx + c, value);
                continue;
              }
              if (local >= tiling.halo[0] && local < tiling.halo[0] + rows &&
                  c >= tiling.halo[1] && c < tiling.halo[1] + tiling.tile[1]) {
                out.at(y, x) = value;
                ++stored;
              }
            }
          }
        }
      }
      // Every output of the block the boundary computes was stored once.
      int64_t expected = 0;
      for (int64_t y = y0; y < y0 + rows; ++y)
        for (int64_t x = x0; x < std::min(x0 + tiling.tile[1], in.nx); ++x)
          expected += boundary != Boundary::halo ||
                      (y >= ry && y < in.ny - ry && x >= rx && x < in.nx - rx);
      EXPECT_EQ(stored, expected);
    }
}

void expectSameAsOneStepLaunches(const Stencil &s, int64_t ny, int64_t nx,
                                 int64_t fused, int64_t steps, int64_t rows,
                                 Boundary boundary, int64_t threadsX = 8,
                                 int64_t threadsY = 2, int64_t columns = 1,
                                 int64_t phases = 0) {
  SCOPED_TRACE(::testing::Message()
               << "grid " << ny << " x " << nx << ", fused " << fused
               << ", steps " << steps << ", rows " << rows << ", boundary "
               << int(boundary) << ", threads " << threadsX * threadsY
               << ", columns per thread " << columns << ", phases " << phases);
  const double boundaryValue = 0.5;
  std::mt19937 random(ny * 1000 + nx);
  Grid input{ny, nx, {}};
  for (int64_t i = 0; i < ny * nx; ++i)
    input.values.push_back(double(int64_t(random() % 9) - 4));
  Grid a = input, b = input;
  for (int64_t t = 0; t < steps; ++t) {
    referenceStep(s, a, b, boundary, boundaryValue);
    std::swap(a, b);
  }
  CudaCoreTiling full(s.radii(), threadsX, threadsY, columns, fused, rows,
                      /*stream=*/true, false, 1, phases);
  CudaCoreTiling tail(s.radii(), threadsX, threadsY, columns,
                      std::max<int64_t>(steps % fused, 1), rows, true, false, 1,
                      phases);
  auto launch = [&](const CudaCoreTiling &tiling, const Grid &from, Grid &to) {
    if (phases)
      rowGroupsLaunch(s, tiling, from, to, boundary, boundaryValue);
    else
      rowStreamLaunch(s, tiling, from, to, boundary, boundaryValue);
  };
  Grid x = input, y = input;
  for (int64_t l = 0; l < steps / fused; ++l) {
    launch(full, x, y);
    std::swap(x, y);
  }
  if (steps % fused) {
    launch(tail, x, y);
    std::swap(x, y);
  }
  for (size_t i = 0; i < a.values.size(); ++i)
    ASSERT_EQ(x.values[i], a.values[i])
        << "at (" << i / nx << ", " << i % nx << ")";
}

// r_y = 2, r_x = 1, weights multiples of 1/8 (exact sums).
const Stencil kAsymmetric = {{{-2, 0}, {-1, 1}, {0, -1}, {0, 0}, {1, 0}},
                             {0.125, 0.25, -0.125, 0.5, 0.375}};
const Stencil kBox = {
    {{-1, -1},
     {-1, 0},
     {-1, 1},
     {0, -1},
     {0, 0},
     {0, 1},
     {1, -1},
     {1, 0},
     {1, 1}},
    {0.125, 0.25, -0.125, 0.125, 0.5, 0.125, -0.25, 0.125, 0.125}};
// No y offsets (one partial sum), no x offsets (no shared reads).
const Stencil kRowOnly = {{{0, -2}, {0, 0}, {0, 1}}, {0.25, 0.5, 0.25}};
const Stencil kColumnOnly = {{{-1, 0}, {0, 0}, {3, 0}}, {0.25, 0.5, 0.25}};

const Boundary kBoundaries[] = {Boundary::halo, Boundary::dirichlet,
                                Boundary::periodic};

TEST(RowStream, Geometry) {
  // Box-2D9P in f64 with 4 fused steps: 256 threads leave 248 columns of
  // outputs; 3 partial sums per level; 128 rows take 128 + 8 + 4 = 140
  // iterations, 144 in whole groups of 6 (3 partial sums, 6 rows ahead).
  CudaCoreTiling tiling({1, 1}, 32, 8, 1, 4, 128, /*stream=*/true);
  EXPECT_TRUE(tiling.rowStream());
  EXPECT_EQ(tiling.tile, (llvm::SmallVector<int64_t>{128, 248}));
  EXPECT_EQ(tiling.halo, (llvm::SmallVector<int64_t>{4, 4}));
  EXPECT_EQ(tiling.rowLength(), 258);
  EXPECT_EQ(tiling.sharedElements(), 2 * 4 * 258);
  EXPECT_EQ(tiling.rowSlot(1, 2), (4 + 2) * 258);
  EXPECT_EQ(tiling.rowStreamSlots(), 3);
  EXPECT_EQ(tiling.streamRow(3, 20), 20 - 3 * 2);
  EXPECT_EQ(tiling.rowStreamUnroll(), 6);
  EXPECT_EQ(tiling.rowStreamIterations(128), 144);
  EXPECT_DOUBLE_EQ(tiling.computedPointsPerOutput(), 256.0 * 144 / (128 * 248));
  EXPECT_EQ(CudaCoreTiling({3, 3}, 32, 8, 1, 1, 128, true).rowStreamUnroll(),
            7);
  // outputs-per-thread 2: 128 threads of two columns each (t and t + 128),
  // 256 - 8 columns of outputs; 0 (automatic) is one column.
  CudaCoreTiling two({1, 1}, 32, 4, 2, 4, 128, /*stream=*/true);
  EXPECT_EQ(two.threads(), 128);
  EXPECT_EQ(two.rowWidth(), 256);
  EXPECT_EQ(two.tile, (llvm::SmallVector<int64_t>{128, 248}));
  EXPECT_EQ(two.rowLength(), 258);
  EXPECT_DOUBLE_EQ(two.computedPointsPerOutput(), 256.0 * 144 / (128 * 248));
  EXPECT_EQ(CudaCoreTiling({1, 1}, 32, 8, 0, 4, 128, true).rowWidth(), 256);
  EXPECT_EQ(CudaCoreTiling({0, 3}, 32, 8, 1, 1, 128, true).rowStreamUnroll(),
            4);
  // 3-D streams through rings, 1-D does not stream.
  EXPECT_FALSE(CudaCoreTiling({1, 1, 1}, 32, 8, 4, 1, 32, true).rowStream());
  EXPECT_FALSE(CudaCoreTiling({1}, 32, 8, 4, 1, 1, true).stream);
}

TEST(RowStream, FusedSteps) {
  for (const Stencil *s : {&kAsymmetric, &kBox, &kRowOnly, &kColumnOnly})
    for (Boundary boundary : kBoundaries)
      for (auto [ny, nx] : {std::pair<int64_t, int64_t>{1, 1},
                            {3, 5},
                            {9, 4},
                            {23, 31},
                            {40, 17}})
        for (int64_t fused = 1; fused <= 3; ++fused)
          for (int64_t steps : {1, 4, 5})
            for (int64_t rows : {1, 5, 16})
              expectSameAsOneStepLaunches(*s, ny, nx, fused, steps, rows,
                                          boundary);
}

// Grids large enough for interior blocks (every row and column of the
// sweep r from the edges), which skip the boundary's checks, beside the
// edge blocks that do not.
TEST(RowStream, InteriorBlocks) {
  interiorBlocks = 0;
  for (const Stencil *s : {&kAsymmetric, &kBox, &kRowOnly, &kColumnOnly})
    for (Boundary boundary : kBoundaries)
      for (int64_t fused = 1; fused <= 3; ++fused)
        expectSameAsOneStepLaunches(*s, 97, 61, fused, 5, 7, boundary);
  EXPECT_GT(interiorBlocks, 100);
}

// More steps than the tile is wide leaves few columns of outputs per block:
// 4 steps of r_x = 1 with 12 threads keep 4.
TEST(RowStream, NarrowTiles) {
  for (Boundary boundary : kBoundaries)
    expectSameAsOneStepLaunches(kBox, 19, 21, 4, 8, 7, boundary,
                                /*threadsX=*/4, /*threadsY=*/3);
}

// outputs-per-thread k: each thread sweeps k columns (rowWidth() = k
// threads), the tile's width and the interior test follow the row's width.
TEST(RowStream, ColumnsPerThread) {
  interiorBlocks = 0;
  for (const Stencil *s : {&kAsymmetric, &kBox, &kRowOnly})
    for (Boundary boundary : kBoundaries)
      for (int64_t columns : {2, 3})
        for (int64_t fused = 1; fused <= 3; ++fused) {
          expectSameAsOneStepLaunches(*s, 23, 31, fused, 5, 5, boundary,
                                      /*threadsX=*/8, /*threadsY=*/1, columns);
          expectSameAsOneStepLaunches(*s, 97, 61, fused, 5, 7, boundary,
                                      /*threadsX=*/4, /*threadsY=*/2, columns);
        }
  EXPECT_GT(interiorBlocks, 50);
}

/// A random irregular pattern of radius up to 3 (r_y and r_x apart): 1 to 8
/// offsets, dyadic weights.
Stencil randomPattern(std::mt19937 &random) {
  Stencil s;
  int64_t ry = random() % 4, rx = random() % 4;
  std::map<std::pair<int64_t, int64_t>, double> chosen;
  int64_t count = 1 + random() % 8;
  for (int64_t k = 0; k < count; ++k) {
    int64_t dy = ry ? int64_t(random() % (2 * ry + 1)) - ry : 0;
    int64_t dx = rx ? int64_t(random() % (2 * rx + 1)) - rx : 0;
    chosen[{dy, dx}] = (int64_t(random() % 9) - 4) / 8.0;
  }
  for (auto [offset, w] : chosen) {
    s.offsets.push_back(offset);
    s.weights.push_back(w);
  }
  return s;
}

// Random irregular patterns, odd grids.
TEST(RowStream, RandomPatterns) {
  std::mt19937 random(2026);
  for (int trial = 0; trial < 24; ++trial) {
    Stencil s = randomPattern(random);
    int64_t ny = 5 + random() % 30, nx = 3 + random() % 30;
    int64_t fused = 1 + random() % 3, rows = 1 + random() % 12;
    Boundary boundary = kBoundaries[random() % 3];
    // Enough threads for the halo: 2 t r_x + 1 at least.
    int64_t threadsX = 2 * fused * s.radii()[1] + 1 + random() % 6;
    expectSameAsOneStepLaunches(s, ny, nx, fused, 2 * fused + 1, rows, boundary,
                                threadsX, /*threadsY=*/1);
  }
}

// Row groups (row-phases N): groups of 2 r_y + 1 rows, the x offsets in N
// phases; every pattern above, 1 to 3 fused steps, 1 to 2 r_x + 1 phases,
// grids with and without interior blocks.
TEST(RowStream, RowGroups) {
  interiorBlocks = 0;
  for (const Stencil *s : {&kAsymmetric, &kBox, &kRowOnly, &kColumnOnly})
    for (Boundary boundary : kBoundaries)
      for (int64_t fused = 1; fused <= 3; ++fused)
        for (int64_t phases = 1; phases <= 2 * s->radii()[1] + 1; ++phases) {
          for (auto [ny, nx] :
               {std::pair<int64_t, int64_t>{1, 1}, {9, 4}, {23, 31}})
            for (int64_t rows : {1, 5, 16})
              expectSameAsOneStepLaunches(*s, ny, nx, fused, 4, rows, boundary,
                                          8, 2, 1, phases);
          expectSameAsOneStepLaunches(*s, 97, 61, fused, 5, 7, boundary, 8, 2,
                                      1, phases);
        }
  EXPECT_GT(interiorBlocks, 100);
}

TEST(RowStream, RowGroupsRandomPatterns) {
  std::mt19937 random(77);
  for (int trial = 0; trial < 24; ++trial) {
    Stencil s = randomPattern(random);
    int64_t ny = 5 + random() % 60, nx = 3 + random() % 40;
    int64_t fused = 1 + random() % 4, rows = 1 + random() % 12;
    Boundary boundary = kBoundaries[random() % 3];
    int64_t phases = 1 + random() % (2 * s.radii()[1] + 1);
    int64_t threadsX = 2 * fused * s.radii()[1] + 1 + random() % 6;
    expectSameAsOneStepLaunches(s, ny, nx, fused, 2 * fused + 1, rows, boundary,
                                threadsX, /*threadsY=*/1, 1, phases);
  }
}

TEST(RowStream, RowGroupsGeometry) {
  // Box-2D49P, 2 steps, 256 threads, 256 rows, 3 phases: groups of 7 rows,
  // 14 sums per level, 40 groups (level 2 completes local rows up to q0 + 0
  // in the group of q0; the last is 6 + 255), the offsets in 3, 2, 2.
  CudaCoreTiling t({3, 3}, 256, 1, 1, 2, 256, /*stream=*/true, false, 1, 3);
  EXPECT_TRUE(t.rowGroups());
  EXPECT_EQ(t.rowGroupRows(), 7);
  EXPECT_EQ(t.rowGroupSlots(), 14);
  EXPECT_EQ(t.rowGroupCount(256), 40);
  EXPECT_EQ(t.rowLength(), 262);
  EXPECT_EQ(t.sharedElements(), 3 * 7 * 262);
  EXPECT_EQ(t.rowGroupRow(0, 1, 2), (7 + 2) * 262);
  EXPECT_EQ(t.rowGroupRow(1, 0, 3), (14 + 3) * 262);
  EXPECT_EQ(t.rowPhaseRange(0), (std::pair<int64_t, int64_t>{-3, -1}));
  EXPECT_EQ(t.rowPhaseRange(1), (std::pair<int64_t, int64_t>{0, 1}));
  EXPECT_EQ(t.rowPhaseRange(2), (std::pair<int64_t, int64_t>{2, 3}));
  // Without row streaming there are no phases.
  EXPECT_FALSE(
      CudaCoreTiling({3, 3}, 32, 8, 1, 2, 1, false, false, 1, 3).rowGroups());
}

} // namespace
