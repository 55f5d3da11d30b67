//===- Transforms.h - Reusable stencil transformations ----------*- C++ -*-===//
//
// Pass-free entry points, usable from other passes and pipelines.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_DIALECT_STENCIL_TRANSFORMS_TRANSFORMS_H
#define STENCIL_DIALECT_STENCIL_TRANSFORMS_TRANSFORMS_H

#include "stencil/Dialect/Stencil/IR/StencilDialect.h"
#include "stencil/Support/SpTCTiling.h"
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

/// The most units a gathered form may have (64 MMAs): its kernel keeps
/// every MMA's A operand in registers.
constexpr int64_t kMaxGatheredUnits = 64 * 16;

/// The largest radius, along any dimension, a stencil may have to be
/// flattened: the gathered kernel's shared tile (the block's outputs and a
/// halo of that radius on each side) then still fits a block.
constexpr int64_t kMaxGatheredRadius = 15;

/// One layout of SparStencil's layout exploration (3.3) for a stencil: the
/// flattened kernel, its matching and what the matched order costs.
struct ExploredLayout {
  FlattenedKernel kernel;
  UnitMatching matching;
  LayoutCost cost;
  /// The kernel's shared memory and staged inputs per output with the
  /// default tiling (none when no default tiling fits).
  std::optional<SpTCStaging> staging;
  /// At most kMaxGatheredUnits units.
  bool fits = true;
};

/// Flattens, matches and costs the stencil under each of `layouts`; fails,
/// with `why`, when a layout cannot take it.
FailureOr<std::vector<ExploredLayout>>
exploreLayouts(PatternAttr pattern, ArrayRef<double> weights,
               ArrayRef<FlattenLayout> layouts, std::string *why = nullptr);

/// The cheapest layout that fits, or -1 when none does: the fewest mma.sp
/// per tile; of those, in 3-D, the ones staging at most ~11% more inputs
/// per output than the fewest (ExploredLayout::staging); of those, the
/// fewest units, then the first.
int64_t pickLayout(ArrayRef<ExploredLayout> explored);

/// Whether `--lower-to-sptc="layout=auto"` (`--stencil-flatten` route auto)
/// takes the gathered form with `matchedMmas` per tile over the strided
/// swap: when it issues strictly fewer, or the swap cannot take the
/// innermost radius (above 7).
bool preferMatching(PatternAttr pattern, ArrayRef<double> weights,
                    int64_t matchedMmas);

/// `flattenAndCrush` of a pattern and its weights (SparStencil 3.1).
std::optional<FlattenedKernel> flattenStencil(PatternAttr pattern,
                                              ArrayRef<double> weights,
                                              FlattenLayout layout,
                                              std::string *why = nullptr);

} // namespace stencil
} // namespace mlir

#endif // STENCIL_DIALECT_STENCIL_TRANSFORMS_TRANSFORMS_H
