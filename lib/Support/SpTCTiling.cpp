//===- SpTCTiling.cpp - Tile geometry of the row-form kernels -------------===//

#include "stencil/Support/SpTCTiling.h"
#include "stencil/Support/SpTCPacking.h"

#include <cstdlib>

using namespace mlir;
using namespace mlir::stencil;
using llvm::ArrayRef;
using llvm::SmallVector;

SmallVector<int64_t>
mlir::stencil::getRowFormRadii(int64_t rank, int64_t radius,
                               ArrayRef<int64_t> rowOffsets,
                               int64_t columnRadius) {
  SmallVector<int64_t> radii(rank, 0);
  radii.back() = radius;
  if (rank > 1)
    for (auto [i, o] : llvm::enumerate(rowOffsets))
      radii[i % (rank - 1)] =
          std::max<int64_t>(radii[i % (rank - 1)], std::abs(o));
  // A low-rank chain reaches h rows along y through its column weights.
  if (columnRadius > 0)
    radii[0] = columnRadius;
  return radii;
}

TCF64Geometry::TCF64Geometry(int64_t rank, int64_t warps, int64_t nTiles,
                             int64_t mTiles, ArrayRef<int64_t> radii)
    : rank(rank), warps(warps), nTiles(nTiles), mTiles(mTiles), radii(radii) {
  chunks = TCF64CoefficientLayout::getNumChunks(radii.back());
  int64_t width = 8 * nTiles * warps;
  // The last warp's last chunk ends at column width - 8 + 4 C.
  int64_t columns = width - 8 + 4 * chunks;
  pitch = columns + (12 - columns % 8) % 8;
  tile.assign(rank, 1);
  if (rank == 1) {
    segment = width;
    tile[0] = 8 * mTiles * segment;
    rows = 8 * mTiles;
    return;
  }
  tile[rank - 1] = width;
  tile[rank - 2] = 8 * mTiles;
  rows = 8 * mTiles + 2 * radii[rank - 2];
  if (rank == 3)
    planes = 1 + 2 * radii[0];
}

int64_t mlir::stencil::getSpTCSharedBytes(int64_t rank,
                                          const RowFormTiling &tiling,
                                          ArrayRef<int64_t> radii,
                                          int64_t rowsPerBlock,
                                          ArrayRef<int64_t> inputOffsets,
                                          int64_t columnRadius) {
  SpTCBOperandPlan plan = planSpTCBOperand(
      inputOffsets, rowsPerBlock, rank,
      SpTCGeometry::innermostTile(rank, tiling.warps, tiling.nTiles));
  SpTCGeometry geo(rank, tiling.warps, tiling.nTiles, tiling.subTiles,
                   rowsPerBlock, radii, plan.pad, plan.pitch,
                   columnRadius > 0 ? kMmaSpN - 2 * columnRadius : 0);
  geo.asyncCopy = tiling.asyncCopy;
  return geo.allocatedElements() * 2;
}

int64_t mlir::stencil::getTCF64SharedBytes(int64_t rank,
                                           const RowFormTiling &tiling,
                                           ArrayRef<int64_t> radii) {
  TCF64Geometry geo(rank, tiling.warps, tiling.nTiles, tiling.mTiles, radii);
  return geo.smemElements() * 8;
}
