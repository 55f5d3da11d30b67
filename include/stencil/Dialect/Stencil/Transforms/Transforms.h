//===- Transforms.h - Reusable stencil transformations ----------*- C++ -*-===//
//
// Pass-free entry points, usable from other passes and pipelines.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_DIALECT_STENCIL_TRANSFORMS_TRANSFORMS_H
#define STENCIL_DIALECT_STENCIL_TRANSFORMS_TRANSFORMS_H

#include "stencil/Dialect/Stencil/IR/StencilDialect.h"
#include "stencil/Support/SparStencil.h"
#include "stencil/Support/SparseKernel.h"
#include "stencil/Support/StencilShape.h"

#include "mlir/IR/PatternMatch.h"

#include <optional>

namespace mlir {
namespace stencil {

/// If the body of `op` yields a linear combination of its accesses with
/// constant weights (see the `stencil-linearize` pass description), returns
/// it, with repeated offsets merged (zero weights are dropped by `finish`).
/// Returns std::nullopt for a non-linear body.
std::optional<LinearCombination> getLinearCombination(ApplyOp op);

/// Rewrites `op` into an equivalent `stencil.linear` if its body is linear
/// and has at least one non-zero weight. Returns the new op, or failure.
FailureOr<LinearOp> linearizeApplyOp(RewriterBase &rewriter, ApplyOp op);

/// Adds the `stencil-linearize` rewrite to `patterns`.
void populateLinearizePatterns(RewritePatternSet &patterns);

/// The kernel matrices (rows_per_block x 2 rows_per_block each) of `op`.
SmallVector<KernelMatrix> getKernelMatrices(RowGemmOp op);

/// The `mma.sp` the strided swap issues per MMA tile for a stencil: one per
/// kernel row holding a non-zero weight (SPIDER 3.1.1).
int64_t countStridedSwapMmas(PatternAttr pattern, ArrayRef<double> weights);

/// `flattenAndCrush` of a pattern and its weights (SparStencil 3.1).
std::optional<FlattenedKernel> flattenStencil(PatternAttr pattern,
                                              ArrayRef<double> weights,
                                              FlattenLayout layout,
                                              std::string *why = nullptr);

} // namespace stencil
} // namespace mlir

#endif // STENCIL_DIALECT_STENCIL_TRANSFORMS_TRANSFORMS_H
