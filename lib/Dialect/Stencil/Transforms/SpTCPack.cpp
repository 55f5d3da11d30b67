//===- SpTCPack.cpp - Per-lane packing of the kernel matrices -------------===//
//
// Implements `--stencil-sptc-pack` (SPIDER 3.3.2) with
// `packSpTCCoefficients` of Support/SpTCPacking.h; see Passes.td.
//
//===----------------------------------------------------------------------===//

#include "stencil/Dialect/Stencil/Transforms/Passes.h"
#include "stencil/Support/SpTCPacking.h"

namespace mlir {
namespace stencil {
#define GEN_PASS_DEF_STENCILSPTCPACK
#include "stencil/Dialect/Stencil/Transforms/Passes.h.inc"
} // namespace stencil
} // namespace mlir

using namespace mlir;
using namespace mlir::stencil;

namespace {
struct StencilSpTCPackPass
    : public stencil::impl::StencilSpTCPackBase<StencilSpTCPackPass> {
  void runOnOperation() override {
    WalkResult result = getOperation()->walk([&](SparseRowGemmOp op) {
      if (16 % op.getRowsPerBlock() != 0) {
        op.emitOpError("rows_per_block ")
            << op.getRowsPerBlock()
            << " does not divide the 16 rows of an m16n8k32 mma.sp";
        return WalkResult::interrupt();
      }
      SmallVector<uint16_t> valueBits;
      for (APFloat v : op.getValues().getValues<APFloat>())
        valueBits.push_back(v.bitcastToAPInt().getZExtValue());
      SmallVector<uint8_t> indices;
      for (int8_t i : op.getIndices().getValues<int8_t>())
        indices.push_back(i);
      std::vector<uint32_t> words = packSpTCCoefficients(
          valueBits, indices, op.getNumRows(), op.getRowsPerBlock());
      op.setPackedCoefficients(SmallVector<int32_t>(words.begin(), words.end()));
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
