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

/// The innermost input offset, relative to a block's first output, of each
/// of the 2L logical columns of a row form (`stencil.row_gemm` or
/// `stencil.sparse_row_gemm`): `input_offsets` when set, else the row swap
/// of `column_permutation` (the identity when absent) folded into offsets,
/// `perm[c] - radius - column_shift` (SPIDER 3.2; what
/// `--stencil-fold-row-swap` records).
template <typename OpTy>
SmallVector<int64_t> getFoldedInputOffsets(OpTy op) {
  if (std::optional<ArrayRef<int64_t>> offsets = op.getInputOffsets())
    return SmallVector<int64_t>(*offsets);
  std::optional<ArrayRef<int64_t>> perm = op.getColumnPermutation();
  SmallVector<int64_t> offsets;
  for (int64_t c = 0, e = 2 * op.getRowsPerBlock(); c < e; ++c)
    offsets.push_back((perm ? (*perm)[c] : c) - int64_t(op.getRadius()) -
                      int64_t(op.getColumnShift()));
  return offsets;
}

/// The gather of a gathered row form (`layout`, `gather_offsets`;
/// SparStencil) and, in `radii`, what its weights reach along each
/// dimension; std::nullopt for the banded row forms.
template <typename OpTy>
std::optional<SpTCGather> getGatheredForm(OpTy op,
                                          SmallVectorImpl<int64_t> &radii) {
  std::optional<ArrayRef<int64_t>> offsets = op.getGatherOffsets();
  std::optional<ArrayRef<int64_t>> layout = op.getLayout();
  if (!offsets || !layout)
    return std::nullopt;
  SmallVector<bool> nonZeros = op.getKernelNonZeros();
  int64_t rank = cast<MemRefType>(op.getInput().getType()).getRank();
  radii.assign(getGatheredRadii(rank, *layout, *offsets, nonZeros));
  return getSpTCGather(*layout, *offsets, nonZeros);
}

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
