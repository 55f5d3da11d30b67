//===- FftTailor.cpp - FFT tile choice (FlashFFTStencil 3.1) ---------------===//
//
// Implements `--stencil-fft-tailor` (FlashFFTStencil, section 3.1
// kernel tailoring, with the prime-factor sizes of section 3.2.1 and the
// temporal fusion of section 4); see Passes.td. The choice and its cost are
// `chooseFftTile` in Support/FftTiling.h.
//
//===----------------------------------------------------------------------===//

#include "stencil/Dialect/Stencil/Transforms/Passes.h"
#include "stencil/Support/FftTiling.h"

namespace mlir {
namespace stencil {
#define GEN_PASS_DEF_STENCILFFTTAILOR
#include "stencil/Dialect/Stencil/Transforms/Passes.h.inc"
} // namespace stencil
} // namespace mlir

using namespace mlir;
using namespace mlir::stencil;

/// The largest T the automatic choice tries.
static constexpr int64_t kMaxAutoFusedSteps = 64;

namespace {
struct StencilFftTailorPass
    : public stencil::impl::StencilFftTailorBase<StencilFftTailorPass> {
  using StencilFftTailorBase::StencilFftTailorBase;

  void runOnOperation() override {
    if (fusedSteps < 0 || fusedSteps > 1024) {
      getOperation()->emitError("--stencil-fft-tailor: fused-steps must be "
                                "in [0, 1024] (0 chooses it), got ")
          << fusedSteps.getValue();
      return signalPassFailure();
    }
    if (maxTileElements < 64 || maxTileElements > (int64_t(1) << 20)) {
      getOperation()->emitError("--stencil-fft-tailor: max-tile-elements "
                                "must be in [64, 2^20], got ")
          << maxTileElements.getValue();
      return signalPassFailure();
    }
    SmallVector<Operation *> ops;
    getOperation()->walk([&](Operation *op) {
      if (isa<LinearOp, ApplyOp>(op))
        ops.push_back(op);
    });
    for (Operation *op : ops)
      if (failed(rewrite(op)))
        return signalPassFailure();
  }

  LogicalResult rewrite(Operation *op) {
    if (isa<ApplyOp>(op))
      return op->emitError("the FFT pipeline needs a linear stencil: this "
                           "body is not a weighted sum of its accesses with "
                           "constant weights (--stencil-linearize left it), "
                           "so it has no spectrum; use --lower-to-cuda-core");
    auto linear = cast<LinearOp>(op);
    Type elementType =
        cast<MemRefType>(linear.getInput().getType()).getElementType();
    if (!elementType.isF64() && !elementType.isF32())
      return op->emitError("the FFT pipeline computes in f64 and takes f64 "
                           "or f32 grids, got ")
             << elementType
             << " (the transforms' error over fused steps would exceed "
                "what the type holds)";
    SmallVector<int64_t> radii = linear.getPattern().getRadii();
    int64_t steps = linear.getSteps();
    std::optional<FftTilePlan> plan;
    std::string whyNot;
    if (fusedSteps > 0) {
      plan = chooseFftTile(radii, std::min<int64_t>(fusedSteps, steps),
                           maxTileElements, &whyNot, cooleyTukey);
    } else {
      double bestCost = 0;
      for (int64_t t = 1; t <= std::min(steps, kMaxAutoFusedSteps); ++t) {
        std::string why;
        std::optional<FftTilePlan> candidate =
            chooseFftTile(radii, t, maxTileElements, &why, cooleyTukey);
        if (!candidate) {
          if (t == 1)
            whyNot = why;
          break; // A larger T has no valid region either.
        }
        // ceil(S / T) launches (the last one, for S mod T steps, costs as
        // much as a full one on the same tile), each T * cost per point.
        double cost = double((steps + t - 1) / t) * double(t) *
                      getFftTileCost(*candidate);
        if (!plan || cost < bestCost) {
          plan = candidate;
          bestCost = cost;
        }
      }
    }
    if (!plan)
      return op->emitError("no FFT tile for this stencil: ") << whyNot;

    OpBuilder builder(op);
    SmallVector<Attribute> factors;
    for (const auto &dimFactors : plan->factors)
      factors.push_back(builder.getDenseI64ArrayAttr(dimFactors));
    FftApplyOp::create(builder, op->getLoc(), linear.getInput(),
                       linear.getOutput(), linear.getPatternAttr(),
                       linear.getWeightsAttr(), linear.getStepsAttr(),
                       builder.getI64IntegerAttr(plan->fusedSteps),
                       builder.getArrayAttr(factors),
                       /*cooley_tukey=*/plan->cooleyTukey ? builder.getUnitAttr() : UnitAttr(),
                       /*spectrum=*/ElementsAttr(),
                       /*tail_spectrum=*/ElementsAttr(),
                       linear.getBoundaryAttr(), linear.getBoundaryValueAttr());
    op->erase();
    return success();
  }
};
} // namespace
