//===- SplitBF16Casts.cpp - f64 <-> bf16 conversions through f32 ----------===//
//
// Implements `--stencil-split-bf16-casts` (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "stencil/Dialect/Stencil/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace stencil {
#define GEN_PASS_DEF_STENCILSPLITBF16CASTS
#include "stencil/Dialect/Stencil/Transforms/Passes.h.inc"
} // namespace stencil
} // namespace mlir

using namespace mlir;

namespace {
/// truncf f64 -> bf16  ==>  truncf f64 -> f32; truncf f32 -> bf16.
struct SplitTruncF64ToBF16 : OpRewritePattern<arith::TruncFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::TruncFOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getIn().getType().isF64() || !op.getType().isBF16())
      return failure();
    Value f32 = arith::TruncFOp::create(rewriter, op.getLoc(),
                                        rewriter.getF32Type(), op.getIn());
    rewriter.replaceOpWithNewOp<arith::TruncFOp>(op, op.getType(), f32);
    return success();
  }
};

/// extf bf16 -> f64  ==>  extf bf16 -> f32; extf f32 -> f64.
struct SplitExtBF16ToF64 : OpRewritePattern<arith::ExtFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::ExtFOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getIn().getType().isBF16() || !op.getType().isF64())
      return failure();
    Value f32 = arith::ExtFOp::create(rewriter, op.getLoc(),
                                      rewriter.getF32Type(), op.getIn());
    rewriter.replaceOpWithNewOp<arith::ExtFOp>(op, op.getType(), f32);
    return success();
  }
};

struct StencilSplitBF16CastsPass
    : public stencil::impl::StencilSplitBF16CastsBase<
          StencilSplitBF16CastsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<SplitTruncF64ToBF16, SplitExtBF16ToF64>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
