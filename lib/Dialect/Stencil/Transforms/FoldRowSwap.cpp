//===- FoldRowSwap.cpp - The input row swap as load offsets ---------------===//
//
// Implements `--stencil-fold-row-swap` (SPIDER 3.2); see Passes.td.
//
//===----------------------------------------------------------------------===//

#include "stencil/Dialect/Stencil/Transforms/Passes.h"

namespace mlir {
namespace stencil {
#define GEN_PASS_DEF_STENCILFOLDROWSWAP
#include "stencil/Dialect/Stencil/Transforms/Passes.h.inc"
} // namespace stencil
} // namespace mlir

using namespace mlir;
using namespace mlir::stencil;

/// Logical column c multiplies input row perm[c] of X, the point at
/// innermost offset perm[c] - r - s from the block's first output (the
/// identity permutation when there is none).
static void foldRowSwap(RowFormOpInterface op) {
  // The gathered form (SparStencil) has its offsets already.
  if (op.getInputOffsets() || op.isGathered())
    return;
  op.setInputOffsets(op.getFoldedInputOffsets());
  op.removeColumnPermutationAttr();
}

namespace {
struct StencilFoldRowSwapPass
    : public stencil::impl::StencilFoldRowSwapBase<StencilFoldRowSwapPass> {
  void runOnOperation() override {
    getOperation()->walk([&](RowFormOpInterface op) { foldRowSwap(op); });
  }
};
} // namespace
