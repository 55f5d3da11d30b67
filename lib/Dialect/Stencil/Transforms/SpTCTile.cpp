//===- SpTCTile.cpp - Tiling of the Sparse Tensor Core kernel -------------===//
//
// Implements `--stencil-sptc-tile` (SPIDER 3.3.1); see Passes.td.
//
//===----------------------------------------------------------------------===//

#include "stencil/Dialect/Stencil/Transforms/Passes.h"
#include "stencil/Dialect/Stencil/Transforms/Transforms.h"
#include "stencil/Support/GPUTarget.h"
#include "stencil/Support/SpTCTiling.h"
#include "stencil/Support/WgmmaSpTiling.h"

namespace mlir {
namespace stencil {
#define GEN_PASS_DEF_STENCILSPTCTILE
#include "stencil/Dialect/Stencil/Transforms/Passes.h.inc"
} // namespace stencil
} // namespace mlir

using namespace mlir;
using namespace mlir::stencil;

/// The most warps a block may have (1024 threads).
static constexpr int64_t kMaxWarps = 32;
/// The most MMA column tiles per warp and pipelined sub-tiles per block
/// the pass takes: far past what fits in shared memory or registers, and
/// small enough that a tile's sizes stay 32-bit.
static constexpr int64_t kMaxNTiles = 64;
static constexpr int64_t kMaxSubTiles = 1024;

namespace {
struct StencilSpTCTilePass
    : public stencil::impl::StencilSpTCTileBase<StencilSpTCTilePass> {
  using StencilSpTCTileBase::StencilSpTCTileBase;

  void runOnOperation() override {
    WalkResult result = getOperation()->walk([&](RowFormOpInterface op) {
      int64_t rank = op.getGridRank();
      // The f64 form (m8n8k4) has its own kernel: see the description.
      bool f64 = op.isDense() && op.getGridElementType().isF64();
      // Bounds first: a huge count would overflow the tile's sizes.
      if (warps < 0 || warps > kMaxWarps || nTiles < 0 || nTiles > kMaxNTiles ||
          subTiles < 0 || subTiles > kMaxSubTiles) {
        op.emitOpError("needs 0 <= warps <= ")
            << kMaxWarps << ", 0 <= n-tiles <= " << kMaxNTiles
            << " and 0 <= sub-tiles <= " << kMaxSubTiles
            << " (0: chosen by the pass), got warps=" << warps.getValue()
            << " n-tiles=" << nTiles.getValue()
            << " sub-tiles=" << subTiles.getValue();
        return WalkResult::interrupt();
      }
      if (f64)
        return tileF64(op, rank);
      if (mma != MmaKind::Warp) {
        std::optional<WalkResult> warpgroup = tileWarpgroup(op, rank);
        if (warpgroup)
          return *warpgroup;
      }
      // 1. The defaults by rank (bench/NOTES.md), gathered forms included
      // (on an H100, Star-2D13P in [4, 4] ran as fast with 4 n-tiles as
      // with 8, and the 17-point star 8% faster: 124 registers instead of
      // 168, a fourth block per SM).
      // 3-D blocks stream kSpTCStreamPlanes output planes along z.
      RowFormTiling preferred = getPreferredSpTCTiling(rank);
      if (warps)
        preferred.warps = warps;
      if (nTiles)
        preferred.nTiles = nTiles;
      if (subTiles)
        preferred.subTiles = subTiles;
      if (warps < 0 || nTiles < 0 || subTiles < 0) {
        op.emitOpError("needs warps, n-tiles and sub-tiles >= 1");
        return WalkResult::interrupt();
      }
      if (mTiles > 1) {
        op.emitOpError("m-tiles applies to the f64 Tensor Core kernel only");
        return WalkResult::interrupt();
      }
      if (asyncCopy != AsyncCopy::Auto)
        preferred.asyncCopy = asyncCopy == AsyncCopy::On;
      if (rank == 3 && asyncCopy == AsyncCopy::On && preferred.subTiles > 1) {
        op.emitOpError("streams its input planes through registers (3-D, ")
            << preferred.subTiles
            << " sub-tiles along z): async-copy=on needs sub-tiles=1";
        return WalkResult::interrupt();
      }

      // 2. The first candidate whose staged tile fits; the preferred one
      // when none does (or all options were given): the conversion then
      // reports the size.
      // A gathered form (SparStencil) is sized by its slots and reach, a
      // banded one by its input offsets and kernel rows.
      SmallVector<int64_t> radii = op.getRadii(), offsets;
      int64_t rowsPerBlock = 0, columnRadius = 0;
      std::optional<SpTCGather> gather = op.getGather();
      if (!gather) {
        offsets = op.getFoldedInputOffsets();
        rowsPerBlock = op.getRowsPerBlock();
        columnRadius = op.getColumnRadius();
      }
      RowFormTiling chosen = preferred;
      for (const RowFormTiling &c : getDefaultSpTCTilings(
               preferred, warps == 0, nTiles == 0,
               /*autoMTiles=*/false, asyncCopy == AsyncCopy::Auto)) {
        int64_t bytes = gather
                            ? getSpTCGatherSharedBytes(rank, c, radii, *gather)
                            : getSpTCSharedBytes(rank, c, radii, rowsPerBlock,
                                                 offsets, columnRadius);
        if (bytes <= kMaxStaticSharedBytes) {
          chosen = c;
          break;
        }
      }

      // 3. Record it.
      op.setTilingAttr(TilingAttr::get(op.getContext(), chosen.warps,
                                       chosen.nTiles, chosen.subTiles,
                                       chosen.asyncCopy, /*mTiles=*/0,
                                       /*wgmmaN=*/0, /*wgmmaStages=*/0,
                                       /*wgmmaStrips=*/0));
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }

  /// Why the warpgroup kernel does not take `op`, or an empty string.
  static std::string whyNoWarpgroupKernel(RowFormOpInterface op, int64_t rank) {
    if (auto dense = dyn_cast<RowGemmOp>(op.getOperation())) {
      if (dense.getColumnWeights())
        return "the low-rank chain (column_weights) has no warpgroup kernel "
               "yet";
      if (!op.getGridElementType().isF16())
        return "the dense warpgroup kernel takes f16 grids only";
    }
    if (!op.isDense() && op.getGather())
      return "the gathered form (layout, gather_offsets) has no warpgroup "
             "kernel yet";
    if (rank < 2)
      return "a 1-D form has one kernel row, which the four warps of a "
             "warpgroup cannot split";
    return "";
  }

  /// The warpgroup tiling (`mma` warpgroup or auto), or nullopt to take the
  /// warp-level one (auto, where the chip or the form does not allow it, or
  /// where the warp-level kernel is the faster one).
  std::optional<WalkResult> tileWarpgroup(RowFormOpInterface op, int64_t rank) {
    bool sm90a = hasWarpgroupMma(chip);
    std::string why = whyNoWarpgroupKernel(op, rank);
    if (mma == MmaKind::Auto && (!sm90a || !why.empty()))
      return std::nullopt;
    ArrayRef<int64_t> rowOffsets = op.getRowOffsets();
    SmallVector<int64_t> radii =
        getRowFormRadii(rank, op.getRadius(), rowOffsets);
    if (mma == MmaKind::Auto &&
        !preferWarpgroupKernel(rank, radii[rank - 2], op.isDense()))
      return std::nullopt;
    if (!chip.empty() && !sm90a) {
      op.emitOpError("mma=warpgroup issues wgmma.mma_async.sp, which only "
                     "sm_90a has; the target is chip=")
          << chip.getValue() << " (use chip=sm_90a, or mma=warp)";
      return WalkResult::interrupt();
    }
    if (!why.empty()) {
      op.emitOpError("mma=warpgroup: ") << why << " (use mma=warp)";
      return WalkResult::interrupt();
    }
    WgmmaSpGeometry geo;
    geo.rank = rank;
    geo.radiusY = radii[rank - 2];
    geo.radiusZ = rank == 3 ? radii[0] : 0;
    if (wgmmaStages != 0 &&
        (wgmmaStages < kMinWgmmaStages || wgmmaStages > kMaxWgmmaStages)) {
      op.emitOpError("wgmma-stages must be in [")
          << kMinWgmmaStages << ", " << kMaxWgmmaStages << "], got "
          << int64_t(wgmmaStages);
      return WalkResult::interrupt();
    }
    geo.stages = wgmmaStages ? int64_t(wgmmaStages) : kDefaultWgmmaStages;
    if (wgmmaStrips != 0 && !isValidWgmmaStrips(wgmmaStrips)) {
      op.emitOpError("wgmma-strips must be a power of two in [1, ")
          << kMaxWgmmaStrips << "], got " << int64_t(wgmmaStrips);
      return WalkResult::interrupt();
    }
    geo.strips = wgmmaStrips ? int64_t(wgmmaStrips)
                 : rank == 3 ? kDefaultWgmmaStrips3D
                             : kDefaultWgmmaStrips2D;
    int64_t maxN =
        geo.radiusY <= 1 ? kDefaultWgmmaMaxN2DRadius1 : kDefaultWgmmaMaxN2D;
    if (rank == 3)
      maxN = countWgmmaSpMmas(geo, rowOffsets) > kDefaultWgmmaManyMmas3D
                 ? kDefaultWgmmaMaxN3DManyMmas
                 : kDefaultWgmmaMaxN3D;
    // The default N: the largest that fits the default budget, else the
    // largest that fits at all (0: none, reported below).
    geo.n = wgmmaN;
    for (int64_t budget : {kDefaultWgmmaSharedBytes, kMaxWgmmaSharedBytes})
      if (geo.n == 0)
        geo.n = chooseWgmmaN(rank, geo.radiusY, geo.radiusZ, maxN, budget,
                             geo.stages, geo.strips);
    if (wgmmaN != 0 &&
        (geo.n < 8 || geo.n > int64_t(kWgmmaMaxN) || geo.n % 8 != 0)) {
      op.emitOpError("wgmma-n must be a multiple of 8 in [8, 256], got ")
          << geo.n;
      return WalkResult::interrupt();
    }
    if (warps > 0 && warps != 4) {
      op.emitOpError("mma=warpgroup runs one warpgroup of 4 warps per "
                     "block, got warps=")
          << int64_t(warps);
      return WalkResult::interrupt();
    }
    if (geo.n == 0 || geo.smemBytes() > kMaxWgmmaSharedBytes) {
      if (geo.n == 0)
        geo.n = 8;
      op.emitOpError("mma=warpgroup with wgmma-n=")
          << geo.n << ", " << geo.stages << " stages and " << geo.strips
          << " strips needs " << geo.smemBytes()
          << " bytes of shared memory, more than " << kMaxWgmmaSharedBytes
          << ": use a smaller wgmma-n, fewer wgmma-stages or fewer "
             "wgmma-strips";
      return WalkResult::interrupt();
    }
    int64_t sub = subTiles > 0 ? int64_t(subTiles) : kDefaultWgmmaSubTiles;
    op.setTilingAttr(TilingAttr::get(op.getContext(), /*warps=*/4, geo.n / 8,
                                     sub, /*asyncCopy=*/false, /*mTiles=*/0,
                                     geo.n, geo.stages, geo.strips));
    return WalkResult::advance();
  }

  /// The f64 kernel: `warps` x `n-tiles` n-tiles of 8 outputs along `x` by
  /// `m-tiles` m-tiles of 8 rows, one sub-tile, synchronous staging; the
  /// defaults shrink (n-tiles, then warps, then m-tiles) until the tile fits.
  WalkResult tileF64(RowFormOpInterface op, int64_t rank) {
    RowFormTiling preferred;
    preferred.warps = warps ? int64_t(warps) : 4;
    preferred.nTiles = nTiles ? int64_t(nTiles) : (rank == 3 ? 2 : 4);
    preferred.mTiles = mTiles ? int64_t(mTiles) : 2;
    if (warps < 0 || nTiles < 0 || mTiles < 0) {
      op.emitOpError("needs warps, n-tiles and m-tiles >= 1");
      return WalkResult::interrupt();
    }
    if (subTiles > 1 || asyncCopy == AsyncCopy::On) {
      op.emitOpError("is an f64 row GEMM: its kernel takes one sub-tile "
                     "and synchronous staging (no sub-tiles or async-copy)");
      return WalkResult::interrupt();
    }
    SmallVector<int64_t> radii =
        getRowFormRadii(rank, op.getRadius(), op.getRowOffsets());
    RowFormTiling chosen = preferred;
    for (const RowFormTiling &c :
         getDefaultSpTCTilings(preferred, warps == 0, nTiles == 0, mTiles == 0,
                               /*autoAsync=*/false)) {
      if (getTCF64SharedBytes(rank, c, radii) <= kMaxStaticSharedBytes) {
        chosen = c;
        break;
      }
    }
    op.setTilingAttr(TilingAttr::get(op.getContext(), chosen.warps,
                                     chosen.nTiles, /*subTiles=*/1,
                                     /*asyncCopy=*/false, chosen.mTiles,
                                     /*wgmmaN=*/0, /*wgmmaStages=*/0,
                                     /*wgmmaStrips=*/0));
    return WalkResult::advance();
  }
};
} // namespace
