//===- StepComposition.cpp - Fused time steps by composed weights ---------===//
//
// The math is in include/stencil/Support/StepComposition.h.
//
//===----------------------------------------------------------------------===//

#include "stencil/Support/StepComposition.h"
#include "stencil/Support/StencilShape.h"

#include "llvm/Support/ErrorHandling.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdlib>

using namespace mlir;
using namespace mlir::stencil;
using llvm::ArrayRef;
using llvm::SmallVector;

SmallVector<int64_t> LinearStencil::getRadii() const {
  return stencil::getRadii(rank, offsets);
}

namespace {
/// A dense box of weights with per-dimension radii, row-major.
struct WeightBox {
  SmallVector<int64_t> radii;
  SmallVector<double> values;

  int64_t side(unsigned d) const { return 2 * radii[d] + 1; }
  int64_t index(ArrayRef<int64_t> offset) const {
    int64_t i = 0;
    for (unsigned d = 0; d < radii.size(); ++d)
      i = i * side(d) + offset[d] + radii[d];
    return i;
  }
  /// The offset of entry `i`.
  SmallVector<int64_t> offset(int64_t i) const {
    SmallVector<int64_t> o(radii.size());
    for (int64_t d = radii.size() - 1; d >= 0; --d) {
      o[d] = i % side(d) - radii[d];
      i /= side(d);
    }
    return o;
  }
};

/// Whether the box of `radii` holds at most kMaxPatternPoints points,
/// computed without overflow.
bool fitsPatternLimit(ArrayRef<int64_t> radii) {
  uint64_t n = 1;
  for (int64_t r : radii) {
    if (r < 0 || r > kMaxOffset)
      return false;
    n *= uint64_t(2 * r + 1);
    if (n > kMaxPatternPoints)
      return false;
  }
  return true;
}
} // namespace

std::optional<LinearStencil>
mlir::stencil::composeSteps(const LinearStencil &step, int64_t t) {
  assert(t >= 1 && "composes at least one step");
  unsigned rank = step.rank;
  SmallVector<int64_t> radii = step.getRadii();
  SmallVector<int64_t> composedRadii;
  for (int64_t r : radii) {
    if (r > kMaxOffset / t)
      return std::nullopt;
    composedRadii.push_back(r * t);
  }
  if (!fitsPatternLimit(composedRadii))
    return std::nullopt;

  // The step's weights in a box (duplicate offsets add up).
  WeightBox w{radii, {}};
  int64_t stepBox = 1;
  for (unsigned d = 0; d < rank; ++d)
    stepBox *= w.side(d);
  w.values.assign(stepBox, 0.0);
  for (unsigned i = 0, e = step.getNumPoints(); i < e; ++i)
    w.values[w.index(step.getPoint(i))] += step.weights[i];
  SmallVector<std::pair<SmallVector<int64_t>, double>> terms;
  for (int64_t i = 0; i < stepBox; ++i)
    if (w.values[i] != 0.0)
      terms.push_back({w.offset(i), w.values[i]});

  // W_1 = w; W_k = W_{k-1} * w, each entry summed over the step's terms in
  // their (lexicographic) order.
  WeightBox acc = w;
  for (int64_t k = 2; k <= t; ++k) {
    WeightBox next;
    for (int64_t r : radii)
      next.radii.push_back(r * k);
    int64_t size = 1;
    for (unsigned d = 0; d < rank; ++d)
      size *= next.side(d);
    next.values.assign(size, 0.0);
    SmallVector<int64_t> o(rank);
    for (int64_t i = 0, e = acc.values.size(); i < e; ++i) {
      double a = acc.values[i];
      if (a == 0.0)
        continue;
      SmallVector<int64_t> base = acc.offset(i);
      for (const auto &[offset, weight] : terms) {
        for (unsigned d = 0; d < rank; ++d)
          o[d] = base[d] + offset[d];
        next.values[next.index(o)] += a * weight;
      }
    }
    acc = std::move(next);
  }

  LinearStencil composed;
  composed.rank = rank;
  for (int64_t i = 0, e = acc.values.size(); i < e; ++i) {
    if (acc.values[i] == 0.0)
      continue;
    SmallVector<int64_t> o = acc.offset(i);
    composed.offsets.append(o.begin(), o.end());
    composed.weights.push_back(acc.values[i]);
  }
  return composed;
}

SmallVector<int64_t>
mlir::stencil::getComposedMargins(const LinearStencil &step, int64_t t) {
  SmallVector<int64_t> margins = step.getRadii();
  for (int64_t &m : margins)
    m *= t;
  return margins;
}

double mlir::stencil::getCompositionErrorBound(const LinearStencil &step,
                                               int64_t t,
                                               int64_t composedPoints,
                                               double u) {
  auto gamma = [&](double n) { return n * u / (1.0 - n * u); };
  double s = 0;
  for (double w : step.weights)
    s += std::fabs(w);
  double k = step.getNumPoints();
  return (t * gamma(k) + gamma((t - 1) * k) + gamma(composedPoints)) *
         std::pow(s, double(t));
}

//===----------------------------------------------------------------------===//
// The band's tiles
//===----------------------------------------------------------------------===//

BandTiling BandTiling::get(ArrayRef<int64_t> dims, ArrayRef<int64_t> tile,
                           ArrayRef<int64_t> margins) {
  BandTiling band;
  for (size_t d = 0; d < dims.size(); ++d) {
    int64_t n = (dims[d] + tile[d] - 1) / tile[d];
    int64_t lo = std::min(n, (margins[d] + tile[d] - 1) / tile[d]);
    // A tile ends in the band when its last point, min((j + 1) T, N) - 1,
    // is at or past N - m: never for m = 0 (the grid's last, partial tile
    // included), else when (j + 1) T > N - m.
    int64_t hi = margins[d] == 0         ? n
                 : dims[d] >= margins[d] ? (dims[d] - margins[d]) / tile[d]
                                         : 0;
    band.counts.push_back(n);
    band.lo.push_back(lo);
    band.hi.push_back(std::max(lo, hi));
  }
  return band;
}

int64_t BandTiling::getNumTiles() const {
  int64_t all = 1, inner = 1;
  for (size_t d = 0; d < counts.size(); ++d) {
    all *= counts[d];
    inner *= hi[d] - lo[d];
  }
  return all - inner;
}

SmallVector<int64_t> BandTiling::decode(int64_t b) const {
  size_t rank = counts.size();
  SmallVector<int64_t> j(rank);
  for (size_t d = 0; d < rank; ++d) {
    // The sub-grid of the dimensions after d: all its tiles, its inner ones.
    int64_t fullSub = 1, innerSub = 1;
    for (size_t k = d + 1; k < rank; ++k) {
      fullSub *= counts[k];
      innerSub *= hi[k] - lo[k];
    }
    int64_t edge = (counts[d] - (hi[d] - lo[d])) * fullSub;
    if (b < edge) {
      int64_t i = b / fullSub;
      j[d] = i < lo[d] ? i : i - lo[d] + hi[d];
      int64_t rem = b % fullSub;
      for (size_t k = rank - 1; k > d; --k) {
        j[k] = rem % counts[k];
        rem /= counts[k];
      }
      return j;
    }
    b -= edge;
    int64_t bandSub = fullSub - innerSub;
    j[d] = lo[d] + b / bandSub;
    b %= bandSub;
  }
  llvm_unreachable("band tile index out of range");
}

//===----------------------------------------------------------------------===//
// CPU model
//===----------------------------------------------------------------------===//

namespace {
/// Row-major strides of `dims`.
SmallVector<int64_t> stridesOf(ArrayRef<int64_t> dims) {
  SmallVector<int64_t> strides(dims.size(), 1);
  for (int64_t d = dims.size() - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * dims[d + 1];
  return strides;
}

/// The coordinates of linear index `i`.
SmallVector<int64_t> coordsOf(int64_t i, ArrayRef<int64_t> dims) {
  SmallVector<int64_t> c(dims.size());
  for (int64_t d = dims.size() - 1; d >= 0; --d) {
    c[d] = i % dims[d];
    i /= dims[d];
  }
  return c;
}

/// Whether `c` lies in [margin_d, N_d - margin_d) for every d.
bool inside(ArrayRef<int64_t> c, ArrayRef<int64_t> dims,
            ArrayRef<int64_t> margins) {
  for (size_t d = 0; d < dims.size(); ++d)
    if (c[d] < margins[d] || c[d] >= dims[d] - margins[d])
      return false;
  return true;
}

/// s applied at point `c` of `grid`, summed in f64 in the offsets' order.
double applyAt(const LinearStencil &s, ArrayRef<int64_t> c,
               ArrayRef<int64_t> strides, ArrayRef<double> grid) {
  double sum = 0;
  for (unsigned i = 0, e = s.getNumPoints(); i < e; ++i) {
    int64_t index = 0;
    for (unsigned d = 0; d < s.rank; ++d)
      index += (c[d] + s.getPoint(i)[d]) * strides[d];
    sum += s.weights[i] * grid[index];
  }
  return sum;
}

int64_t numPoints(ArrayRef<int64_t> dims) {
  int64_t n = 1;
  for (int64_t d : dims)
    n *= d;
  return n;
}
} // namespace

SmallVector<double> mlir::stencil::applyHaloSteps(const LinearStencil &s,
                                                  ArrayRef<int64_t> dims,
                                                  ArrayRef<double> grid,
                                                  int64_t steps,
                                                  RoundFn round) {
  SmallVector<int64_t> radii = s.getRadii(), strides = stridesOf(dims);
  SmallVector<double> cur(grid.begin(), grid.end()), next = cur;
  int64_t n = numPoints(dims);
  for (int64_t t = 0; t < steps; ++t) {
    for (int64_t i = 0; i < n; ++i) {
      SmallVector<int64_t> c = coordsOf(i, dims);
      next[i] =
          inside(c, dims, radii) ? round(applyAt(s, c, strides, cur)) : cur[i];
    }
    std::swap(cur, next);
  }
  return cur;
}

SmallVector<double> mlir::stencil::applyComposedLaunch(
    const LinearStencil &step, const LinearStencil &composed, int64_t t,
    ArrayRef<int64_t> dims, ArrayRef<double> grid, RoundFn round) {
  SmallVector<int64_t> margins = getComposedMargins(step, t);
  SmallVector<int64_t> strides = stridesOf(dims);
  // The band: t direct steps (the whole grid here; the GPU's band kernel
  // computes the same values on the tiles that reach the band).
  SmallVector<double> out = applyHaloSteps(step, dims, grid, t, round);
  for (int64_t i = 0, n = numPoints(dims); i < n; ++i) {
    SmallVector<int64_t> c = coordsOf(i, dims);
    if (inside(c, dims, margins))
      out[i] = round(applyAt(composed, c, strides, grid));
  }
  return out;
}
