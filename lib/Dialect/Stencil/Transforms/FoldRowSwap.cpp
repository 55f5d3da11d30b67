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

namespace {
struct StencilFoldRowSwapPass
    : public stencil::impl::StencilFoldRowSwapBase<StencilFoldRowSwapPass> {
  void runOnOperation() override {
    getOperation()->walk([&](SparseRowGemmOp op) {
      std::optional<ArrayRef<int64_t>> perm = op.getColumnPermutation();
      if (!perm)
        return;
      // Logical column c multiplies input row perm[c] of X, the point at
      // innermost offset perm[c] - r - s from the block's first output.
      SmallVector<int64_t> offsets;
      for (int64_t p : *perm)
        offsets.push_back(p - op.getRadius() - op.getColumnShift());
      op.setInputOffsets(offsets);
      op.removeColumnPermutationAttr();
    });
  }
};
} // namespace
