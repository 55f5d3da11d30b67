//===- CudaCoreTilingTest.cpp - The CUDA-core kernel schedule on the CPU --===//
//
// Runs the schedule of CudaCoreTiling (staging, fused steps over shrinking
// regions in two ping-pong buffers, work units, the last step's outputs)
// block by block on the CPU, the way the kernel of
// `--convert-stencil-to-cuda-core` does, and checks that t fused steps per
// launch give bit for bit the grid of one-step launches (halo boundary, every
// step rounded to f32), for 1-D, 2-D and 3-D grids that are not multiples of
// the tile, smaller than the tile, or without interior.
//
//===----------------------------------------------------------------------===//

#include "stencil/Support/CudaCoreTiling.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

using namespace mlir::stencil;

namespace {

using Point = std::vector<int64_t>;

/// A stencil: offsets (outermost first) and weights.
struct Stencil {
  std::vector<Point> offsets;
  std::vector<double> weights;

  int64_t rank() const { return offsets.front().size(); }
  llvm::SmallVector<int64_t> radii() const {
    llvm::SmallVector<int64_t> r(rank(), 0);
    for (const Point &o : offsets)
      for (int64_t d = 0; d < rank(); ++d)
        r[d] = std::max<int64_t>(r[d], std::abs(o[d]));
    return r;
  }
};

/// A dense row-major grid.
struct Grid {
  Point dims;
  std::vector<double> values;

  int64_t index(const Point &p) const {
    int64_t i = 0;
    for (size_t d = 0; d < dims.size(); ++d)
      i = i * dims[d] + p[d];
    return i;
  }
  bool contains(const Point &p) const {
    for (size_t d = 0; d < dims.size(); ++d)
      if (p[d] < 0 || p[d] >= dims[d])
        return false;
    return true;
  }
};

/// Every point of the box [0, shape), row-major order.
std::vector<Point> allPoints(const Point &shape) {
  std::vector<Point> points;
  int64_t count = 1;
  for (int64_t n : shape)
    count *= n;
  for (int64_t i = 0; i < count; ++i) {
    Point p(shape.size());
    int64_t rest = i;
    for (int64_t d = shape.size() - 1; d >= 0; --d) {
      p[d] = rest % shape[d];
      rest /= shape[d];
    }
    points.push_back(p);
  }
  return points;
}

bool isInterior(const Point &p, const Point &dims,
                llvm::ArrayRef<int64_t> radii) {
  for (size_t d = 0; d < dims.size(); ++d)
    if (p[d] < radii[d] || p[d] >= dims[d] - radii[d])
      return false;
  return true;
}

/// `p + q`, component by component.
Point add(Point p, const Point &q) {
  for (size_t d = 0; d < p.size(); ++d)
    p[d] += q[d];
  return p;
}

/// The stencil at one point, in a fixed order, rounded to f32 (the
/// element type of these tests). `read` gives the value at an offset.
template <typename Read>
double applyAt(const Stencil &s, Read read) {
  double sum = 0;
  for (size_t i = 0; i < s.offsets.size(); ++i)
    sum += s.weights[i] * read(s.offsets[i]);
  return static_cast<float>(sum);
}

/// One time step as one launch computes it (the runner's reference): the
/// interior gets the stencil, the rest keeps `out`'s value.
void referenceStep(const Stencil &s, const Grid &in, Grid &out) {
  llvm::SmallVector<int64_t> radii = s.radii();
  for (const Point &p : allPoints(in.dims)) {
    if (!isInterior(p, in.dims, radii))
      continue;
    out.values[out.index(p)] = applyAt(
        s, [&](const Point &o) { return in.values[in.index(add(p, o))]; });
  }
}

/// For each block of a launch of `tiling` on a grid of `dims`, the grid
/// coordinates of local position 0 of its shared buffers (its first output
/// minus the halo).
std::vector<Point> blockCorners(const CudaCoreTiling &tiling,
                                const Point &dims) {
  int64_t rank = tiling.rank;
  Point blocks(rank);
  for (int64_t d = 0; d < rank; ++d)
    blocks[d] = (dims[d] + tiling.tile[d] - 1) / tiling.tile[d];
  std::vector<Point> corners;
  for (Point block : allPoints(blocks)) {
    for (int64_t d = 0; d < rank; ++d)
      block[d] = block[d] * tiling.tile[d] - tiling.halo[d];
    corners.push_back(block);
  }
  return corners;
}

/// One launch of the kernel of `tiling`: every block runs the schedule.
void tiledLaunch(const Stencil &s, const CudaCoreTiling &tiling,
                 const Grid &in, Grid &out) {
  int64_t rank = tiling.rank;
  const double unset = std::numeric_limits<double>::quiet_NaN();
  for (const Point &corner : blockCorners(tiling, in.dims)) {
    auto toGrid = [&](const Point &local) { return add(local, corner); };
    // Reads of a buffer must stay inside it and find a written value.
    std::vector<double> smem(tiling.sharedElements(), unset);
    auto read = [&](int64_t buffer, const Point &local) {
      for (int64_t d = 0; d < rank; ++d) {
        EXPECT_GE(local[d], 0);
        EXPECT_LT(local[d], tiling.smemShape[d]);
      }
      double v = smem.at(buffer + tiling.linearize(local));
      EXPECT_FALSE(std::isnan(v)) << "read of a value no step wrote";
      return v;
    };
    // 1. Staging: zero outside the grid.
    for (const Point &local : allPoints(Point(tiling.smemShape.begin(),
                                              tiling.smemShape.end()))) {
      Point g = toGrid(local);
      smem[tiling.linearize(local)] =
          in.contains(g) ? in.values[in.index(g)] : 0.0;
    }
    // 2. Intermediate steps over their regions, unit by unit.
    for (int64_t step = 1; step < tiling.steps; ++step) {
      int64_t source = tiling.sourceOffset(step);
      int64_t dest = tiling.destOffset(step);
      std::fill(smem.begin() + dest, smem.begin() + dest + tiling.smemSize,
                unset);
      llvm::SmallVector<int64_t> lo = tiling.regionLo(step);
      llvm::SmallVector<int64_t> shape = tiling.regionShape(step);
      std::vector<bool> covered(tiling.smemSize, false);
      for (int64_t unit = 0; unit < tiling.numUnits(step); ++unit) {
        for (int64_t k = 0; k < tiling.unitPoints(); ++k) {
          llvm::SmallVector<int64_t> origin = tiling.unitOrigin(step, unit);
          Point local(origin.begin(), origin.end());
          if (rank > 1)
            local[rank - 2] += k;
          for (int64_t d = 0; d < rank; ++d) {
            ASSERT_GE(local[d], lo[d]);
            ASSERT_LT(local[d], lo[d] + shape[d]);
          }
          double v = read(source, local);
          if (isInterior(toGrid(local), in.dims, tiling.radii))
            v = applyAt(
                s, [&](const Point &o) { return read(source, add(local, o)); });
          smem[dest + tiling.linearize(local)] = v;
          covered[tiling.linearize(local)] = true;
        }
      }
      for (const Point &p : allPoints(Point(shape.begin(), shape.end()))) {
        Point local(p);
        for (int64_t d = 0; d < rank; ++d)
          local[d] += lo[d];
        EXPECT_TRUE(covered[tiling.linearize(local)]) << "step " << step;
      }
    }
    // 3-4. The last step: each thread's outputs, interior ones stored.
    int64_t source = tiling.sourceOffset(tiling.steps);
    for (int64_t thread = 0; thread < tiling.threads(); ++thread) {
      for (int64_t k = 0; k < tiling.outputsPerThread(); ++k) {
        llvm::SmallVector<int64_t> position =
            tiling.outputPosition(thread, k);
        Point local(position.begin(), position.end());
        Point g = toGrid(local);
        if (!in.contains(g) || !isInterior(g, in.dims, tiling.radii))
          continue;
        out.values[out.index(g)] = applyAt(
            s, [&](const Point &o) { return read(source, add(local, o)); });
      }
    }
  }
}

/// One launch of the streaming kernel of `tiling` (CudaCoreTiling's
/// streaming schedule): every block sweeps its planes through the rings.
/// Besides the values, the model checks the ring itself: a read finds the
/// plane it asks for in its slot (not one that overwrote it), and between
/// two barriers no slot is both written and read (the kernel's threads run
/// such a stage in any order).
void streamedLaunch(const Stencil &s, const CudaCoreTiling &tiling,
                    const Grid &in, Grid &out) {
  ASSERT_TRUE(tiling.stream);
  const int64_t rank = 3;
  const double unset = std::numeric_limits<double>::quiet_NaN();
  const int64_t plane = tiling.planeSize();
  const int64_t slots = tiling.steps * tiling.ringSlots();
  for (const Point &corner : blockCorners(tiling, in.dims)) {
    auto toGrid = [&](const Point &local) { return add(local, corner); };
    std::vector<double> smem(tiling.sharedElements(), unset);
    // The local z of the plane each slot holds, and the slots written and
    // read since the last barrier.
    std::vector<int64_t> holds(slots, -1);
    std::vector<bool> written(slots, false), readSlots(slots, false);
    auto slotOf = [&](int64_t level, int64_t localZ) {
      return tiling.ringOffset(level, localZ) / plane;
    };
    auto barrier = [&] {
      for (int64_t k = 0; k < slots; ++k) {
        EXPECT_FALSE(written[k] && readSlots[k])
            << "slot " << k << " written and read between two barriers";
        written[k] = readSlots[k] = false;
      }
    };
    auto yxIndex = [&](const Point &local) {
      return local[1] * tiling.smemStrides[1] + local[2];
    };
    auto read = [&](int64_t level, const Point &local) {
      EXPECT_GE(local[0], 0);
      EXPECT_LT(local[0], tiling.streamIterations());
      for (int64_t d = 1; d < rank; ++d) {
        EXPECT_GE(local[d], 0);
        EXPECT_LT(local[d], tiling.smemShape[d]);
      }
      int64_t slot = slotOf(level, local[0]);
      EXPECT_EQ(holds[slot], local[0]) << "level " << level << " overwritten";
      readSlots[slot] = true;
      double v = smem.at(tiling.ringOffset(level, local[0]) + yxIndex(local));
      EXPECT_FALSE(std::isnan(v)) << "read of a value no stage wrote";
      return v;
    };
    auto startWrite = [&](int64_t level, int64_t localZ) {
      int64_t slot = slotOf(level, localZ);
      holds[slot] = localZ;
      written[slot] = true;
      std::fill(smem.begin() + slot * plane, smem.begin() + (slot + 1) * plane,
                unset);
      return tiling.ringOffset(level, localZ);
    };
    auto stencilAt = [&](int64_t level, const Point &local) {
      return applyAt(
          s, [&](const Point &o) { return read(level, add(local, o)); });
    };
    for (int64_t i = 0; i < tiling.streamIterations(); ++i) {
      // Stage input plane i: zero outside the grid.
      int64_t base = startWrite(0, i);
      for (const Point &yx :
           allPoints(Point{tiling.smemShape[1], tiling.smemShape[2]})) {
        Point g = toGrid(Point{i, yx[0], yx[1]});
        smem[base + yxIndex(Point{i, yx[0], yx[1]})] =
            in.contains(g) ? in.values[in.index(g)] : 0.0;
      }
      barrier();
      for (int64_t step = 1; step <= tiling.steps; ++step) {
        int64_t z = i - step * tiling.radii[0];
        if (i < 2 * step * tiling.radii[0])
          break;
        if (step == tiling.steps) {
          // The last step: each thread's outputs of plane z.
          for (int64_t thread = 0; thread < tiling.threads(); ++thread)
            for (int64_t k = 0; k < tiling.outputs; ++k) {
              llvm::SmallVector<int64_t> position =
                  tiling.outputPosition(thread, k);
              Point local{z, position[1], position[2]};
              Point g = toGrid(local);
              if (z - tiling.halo[0] >= tiling.planes || !in.contains(g) ||
                  !isInterior(g, in.dims, tiling.radii))
                continue;
              out.values[out.index(g)] = stencilAt(step - 1, local);
            }
          break;
        }
        llvm::SmallVector<int64_t> lo = tiling.regionLo(step);
        llvm::SmallVector<int64_t> shape = tiling.regionShape(step);
        // Units write after all reads of the stage (the model's order).
        std::vector<std::pair<Point, double>> results;
        for (int64_t unit = 0; unit < tiling.planeUnits(step); ++unit)
          for (int64_t k = 0; k < tiling.outputs; ++k) {
            llvm::SmallVector<int64_t> origin = tiling.unitOrigin(step, unit);
            Point local{z, origin[1] + k, origin[2]};
            for (int64_t d = 1; d < rank; ++d) {
              ASSERT_GE(local[d], lo[d]);
              ASSERT_LT(local[d], lo[d] + shape[d]);
            }
            double v = read(step - 1, local);
            if (isInterior(toGrid(local), in.dims, tiling.radii))
              v = stencilAt(step - 1, local);
            results.push_back({local, v});
          }
        int64_t dest = startWrite(step, z);
        for (auto &[local, v] : results)
          smem[dest + yxIndex(local)] = v;
        for (const Point &yx : allPoints(Point{shape[1], shape[2]}))
          EXPECT_FALSE(std::isnan(
              smem[dest + yxIndex(Point{z, yx[0] + lo[1], yx[1] + lo[2]})]))
              << "step " << step << " left a point of its region";
        barrier();
      }
    }
    barrier();
  }
}

/// Whether 3-D offset `a` comes before `b` in the order in which the
/// staged, ring and plane-sums kernels add an output's points: dz, then dx,
/// then dy.
bool precedesInKernels(const Point &a, const Point &b) {
  return std::make_tuple(a[0], a[2], a[1]) < std::make_tuple(b[0], b[2], b[1]);
}

/// The order of the plane sums with vector columns (vectorWidth > 1): dz,
/// then dy, then dx.
bool precedesInVectorSums(const Point &a, const Point &b) {
  return std::make_tuple(a[0], a[1], a[2]) < std::make_tuple(b[0], b[1], b[2]);
}

/// Box-3D27P with asymmetric weights (0.04, 0.05, ... in point order).
Stencil makeAsymmetricBox3D() {
  Stencil box;
  for (const Point &p : allPoints({3, 3, 3})) {
    box.offsets.push_back(add(p, {-1, -1, -1}));
    box.weights.push_back(0.01 * (box.offsets.size() + 3));
  }
  return box;
}

/// `s` with its points (and weights) sorted by `precedes`: the order in
/// which the reference then sums them.
Stencil sortedBy(const Stencil &s,
                 bool (*precedes)(const Point &, const Point &)) {
  std::vector<size_t> order(s.offsets.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return precedes(s.offsets[a], s.offsets[b]);
  });
  Stencil sorted;
  for (size_t i : order) {
    sorted.offsets.push_back(s.offsets[i]);
    sorted.weights.push_back(s.weights[i]);
  }
  return sorted;
}

/// One launch of the plane-sums kernel of `tiling` (CudaCoreTiling's
/// planeSums: CudaCorePlaneSums.cpp), thread by thread and iteration by
/// iteration: input plane i staged in slot i mod 2, then per column dx and
/// input row iy one read, added into the partial sum of output plane
/// i - dz of every output k it feeds (dy = iy - k) in slot
/// (i - dz) mod planeSumSlots(); plane i - r_z stored if it is one of the
/// block's. Besides the values the model checks the two slots (a read
/// finds the plane it asks for; no slot is written and read between two
/// barriers) and records which points each stored sum combined, in order:
/// it must be every point once, dz-major, then dx, then dy (the staged and
/// ring kernels' order, so that the kernels agree bit for bit).
///
/// With vector columns (vectorWidth W > 1) thread t owns the W columns
/// outputPosition(t, k, c), c < W; the model reads row by row (iy
/// ascending, then every output k the row feeds, dx ascending, every dz and
/// column c), checks that a row, a thread's first column and a block's
/// corner (in grid columns) are multiples of W, that every value read lies
/// in the W-aligned vectors covering columns dx_min .. W - 1 + dx_max, and
/// expects the order dz, dy, dx.
void planeSumLaunch(const Stencil &s, const CudaCoreTiling &tiling,
                    const Grid &in, Grid &out) {
  ASSERT_TRUE(tiling.planeSums);
  ASSERT_EQ(tiling.ringSlots(), 2);
  const double unset = std::numeric_limits<double>::quiet_NaN();
  const int64_t plane = tiling.planeSize();
  const int64_t slots = tiling.planeSumSlots();
  const int64_t unroll = tiling.planeSumUnroll();
  const int64_t rz = tiling.radii[0], haloZ = tiling.halo[0];
  ASSERT_GE(unroll, 1);
  ASSERT_LE(unroll, slots);
  // The points by column dx, then row dy, dz ascending; and the order in
  // which a complete sum must have combined them.
  std::map<int64_t, std::map<int64_t, std::vector<std::pair<int64_t, double>>>>
      columns;
  std::vector<Point> expectedOrder;
  for (size_t p = 0; p < s.offsets.size(); ++p) {
    const Point &o = s.offsets[p];
    columns[o[2]][o[1]].push_back({o[0], s.weights[p]});
    expectedOrder.push_back(o);
  }
  for (auto &[dx, rows] : columns)
    for (auto &[dy, uses] : rows)
      std::sort(uses.begin(), uses.end());
  const int64_t width = tiling.vectorWidth;
  std::sort(expectedOrder.begin(), expectedOrder.end(),
            width > 1 ? precedesInVectorSums : precedesInKernels);
  // The points by row dy, then column dx (vector columns).
  std::map<int64_t, std::map<int64_t, std::vector<std::pair<int64_t, double>>>>
      rowsOfPoints;
  for (auto &[dx, rows] : columns)
    for (auto &[dy, uses] : rows)
      rowsOfPoints[dy][dx] = uses;
  int64_t dxMin = columns.begin()->first, dxMax = columns.rbegin()->first;
  EXPECT_EQ(tiling.smemStrides[1] % width, 0) << "rows start on vectors";
  EXPECT_EQ(tiling.halo[2] % width, 0);
  EXPECT_GE(tiling.halo[2], tiling.radii[2]);
  struct Sum {
    double value = 0;
    std::vector<Point> terms;
  };
  for (const Point &corner : blockCorners(tiling, in.dims)) {
    int64_t rows =
        std::min(tiling.planes, in.dims[0] - (corner[0] + haloZ));
    int64_t iterations = tiling.planeSumIterations(rows);
    EXPECT_EQ(iterations % unroll, 0);
    EXPECT_GE(iterations, rows + 2 * rz);
    std::vector<double> smem(tiling.sharedElements(), unset);
    int64_t holds[2] = {-1, -1};
    bool written[2] = {false, false}, readSlot[2] = {false, false};
    auto barrier = [&] {
      for (int k = 0; k < 2; ++k) {
        EXPECT_FALSE(written[k] && readSlot[k])
            << "slot " << k << " written and read between two barriers";
        written[k] = readSlot[k] = false;
      }
    };
    auto yxIndex = [&](int64_t y, int64_t x) {
      return y * tiling.smemStrides[1] + x;
    };
    // A read of (y, x) in slot `slot`, which must hold plane i.
    auto read = [&](int64_t slot, int64_t i, int64_t y, int64_t x) {
      EXPECT_GE(y, 0);
      EXPECT_LT(y, tiling.smemShape[1]);
      EXPECT_GE(x, 0);
      EXPECT_LT(x, tiling.smemShape[2]);
      EXPECT_EQ(holds[slot], i) << "plane overwritten";
      readSlot[slot] = true;
      double v = smem.at(slot * plane + yxIndex(y, x));
      EXPECT_FALSE(std::isnan(v)) << "read of a value no stage wrote";
      return v;
    };
    EXPECT_EQ((corner[2] % width + width) % width, 0);
    std::vector<Sum> acc(tiling.threads() * tiling.outputs * width * slots);
    auto sumAt = [&](int64_t thread, int64_t k, int64_t slot,
                     int64_t c = 0) -> Sum & {
      slot = ((slot % slots) + slots) % slots;
      return acc[((thread * tiling.outputs + k) * width + c) * slots + slot];
    };
    for (int64_t i = 0; i < iterations; ++i) {
      // Stage input plane i: zero outside the grid.
      int64_t slot = tiling.ringOffset(0, i) / plane;
      ASSERT_LT(slot, 2);
      holds[slot] = i;
      written[slot] = true;
      for (const Point &yx :
           allPoints(Point{tiling.smemShape[1], tiling.smemShape[2]})) {
        Point g = add(Point{i, yx[0], yx[1]}, corner);
        smem[slot * plane + yxIndex(yx[0], yx[1])] =
            in.contains(g) ? in.values[in.index(g)] : 0.0;
      }
      barrier();
      int64_t u = i % unroll;
      for (int64_t thread = 0; thread < tiling.threads(); ++thread) {
        llvm::SmallVector<int64_t> first = tiling.outputPosition(thread, 0);
        if (width > 1) {
          EXPECT_EQ(first[2] % width, 0) << "a thread's columns start a vector";
          for (int64_t iy = rowsOfPoints.begin()->first;
               iy < tiling.outputs + rowsOfPoints.rbegin()->first; ++iy)
            for (int64_t k = 0; k < tiling.outputs; ++k) {
              auto row = rowsOfPoints.find(iy - k);
              if (row == rowsOfPoints.end())
                continue;
              for (const auto &[dx, uses] : row->second)
                for (auto [dz, w] : uses)
                  for (int64_t c = 0; c < width; ++c) {
                    int64_t y = first[1] + iy, x = first[2] + c + dx;
                    // In the vectors the kernel loads for the row.
                    EXPECT_GE(x, first[2] + llvm::divideFloorSigned(
                                                dxMin, width) * width);
                    EXPECT_LT(x, first[2] + (llvm::divideFloorSigned(
                                                 width - 1 + dxMax, width) +
                                             1) * width);
                    double v = read(slot, i, y, x);
                    Sum &sum = sumAt(thread, k, u - dz, c);
                    sum.value += w * v;
                    sum.terms.push_back(Point{dz, iy - k, dx});
                  }
            }
          continue;
        }
        for (const auto &[dx, rowsOfColumn] : columns) {
          int64_t dyMin = rowsOfColumn.begin()->first;
          int64_t dyMax = rowsOfColumn.rbegin()->first;
          for (int64_t iy = dyMin; iy < tiling.outputs + dyMax; ++iy) {
            double v = read(slot, i, first[1] + iy, first[2] + dx);
            for (int64_t k = 0; k < tiling.outputs; ++k) {
              auto it = rowsOfColumn.find(iy - k);
              if (it == rowsOfColumn.end())
                continue;
              for (auto [dz, w] : it->second) {
                Sum &sum = sumAt(thread, k, u - dz);
                sum.value += w * v;
                sum.terms.push_back(Point{dz, iy - k, dx});
              }
            }
          }
        }
      }
      // Output plane i - r_z is complete.
      int64_t localZ = i - rz;
      for (int64_t thread = 0; thread < tiling.threads(); ++thread)
        for (int64_t kc = 0; kc < tiling.outputs * width; ++kc) {
          int64_t k = kc / width, c = kc % width;
          Sum done = std::exchange(sumAt(thread, k, u - rz, c), Sum());
          if (localZ < haloZ || localZ >= rows + haloZ)
            continue;
          llvm::SmallVector<int64_t> position =
              tiling.outputPosition(thread, k, c);
          Point g = add(Point{localZ, position[1], position[2]}, corner);
          if (!in.contains(g) || !isInterior(g, in.dims, tiling.radii))
            continue;
          EXPECT_EQ(done.terms, expectedOrder)
              << "the sum of plane " << g[0] << " combined other points";
          out.values[out.index(g)] = static_cast<float>(done.value);
        }
      // The group's end: the next group's slot s is this one's slot
      // (s + unroll) mod P (the kernel's rotated yield; none where P
      // divides the group).
      if (u == unroll - 1)
        for (size_t first = 0; first < acc.size(); first += slots)
          std::rotate(acc.begin() + first,
                      acc.begin() + first + unroll % slots,
                      acc.begin() + first + slots);
    }
    barrier();
  }
}

/// A deterministic input in [-1, 1).
Grid makeInput(const Point &dims) {
  Grid g{dims, {}};
  int64_t count = 1;
  for (int64_t n : dims)
    count *= n;
  uint64_t state = 12345;
  for (int64_t i = 0; i < count; ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    g.values.push_back(static_cast<float>((state >> 11) * 0x1p-52 - 1.0));
  }
  return g;
}

/// `steps` steps as the host code runs them: floor(steps / t) launches of
/// the t-step kernel, then one of the (steps mod t)-step kernel, ping-pong
/// after the halo copy. Compared with `steps` one-step launches.
/// `planeSums` asks a streamed launch of one step for the plane sums.
void expectSameAsOneStepLaunches(const Stencil &s, const Point &dims,
                                 int64_t fused, int64_t steps,
                                 int64_t planes = 1, bool stream = false,
                                 bool planeSums = false,
                                 int64_t vectorWidth = 1,
                                 int64_t planeSumGroup = 0) {
  SCOPED_TRACE(::testing::Message()
               << "rank " << dims.size() << ", grid " << dims[0] << ","
               << dims[dims.size() - 1] << ", fused " << fused << ", steps "
               << steps << ", planes " << planes
               << (stream ? ", streamed" : "")
               << (planeSums ? ", plane sums" : "") << ", vector width "
               << vectorWidth << ", group " << planeSumGroup);
  Grid input = makeInput(dims);
  Grid a = input, b = input;
  for (int64_t t = 0; t < steps; ++t) {
    referenceStep(s, a, b);
    std::swap(a, b);
  }

  CudaCoreTiling full(s.radii(), /*threadsX=*/4, /*threadsY=*/2,
                      /*outputs=*/3, fused, planes, stream, planeSums,
                      vectorWidth);
  CudaCoreTiling tail(s.radii(), 4, 2, 3, std::max<int64_t>(steps % fused, 1),
                      planes, stream, planeSums, vectorWidth);
  full.planeSumGroup = tail.planeSumGroup = planeSumGroup;
  auto launch = [&](const CudaCoreTiling &tiling, const Grid &from, Grid &to) {
    EXPECT_EQ(tiling.planeSums, planeSums && tiling.steps == 1);
    if (tiling.planeSums)
      planeSumLaunch(s, tiling, from, to);
    else if (stream)
      streamedLaunch(s, tiling, from, to);
    else
      tiledLaunch(s, tiling, from, to);
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
    ASSERT_EQ(x.values[i], a.values[i]) << "at linear index " << i;
}

const Stencil kAsymmetric1D = {{{-2}, {-1}, {0}, {1}},
                               {0.125, 0.25, 0.5, 0.0625}};
// r_y = 2, r_x = 1: the region and the row groups differ along y and x.
const Stencil kAsymmetric2D = {{{-2, 0}, {-1, 1}, {0, -1}, {0, 0}, {1, 0}},
                               {0.1, 0.15, 0.2, 0.4, 0.15}};
const Stencil kAsymmetric3D = {
    {{-1, 0, 0}, {0, -1, 1}, {0, 0, -2}, {0, 0, 0}, {0, 1, 0}, {1, 0, 1}},
    {0.1, 0.15, 0.05, 0.4, 0.2, 0.1}};

TEST(CudaCoreTiling, Geometry2D) {
  // The default tiling (32 x 8 threads, 4 outputs) of a radius-1 stencil
  // fusing 4 steps: a 32 x 32 tile with a halo of 4 per side.
  CudaCoreTiling tiling({1, 1}, 32, 8, 4, 4);
  EXPECT_EQ(tiling.tile, (llvm::SmallVector<int64_t>{32, 32}));
  EXPECT_EQ(tiling.halo, (llvm::SmallVector<int64_t>{4, 4}));
  EXPECT_EQ(tiling.smemShape, (llvm::SmallVector<int64_t>{40, 40}));
  EXPECT_EQ(tiling.sharedElements(), 2 * 40 * 40);
  // Step 1 computes 38 x 38 points: 10 groups of rows (the last one starts
  // at row 34) times 38 columns.
  EXPECT_EQ(tiling.regionLo(1), (llvm::SmallVector<int64_t>{1, 1}));
  EXPECT_EQ(tiling.regionShape(1), (llvm::SmallVector<int64_t>{38, 38}));
  EXPECT_EQ(tiling.numUnits(1), 10 * 38);
  EXPECT_EQ(tiling.unitOrigin(1, 9 * 38 + 5),
            (llvm::SmallVector<int64_t>{1 + 34, 1 + 5}));
  // The last step is the tile: the thread mapping of a one-step kernel.
  EXPECT_EQ(tiling.regionShape(4), (llvm::SmallVector<int64_t>{32, 32}));
  EXPECT_EQ(tiling.outputPosition(33, 2),
            (llvm::SmallVector<int64_t>{4 + 4 + 2, 4 + 1}));
  EXPECT_EQ(tiling.sourceOffset(4), 40 * 40);
  EXPECT_EQ(tiling.destOffset(4), 0);
  // Work: steps 1-3 compute 10 x 4 x 38, 9 x 4 x 36 and 9 x 4 x 34 points
  // (groups of 4 rows; the last group of 38 or 34 rows overlaps the one
  // before it), step 4 the 32 x 32 tile.
  EXPECT_DOUBLE_EQ(tiling.computedPointsPerOutput(),
                   (1520.0 + 1296 + 1224 + 1024) / (4 * 1024));
  EXPECT_DOUBLE_EQ(CudaCoreTiling({1, 1}, 32, 8, 4, 1).computedPointsPerOutput(),
                   1.0);
}

TEST(CudaCoreTiling, OneStepHasOneBuffer) {
  CudaCoreTiling tiling({0, 2, 1}, 32, 8, 4, 1);
  EXPECT_EQ(tiling.halo, (llvm::SmallVector<int64_t>{0, 2, 1}));
  EXPECT_EQ(tiling.sharedElements(), 1 * 36 * 34);
  EXPECT_EQ(tiling.sourceOffset(1), 0);
}

TEST(CudaCoreTiling, FusedSteps1D) {
  for (int64_t n : {1, 3, 5, 24, 50, 97})
    for (int64_t fused = 1; fused <= 4; ++fused)
      for (int64_t steps : {1, 2, 3, 5, 8})
        expectSameAsOneStepLaunches(kAsymmetric1D, {n}, fused, steps);
}

TEST(CudaCoreTiling, FusedSteps2D) {
  for (Point dims : {Point{1, 1}, Point{4, 3}, Point{5, 3}, Point{13, 29},
                     Point{40, 17}})
    for (int64_t fused = 1; fused <= 4; ++fused)
      for (int64_t steps : {1, 3, 4, 7})
        expectSameAsOneStepLaunches(kAsymmetric2D, dims, fused, steps);
}

TEST(CudaCoreTiling, FusedSteps3D) {
  for (Point dims : {Point{2, 3, 5}, Point{5, 9, 11}, Point{7, 13, 6}})
    for (int64_t fused = 1; fused <= 3; ++fused)
      for (int64_t steps : {1, 2, 5})
        expectSameAsOneStepLaunches(kAsymmetric3D, dims, fused, steps);
}

// Several output planes per block: z extents that are not multiples of the
// planes, smaller than them, and one plane.
TEST(CudaCoreTiling, PlanesPerBlock3D) {
  for (Point dims : {Point{1, 3, 5}, Point{2, 3, 5}, Point{5, 9, 11},
                     Point{9, 7, 6}})
    for (int64_t planes : {2, 3, 4})
      for (int64_t fused = 1; fused <= 3; ++fused)
        for (int64_t steps : {1, 2, 5})
          expectSameAsOneStepLaunches(kAsymmetric3D, dims, fused, steps,
                                      planes);
}

// Streaming: chunks of planes that do not divide the z extent, exceed it,
// or are one plane; z radii 1 and 2 and 0 (a stencil without z offsets
// still streams: its ring has two slots).
TEST(CudaCoreTiling, Streaming3D) {
  const Stencil radiusTwoZ = {
      {{-2, 0, 0}, {-1, 1, 0}, {0, 0, -1}, {0, 0, 0}, {1, 0, 1}, {2, -1, 0}},
      {0.1, 0.15, 0.05, 0.4, 0.2, 0.1}};
  const Stencil flatZ = {{{0, -1, 0}, {0, 0, 1}, {0, 0, 0}, {0, 1, -1}},
                         {0.2, 0.3, 0.4, 0.1}};
  for (const Stencil *s : {&kAsymmetric3D, &radiusTwoZ, &flatZ})
    for (Point dims :
         {Point{1, 3, 5}, Point{2, 3, 5}, Point{5, 9, 11}, Point{13, 7, 6}})
      for (int64_t planes : {1, 3, 8})
        for (int64_t fused = 1; fused <= 3; ++fused)
          for (int64_t steps : {1, 2, 5})
            expectSameAsOneStepLaunches(*s, dims, fused, steps, planes,
                                        /*stream=*/true);
}

// Plane sums: one step per launch keeps 2 r_z + 1 partial sums per output
// and two staged planes; the stencils' points are listed in the kernels'
// order (dz, dx, dy), so that the reference sums in the same order and the
// comparison is bit for bit. Radii 1, 2 and 0 along z, random irregular
// patterns, blocks of 1 to 64 planes, grids thinner than a block or than
// the stencil. Fused steps stay on the ring (planeSums is off there).
TEST(CudaCoreTiling, PlaneSums3D) {
  std::vector<Stencil> stencils = {
      kAsymmetric3D,
      {{{-2, 0, 0}, {-1, 1, 0}, {0, 0, -1}, {0, 0, 0}, {1, 0, 1}, {2, -1, 0}},
       {0.1, 0.15, 0.05, 0.4, 0.2, 0.1}},
      {{{0, -1, 0}, {0, 0, 1}, {0, 0, 0}, {0, 1, -1}}, {0.2, 0.3, 0.4, 0.1}}};
  // Box-3D27P with asymmetric weights, and random patterns of radius <= 2.
  Stencil box = makeAsymmetricBox3D();
  stencils.push_back(box);
  uint64_t state = 99;
  auto next = [&](int64_t n) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<int64_t>((state >> 33) % n);
  };
  for (int pattern = 0; pattern < 4; ++pattern) {
    Stencil random;
    std::set<Point> seen;
    for (int64_t n = 2 + next(8); n > 0; --n) {
      Point o{next(5) - 2, next(5) - 2, next(5) - 2};
      if (seen.insert(o).second) {
        random.offsets.push_back(o);
        random.weights.push_back(0.03 * (1 + next(30)));
      }
    }
    stencils.push_back(random);
  }
  for (const Stencil &s : stencils)
    for (Point dims : {Point{1, 3, 5}, Point{4, 3, 5}, Point{5, 9, 11},
                       Point{13, 7, 6}, Point{70, 5, 6}})
      for (int64_t planes : {1, 3, 8, 64})
        for (int64_t fused : {1, 2})
          expectSameAsOneStepLaunches(sortedBy(s, precedesInKernels), dims,
                                      fused, /*steps=*/3, planes,
                                      /*stream=*/true, /*planeSums=*/true);
}

// Vector columns: the plane sums with W = 2, 4, 8 adjacent columns per
// thread (rows of the stencil, then dx, in each plane) against one-step
// launches of the reference summing in the same order (dz, dy, dx), bit
// for bit; rows that are not a multiple of W, grids narrower than a block,
// radii 0 to 2 along x.
TEST(CudaCoreTiling, PlaneSumsVectorColumns3D) {
  Stencil box = makeAsymmetricBox3D();
  std::vector<Stencil> stencils = {
      kAsymmetric3D, box,
      {{{-2, 0, 0}, {-1, 1, 0}, {0, 0, -1}, {0, 0, 0}, {1, 0, 1}, {2, -1, 0}},
       {0.1, 0.15, 0.05, 0.4, 0.2, 0.1}},
      {{{0, -1, 0}, {0, 0, 0}, {0, 1, 0}, {1, 0, 0}}, {0.2, 0.3, 0.4, 0.1}}};
  for (int64_t width : {2, 4, 8})
    for (const Stencil &s : stencils)
      for (Point dims : {Point{4, 3, 5}, Point{5, 9, 16}, Point{13, 7, 67},
                         Point{6, 5, 72}})
        for (int64_t planes : {1, 8})
          expectSameAsOneStepLaunches(sortedBy(s, precedesInVectorSums),
                                      dims, /*fused=*/1, /*steps=*/2, planes,
                                      /*stream=*/true, /*planeSums=*/true,
                                      width);
}

// Shorter groups (CudaCoreTiling::limitPlaneSumUnroll): U < P iterations
// per group, the sums rotated by U at the group's end, bit for bit the same
// as one-step launches, for every U from 1 to P - 1, radii 1 and 2 along z,
// one column and vector columns; blocks whose planes are not a multiple of
// U.
TEST(CudaCoreTiling, PlaneSumsShortGroups) {
  Stencil box = makeAsymmetricBox3D();
  Stencil deep = {
      {{-2, 0, 0}, {-1, 1, 0}, {0, 0, -1}, {0, 0, 0}, {1, 0, 1}, {2, -1, 0}},
      {0.1, 0.15, 0.05, 0.4, 0.2, 0.1}};
  for (const Stencil &s : {box, deep}) {
    int64_t slots = 2 * s.radii()[0] + 1;
    for (int64_t group = 1; group < slots; ++group)
      for (Point dims : {Point{5, 9, 16}, Point{13, 7, 8}})
        for (int64_t planes : {1, 3, 8})
          for (int64_t width : {1, 4}) {
            const Stencil sorted = sortedBy(
                s, width > 1 ? precedesInVectorSums : precedesInKernels);
            expectSameAsOneStepLaunches(sorted, dims, /*fused=*/1,
                                        /*steps=*/2, planes,
                                        /*stream=*/true, /*planeSums=*/true,
                                        width, group);
          }
  }
}

TEST(CudaCoreTiling, VectorColumnsGeometry) {
  // Box-3D27P, 32 x 4 threads, 2 outputs, vector width 4: 128 columns per
  // block, the halo along x rounded up to 4, planes of 10 x 136.
  CudaCoreTiling tiling({1, 1, 1}, 32, 4, 2, 1, 64, /*stream=*/true,
                        /*planeSums=*/true, /*vectorWidth=*/4);
  EXPECT_EQ(tiling.vectorWidth, 4);
  EXPECT_EQ(tiling.tile, (llvm::SmallVector<int64_t>{64, 8, 128}));
  EXPECT_EQ(tiling.halo, (llvm::SmallVector<int64_t>{1, 1, 4}));
  EXPECT_EQ(tiling.smemShape[1], 10);
  EXPECT_EQ(tiling.smemShape[2], 136);
  EXPECT_EQ(tiling.sharedElements(), 2 * 10 * 136);
  EXPECT_EQ(tiling.outputPosition(33, 1, 3),
            (llvm::SmallVector<int64_t>{1, 1 + 2 + 1, 4 + 4 + 3}));
  // Radius 5 along x with width 4: a halo of 8.
  EXPECT_EQ(CudaCoreTiling({1, 1, 5}, 32, 4, 2, 1, 8, true, true, 4).halo[2],
            8);
  // Only the plane sums take vector columns.
  EXPECT_EQ(CudaCoreTiling({1, 1, 1}, 32, 4, 2, 2, 64, true, true, 4)
                .vectorWidth,
            1);
  EXPECT_EQ(CudaCoreTiling({1, 1, 1}, 32, 4, 2, 1, 64, true, false, 4)
                .vectorWidth,
            1);
}

TEST(CudaCoreTiling, PlaneSumsGeometry) {
  // Box-3D27P, 32 x 8 threads, 4 outputs, 64 planes: two planes of 36 x 34
  // (rather than the ring's four), 3 partial sums per output, 66 iterations
  // (64 + 2 rounded up to whole groups of 3).
  CudaCoreTiling tiling({1, 1, 1}, 32, 8, 4, 1, 64, /*stream=*/true,
                        /*planeSums=*/true);
  ASSERT_TRUE(tiling.planeSums);
  EXPECT_EQ(tiling.ringSlots(), 2);
  EXPECT_EQ(tiling.sharedElements(), 2 * tiling.planeSize());
  EXPECT_EQ(tiling.planeSumSlots(), 3);
  EXPECT_EQ(tiling.planeSumIterations(64), 66);
  EXPECT_EQ(tiling.planeSumIterations(65), 69);
  EXPECT_DOUBLE_EQ(tiling.computedPointsPerOutput(), 1.0);
  // Radius 2 along z: 5 sums; a block of 7 planes runs 15 iterations.
  CudaCoreTiling r2({2, 1, 1}, 32, 8, 4, 1, 7, true, true);
  EXPECT_EQ(r2.planeSumSlots(), 5);
  EXPECT_EQ(r2.planeSumIterations(7), 15);
  // The groups: P iterations up to kMaxUnrolledPlaneSumTerms FMAs
  // unrolled (Box-3D27P, 4 outputs: 3 x 108); a star of radius 12 (73
  // points, 292 FMAs per plane) 5 of its 25 iterations; a line of 255
  // points along z 1.
  tiling.limitPlaneSumUnroll(27);
  EXPECT_EQ(tiling.planeSumUnroll(), 3);
  CudaCoreTiling star12({12, 12, 12}, 32, 8, 4, 1, 64, true, true);
  star12.limitPlaneSumUnroll(73);
  EXPECT_EQ(star12.planeSumUnroll(), 5);
  EXPECT_EQ(star12.planeSumIterations(64), 18 * 5);
  EXPECT_DOUBLE_EQ(star12.computedPointsPerOutput(), 66.0 / 64);
  // Four columns of two outputs of Box-3D27P: 3 x 216, whole.
  CudaCoreTiling vector({1, 1, 1}, 32, 4, 2, 1, 64, true, true, 4);
  vector.limitPlaneSumUnroll(27);
  EXPECT_EQ(vector.planeSumUnroll(), 3);
  CudaCoreTiling line({127, 0, 0}, 32, 8, 4, 1, 64, true, true);
  line.limitPlaneSumUnroll(255);
  EXPECT_EQ(line.planeSumUnroll(), 1);
  CudaCoreTiling star8({8, 8, 8}, 32, 8, 4, 1, 64, true, true);
  star8.limitPlaneSumUnroll(49);
  EXPECT_EQ(star8.planeSumUnroll(), 7);
  // Only streamed 3-D launches of one step sum planes.
  EXPECT_FALSE(CudaCoreTiling({1, 1, 1}, 32, 8, 4, 2, 64, true, true)
                   .planeSums);
  EXPECT_FALSE(CudaCoreTiling({1, 1, 1}, 32, 8, 4, 1, 8, false, true)
                   .planeSums);
  EXPECT_FALSE(CudaCoreTiling({1, 1}, 32, 8, 4, 1, 1, true, true).planeSums);
}

TEST(CudaCoreTiling, StreamingGeometry) {
  // Heat-3D, 2 fused steps, 32 planes per block: rings of 3 planes of
  // 36 x 36 for the input and step 1; 36 iterations. One step per launch
  // keeps 4 planes (no barrier between its last step and the next staging).
  CudaCoreTiling tiling({1, 1, 1}, 32, 8, 4, 2, 32, /*stream=*/true);
  EXPECT_EQ(tiling.tile, (llvm::SmallVector<int64_t>{32, 32, 32}));
  EXPECT_EQ(tiling.planeSize(), 36 * 36);
  EXPECT_EQ(tiling.ringSlots(), 3);
  EXPECT_EQ(tiling.sharedElements(), 2 * 3 * 36 * 36);
  EXPECT_EQ(tiling.streamIterations(), 36);
  EXPECT_EQ(tiling.ringOffset(1, 7), (3 + 1) * 36 * 36);
  EXPECT_EQ(CudaCoreTiling({1, 1, 1}, 32, 8, 4, 1, 32, true).ringSlots(), 4);
  // Step 1's plane: 34 x 34 points in 9 groups of 4 rows.
  EXPECT_EQ(tiling.planeUnits(1), 9 * 34);
  // The work is that of the staged kernel with the same planes.
  EXPECT_DOUBLE_EQ(
      tiling.computedPointsPerOutput(),
      CudaCoreTiling({1, 1, 1}, 32, 8, 4, 2, 32).computedPointsPerOutput());
  // In 2-D streaming is the row sweep (RowStreamTest.cpp).
  EXPECT_TRUE(CudaCoreTiling({1, 1}, 32, 8, 4, 1, 1, true).rowStream());
}

TEST(CudaCoreTiling, PlanesGeometry) {
  // Heat-3D with the default 32 x 8 threads, 4 outputs and 8 planes: a
  // 8 x 32 x 32 tile staged as 10 x 34 x 34; each thread has 32 outputs.
  CudaCoreTiling tiling({1, 1, 1}, 32, 8, 4, 1, 8);
  EXPECT_EQ(tiling.tile, (llvm::SmallVector<int64_t>{8, 32, 32}));
  EXPECT_EQ(tiling.smemShape, (llvm::SmallVector<int64_t>{10, 34, 34}));
  EXPECT_EQ(tiling.outputsPerThread(), 32);
  EXPECT_EQ(tiling.outputPosition(33, 4 * 5 + 2),
            (llvm::SmallVector<int64_t>{1 + 5, 1 + 4 + 2, 1 + 1}));
  // Planes only exist in 3-D.
  EXPECT_EQ(CudaCoreTiling({1, 1}, 32, 8, 4, 1, 8).planes, 1);
}

} // namespace
