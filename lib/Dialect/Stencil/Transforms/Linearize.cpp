//===- Linearize.cpp - Rewrite linear stencil.apply into stencil.linear ---===//
//
// Implements `--stencil-linearize`; the math is in the pass description
// (Passes.td). Each value of the body evaluates to an affine form
// `sum_o w_o * in[p + o] + c`; the body is linear when c == 0 at the yield.
//
//===----------------------------------------------------------------------===//

#include "stencil/Dialect/Stencil/Transforms/Passes.h"
#include "stencil/Dialect/Stencil/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir {
namespace stencil {
#define GEN_PASS_DEF_STENCILLINEARIZE
#include "stencil/Dialect/Stencil/Transforms/Passes.h.inc"
} // namespace stencil
} // namespace mlir

using namespace mlir;
using namespace mlir::stencil;

namespace {
/// `terms + constant`: what one value of a linear body computes.
struct AffineForm {
  LinearCombination terms;
  double constant = 0.0;

  bool isScalar() const { return terms.isZero(); }
  AffineForm &scale(double factor) {
    terms.scale(factor);
    constant *= factor;
    return *this;
  }
  AffineForm &add(const AffineForm &other, double factor) {
    terms.addScaled(other.terms, factor);
    constant += factor * other.constant;
    return *this;
  }
};

/// Evaluates body values to affine forms, memoizing shared subexpressions.
class AffineEvaluator {
public:
  explicit AffineEvaluator(unsigned rank) : rank(rank) {}

  std::optional<AffineForm> evaluate(Value value) {
    auto it = memo.find(value);
    if (it != memo.end())
      return it->second;
    std::optional<AffineForm> form = compute(value);
    if (form)
      memo.try_emplace(value, *form);
    return form;
  }

private:
  std::optional<AffineForm> compute(Value value) {
    Operation *def = value.getDefiningOp();
    if (!def)
      return std::nullopt;
    return llvm::TypeSwitch<Operation *, std::optional<AffineForm>>(def)
        .Case([&](AccessOp op) -> std::optional<AffineForm> {
          AffineForm form{LinearCombination(rank)};
          form.terms.add(op.getOffset(), 1.0);
          return form;
        })
        .Case([&](arith::ConstantOp op) -> std::optional<AffineForm> {
          auto attr = dyn_cast<FloatAttr>(op.getValue());
          if (!attr)
            return std::nullopt;
          return AffineForm{LinearCombination(rank), attr.getValueAsDouble()};
        })
        .Case([&](arith::AddFOp op) { return combine(op, 1.0); })
        .Case([&](arith::SubFOp op) { return combine(op, -1.0); })
        .Case([&](arith::NegFOp op) -> std::optional<AffineForm> {
          std::optional<AffineForm> x = evaluate(op.getOperand());
          if (!x)
            return std::nullopt;
          return x->scale(-1.0);
        })
        .Case([&](arith::MulFOp op) -> std::optional<AffineForm> {
          std::optional<AffineForm> lhs = evaluate(op.getLhs());
          std::optional<AffineForm> rhs = evaluate(op.getRhs());
          if (!lhs || !rhs)
            return std::nullopt;
          if (lhs->isScalar())
            return rhs->scale(lhs->constant);
          if (rhs->isScalar())
            return lhs->scale(rhs->constant);
          return std::nullopt; // A product of two neighbours.
        })
        .Case([&](arith::DivFOp op) -> std::optional<AffineForm> {
          std::optional<AffineForm> lhs = evaluate(op.getLhs());
          std::optional<AffineForm> rhs = evaluate(op.getRhs());
          if (!lhs || !rhs || !rhs->isScalar() || rhs->constant == 0.0)
            return std::nullopt;
          return lhs->scale(1.0 / rhs->constant);
        })
        .Default([](Operation *) { return std::nullopt; });
  }

  template <typename OpTy>
  std::optional<AffineForm> combine(OpTy op, double rhsFactor) {
    std::optional<AffineForm> lhs = evaluate(op.getLhs());
    std::optional<AffineForm> rhs = evaluate(op.getRhs());
    if (!lhs || !rhs)
      return std::nullopt;
    return lhs->add(*rhs, rhsFactor);
  }

  unsigned rank;
  DenseMap<Value, AffineForm> memo;
};

/// stencil.apply (linear body) -> stencil.linear.
struct LinearizeApplyPattern : OpRewritePattern<ApplyOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ApplyOp op,
                                PatternRewriter &rewriter) const override {
    return linearizeApplyOp(rewriter, op);
  }
};

struct StencilLinearizePass
    : public stencil::impl::StencilLinearizeBase<StencilLinearizePass> {
  void runOnOperation() override {
    // 1. Collect the general-form stencils (the rewrite erases them).
    SmallVector<ApplyOp> applies;
    getOperation()->walk([&](ApplyOp op) { applies.push_back(op); });

    // 2. Rewrite the linear ones, count the rest.
    IRRewriter rewriter(&getContext());
    for (ApplyOp op : applies) {
      rewriter.setInsertionPoint(op);
      if (succeeded(linearizeApplyOp(rewriter, op)))
        ++numLinearized;
      else
        ++numNonLinear;
    }
  }
};
} // namespace

std::optional<LinearCombination> mlir::stencil::getLinearCombination(ApplyOp op) {
  unsigned rank = cast<MemRefType>(op.getInput().getType()).getRank();
  AffineEvaluator evaluator(rank);
  std::optional<AffineForm> form = evaluator.evaluate(op.getYield().getValue());
  if (!form || form->constant != 0.0)
    return std::nullopt;
  return form->terms;
}

FailureOr<LinearOp> mlir::stencil::linearizeApplyOp(RewriterBase &rewriter,
                                                    ApplyOp op) {
  std::optional<LinearCombination> combination = getLinearCombination(op);
  if (!combination)
    return rewriter.notifyMatchFailure(op, "body is not linear");
  SmallVector<int64_t> offsets;
  SmallVector<double> weights;
  combination->finish(offsets, weights);
  if (weights.empty())
    return rewriter.notifyMatchFailure(op, "every weight cancels");

  auto pattern =
      PatternAttr::get(rewriter.getContext(), combination->getRank(), offsets);
  auto linear = rewriter.replaceOpWithNewOp<LinearOp>(
      op, op.getInput(), op.getOutput(), pattern,
      rewriter.getDenseF64ArrayAttr(weights), op.getStepsAttr(),
      op.getBoundaryAttr(), op.getBoundaryValueAttr());
  return linear;
}

void mlir::stencil::populateLinearizePatterns(RewritePatternSet &patterns) {
  patterns.add<LinearizeApplyPattern>(patterns.getContext());
}
