//===- SpTCMatch.cpp - SparStencil's structured sparsity conversion -------===//
//
// Implements `--stencil-sptc-match` (SparStencil, section 3.2);
// see Passes.td and Support/SparStencil.h.
//
//===----------------------------------------------------------------------===//

#include "stencil/Dialect/Stencil/Transforms/Passes.h"
#include "stencil/Dialect/Stencil/Transforms/Transforms.h"
#include "stencil/Support/SparStencil.h"

#include "mlir/IR/BuiltinAttributes.h"

namespace mlir {
namespace stencil {
#define GEN_PASS_DEF_STENCILSPTCMATCH
#include "stencil/Dialect/Stencil/Transforms/Passes.h.inc"
} // namespace stencil
} // namespace mlir

using namespace mlir;
using namespace mlir::stencil;

/// The discardable attribute naming the matching method.
static constexpr StringLiteral kMatchingAttrName = "stencil.matching";

namespace {
struct StencilSpTCMatchPass
    : public stencil::impl::StencilSpTCMatchBase<StencilSpTCMatchPass> {
  void runOnOperation() override {
    WalkResult result = getOperation()->walk([&](RowGemmOp op) {
      // 1. Only gathered forms not matched yet.
      if (!op.getGatherOffsets() || op->hasAttr(kMatchingAttrName))
        return WalkResult::advance();
      int64_t rank = cast<MemRefType>(op.getInput().getType()).getRank();
      ArrayRef<int64_t> layoutAttr = *op.getLayout();
      FlattenLayout layout{layoutAttr[0], layoutAttr[1]};
      SmallVector<double> kernels(op.getKernels().getValues<double>());

      // 2. The units, their conflict graph and a maximum valid matching.
      FlattenedKernel flat =
          collectUnits(rank, layout, kernels, *op.getGatherOffsets());
      UnitMatching matching = matchUnits(flat);
      MatchedKernel matched = buildMatchedKernel(flat, matching);

      // 3. Every MMA must be 2:4: a located error, never wrong code.
      for (int64_t q = 0; q < matched.numMmas(); ++q) {
        std::string why;
        if (!satisfies2to4(matched.getKernel(q), &why)) {
          op.emitOpError("kernel row #")
              << q << " is not 2:4 sparse after matching: " << why;
          return WalkResult::interrupt();
        }
      }

      // 4. The matched kernels and offsets (zero units read the origin).
      auto type = RankedTensorType::get({matched.numMmas(), 16, 32},
                                        Float64Type::get(op.getContext()));
      op.setKernelsAttr(
          DenseElementsAttr::get(type, ArrayRef<double>(matched.kernels)));
      op.setGatherOffsets(matched.getGatherOffsets());
      op->setAttr(kMatchingAttrName,
                  StringAttr::get(op.getContext(),
                                  matching.method == MatchingMethod::Blossom
                                      ? "blossom"
                                      : "two-level"));
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
