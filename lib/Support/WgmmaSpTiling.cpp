//===- WgmmaSpTiling.cpp - The warpgroup form of the SpTC kernel ----------===//

#include "stencil/Support/WgmmaSpTiling.h"

#include <cassert>

using namespace mlir;
using namespace mlir::stencil;

llvm::SmallVector<int64_t> WgmmaSpGeometry::blockTile() const {
  if (rank == 3)
    return {1, tileRows() * subTiles, blockWidth()};
  return {tileRows() * subTiles, blockWidth()};
}

std::pair<int64_t, int64_t> WgmmaSpGeometry::splitShift(int64_t shift) {
  int64_t phase = ((shift % kPhases) + kPhases) % kPhases;
  return {phase, (shift - phase) / kPhases};
}

int64_t WgmmaSpGeometry::byteOffset(int64_t plane, int64_t k, int64_t phase,
                                    int64_t entry) const {
  assert(k >= 0 && k < stagedK() && phase >= 0 && phase < kPhases &&
         entry >= -haloEntries() && entry < n + haloEntries() &&
         "not a staged element");
  return (plane * 4 * strips + k / 8) * chunkBytes() +
         phase * phaseEntries() * 16 + (entry + haloEntries()) * 16 +
         (k % 8) * 2;
}

WgmmaDescriptor WgmmaSpGeometry::getDescriptor(int64_t plane, int64_t shift,
                                               int64_t base, int64_t strip,
                                               int64_t firstK) const {
  assert(firstK % 8 == 0 && firstK < int64_t(kWgmmaSpK) && "not a K-chunk");
  auto [phase, entry] = splitShift(shift);
  WgmmaDescriptor d;
  d.startAddress =
      base + byteOffset(plane, kWgmmaSpK * strip + firstK, phase, entry);
  d.leadingByteOffset = chunkBytes();
  d.strideByteOffset = 128;
  return d;
}

int64_t mlir::stencil::findKernelRow(llvm::ArrayRef<int64_t> rowOffsets,
                                     int64_t rank, int64_t dz, int64_t dy) {
  int64_t outer = rank - 1;
  if (outer <= 0)
    return -1;
  for (int64_t o = 0, e = rowOffsets.size() / outer; o < e; ++o) {
    llvm::ArrayRef<int64_t> offset = rowOffsets.slice(o * outer, outer);
    if (offset.back() == dy && (rank < 3 || offset.front() == dz))
      return o;
  }
  return -1;
}

int64_t mlir::stencil::chooseWgmmaN(int64_t rank, int64_t radiusY,
                                    int64_t radiusZ, int64_t maxN,
                                    int64_t maxBytes, int64_t stages,
                                    int64_t strips) {
  for (int64_t n = maxN / 8 * 8; n >= 8; n -= 8) {
    WgmmaSpGeometry geo;
    geo.rank = rank;
    geo.n = n;
    geo.radiusY = radiusY;
    geo.radiusZ = radiusZ;
    geo.stages = stages;
    geo.strips = strips;
    if (geo.smemBytes() <= maxBytes)
      return n;
  }
  return 0;
}

int64_t mlir::stencil::countWgmmaSpMmas(const WgmmaSpGeometry &geo,
                                        llvm::ArrayRef<int64_t> rowOffsets) {
  int64_t count = 0;
  for (int64_t q = 0; q < geo.planes(); ++q)
    for (int64_t s = geo.firstShift(); s < geo.firstShift() + geo.numShifts();
         ++s)
      for (int64_t w = 0; w < WgmmaSpGeometry::kPhases; ++w)
        if (findKernelRow(rowOffsets, geo.rank, q - geo.radiusZ, s - w) >= 0) {
          ++count;
          break;
        }
  return count;
}
