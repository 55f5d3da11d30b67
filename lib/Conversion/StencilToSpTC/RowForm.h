//===- RowForm.h - The row forms --convert-stencil-to-sptc takes -*- C++ -*-===//
//
// Private to lib/Conversion/StencilToSpTC: one view of the two row-form ops
// the kernel builders read.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_LIB_CONVERSION_STENCILTOSPTC_ROWFORM_H
#define STENCIL_LIB_CONVERSION_STENCILTOSPTC_ROWFORM_H

#include "stencil/Dialect/Stencil/IR/StencilDialect.h"
#include "stencil/Dialect/Stencil/Transforms/Transforms.h"

namespace mlir {
namespace stencil {

/// The row form a kernel implements: `stencil.sparse_row_gemm` (one
/// `mma.sp.m16n8k32` per kernel row and column tile) or, for `--lower-to-tc`,
/// `stencil.row_gemm` (two dense `mma.sync.m16n8k16`, K = 0..15 and
/// 16..31, fed with the same B registers; Support/MmaModel.h).
class RowForm {
  template <typename Fn>
  auto visit(Fn fn) const {
    if (auto sparse = dyn_cast<SparseRowGemmOp>(op))
      return fn(sparse);
    return fn(cast<RowGemmOp>(op));
  }

public:
  explicit RowForm(Operation *op) : op(op) {}
  static bool classof(Operation *op) {
    return isa<SparseRowGemmOp, RowGemmOp>(op);
  }

  Operation *getOperation() const { return op; }
  bool isDense() const { return isa<RowGemmOp>(op); }
  Location getLoc() const { return op->getLoc(); }
  MLIRContext *getContext() const { return op->getContext(); }
  Value getInput() const { return op->getOperand(0); }
  Value getOutput() const { return op->getOperand(1); }
  int64_t getNumRows() const {
    return visit([](auto form) { return form.getNumRows(); });
  }
  int64_t getRowsPerBlock() const {
    return visit([](auto form) { return int64_t(form.getRowsPerBlock()); });
  }
  int64_t getRadius() const {
    return visit([](auto form) { return int64_t(form.getRadius()); });
  }
  int64_t getSteps() const {
    return visit([](auto form) { return int64_t(form.getSteps()); });
  }
  /// Time steps one launch computes by kernel composition (`fused_steps`),
  /// 1 without.
  int64_t getFusedSteps() const {
    return visit([](auto form) {
      auto fused = form.getFusedStepsAttr();
      return fused ? fused.getInt() : int64_t(1);
    });
  }
  /// The stencil of one step of a fused form (`step_pattern`,
  /// `step_weights`); std::nullopt without fused steps.
  std::optional<LinearStencil> getStepStencil() const {
    return visit([](auto form) -> std::optional<LinearStencil> {
      if (!form.getStepPatternAttr() || !form.getStepWeightsAttr())
        return std::nullopt;
      return getLinearStencil(form.getStepPatternAttr(),
                              form.getStepWeightsAttr().asArrayRef());
    });
  }
  BoundaryKind getBoundary() const {
    return visit([](auto form) { return form.getBoundary(); });
  }
  /// The outer radius h of a low-rank chain (a `stencil.row_gemm` with
  /// `column_weights`), 0 otherwise.
  int64_t getColumnRadius() const {
    auto dense = dyn_cast<RowGemmOp>(op);
    return dense ? dense.getColumnRadius() : 0;
  }
  ArrayRef<int64_t> getRowOffsets() const {
    return visit([](auto form) { return form.getRowOffsets(); });
  }
  std::optional<ArrayRef<int64_t>> getInputOffsets() const {
    return visit([](auto form) { return form.getInputOffsets(); });
  }
  /// The gather of a gathered form (SparStencil) and, in `radii`, its reach
  /// along each dimension; std::nullopt for a banded form.
  std::optional<SpTCGather> getGather(SmallVectorImpl<int64_t> &radii) const {
    return visit([&](auto form) { return getGatheredForm(form, radii); });
  }
  bool isGathered() const {
    return visit([](auto form) { return bool(form.getGatherOffsets()); });
  }
  TilingAttr getTilingAttr() const {
    return visit([](auto form) { return form.getTilingAttr(); });
  }
  std::optional<ArrayRef<int32_t>> getPackedCoefficients() const {
    return visit([](auto form) { return form.getPackedCoefficients(); });
  }
  InFlightDiagnostic emitOpError(const Twine &message) const {
    return op->emitOpError(message);
  }

private:
  Operation *op;
};

} // namespace stencil
} // namespace mlir

#endif // STENCIL_LIB_CONVERSION_STENCILTOSPTC_ROWFORM_H
