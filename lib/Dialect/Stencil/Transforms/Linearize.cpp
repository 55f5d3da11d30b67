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

/// Evaluates the values of a body to affine forms, one op at a time in the
/// block's order (an operand's form is known before its user's), so that
/// neither a long chain of ops (no recursion) nor a DAG whose sub-expressions
/// are shared (every value is evaluated once, whether or not it is affine)
/// costs more than one visit per op. A form whose value has one use is moved
/// into its user instead of copied, so a chain of n additions costs O(n)
/// term updates, not O(n^2).
class AffineEvaluator {
public:
  explicit AffineEvaluator(unsigned rank) : rank(rank) {}

  /// The form of the value `block` yields; std::nullopt when some value it
  /// depends on is not affine.
  std::optional<AffineForm> evaluateYield(Block &block) {
    for (Operation &op : block.without_terminator())
      for (Value result : op.getResults()) {
        std::optional<AffineForm> form = compute(result);
        forms.try_emplace(result, std::move(form));
      }
    return take(block.getTerminator()->getOperand(0));
  }

private:
  /// The form of an operand: moved out when this is its only use.
  std::optional<AffineForm> take(Value value) {
    auto it = forms.find(value);
    if (it == forms.end())
      return std::nullopt; // Defined outside the body.
    if (!value.hasOneUse())
      return it->second;
    std::optional<AffineForm> form = std::move(it->second);
    forms.erase(it);
    return form;
  }

  std::optional<AffineForm> compute(Value value) {
    Operation *def = value.getDefiningOp();
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
          std::optional<AffineForm> x = take(op.getOperand());
          if (!x)
            return std::nullopt;
          return x->scale(-1.0);
        })
        .Case([&](arith::MulFOp op) -> std::optional<AffineForm> {
          std::optional<AffineForm> lhs = take(op.getLhs());
          std::optional<AffineForm> rhs = take(op.getRhs());
          if (!lhs || !rhs)
            return std::nullopt;
          if (lhs->isScalar())
            return rhs->scale(lhs->constant);
          if (rhs->isScalar())
            return lhs->scale(rhs->constant);
          return std::nullopt; // A product of two neighbours.
        })
        .Case([&](arith::DivFOp op) -> std::optional<AffineForm> {
          std::optional<AffineForm> lhs = take(op.getLhs());
          std::optional<AffineForm> rhs = take(op.getRhs());
          if (!lhs || !rhs || !rhs->isScalar() || rhs->constant == 0.0)
            return std::nullopt;
          return lhs->scale(1.0 / rhs->constant);
        })
        .Default([](Operation *) { return std::nullopt; });
  }

  template <typename OpTy>
  std::optional<AffineForm> combine(OpTy op, double rhsFactor) {
    std::optional<AffineForm> lhs = take(op.getLhs());
    std::optional<AffineForm> rhs = take(op.getRhs());
    if (!lhs || !rhs)
      return std::nullopt;
    return lhs->add(*rhs, rhsFactor);
  }

  unsigned rank;
  /// The form of every value of the body evaluated so far (std::nullopt:
  /// not affine), less those moved into their only user.
  DenseMap<Value, std::optional<AffineForm>> forms;
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
  std::optional<AffineForm> form =
      evaluator.evaluateYield(op.getBody().front());
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
