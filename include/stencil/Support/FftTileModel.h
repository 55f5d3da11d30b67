//===- FftTileModel.h - The FFT tile pipeline on the CPU -------*- C++ -*-===//
//
// A CPU model of `--lower-to-fft`'s data path, lane by lane through the warp
// fragments of MmaModel.h, on the tiles, index maps and packed fragments of
// FftTiling.h. The unit tests check it against a direct DFT and against the
// stencil, within getFftErrorBound.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_SUPPORT_FFTTILEMODEL_H
#define STENCIL_SUPPORT_FFTTILEMODEL_H

#include "stencil/Support/FftTiling.h"

namespace mlir {
namespace stencil {

/// The forward transform of a tile on the CPU, through the warp fragments of
/// MmaModel.h: (re, im) loaded with `loadMap` into the padded array, then one
/// DFT stage per axis (A from the array, packed B, complex as four real MMAs
/// of `shape`). Returns the padded array (row-major over the axes): at the
/// position of frequencies (k_j), the tile's DFT at the Ruritanian
/// frequencies (getFftFrequency), zero at padded positions.
std::vector<std::complex<double>> simulateFftForward(
    const FftTilePlan &plan, FftMmaShape shape, llvm::ArrayRef<int64_t> loadMap,
    const std::vector<double> &re, const std::vector<double> &im);

/// The whole tile pipeline on the CPU, through the warp fragments of
/// MmaModel.h: load (re, im) with `loadMap`, forward DFT stages over every
/// axis (A from the array, packed B, complex as four real MMAs of `shape`),
/// the product by `spectrum` in the last stage's accumulators, the swizzled
/// inverse stage of the last axis fed by those accumulators, the remaining
/// inverse stages, and the read-back with `loadMap`. `re` and `im` hold two
/// real tiles (row-major over N_d); they are overwritten with the results.
void simulateFftTile(const FftTilePlan &plan, FftMmaShape shape,
                     llvm::ArrayRef<int64_t> loadMap,
                     llvm::ArrayRef<std::complex<double>> spectrum,
                     std::vector<double> &re, std::vector<double> &im);

} // namespace stencil
} // namespace mlir

#endif // STENCIL_SUPPORT_FFTTILEMODEL_H
