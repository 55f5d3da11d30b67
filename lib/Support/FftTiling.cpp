//===- FftTiling.cpp - FFT stencil tiles: tailoring, PFA maps, spectra ----===//
//
// Error bound (getFftErrorBound). One DFT stage of length f on a fiber x
// computes each y_k = Sum_n F_kn x_n as two real dot products of length 2f
// with stored entries |F~_kn - F_kn| <= sqrt(2) u, so (Higham, "Accuracy and
// Stability of Numerical Algorithms", 3.1) |dy_k| <= (2 sqrt(2) f + 2) u
// Sum_n |x_n| <= (3f + 2) u sqrt(f) ||x||_2 to first order. Summed over the
// f outputs, ||dy||_2 <= (3f + 2) f u ||x||_2 = sqrt(f) (3f + 2) u ||y||_2,
// since ||y||_2 = sqrt(f) ||x||_2 (F / sqrt(f) is unitary); zero padding adds
// exact zeros. Over the axes of one transform the relative normwise errors
// add: E = Sum_j sqrt(f_j) (3 f_j + 2) u. The product by S (S rounded once
// from long double, one complex multiplication) adds at most 4u |S_k| |y_k|
// per element. With ||F x||_2 = sqrt(N) ||x||_2 for the whole forward
// transform and the inverse unnormalised (1/N is in S), the output error is
//     ||d out||_2 <= N max|S| ||x||_2 (2E + 4u),
// and ||x||_2 <= sqrt(2N) max(|re|, |im|) over the tile, which gives the bound
// for every point.
//
//===----------------------------------------------------------------------===//

#include "stencil/Support/FftTiling.h"

#include "stencil/Support/MmaModel.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <map>
#include <cassert>
#include <cmath>
#include <numeric>

using namespace mlir;
using namespace mlir::stencil;
using llvm::ArrayRef;
using llvm::SmallVector;

using ComplexLD = std::complex<long double>;

int64_t mlir::stencil::getFftPaddedExtent(int64_t factor) {
  return (factor + 7) / 8 * 8;
}

bool mlir::stencil::arePfaFactors(ArrayRef<int64_t> factors) {
  for (size_t i = 0; i < factors.size(); ++i) {
    if (factors[i] < 2 || factors[i] > 64)
      return false;
    for (size_t j = i + 1; j < factors.size(); ++j)
      if (std::gcd(factors[i], factors[j]) != 1)
        return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// FftTilePlan
//===----------------------------------------------------------------------===//

bool FftTilePlan::hasCooleyTukeyShape() const {
  auto digitsOf8 = [](ArrayRef<int64_t> fs, size_t count) {
    return fs.size() == count &&
           llvm::all_of(fs, [](int64_t f) { return f == 8; });
  };
  if (factors.size() == 1)
    return digitsOf8(factors[0], 4);
  if (factors.size() == 2)
    return digitsOf8(factors[0], 2) && digitsOf8(factors[1], 2);
  return false;
}

int64_t FftTilePlan::getTileSize(int64_t d) const {
  int64_t n = 1;
  for (int64_t f : factors[d])
    n *= f;
  return n;
}

int64_t FftTilePlan::getValidSize(int64_t d) const {
  return getTileSize(d) - 2 * fusedSteps * radii[d];
}

SmallVector<int64_t> FftTilePlan::getAxisFactors() const {
  SmallVector<int64_t> axes;
  for (const auto &dimFactors : factors)
    axes.append(dimFactors.begin(), dimFactors.end());
  return axes;
}

SmallVector<int64_t> FftTilePlan::getAxisDims() const {
  SmallVector<int64_t> dims;
  for (auto [d, dimFactors] : llvm::enumerate(factors))
    dims.append(dimFactors.size(), d);
  return dims;
}

SmallVector<int64_t> FftTilePlan::getAxisExtents() const {
  SmallVector<int64_t> extents;
  for (int64_t f : getAxisFactors())
    extents.push_back(getFftPaddedExtent(f));
  return extents;
}

int64_t FftTilePlan::getNumArrayElements() const {
  int64_t n = 1;
  for (int64_t p : getAxisExtents())
    n *= p;
  return n;
}

int64_t FftTilePlan::getMacsPerTile() const {
  int64_t elements = getNumArrayElements();
  int64_t macs = 0;
  for (int64_t p : getAxisExtents()) {
    // Fibers are issued in groups of 8 (one m8n8k4 M); a stage with fewer
    // fibers still pays for a whole group.
    int64_t fibers = (elements / p + 7) / 8 * 8;
    macs += 4 * fibers * p * p;
  }
  return 2 * macs;
}

int64_t FftTilePlan::getUpdatesPerTile() const {
  int64_t points = 1;
  for (int64_t d = 0; d < getRank(); ++d)
    points *= getValidSize(d);
  return 2 * fusedSteps * points;
}

//===----------------------------------------------------------------------===//
// Kernel tailoring
//===----------------------------------------------------------------------===//

double mlir::stencil::getFftTileCost(const FftTilePlan &plan) {
  double valid = 1;
  for (int64_t d = 0; d < plan.getRank(); ++d)
    valid *= plan.getValidSize(d);
  // HBM: one load and one store per valid point of each real tile (the
  // tiles' overlapping halos are re-read from L2).
  double bytes = 2 * 2 * 8 * valid;
  double macs = double(plan.getMacsPerTile());
  double updates = double(plan.getUpdatesPerTile());
  // Among tiles with the same bound (memory-bound ones), the one with less
  // Tensor Core work.
  return std::max(macs, kFftMacsPerByte * bytes) / updates +
         1e-3 * macs / updates;
}

namespace {
/// The tile sizes one dimension may take: products of pairwise coprime
/// factors from {3, 5, 7, 8, 9, 11, 13, 16} (at most one power of two, at
/// most one power of three), factors in decreasing order, whose padded
/// extent fits `maxElements`.
SmallVector<SmallVector<int64_t, 3>>
getCandidateFactorings(int64_t maxElements) {
  const int64_t twos[] = {1, 8, 16};
  const int64_t threes[] = {1, 3, 9};
  const int64_t others[] = {5, 7, 11, 13};
  SmallVector<SmallVector<int64_t, 3>> result;
  for (int64_t two : twos)
    for (int64_t three : threes)
      for (unsigned mask = 0; mask < 16; ++mask) {
        SmallVector<int64_t, 3> fs;
        if (two > 1)
          fs.push_back(two);
        if (three > 1)
          fs.push_back(three);
        for (unsigned i = 0; i < 4; ++i)
          if (mask & (1u << i))
            fs.push_back(others[i]);
        if (fs.empty() || fs.size() > 3)
          continue;
        int64_t padded = 1;
        for (int64_t f : fs)
          padded *= getFftPaddedExtent(f);
        if (padded > maxElements)
          continue;
        llvm::sort(fs, std::greater<int64_t>());
        result.push_back(fs);
      }
  return result;
}
} // namespace

static std::optional<FftTilePlan> choosePfaTile(ArrayRef<int64_t> radii,
                                                int64_t fusedSteps,
                                                int64_t maxArrayElements,
                                                int64_t largestOther,
                                                std::string *whyNot);

std::optional<FftTilePlan>
mlir::stencil::chooseFftTile(ArrayRef<int64_t> radii, int64_t fusedSteps,
                             int64_t maxArrayElements, std::string *whyNot,
                             bool allowCooleyTukey) {
  auto fail = [&](std::string message) -> std::optional<FftTilePlan> {
    if (whyNot)
      *whyNot = std::move(message);
    return std::nullopt;
  };
  int64_t rank = radii.size();
  if (rank < 1 || rank > 3 || fusedSteps < 1)
    return fail("the FFT tile needs rank 1 to 3 and at least one step");
  // The Cooley-Tukey tile (1-D 4096, 2-D 64 x 64), when it fits and has a
  // valid region; it wins ties with PFA tiles (same work, half the
  // shared-memory passes).
  std::optional<FftTilePlan> cooleyTukey;
  if (allowCooleyTukey && rank <= 2 && maxArrayElements >= 4096) {
    FftTilePlan plan;
    plan.fusedSteps = fusedSteps;
    plan.radii.assign(radii.begin(), radii.end());
    plan.cooleyTukey = true;
    for (int64_t d = 0; d < rank; ++d)
      plan.factors.emplace_back(rank == 1 ? 4 : 2, 8);
    bool valid = true;
    for (int64_t d = 0; d < rank; ++d)
      valid &= __int128(2) * fusedSteps * radii[d] < plan.getTileSize(d);
    if (valid)
      cooleyTukey = plan;
  }
  int64_t cooleyTukeySize =
      allowCooleyTukey && rank <= 2 && maxArrayElements >= 4096
          ? (rank == 1 ? 4096 : 64)
          : 0;
  std::optional<FftTilePlan> pfa = choosePfaTile(
      radii, fusedSteps, maxArrayElements, cooleyTukeySize, whyNot);
  if (!cooleyTukey)
    return pfa;
  if (pfa && getFftTileCost(*pfa) < getFftTileCost(*cooleyTukey))
    return pfa;
  return cooleyTukey;
}

/// The PFA tile of least cost; `largestOther` is the size of the largest
/// other candidate along a dimension (for the diagnostic).
static std::optional<FftTilePlan> choosePfaTile(ArrayRef<int64_t> radii,
                                                int64_t fusedSteps,
                                                int64_t maxArrayElements,
                                                int64_t largestOther,
                                                std::string *whyNot) {
  auto fail = [&](std::string message) -> std::optional<FftTilePlan> {
    if (whyNot)
      *whyNot = std::move(message);
    return std::nullopt;
  };
  int64_t rank = radii.size();
  SmallVector<SmallVector<int64_t, 3>> candidates =
      getCandidateFactorings(maxArrayElements);
  // Per dimension, the candidates with a valid region.
  SmallVector<SmallVector<SmallVector<int64_t, 3>>, 3> perDim(rank);
  int64_t largest = largestOther;
  for (int64_t d = 0; d < rank; ++d) {
    for (const auto &fs : candidates) {
      int64_t n = 1;
      for (int64_t f : fs)
        n *= f;
      largest = std::max(largest, n);
      // 2 T r_d < N (no overflow: T and r are bounded by the callers, and the
      // comparison is done in 128-bit where they are not).
      __int128 halo = __int128(2) * fusedSteps * radii[d];
      if (halo < n)
        perDim[d].push_back(fs);
    }
    if (perDim[d].empty())
      return fail(
          "no FFT tile of at most " + std::to_string(maxArrayElements) +
          " elements has a valid region: " + std::to_string(fusedSteps) +
          " fused steps of radius " + std::to_string(radii[d]) +
          " need more than " + std::to_string(2 * fusedSteps * radii[d]) +
          " points along dimension " + std::to_string(d) +
          " (the largest tile has " + std::to_string(largest) + ")");
  }
  std::optional<FftTilePlan> best;
  double bestCost = 0;
  int64_t bestElements = 0;
  SmallVector<size_t, 3> index(rank, 0);
  while (true) {
    FftTilePlan plan;
    plan.fusedSteps = fusedSteps;
    plan.radii.assign(radii.begin(), radii.end());
    for (int64_t d = 0; d < rank; ++d)
      plan.factors.push_back(perDim[d][index[d]]);
    int64_t elements = plan.getNumArrayElements();
    if (elements <= maxArrayElements) {
      double cost = getFftTileCost(plan);
      if (!best || cost < bestCost ||
          (cost == bestCost && elements < bestElements)) {
        best = plan;
        bestCost = cost;
        bestElements = elements;
      }
    }
    int64_t d = rank - 1;
    while (d >= 0 && ++index[d] == perDim[d].size())
      index[d--] = 0;
    if (d < 0)
      break;
  }
  if (!best)
    return fail("no FFT tile fits " + std::to_string(maxArrayElements) +
                " complex elements of shared memory for this radius and " +
                std::to_string(fusedSteps) + " fused steps");
  return best;
}

/// The coordinates `x` (outermost first) of the tile's point `p`, its
/// row-major linear index.
static void getTilePoint(const FftTilePlan &plan, int64_t p,
                         llvm::MutableArrayRef<int64_t> x) {
  for (int64_t d = int64_t(x.size()) - 1; d >= 0; --d) {
    x[d] = p % plan.getTileSize(d);
    p /= plan.getTileSize(d);
  }
}

//===----------------------------------------------------------------------===//
// Index maps and spectrum
//===----------------------------------------------------------------------===//

std::vector<int64_t> mlir::stencil::getFftLoadMap(const FftTilePlan &plan) {
  SmallVector<int64_t> axisFactors = plan.getAxisFactors();
  SmallVector<int64_t> axisDims = plan.getAxisDims();
  SmallVector<int64_t> extents = plan.getAxisExtents();
  int64_t numAxes = axisFactors.size();
  SmallVector<int64_t> strides(numAxes, 1);
  for (int64_t j = numAxes - 2; j >= 0; --j)
    strides[j] = strides[j + 1] * extents[j + 1];
  int64_t rank = plan.getRank();
  int64_t points = 1;
  for (int64_t d = 0; d < rank; ++d)
    points *= plan.getTileSize(d);
  std::vector<int64_t> map(points);
  if (plan.cooleyTukey) {
    // 2-D: (p0, p1) = (c0, c1); 1-D: n = nL + 64 nH at (p0, p1) = (nL, nH).
    for (int64_t p = 0; p < points; ++p)
      map[p] = rank == 2 ? p : 64 * (p % 64) + p / 64;
    return map;
  }
  SmallVector<int64_t, 3> x(rank, 0);
  for (int64_t p = 0; p < points; ++p) {
    getTilePoint(plan, p, x);
    int64_t index = 0;
    for (int64_t j = 0; j < numAxes; ++j)
      index += (x[axisDims[j]] % axisFactors[j]) * strides[j];
    map[p] = index;
  }
  return map;
}

int64_t mlir::stencil::getFftFrequency(const FftTilePlan &plan, int64_t dim,
                                       ArrayRef<int64_t> axisIndices) {
  int64_t n = plan.getTileSize(dim);
  int64_t k = 0;
  if (plan.cooleyTukey) {
    // The natural order of the digits (see "Cooley-Tukey tiles").
    for (int64_t kj : axisIndices)
      k = 8 * k + kj;
    return k;
  }
  for (auto [f, kj] : llvm::zip_equal(plan.factors[dim], axisIndices)) {
    if (kj >= f)
      return -1;
    k = (k + kj * (n / f)) % n;
  }
  return k;
}

namespace {
/// z^e by binary powering.
ComplexLD power(ComplexLD z, int64_t e) {
  ComplexLD result = 1;
  while (e > 0) {
    if (e & 1)
      result *= z;
    z *= z;
    e >>= 1;
  }
  return result;
}

/// exp(sign 2 pi i num / den) for 0 <= num < den, in long double.
ComplexLD unitRoot(int64_t num, int64_t den, int sign) {
  const long double twoPi = 6.283185307179586476925286766559005768L;
  long double angle = twoPi * (long double)num / (long double)den;
  return {std::cos(angle), sign * std::sin(angle)};
}
} // namespace

static std::vector<std::complex<double>>
scatterSpectrum(const FftTilePlan &plan,
                ArrayRef<ComplexLD> spectrumByFrequency);

std::vector<std::complex<double>>
mlir::stencil::computeFftSpectrum(const FftTilePlan &plan,
                                  ArrayRef<int64_t> offsets,
                                  ArrayRef<double> weights) {
  int64_t rank = plan.getRank();
  assert(offsets.size() == weights.size() * rank && "one offset per weight");
  // Per dimension, exp(2 pi i m / N) for m < N (read at m = k o mod N).
  SmallVector<std::vector<ComplexLD>, 3> roots(rank);
  for (int64_t d = 0; d < rank; ++d) {
    int64_t n = plan.getTileSize(d);
    roots[d].resize(n);
    for (int64_t m = 0; m < n; ++m)
      roots[d][m] = unitRoot(m, n, +1);
  }
  // H over the tile's frequencies (row-major over N_d),
  //   H(k) = Sum_i w_i Prod_d W_d^(k_d o_id).
  int64_t points = 1;
  for (int64_t d = 0; d < rank; ++d)
    points *= plan.getTileSize(d);
  long double scale = 1.0L / (long double)points;
  std::vector<ComplexLD> spectrumByFrequency(points);
  // Up to kMaxDirectSpectrumWork complex products, the sum over the points
  // in their order for each frequency (the spectra every stencil of up to
  // 225 points got on tiles of up to 4096 points: unchanged bit for bit).
  constexpr int64_t kMaxDirectSpectrumWork = int64_t(1) << 24;
  if (int64_t(weights.size()) * points * rank <= kMaxDirectSpectrumWork) {
    SmallVector<int64_t, 3> k(rank);
    for (int64_t p = 0; p < points; ++p) {
      getTilePoint(plan, p, k);
      ComplexLD h = 0;
      for (size_t i = 0; i < weights.size(); ++i) {
        ComplexLD term = (long double)weights[i];
        for (int64_t d = 0; d < rank; ++d) {
          int64_t n = plan.getTileSize(d);
          int64_t o = ((offsets[i * rank + d] % n) + n) % n;
          term *= roots[d][(k[d] * o) % n];
        }
        h += term;
      }
      spectrumByFrequency[p] = power(h, plan.fusedSteps) * scale;
    }
    return scatterSpectrum(plan, spectrumByFrequency);
  }
  // Above, one dimension at a time from the innermost: the points are grouped by
  // their first d offsets (mod N_d; groups and their members in the order
  // of first occurrence), and each group's partial sums over k_d .. k_{R-1}
  // are Sum over its members of W_d^(k_d o_d) times the member's partial
  // sums over k_{d+1} .. k_{R-1}. That costs Sum_d (groups of d + 1
  // offsets) N_d .. N_{R-1} multiply-adds instead of (points) (tile points)
  // R: a 61 x 61 box on a 64 x 64 tile takes 0.5 M instead of 30 M. In 1-D
  // it is the plain sum over the points in their order; in more dimensions
  // the sums' order differs, which moved some spectra by an ulp.
  struct Partial {
    SmallVector<int64_t, 3> key; // offsets mod N_d
    std::vector<ComplexLD> sums;
  };
  std::vector<Partial> level;
  for (size_t i = 0; i < weights.size(); ++i) {
    Partial leaf;
    for (int64_t d = 0; d < rank; ++d) {
      int64_t n = plan.getTileSize(d);
      leaf.key.push_back(((offsets[i * rank + d] % n) + n) % n);
    }
    leaf.sums.assign(1, ComplexLD((long double)weights[i]));
    level.push_back(std::move(leaf));
  }
  int64_t inner = 1; // N_{d+1} .. N_{R-1}
  for (int64_t d = rank - 1; d >= 0; --d) {
    int64_t n = plan.getTileSize(d);
    std::map<SmallVector<int64_t, 3>, size_t> groupOf;
    std::vector<Partial> next;
    for (const Partial &member : level) {
      SmallVector<int64_t, 3> prefix(member.key.begin(),
                                     member.key.begin() + d);
      auto [it, fresh] = groupOf.try_emplace(prefix, next.size());
      if (fresh) {
        next.push_back({prefix, {}});
        next.back().sums.assign(n * inner, ComplexLD(0));
      }
      std::vector<ComplexLD> &sums = next[it->second].sums;
      int64_t o = member.key[d];
      for (int64_t k = 0; k < n; ++k) {
        ComplexLD root = roots[d][(k * o) % n];
        for (int64_t t = 0; t < inner; ++t)
          sums[k * inner + t] += root * member.sums[t];
      }
    }
    level = std::move(next);
    inner *= n;
  }
  assert(level.size() == 1 && "a pattern has points");
  for (int64_t p = 0; p < points; ++p)
    spectrumByFrequency[p] =
        power(level.front().sums[p], plan.fusedSteps) * scale;
  return scatterSpectrum(plan, spectrumByFrequency);
}

/// The spectrum over the tile's frequencies (row-major over N_d) at the
/// Ruritanian positions of the padded array.
static std::vector<std::complex<double>>
scatterSpectrum(const FftTilePlan &plan,
                ArrayRef<ComplexLD> spectrumByFrequency) {
  int64_t rank = plan.getRank();
  // Scatter to the padded array at the Ruritanian positions.
  SmallVector<int64_t> extents = plan.getAxisExtents();
  int64_t numAxes = extents.size();
  std::vector<std::complex<double>> spectrum(plan.getNumArrayElements(), 0.0);
  SmallVector<int64_t> idx(numAxes);
  for (int64_t e = 0; e < (int64_t)spectrum.size(); ++e) {
    int64_t rest = e;
    for (int64_t j = numAxes - 1; j >= 0; --j) {
      idx[j] = rest % extents[j];
      rest /= extents[j];
    }
    int64_t linear = 0;
    bool padding = false;
    int64_t first = 0;
    for (int64_t d = 0; d < rank; ++d) {
      int64_t count = plan.factors[d].size();
      int64_t kd =
          getFftFrequency(plan, d, ArrayRef<int64_t>(idx).slice(first, count));
      first += count;
      if (kd < 0) {
        padding = true;
        break;
      }
      linear = linear * plan.getTileSize(d) + kd;
    }
    if (!padding) {
      ComplexLD s = spectrumByFrequency[linear];
      spectrum[e] = {(double)s.real(), (double)s.imag()};
    }
  }
  return spectrum;
}

//===----------------------------------------------------------------------===//
// DFT matrices and fragments
//===----------------------------------------------------------------------===//

std::vector<std::complex<double>> mlir::stencil::getDftMatrix(int64_t factor,
                                                              bool inverse) {
  int64_t p = getFftPaddedExtent(factor);
  std::vector<std::complex<double>> m(p * p, 0.0);
  for (int64_t k = 0; k < factor; ++k)
    for (int64_t n = 0; n < factor; ++n) {
      ComplexLD w = unitRoot((k * n) % factor, factor, inverse ? +1 : -1);
      m[k * p + n] = {(double)w.real(), (double)w.imag()};
    }
  return m;
}

int64_t mlir::stencil::getDftFragmentRow(int64_t chunk, unsigned lane,
                                         bool swizzled) {
  int64_t t = lane % 4;
  if (!swizzled)
    return 4 * chunk + t;
  // Chunk 2 kt' + i holds accumulator i of k-tile kt': column 8 kt' + 2t + i.
  return 8 * (chunk / 2) + 2 * t + chunk % 2;
}

std::vector<std::complex<double>>
mlir::stencil::packDftFragments(int64_t factor, bool inverse, bool swizzled) {
  int64_t p = getFftPaddedExtent(factor);
  std::vector<std::complex<double>> matrix = getDftMatrix(factor, inverse);
  int64_t kTiles = p / 8, chunks = p / 4;
  std::vector<std::complex<double>> packed(kTiles * chunks * kWarpSize);
  for (int64_t kt = 0; kt < kTiles; ++kt)
    for (int64_t c = 0; c < chunks; ++c)
      for (unsigned lane = 0; lane < kWarpSize; ++lane) {
        int64_t column = 8 * kt + (lane >> 2);
        int64_t row = getDftFragmentRow(c, lane, swizzled);
        packed[(kt * chunks + c) * kWarpSize + lane] = matrix[column * p + row];
      }
  return packed;
}

double
mlir::stencil::getFftErrorBound(const FftTilePlan &plan,
                                ArrayRef<std::complex<double>> spectrum) {
  const double u = std::ldexp(1.0, -53);
  double e = 0;
  for (int64_t f : plan.getAxisFactors())
    e += std::sqrt(double(f)) * (3.0 * f + 2.0) * u;
  // Cooley-Tukey: each product by a rounded twiddle (W_64 once per 64-point
  // axis, W_4096 once in 1-D) adds at most 6u per element.
  if (plan.cooleyTukey)
    e += (plan.getRank() == 1 ? 3 : 2) * 6.0 * u;
  double points = 1;
  for (int64_t d = 0; d < plan.getRank(); ++d)
    points *= plan.getTileSize(d);
  double maxS = 0;
  for (std::complex<double> s : spectrum)
    maxS = std::max(maxS, std::abs(s));
  return std::sqrt(2.0 * points) * (points * maxS) * (2.0 * e + 4.0 * u);
}

//===----------------------------------------------------------------------===//
// Cooley-Tukey tiles
//===----------------------------------------------------------------------===//

int64_t mlir::stencil::getFftCtPosition(unsigned lane, int64_t chunk,
                                        bool accumulatorLayout) {
  int64_t g = lane >> 2, t = lane & 3;
  return accumulatorLayout ? 8 * (2 * t + chunk) + g : 8 * (4 * chunk + t) + g;
}

/// G(v) = 2 (v0 ^ v2) + 4 v1 of a digit's bits.
static int64_t getCtDigitSwizzle(int64_t v) {
  return (((v ^ (v >> 2)) & 1) << 1) | (((v >> 1) & 1) << 2);
}

int64_t mlir::stencil::getFftCtSlot(int64_t p0, int64_t p1) {
  int64_t ya = p0 / 8, yb = p0 % 8, xa = p1 / 8, xb = p1 % 8;
  return 64 * p0 + 8 * xa +
         (xb ^ yb ^ getCtDigitSwizzle(xa) ^ getCtDigitSwizzle(ya));
}

static std::complex<double> toDouble(ComplexLD z) {
  return {(double)z.real(), (double)z.imag()};
}

std::vector<std::complex<double>> mlir::stencil::packFftCtFragments() {
  std::vector<std::complex<double>> packed(6 * kWarpSize);
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    int64_t g = lane >> 2, t = lane & 3;
    for (int64_t c = 0; c < 2; ++c)
      packed[c * kWarpSize + lane] =
          toDouble(unitRoot((g * (4 * c + t)) % 8, 8, -1));
    for (int64_t i = 0; i < 2; ++i) {
      packed[(2 + i) * kWarpSize + lane] =
          toDouble(unitRoot(((2 * t + i) * g) % 8, 8, -1));
      packed[(4 + i) * kWarpSize + lane] =
          toDouble(unitRoot((2 * t + i) * g, 64, -1));
    }
  }
  return packed;
}

std::vector<std::complex<double>>
mlir::stencil::packFftCtSpectrum(ArrayRef<std::complex<double>> spectrum) {
  assert(spectrum.size() == 4096 && "a 64 x 64 spectrum");
  std::vector<std::complex<double>> packed(4096);
  for (int64_t p1 = 0; p1 < 64; ++p1)
    for (int64_t e = 0; e < 2; ++e)
      for (unsigned lane = 0; lane < kWarpSize; ++lane)
        packed[(p1 * 2 + e) * kWarpSize + lane] =
            spectrum[64 * getFftCtPosition(lane, e, true) + p1];
  return packed;
}

std::vector<std::complex<double>> mlir::stencil::packFftCtTwiddles() {
  std::vector<std::complex<double>> packed(64 * 4 * kWarpSize);
  for (int64_t p1 = 0; p1 < 64; ++p1)
    for (int64_t v = 0; v < 4; ++v)
      for (unsigned lane = 0; lane < kWarpSize; ++lane) {
        bool out = v >= 2;
        int64_t p0 = getFftCtPosition(lane, v % 2, out);
        packed[(p1 * 4 + v) * kWarpSize + lane] =
            toDouble(unitRoot((p0 * p1) % 4096, 4096, out ? +1 : -1));
      }
  return packed;
}
