//===- LowRank.cpp - Low-rank form of 2-D linear stencils -----------------===//
//
// Implements `--stencil-low-rank` (LoRAStencil, II-D and III-C);
// see Passes.td. The decompositions are in Support/LowRank.h.
//
//===----------------------------------------------------------------------===//

#include "stencil/Dialect/Stencil/Transforms/Passes.h"
#include "stencil/Support/LowRank.h"

#include <cmath>

namespace mlir {
namespace stencil {
#define GEN_PASS_DEF_STENCILLOWRANK
#include "stencil/Dialect/Stencil/Transforms/Passes.h.inc"
} // namespace stencil
} // namespace mlir

using namespace mlir;
using namespace mlir::stencil;

/// The largest radius the low-rank chain's row forms can take.
static constexpr int64_t kMaxLowRankRadius = 7;

namespace {
struct StencilLowRankPass
    : public stencil::impl::StencilLowRankBase<StencilLowRankPass> {
  using StencilLowRankBase::StencilLowRankBase;

  void runOnOperation() override {
    SmallVector<LinearOp> ops;
    getOperation()->walk([&](LinearOp op) { ops.push_back(op); });
    for (LinearOp op : ops)
      if (failed(rewrite(op)))
        return signalPassFailure();
  }

  LogicalResult rewrite(LinearOp op) {
    // 1. A 2-D pattern with one radius h along both dimensions.
    PatternAttr pattern = op.getPattern();
    if (pattern.getRank() != 2)
      return success();
    SmallVector<int64_t> radii = pattern.getRadii();
    if (radii[0] != radii[1])
      return success();
    int64_t h = radii[0], n = 2 * h + 1;
    // The chain's matrix forms take a radius of at most 7 (16 rows of an
    // MMA tile, --stencil-decompose), which reports larger ones; do not
    // build an n x n matrix (nor decompose it, O(n^3)) for a stencil that
    // cannot use it.
    if (h > kMaxLowRankRadius)
      return success();

    // 2. W and its decomposition.
    SquareMatrix w = getWeightMatrix(h, pattern.getOffsets(), op.getWeights());
    Type elementType =
        cast<MemRefType>(op.getInput().getType()).getElementType();
    double tol = tolerance > 0 ? double(tolerance)
                               : getUnitRoundoff(elementType);
    std::optional<RankDecomposition> terms;
    if (method != LowRankMethod::Svd)
      terms = pyramidalDecomposition(w, tol);
    if (!terms && method == LowRankMethod::Pyramidal)
      return op.emitOpError("has weights that are not row- and "
                            "column-symmetric, which the pyramidal "
                            "decomposition (LoRAStencil III-C) needs; use "
                            "method=svd or auto");
    if (!terms)
      terms = svdDecomposition(w, tol);

    // 3. Worth it?
    int64_t limit = maxRank > 0 ? int64_t(maxRank) : h + 1;
    if (terms->rank() > limit || terms->rank() == 0) {
      op.emitWarning("weight matrix of rank ")
          << terms->rank() << " (" << n << " x " << n
          << "): the low-rank form pays off up to rank " << limit
          << "; keeping stencil.linear";
      ++numKept;
      return success();
    }

    // 4. The low-rank op.
    OpBuilder b(op);
    auto type = RankedTensorType::get({terms->rank(), n}, b.getF64Type());
    SmallVector<double> u, v;
    for (int64_t k = 0; k < terms->rank(); ++k) {
      u.append(terms->u[k].begin(), terms->u[k].end());
      v.append(terms->v[k].begin(), terms->v[k].end());
    }
    auto lowRank = LowRankOp::create(
        b, op.getLoc(), op.getInput(), op.getOutput(), b.getI64IntegerAttr(h),
        DenseElementsAttr::get(type, ArrayRef<double>(u)),
        DenseElementsAttr::get(type, ArrayRef<double>(v)), op.getStepsAttr(),
        op.getBoundaryAttr(), op.getBoundaryValueAttr());
    // The source stencil rides along, as for the matrix forms.
    lowRank->setAttr(kSourceAttrName,
                     getSourceAttr(op.getPatternAttr(), op.getWeightsAttr()));
    op.erase();
    ++numRewritten;
    return success();
  }
};
} // namespace
