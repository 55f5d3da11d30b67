//===- FftTileModel.cpp - The FFT tile pipeline on the CPU ---------------===//
//
// A CPU model of the data path of `--lower-to-fft`'s kernels (FftKernel.cpp,
// FftCooleyTukey.cpp), lane by lane through the warp fragments of
// MmaModel.h: the prime-factor tiles' DFT stages (A from the padded array, B
// the packed DFT matrices of FftTiling.h, complex values as four real MMAs),
// the product by the spectrum in the last stage's accumulators and the
// swizzled inverse stage they feed; and the Cooley-Tukey tiles' chained
// radix-8 stages with their twiddles (FftTiling.h, "Cooley-Tukey tiles").
// unittests/Support/FftTilingTest.cpp checks it against a direct DFT and
// against the stencil applied point by point, within getFftErrorBound.
//
//===----------------------------------------------------------------------===//

#include "stencil/Support/FftTileModel.h"

#include "stencil/Support/MmaModel.h"

#include <array>
#include <cassert>
#include <cstring>

using namespace mlir;
using namespace mlir::stencil;
using llvm::ArrayRef;
using llvm::SmallVector;

namespace {
void runCooleyTukeyPasses(const FftTilePlan &plan, FftMmaShape shape,
                          std::vector<std::complex<double>> &array,
                          ArrayRef<std::complex<double>> packedSpectrum);
} // namespace

//===----------------------------------------------------------------------===//
// Prime-factor tiles
//===----------------------------------------------------------------------===//

namespace {
/// Accumulators of one k-tile of a fiber group: [lane][i], i < 2 (m8n8k4) or
/// i < 4 (m16n8k4, i >= 2 for fibers g + 8).
struct ComplexAccumulators {
  double re[kWarpSize][4] = {};
  double im[kWarpSize][4] = {};
};

/// The fiber row and DFT column of accumulator i of `lane`.
MatrixPos getAccumulatorPos(FftMmaShape shape, unsigned lane, unsigned i) {
  if (shape == FftMmaShape::M8N8K4)
    return getCPosM8N8K4(lane, i);
  return getCPos(lane, i);
}

unsigned getNumAccumulators(FftMmaShape shape) {
  return shape == FftMmaShape::M8N8K4 ? 2 : 4;
}

unsigned getFibersPerGroup(FftMmaShape shape) {
  return shape == FftMmaShape::M8N8K4 ? 8 : 16;
}

/// D += A B for the warp in `shape`, with A given as [lane][2] (a_0, and a_1
/// for m16n8k4), B as [lane] and the accumulators as [lane][4].
void mma(FftMmaShape shape, const double a[kWarpSize][2],
         const double b[kWarpSize], double acc[kWarpSize][4]) {
  if (shape == FftMmaShape::M8N8K4) {
    double a0[kWarpSize], c[kWarpSize][2], d[kWarpSize][2];
    for (unsigned l = 0; l < kWarpSize; ++l) {
      a0[l] = a[l][0];
      c[l][0] = acc[l][0];
      c[l][1] = acc[l][1];
    }
    simulateMmaM8N8K4(a0, b, c, d);
    for (unsigned l = 0; l < kWarpSize; ++l) {
      acc[l][0] = d[l][0];
      acc[l][1] = d[l][1];
    }
    return;
  }
  double d[kWarpSize][4];
  simulateMmaM16N8K4(a, b, acc, d);
  for (unsigned l = 0; l < kWarpSize; ++l)
    for (unsigned i = 0; i < 4; ++i)
      acc[l][i] = d[l][i];
}

/// Complex D += A B as four real MMAs: Re += Ar Br, Re += Ai (-Bi),
/// Im += Ar Bi, Im += Ai Br.
void complexMma(FftMmaShape shape, const double aRe[kWarpSize][2],
                const double aIm[kWarpSize][2], const std::complex<double> *b,
                ComplexAccumulators &acc) {
  double bRe[kWarpSize], bIm[kWarpSize], bImNeg[kWarpSize];
  for (unsigned l = 0; l < kWarpSize; ++l) {
    bRe[l] = b[l].real();
    bIm[l] = b[l].imag();
    bImNeg[l] = -b[l].imag();
  }
  mma(shape, aRe, bRe, acc.re);
  mma(shape, aIm, bImNeg, acc.re);
  mma(shape, aRe, bIm, acc.im);
  mma(shape, aIm, bRe, acc.im);
}

/// The padded array of one tile and the fibers of each axis.
class TileArray {
public:
  TileArray(ArrayRef<int64_t> extents) : extents(extents) {
    int64_t n = extents.size();
    strides.assign(n, 1);
    for (int64_t j = n - 2; j >= 0; --j)
      strides[j] = strides[j + 1] * extents[j + 1];
    data.assign(strides[0] * extents[0], 0.0);
  }

  int64_t getNumFibers(int64_t axis) const {
    return int64_t(data.size()) / extents[axis];
  }
  /// The index of element `n` of fiber `fiber` along `axis` (fibers in
  /// row-major order over the other axes).
  int64_t index(int64_t axis, int64_t fiber, int64_t n) const {
    int64_t result = n * strides[axis];
    for (int64_t j = extents.size() - 1; j >= 0; --j) {
      if (j == axis)
        continue;
      result += (fiber % extents[j]) * strides[j];
      fiber /= extents[j];
    }
    return result;
  }

  SmallVector<int64_t> extents, strides;
  std::vector<std::complex<double>> data;
};

/// One DFT stage along `axis`, A from the array, for the fiber group at
/// `firstFiber`: returns the accumulators of every k-tile.
std::vector<ComplexAccumulators>
runStageFromArray(const TileArray &array, FftMmaShape shape, int64_t axis,
                  int64_t firstFiber,
                  const std::vector<std::complex<double>> &packed) {
  int64_t p = array.extents[axis];
  int64_t kTiles = p / 8, chunks = p / 4;
  int64_t fibers = array.getNumFibers(axis);
  std::vector<ComplexAccumulators> acc(kTiles);
  for (int64_t c = 0; c < chunks; ++c) {
    double aRe[kWarpSize][2] = {}, aIm[kWarpSize][2] = {};
    for (unsigned lane = 0; lane < kWarpSize; ++lane)
      for (unsigned r = 0; r < (shape == FftMmaShape::M8N8K4 ? 1u : 2u); ++r) {
        // a_r of lane (g, t): A[g + 8 r][t] = array[fiber][4c + t].
        int64_t fiber = firstFiber + (lane >> 2) + 8 * r;
        if (fiber >= fibers)
          continue;
        std::complex<double> v =
            array.data[array.index(axis, fiber, 4 * c + lane % 4)];
        aRe[lane][r] = v.real();
        aIm[lane][r] = v.imag();
      }
    for (int64_t kt = 0; kt < kTiles; ++kt)
      complexMma(shape, aRe, aIm, &packed[(kt * chunks + c) * kWarpSize],
                 acc[kt]);
  }
  return acc;
}

/// Stores the accumulators of a fiber group back into the array.
void storeAccumulators(TileArray &array, FftMmaShape shape, int64_t axis,
                       int64_t firstFiber,
                       const std::vector<ComplexAccumulators> &acc) {
  int64_t fibers = array.getNumFibers(axis);
  for (size_t kt = 0; kt < acc.size(); ++kt)
    for (unsigned lane = 0; lane < kWarpSize; ++lane)
      for (unsigned i = 0; i < getNumAccumulators(shape); ++i) {
        MatrixPos pos = getAccumulatorPos(shape, lane, i);
        int64_t fiber = firstFiber + pos.row;
        if (fiber >= fibers)
          continue;
        array.data[array.index(axis, fiber, 8 * kt + pos.col)] = {
            acc[kt].re[lane][i], acc[kt].im[lane][i]};
      }
}
} // namespace

namespace {
/// Loads two real tiles into the padded array with `loadMap` and runs the
/// forward stages of axes [0, numStages).
TileArray loadAndTransform(const FftTilePlan &plan, FftMmaShape shape,
                           ArrayRef<int64_t> loadMap,
                           const std::vector<double> &re,
                           const std::vector<double> &im, int64_t numStages) {
  SmallVector<int64_t> axisFactors = plan.getAxisFactors();
  TileArray array(plan.getAxisExtents());
  assert(loadMap.size() == re.size() && re.size() == im.size() &&
         "mismatched tile");
  for (size_t x = 0; x < loadMap.size(); ++x)
    array.data[loadMap[x]] = {re[x], im[x]};
  int64_t group = getFibersPerGroup(shape);
  for (int64_t axis = 0; axis < numStages; ++axis) {
    std::vector<std::complex<double>> packed =
        packDftFragments(axisFactors[axis], /*inverse=*/false,
                         /*swizzled=*/false);
    for (int64_t f = 0; f < array.getNumFibers(axis); f += group) {
      auto acc = runStageFromArray(array, shape, axis, f, packed);
      storeAccumulators(array, shape, axis, f, acc);
    }
  }
  return array;
}
} // namespace

std::vector<std::complex<double>> mlir::stencil::simulateFftForward(
    const FftTilePlan &plan, FftMmaShape shape, ArrayRef<int64_t> loadMap,
    const std::vector<double> &re, const std::vector<double> &im) {
  if (plan.cooleyTukey) {
    std::vector<std::complex<double>> array(4096, 0.0);
    for (size_t x = 0; x < loadMap.size(); ++x)
      array[loadMap[x]] = {re[x], im[x]};
    runCooleyTukeyPasses(plan, shape, array, {});
    return array;
  }
  int64_t numAxes = plan.getAxisFactors().size();
  return loadAndTransform(plan, shape, loadMap, re, im, numAxes).data;
}

void mlir::stencil::simulateFftTile(const FftTilePlan &plan, FftMmaShape shape,
                                    ArrayRef<int64_t> loadMap,
                                    ArrayRef<std::complex<double>> spectrum,
                                    std::vector<double> &re,
                                    std::vector<double> &im) {
  if (plan.cooleyTukey) {
    std::vector<std::complex<double>> array(4096, 0.0);
    for (size_t x = 0; x < loadMap.size(); ++x)
      array[loadMap[x]] = {re[x], im[x]};
    runCooleyTukeyPasses(plan, shape, array, packFftCtSpectrum(spectrum));
    for (size_t x = 0; x < loadMap.size(); ++x) {
      re[x] = array[loadMap[x]].real();
      im[x] = array[loadMap[x]].imag();
    }
    return;
  }
  SmallVector<int64_t> axisFactors = plan.getAxisFactors();
  int64_t numAxes = axisFactors.size();
  int64_t group = getFibersPerGroup(shape);
  // Forward stages of all axes but the last.
  TileArray array = loadAndTransform(plan, shape, loadMap, re, im, numAxes - 1);
  assert(spectrum.size() == array.data.size() && "mismatched spectrum");
  // The last axis: forward stage, product by S in the accumulators, and the
  // swizzled inverse stage fed by them.
  int64_t last = numAxes - 1;
  std::vector<std::complex<double>> forward =
      packDftFragments(axisFactors[last], false, false);
  std::vector<std::complex<double>> inverse =
      packDftFragments(axisFactors[last], true, true);
  int64_t p = array.extents[last];
  int64_t kTiles = p / 8, chunks = p / 4;
  for (int64_t f = 0; f < array.getNumFibers(last); f += group) {
    auto acc = runStageFromArray(array, shape, last, f, forward);
    for (int64_t kt = 0; kt < kTiles; ++kt)
      for (unsigned lane = 0; lane < kWarpSize; ++lane)
        for (unsigned i = 0; i < getNumAccumulators(shape); ++i) {
          MatrixPos pos = getAccumulatorPos(shape, lane, i);
          int64_t fiber = f + pos.row;
          std::complex<double> s = 0.0;
          if (fiber < array.getNumFibers(last))
            s = spectrum[array.index(last, fiber, 8 * kt + pos.col)];
          std::complex<double> v =
              std::complex<double>(acc[kt].re[lane][i], acc[kt].im[lane][i]) *
              s;
          acc[kt].re[lane][i] = v.real();
          acc[kt].im[lane][i] = v.imag();
        }
    std::vector<ComplexAccumulators> out(kTiles);
    for (int64_t c = 0; c < chunks; ++c) {
      // Chunk c = 2 kt' + i: a_0 = accumulator i of k-tile kt' (fiber g), and
      // for m16n8k4 a_1 = accumulator 2 + i (fiber g + 8).
      const ComplexAccumulators &src = acc[c / 2];
      double aRe[kWarpSize][2] = {}, aIm[kWarpSize][2] = {};
      for (unsigned lane = 0; lane < kWarpSize; ++lane) {
        aRe[lane][0] = src.re[lane][c % 2];
        aIm[lane][0] = src.im[lane][c % 2];
        if (shape == FftMmaShape::M16N8K4) {
          aRe[lane][1] = src.re[lane][2 + c % 2];
          aIm[lane][1] = src.im[lane][2 + c % 2];
        }
      }
      for (int64_t kt = 0; kt < kTiles; ++kt)
        complexMma(shape, aRe, aIm, &inverse[(kt * chunks + c) * kWarpSize],
                   out[kt]);
    }
    storeAccumulators(array, shape, last, f, out);
  }
  // Inverse stages of the other axes.
  for (int64_t axis = last - 1; axis >= 0; --axis) {
    std::vector<std::complex<double>> packed =
        packDftFragments(axisFactors[axis], /*inverse=*/true,
                         /*swizzled=*/false);
    for (int64_t f = 0; f < array.getNumFibers(axis); f += group) {
      auto acc = runStageFromArray(array, shape, axis, f, packed);
      storeAccumulators(array, shape, axis, f, acc);
    }
  }
  for (size_t x = 0; x < loadMap.size(); ++x) {
    re[x] = array.data[loadMap[x]].real();
    im[x] = array.data[loadMap[x]].imag();
  }
}

//===----------------------------------------------------------------------===//
// Cooley-Tukey tiles
//===----------------------------------------------------------------------===//

namespace {
/// Two complex values per lane: chunk (or accumulator pair) 0 and 1.
struct CtLanes {
  std::complex<double> v[kWarpSize][2];
};

/// acc[.][0..1] += a_0 B (rows g), acc[.][2..3] += a_1 B (rows g + 8): one
/// m16n8k4, or two m8n8k4.
void mmaPair(FftMmaShape shape, const double a[kWarpSize][2],
             const double b[kWarpSize], double acc[kWarpSize][4]) {
  if (shape == FftMmaShape::M16N8K4) {
    double d[kWarpSize][4];
    simulateMmaM16N8K4(a, b, acc, d);
    std::memcpy(acc, d, sizeof(d));
    return;
  }
  for (unsigned r = 0; r < 2; ++r) {
    double a0[kWarpSize], c[kWarpSize][2], d[kWarpSize][2];
    for (unsigned l = 0; l < kWarpSize; ++l) {
      a0[l] = a[l][r];
      c[l][0] = acc[l][2 * r];
      c[l][1] = acc[l][2 * r + 1];
    }
    simulateMmaM8N8K4(a0, b, c, d);
    for (unsigned l = 0; l < kWarpSize; ++l) {
      acc[l][2 * r] = d[l][0];
      acc[l][2 * r + 1] = d[l][1];
    }
  }
}

/// Chunk `c` of every lane's two elements.
std::array<std::complex<double>, kWarpSize> getChunk(const CtLanes &x,
                                                     int64_t c) {
  std::array<std::complex<double>, kWarpSize> chunk;
  for (unsigned l = 0; l < kWarpSize; ++l)
    chunk[l] = x.v[l][c];
  return chunk;
}

/// The two MMAs of a complex product: with A = [Re a; Im a] (a lane's
/// elements a[l]), p += A Re b and q += A Im b.
void mmaComplexPair(FftMmaShape shape, const std::complex<double> a[kWarpSize],
                    const std::complex<double> b[kWarpSize],
                    double p[kWarpSize][4], double q[kWarpSize][4]) {
  double aParts[kWarpSize][2], bRe[kWarpSize], bIm[kWarpSize];
  for (unsigned l = 0; l < kWarpSize; ++l) {
    aParts[l][0] = a[l].real();
    aParts[l][1] = a[l].imag();
    bRe[l] = b[l].real();
    bIm[l] = b[l].imag();
  }
  mmaPair(shape, aParts, bRe, p);
  mmaPair(shape, aParts, bIm, q);
}

/// One radix-8 stage with the data as B (chunk c = x.v[.][c]) and A = [Re;
/// Im] of the constants `frag[c]`: Re = P_top -+ Q_bot, Im = Q_top +- P_bot.
CtLanes stageDataAsB(FftMmaShape shape, const std::complex<double> *frag[2],
                     const CtLanes &x, bool inverse) {
  double p[kWarpSize][4] = {}, q[kWarpSize][4] = {};
  for (int64_t c = 0; c < 2; ++c)
    mmaComplexPair(shape, frag[c], getChunk(x, c).data(), p, q);
  CtLanes y;
  for (unsigned l = 0; l < kWarpSize; ++l)
    for (int64_t i = 0; i < 2; ++i)
      y.v[l][i] = inverse ? std::complex<double>(p[l][i] + q[l][2 + i],
                                                 q[l][i] - p[l][2 + i])
                          : std::complex<double>(p[l][i] - q[l][2 + i],
                                                 q[l][i] + p[l][2 + i]);
  return y;
}

/// One radix-8 stage with the data as A = [Re; Im] (chunk i = y.v[.][i])
/// and B = the constants `frag[i]`: Re = P_top -+ Q_bot, Im = P_bot +- Q_top
/// (inverse: P_bot - Q_top).
CtLanes stageDataAsA(FftMmaShape shape, const std::complex<double> *frag[2],
                     const CtLanes &y, bool inverse) {
  double p[kWarpSize][4] = {}, q[kWarpSize][4] = {};
  for (int64_t i = 0; i < 2; ++i)
    mmaComplexPair(shape, getChunk(y, i).data(), frag[i], p, q);
  CtLanes z;
  for (unsigned l = 0; l < kWarpSize; ++l)
    for (int64_t e = 0; e < 2; ++e)
      z.v[l][e] = inverse ? std::complex<double>(p[l][e] + q[l][2 + e],
                                                 p[l][2 + e] - q[l][e])
                          : std::complex<double>(p[l][e] - q[l][2 + e],
                                                 q[l][e] + p[l][2 + e]);
  return z;
}

/// The forward 64-point chain (C1): load layout in, accumulator layout out.
CtLanes forwardChain(FftMmaShape shape,
                     const std::vector<std::complex<double>> &frag,
                     const CtLanes &x) {
  const std::complex<double> *first[2] = {&frag[0], &frag[kWarpSize]};
  const std::complex<double> *second[2] = {&frag[2 * kWarpSize],
                                           &frag[3 * kWarpSize]};
  CtLanes y = stageDataAsB(shape, first, x, /*inverse=*/false);
  for (unsigned l = 0; l < kWarpSize; ++l)
    for (int64_t i = 0; i < 2; ++i)
      y.v[l][i] *= frag[(4 + i) * kWarpSize + l];
  return stageDataAsA(shape, second, y, /*inverse=*/false);
}

/// The inverse chain: accumulator layout in and out.
CtLanes inverseChain(FftMmaShape shape,
                     const std::vector<std::complex<double>> &frag,
                     const CtLanes &z) {
  const std::complex<double> *second[2] = {&frag[2 * kWarpSize],
                                           &frag[3 * kWarpSize]};
  CtLanes y = stageDataAsB(shape, second, z, /*inverse=*/true);
  for (unsigned l = 0; l < kWarpSize; ++l)
    for (int64_t i = 0; i < 2; ++i)
      y.v[l][i] *= std::conj(frag[(4 + i) * kWarpSize + l]);
  return stageDataAsA(shape, second, y, /*inverse=*/true);
}

/// The tile pipeline of a Cooley-Tukey tile on `array` (64 p0 + p1): pass 1,
/// pass 2 (with `packedSpectrum`, or forward only when it is empty), and
/// pass 3 when there is a spectrum.
void runCooleyTukeyPasses(const FftTilePlan &plan, FftMmaShape shape,
                          std::vector<std::complex<double>> &array,
                          ArrayRef<std::complex<double>> packedSpectrum) {
  std::vector<std::complex<double>> frag = packFftCtFragments();
  std::vector<std::complex<double>> twiddles;
  bool fourStep = plan.getRank() == 1;
  if (fourStep)
    twiddles = packFftCtTwiddles();
  auto at = [&](int64_t p0, int64_t p1) -> std::complex<double> & {
    return array[64 * p0 + p1];
  };
  // Passes 1 and 3: along axis 1, one unit per row p0; forward from the load
  // layout, or inverse in the accumulator layout. Both leave the row in the
  // accumulator layout.
  auto rowPass = [&](bool inverseRows) {
    for (int64_t p0 = 0; p0 < 64; ++p0) {
      CtLanes x;
      for (unsigned l = 0; l < kWarpSize; ++l)
        for (int64_t c = 0; c < 2; ++c)
          x.v[l][c] = at(p0, getFftCtPosition(l, c, inverseRows));
      CtLanes z = inverseRows ? inverseChain(shape, frag, x)
                              : forwardChain(shape, frag, x);
      for (unsigned l = 0; l < kWarpSize; ++l)
        for (int64_t e = 0; e < 2; ++e)
          at(p0, getFftCtPosition(l, e, true)) = z.v[l][e];
    }
  };
  rowPass(/*inverseRows=*/false);
  // Pass 2: along axis 0, one unit per column p1.
  bool inverse = !packedSpectrum.empty();
  for (int64_t p1 = 0; p1 < 64; ++p1) {
    CtLanes x;
    for (unsigned l = 0; l < kWarpSize; ++l)
      for (int64_t c = 0; c < 2; ++c) {
        x.v[l][c] = at(getFftCtPosition(l, c, false), p1);
        if (fourStep)
          x.v[l][c] *= twiddles[(p1 * 4 + c) * kWarpSize + l];
      }
    CtLanes z = forwardChain(shape, frag, x);
    if (inverse) {
      for (unsigned l = 0; l < kWarpSize; ++l)
        for (int64_t e = 0; e < 2; ++e)
          z.v[l][e] *= packedSpectrum[(p1 * 2 + e) * kWarpSize + l];
      z = inverseChain(shape, frag, z);
      if (fourStep)
        for (unsigned l = 0; l < kWarpSize; ++l)
          for (int64_t e = 0; e < 2; ++e)
            z.v[l][e] *= twiddles[(p1 * 4 + 2 + e) * kWarpSize + l];
    }
    for (unsigned l = 0; l < kWarpSize; ++l)
      for (int64_t e = 0; e < 2; ++e)
        at(getFftCtPosition(l, e, true), p1) = z.v[l][e];
  }
  if (!inverse)
    return;
  rowPass(/*inverseRows=*/true);
}
} // namespace
