//===- SpTCTile.cpp - Tiling of the Sparse Tensor Core kernel -------------===//
//
// Implements `--stencil-sptc-tile` (SPIDER 3.3.1); see Passes.td.
//
//===----------------------------------------------------------------------===//

#include "stencil/Dialect/Stencil/Transforms/Passes.h"

namespace mlir {
namespace stencil {
#define GEN_PASS_DEF_STENCILSPTCTILE
#include "stencil/Dialect/Stencil/Transforms/Passes.h.inc"
} // namespace stencil
} // namespace mlir

using namespace mlir;
using namespace mlir::stencil;

namespace {
struct StencilSpTCTilePass
    : public stencil::impl::StencilSpTCTileBase<StencilSpTCTilePass> {
  using StencilSpTCTileBase::StencilSpTCTileBase;

  void runOnOperation() override {
    WalkResult result = getOperation()->walk([&](Operation *op) {
      if (!isa<SparseRowGemmOp, RowGemmOp>(op))
        return WalkResult::advance();
      auto gridType = cast<MemRefType>(op->getOperand(0).getType());
      int64_t rank = gridType.getRank();
      // The f64 form (m8n8k4) has its own kernel: see the description.
      bool f64 = isa<RowGemmOp>(op) && gridType.getElementType().isF64();
      if (f64)
        return tileF64(op, rank);
      // 1. The defaults by rank (bench/NOTES.md).
      int64_t tiles = nTiles ? int64_t(nTiles) : (rank == 2 ? 4 : 8);
      int64_t subs = subTiles ? int64_t(subTiles) : (rank == 2 ? 8 : 1);
      if (warps < 1 || tiles < 1 || subs < 1) {
        op->emitOpError("needs warps, n-tiles and sub-tiles >= 1");
        return WalkResult::interrupt();
      }
      if (mTiles > 1) {
        op->emitOpError("m-tiles applies to the f64 Tensor Core kernel only");
        return WalkResult::interrupt();
      }
      if (asyncCopy != "auto" && asyncCopy != "on" && asyncCopy != "off") {
        op->emitOpError("async-copy must be 'on', 'off' or 'auto', got '")
            << asyncCopy.getValue() << "'";
        return WalkResult::interrupt();
      }
      bool async = asyncCopy == "on" || (asyncCopy == "auto" && rank == 2);

      // 2. Record it.
      Builder b(op->getContext());
      op->setAttr("tiling", b.getDictionaryAttr(
          {b.getNamedAttr("warps", b.getI64IntegerAttr(warps)),
           b.getNamedAttr("n_tiles", b.getI64IntegerAttr(tiles)),
           b.getNamedAttr("sub_tiles", b.getI64IntegerAttr(subs)),
           b.getNamedAttr("async_copy", b.getBoolAttr(async))}));
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }

  /// The f64 kernel: `warps` x `n-tiles` n-tiles of 8 outputs along `x` by
  /// `m-tiles` m-tiles of 8 rows, one sub-tile, synchronous staging.
  WalkResult tileF64(Operation *op, int64_t rank) {
    int64_t tiles = nTiles ? int64_t(nTiles) : (rank == 3 ? 2 : 4);
    int64_t rows = mTiles ? int64_t(mTiles) : 2;
    if (warps < 1 || tiles < 1 || rows < 1) {
      op->emitOpError("needs warps, n-tiles and m-tiles >= 1");
      return WalkResult::interrupt();
    }
    if (subTiles > 1 || asyncCopy == "on") {
      op->emitOpError("is an f64 row GEMM: its kernel takes one sub-tile "
                      "and synchronous staging (no sub-tiles or async-copy)");
      return WalkResult::interrupt();
    }
    Builder b(op->getContext());
    op->setAttr("tiling", b.getDictionaryAttr(
        {b.getNamedAttr("warps", b.getI64IntegerAttr(warps)),
         b.getNamedAttr("n_tiles", b.getI64IntegerAttr(tiles)),
         b.getNamedAttr("m_tiles", b.getI64IntegerAttr(rows)),
         b.getNamedAttr("sub_tiles", b.getI64IntegerAttr(1)),
         b.getNamedAttr("async_copy", b.getBoolAttr(false))}));
    return WalkResult::advance();
  }
};
} // namespace
