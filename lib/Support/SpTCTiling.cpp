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

static int64_t roundUp(int64_t v, int64_t m) { return (v + m - 1) / m * m; }

SpTCGather mlir::stencil::getSpTCGather(ArrayRef<int64_t> layout,
                                        ArrayRef<int64_t> gather,
                                        ArrayRef<bool> nonZeros) {
  SpTCGather result;
  result.r1 = layout[0];
  result.r2 = layout[1];
  int64_t slots = int64_t(gather.size()) / 3;
  for (int64_t qs = 0; qs < slots; ++qs) {
    int64_t q = qs / 16, s = qs % 16;
    bool used = false;
    for (int64_t m = 0; m < 16 && !used; ++m)
      used = nonZeros[(q * 16 + m) * 32 + 2 * s] ||
             nonZeros[(q * 16 + m) * 32 + 2 * s + 1];
    std::array<int64_t, 3> offset = {0, 0, 0};
    if (used)
      offset = {gather[3 * qs], gather[3 * qs + 1], gather[3 * qs + 2]};
    result.slots.push_back(offset);
  }
  return result;
}

SmallVector<int64_t> mlir::stencil::getGatheredRadii(int64_t rank,
                                                     ArrayRef<int64_t> layout,
                                                     ArrayRef<int64_t> gather,
                                                     ArrayRef<bool> nonZeros) {
  int64_t r1 = layout[0];
  SmallVector<int64_t> radii(rank, 0);
  int64_t slots = int64_t(gather.size()) / 3;
  for (int64_t qs = 0; qs < slots; ++qs) {
    ArrayRef<int64_t> g = gather.slice(3 * qs, 3);
    for (int64_t m = 0; m < 16; ++m)
      for (int64_t e = 0; e < 2; ++e) {
        if (!nonZeros[((qs / 16) * 16 + m) * 32 + 2 * (qs % 16) + e])
          continue;
        int64_t point[3] = {g[0], g[1] - m / r1, g[2] + e - m % r1};
        for (int64_t d = 0; d < rank; ++d)
          radii[d] = std::max(radii[d], std::abs(point[3 - rank + d]));
      }
  }
  return radii;
}

int64_t mlir::stencil::countSpTCGatherBankConflicts(
    const SpTCGather &gather, int64_t rank, int64_t nTiles,
    ArrayRef<int64_t> radii, int64_t pad, int64_t pitch) {
  SpTCGeometry geo(rank, /*warps=*/2, nTiles, /*subTiles=*/1, kMmaSpM, radii,
                   pad, pitch, /*extraRows=*/0, {gather.r1, gather.r2});
  int64_t total = 0;
  for (int64_t warp = 0; warp < 2; ++warp) {
    for (int64_t q = 0; q < gather.numRows(); ++q)
      for (int64_t p = 0; p < 4; ++p) {
        int64_t elements[32];
        for (int64_t lane = 0; lane < 32; ++lane) {
          int64_t g = lane / 4, t = lane % 4;
          auto [dz, dy, dx] = gather.slots[16 * q + t + 4 * p];
          elements[lane] = geo.constantOffset(0, 0) + geo.groupStride() * g +
                           geo.warpStride() * warp + geo.slotOffset(dz, dy, dx);
        }
        total += getBankConflictDegree(elements);
      }
  }
  return total;
}

SpTCGatherRows mlir::stencil::planSpTCGatherRows(const SpTCGather &gather,
                                                 int64_t rank, int64_t warps,
                                                 int64_t nTiles,
                                                 ArrayRef<int64_t> radii) {
  int64_t dxMin = 0, dxMax = 0;
  for (const auto &slot : gather.slots) {
    dxMin = std::min(dxMin, slot[2]);
    dxMax = std::max(dxMax, slot[2] + 1);
  }
  SpTCGatherRows rows;
  rows.pad = roundUp(-dxMin, 8);
  // The block's last MMA column starts r1 before the tile's end.
  int64_t last = SpTCGeometry::innermostTile(rank, warps, nTiles, gather.r1) -
                 (rank == 1 ? kMmaSpM : gather.r1);
  int64_t minPitch = roundUp(rows.pad + last + dxMax + 1, 8);
  rows.pitch = minPitch;
  if (rank == 1)
    return rows;
  int64_t best = -1;
  for (int64_t pitch = minPitch; pitch < minPitch + 64; pitch += 8) {
    int64_t conflicts = countSpTCGatherBankConflicts(gather, rank, nTiles,
                                                     radii, rows.pad, pitch);
    if (best < 0 || conflicts < best) {
      best = conflicts;
      rows.pitch = pitch;
    }
  }
  return rows;
}

int64_t mlir::stencil::getSpTCGatherSharedBytes(int64_t rank,
                                                const RowFormTiling &tiling,
                                                ArrayRef<int64_t> radii,
                                                const SpTCGather &gather) {
  return getSpTCGatherGeometry(rank, tiling, radii, gather)
             .allocatedElements() *
         2;
}

SpTCGeometry mlir::stencil::getSpTCGatherGeometry(int64_t rank,
                                                  const RowFormTiling &tiling,
                                                  ArrayRef<int64_t> radii,
                                                  const SpTCGather &gather) {
  SpTCGatherRows rows =
      planSpTCGatherRows(gather, rank, tiling.warps, tiling.nTiles, radii);
  SpTCGeometry geo(rank, tiling.warps, tiling.nTiles, tiling.subTiles, kMmaSpM,
                   radii, rows.pad, rows.pitch, /*extraRows=*/0,
                   {gather.r1, gather.r2});
  geo.asyncCopy = tiling.asyncCopy;
  return geo;
}

RowFormTiling mlir::stencil::getPreferredSpTCTiling(int64_t rank) {
  RowFormTiling tiling;
  tiling.warps = 4;
  tiling.nTiles = rank == 2 ? 4 : 8;
  tiling.subTiles = rank == 2 ? 8 : rank == 3 ? kSpTCStreamPlanes : 1;
  tiling.asyncCopy = rank == 2;
  return tiling;
}

SmallVector<RowFormTiling>
mlir::stencil::getDefaultSpTCTilings(RowFormTiling preferred, bool autoWarps,
                                     bool autoTiles, bool autoMTiles,
                                     bool autoAsync) {
  SmallVector<bool> asyncModes = {preferred.asyncCopy};
  if (preferred.asyncCopy && autoAsync)
    asyncModes.push_back(false);
  SmallVector<RowFormTiling> candidates;
  for (bool async : asyncModes) {
    for (int64_t m = preferred.mTiles; m >= 0; m /= 2) {
      for (int64_t w = preferred.warps; w >= 1; w /= 2) {
        for (int64_t n = preferred.nTiles; n >= 1; n /= 2) {
          RowFormTiling c = preferred;
          c.asyncCopy = async;
          c.mTiles = m;
          c.warps = w;
          c.nTiles = n;
          candidates.push_back(c);
          if (!autoTiles)
            break;
        }
        if (!autoWarps)
          break;
      }
      if (!autoMTiles || m <= 1)
        break;
    }
  }
  return candidates;
}

std::optional<SpTCStaging> mlir::stencil::getDefaultSpTCGatherStaging(
    int64_t rank, ArrayRef<int64_t> radii, const SpTCGather &gather) {
  for (const RowFormTiling &tiling :
       getDefaultSpTCTilings(getPreferredSpTCTiling(rank), true, true,
                             /*autoMTiles=*/false, /*autoAsync=*/true)) {
    SpTCGeometry geo = getSpTCGatherGeometry(rank, tiling, radii, gather);
    int64_t bytes = geo.allocatedElements() * 2;
    if (bytes > kMaxStaticSharedBytes)
      continue;
    int64_t outputs = 1;
    for (int64_t extent : geo.tile)
      outputs *= extent;
    double staged = double(geo.smemSize) / outputs;
    if (geo.streamsPlanes())
      staged = double(geo.subTiles + 2 * radii[0]) * geo.planeElements() /
               (double(geo.subTiles) * outputs);
    return SpTCStaging{tiling, bytes, staged};
  }
  return std::nullopt;
}
