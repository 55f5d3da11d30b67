//===- FftKernel.h - The FFT stencil kernel ---------------------*- C++ -*-===//
//
// The GPU kernel of a `stencil.fft_apply` (FlashFFTStencil): one
// thread block per pair of tiles (double-layer filling), DFT stages as f64
// Tensor Core MMAs on the tile array in shared memory, the product by the
// spectrum and the swizzled inverse stage in registers, and T direct steps on
// the tiles at the grid's edge. FftKernel.cpp has the outline.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_CONVERSION_STENCILTOFFT_FFTKERNEL_H
#define STENCIL_CONVERSION_STENCILTOFFT_FFTKERNEL_H

#include "stencil/Dialect/Stencil/IR/StencilDialect.h"
#include "stencil/Support/FftTiling.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir {
namespace stencil {

/// The coefficient buffer of an FFT launch, in 32-bit words: the spectrum
/// (4 words per complex element of the tile array, row-major over the axes),
/// the tail's spectrum when there is a tail, then the B fragments of every
/// DFT stage (packDftFragments, 4 words per complex value): the forward
/// stages of axes 0 .. m-1, the swizzled inverse stage of axis m-1, the
/// inverse stages of axes m-2 .. 0. A Cooley-Tukey tile has its spectra in
/// the order pass 2 reads them (packFftCtSpectrum), then the per-lane
/// constants (packFftCtFragments) and, in 1-D, the four-step twiddles
/// (packFftCtTwiddles).
struct FftCoefficientLayout {
  explicit FftCoefficientLayout(const FftTilePlan &plan, bool hasTail);

  /// Word offset of the spectrum of the main (false) or tail (true) kernel.
  int64_t spectrumWord(bool tail) const { return tail ? 4 * elements : 0; }
  /// Word offset of the fragments of stage `s` (0 .. 2m - 1, in the order
  /// above).
  int64_t stageWord(int64_t s) const { return stageWords[s]; }
  /// The words, from the op's spectra.
  SmallVector<int32_t> pack(ArrayRef<std::complex<double>> spectrum,
                            ArrayRef<std::complex<double>> tailSpectrum) const;

  FftTilePlan plan;
  int64_t elements;
  bool hasTail;
  SmallVector<int64_t> stageWords;
  /// Cooley-Tukey: word offsets of the per-lane constants and twiddles.
  int64_t ctFragmentWord = 0, ctTwiddleWord = 0;
  int64_t totalWords;
};

/// What the kernel builder needs.
struct FftKernelConfig {
  FftTilePlan plan; // the tile; plan.fusedSteps places the tiles (T)
  int64_t steps;    // the steps this kernel computes (T, or the tail's)
  bool tail;        // reads the tail's spectrum
  FftMmaShape shape;
  int64_t warps;
  BoundaryKind boundary;
  double boundaryValue;
  Type elementType; // of the grids (f64 or f32)
  ArrayRef<int64_t> offsets;
  ArrayRef<double> weights;
};

/// Threads of a block of the FFT kernel.
inline int64_t getFftThreads(const FftKernelConfig &config) {
  return 32 * config.warps;
}
/// Dynamic shared memory of the FFT kernel: the tile array, 16 bytes per
/// element.
inline int64_t getFftSharedBytes(const FftTilePlan &plan) {
  return 16 * plan.getNumArrayElements();
}

/// Builds the kernel `name` at the end of `moduleBuilder`'s block.
gpu::GPUFuncOp buildFftKernel(OpBuilder &moduleBuilder, Location loc,
                              StringRef name, const FftKernelConfig &config,
                              const FftCoefficientLayout &layout);

} // namespace stencil
} // namespace mlir

#endif // STENCIL_CONVERSION_STENCILTOFFT_FFTKERNEL_H
