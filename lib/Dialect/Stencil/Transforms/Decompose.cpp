//===- Decompose.cpp - Linear stencils into kernel-matrix products --------===//
//
// Implements `--stencil-decompose` (SPIDER 3.1.1); the math is in the pass
// description (Passes.td) and in Support/SparseKernel.h.
//
//===----------------------------------------------------------------------===//

#include "stencil/Dialect/Stencil/Transforms/Passes.h"
#include "stencil/Support/CoefficientPacking.h"
#include "stencil/Support/LowRank.h"
#include "stencil/Support/SpTCPacking.h"
#include "stencil/Support/SparseKernel.h"
#include "stencil/Support/StencilShape.h"
#include "stencil/Support/StepComposition.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/PatternMatch.h"

#include <cmath>

namespace mlir {
namespace stencil {
#define GEN_PASS_DEF_STENCILDECOMPOSE
#include "stencil/Dialect/Stencil/Transforms/Passes.h.inc"
} // namespace stencil
} // namespace mlir

using namespace mlir;
using namespace mlir::stencil;

/// The rows of one m16n8k32 `mma.sp` operand.
static constexpr int64_t kMmaRows = 16;

namespace {
struct StencilDecomposePass
    : public stencil::impl::StencilDecomposeBase<StencilDecomposePass> {
  using StencilDecomposeBase::StencilDecomposeBase;

  void runOnOperation() override;

private:
  LogicalResult decompose(IRRewriter &rewriter, LinearOp op);
  LogicalResult decompose(IRRewriter &rewriter, LowRankOp op);
  /// With low-rank and fused steps: the chain of the composed weights
  /// (`pattern`, `weights`) of `op`, true when it replaced `op`, false
  /// where the direct composed form is to be built instead.
  FailureOr<bool> decomposeComposedLowRank(IRRewriter &rewriter, LinearOp op,
                                           PatternAttr pattern,
                                           ArrayRef<double> weights);
  /// Replaces `op` (a stencil.low_rank, or the stencil.linear of a fused
  /// chain) by the row form of Sum_k U_k (X V_k): `u` and `v` hold the
  /// `terms` vectors of length 2h + 1 each.
  /// The dense weight box of `pattern` and `weights`, its non-empty kernel
  /// rows (their outer offsets) and one banded L x 2L matrix per row over
  /// the innermost radius, shifted by `shift` columns.
  LogicalResult buildKernelRows(LinearOp op, PatternAttr pattern,
                                ArrayRef<double> weights,
                                PatternAttr stepPattern, int64_t l,
                                int64_t shift,
                                SmallVectorImpl<int64_t> &rowOffsets,
                                SmallVectorImpl<double> &kernels);
  /// Says which stencil a radius error is about: the composed one of
  /// `stepPattern`'s steps, with fused steps.
  InFlightDiagnostic &noteComposed(InFlightDiagnostic &diag,
                                   PatternAttr stepPattern);
  FailureOr<RowGemmOp> buildChain(IRRewriter &rewriter, Operation *op,
                                  Value input, Value output, int64_t h,
                                  int64_t terms, ArrayRef<double> u,
                                  ArrayRef<double> v, IntegerAttr steps,
                                  BoundaryKindAttr boundary,
                                  FloatAttr boundaryValue);
};
} // namespace

InFlightDiagnostic &
StencilDecomposePass::noteComposed(InFlightDiagnostic &diag,
                                   PatternAttr stepPattern) {
  if (fusedSteps > 1)
    diag << " (after composing " << fusedSteps.getValue()
         << " fused steps of a stencil of innermost radius "
         << stepPattern.getRadii().back() << ")";
  return diag;
}

LogicalResult StencilDecomposePass::buildKernelRows(
    LinearOp op, PatternAttr pattern, ArrayRef<double> weights,
    PatternAttr stepPattern, int64_t l, int64_t shift,
    SmallVectorImpl<int64_t> &rowOffsets, SmallVectorImpl<double> &kernels) {
  unsigned rank = pattern.getRank();
  int64_t radius = pattern.getRadii().back();
  int64_t maxRadius = pattern.getRadius();
  // The dense weight box, then its non-empty kernel rows.
  // The box is counted before it is built: an outer radius near 2^31 would
  // otherwise ask for (2^32)^rank weights.
  int64_t side = 2 * maxRadius + 1;
  uint64_t boxSize = getShapeNumPoints(ShapeKind::Box, rank, maxRadius);
  if (boxSize > kMaxPatternPoints) {
    InFlightDiagnostic diag = op.emitOpError("radius ");
    diag << maxRadius;
    noteComposed(diag, stepPattern)
        << " needs a dense box of (2r + 1)^" << rank
        << " weights for the matrix form, more than " << kMaxPatternPoints
        << " (use --lower-to-cuda-core or --lower-to-cpu)";
    return diag;
  }
  SmallVector<double> dense(boxSize, 0.0);
  for (unsigned i = 0, e = pattern.getNumPoints(); i < e; ++i) {
    int64_t index = 0;
    for (int64_t c : pattern.getPoint(i))
      index = index * side + (c + maxRadius);
    dense[index] += weights[i];
  }
  SmallVector<KernelRow> rows = decomposeIntoRows(rank, maxRadius, dense);
  if (rows.empty())
    return op.emitOpError("has no non-zero weight to decompose");

  // One banded L x 2L matrix per row, over the innermost radius only.
  for (const KernelRow &row : rows) {
    rowOffsets.append(row.outerOffset.begin(), row.outerOffset.end());
    ArrayRef<double> w =
        ArrayRef<double>(row.weights).slice(maxRadius - radius, 2 * radius + 1);
    KernelMatrix k = buildBandedKernelMatrix(w, l, 2 * l, shift);
    kernels.append(k.data.begin(), k.data.end());
  }
  return success();
}

LogicalResult StencilDecomposePass::decompose(IRRewriter &rewriter,
                                              LinearOp op) {
  // 1. What the matrix form supports.
  if (op.getBoundary() != BoundaryKind::halo)
    return op.emitOpError("has a '")
           << stringifyBoundaryKind(op.getBoundary())
           << "' boundary; the matrix form supports only 'halo' (use "
              "--lower-to-cuda-core, --lower-to-fft or --lower-to-cpu for "
              "periodic and dirichlet boundaries)";
  if (fusedSteps < 1 || fusedSteps > kMaxComposedSteps)
    return op.emitOpError("needs 1 <= fused-steps <= ")
           << kMaxComposedSteps << ", got " << fusedSteps.getValue();
  PatternAttr stepPattern = op.getPattern();
  PatternAttr pattern = stepPattern;
  ArrayRef<double> weights = op.getWeights();
  // Fused steps: the t-fold composed weights (Support/StepComposition.h).
  std::optional<LinearStencil> composed;
  if (fusedSteps > 1) {
    composed = composeSteps(getLinearStencil(stepPattern, weights), fusedSteps);
    if (!composed)
      return op.emitOpError("composing ")
             << fusedSteps.getValue() << " steps gives a stencil of more than "
             << kMaxPatternPoints << " points; use fewer fused steps";
    if (composed->weights.empty())
      return op.emitOpError("has no non-zero weight to decompose");
    pattern =
        PatternAttr::get(op.getContext(), composed->rank, composed->offsets);
    weights = composed->weights;
  }
  if (lowRank && fusedSteps > 1) {
    FailureOr<bool> chained =
        decomposeComposedLowRank(rewriter, op, pattern, weights);
    if (failed(chained))
      return failure();
    if (*chained)
      return success();
  }
  int64_t radius = pattern.getRadii().back();

  // 2. L, the outputs per kernel matrix.
  int64_t l = rowsPerBlock ? int64_t(rowsPerBlock)
                           : chooseRowsPerBlock(radius, kMmaRows);
  if (l == 0 || l > kMmaRows) {
    InFlightDiagnostic diag = op.emitOpError("innermost radius ");
    diag << radius;
    noteComposed(diag, stepPattern)
        << " needs kernel matrices of at least " << 2 * radius + 2
        << " rows, more than the " << kMmaRows
        << " rows of the row form's kernel matrix (an "
           "m16n8k16 or m16n8k32 MMA tile; the f64 kernel "
           "takes the same row form): the radius along the "
           "innermost dimension must be at most 7";
    return diag;
  }
  if (l % 2 != 0 || l < 2 * radius + 2 || kMmaRows % l != 0)
    return op.emitOpError("rows-per-block=")
           << l << " must be even, at least 2r + 2 = " << 2 * radius + 2
           << " and divide " << kMmaRows;

  // 3. The kernel rows and their banded matrices, shifted by r mod 2
  // columns when input pairs are to be aligned.
  int64_t shift = alignPairs ? radius % 2 : 0;
  SmallVector<int64_t> rowOffsets;
  SmallVector<double> kernels;
  if (failed(buildKernelRows(op, pattern, weights, stepPattern, l, shift,
                             rowOffsets, kernels)))
    return failure();
  int64_t numRows = int64_t(kernels.size()) / (2 * l * l);
  auto kernelsType =
      RankedTensorType::get({numRows, l, 2 * l}, rewriter.getF64Type());

  // The source stencil rides along for the launch description (the GPU
  // runner checks the kernel against it, not against the matrices).
  // Every attribute of the op is read before it is replaced (and freed).
  DenseF64ArrayAttr stepWeights = op.getWeightsAttr();
  DictionaryAttr source = getSourceAttr(stepPattern, stepWeights);
  rewriter.setInsertionPoint(op);
  auto rowGemm = rewriter.replaceOpWithNewOp<RowGemmOp>(
      op, op.getInput(), op.getOutput(), rewriter.getI64IntegerAttr(radius),
      rewriter.getI64IntegerAttr(l), rewriter.getI64IntegerAttr(shift),
      rewriter.getDenseI64ArrayAttr(rowOffsets),
      DenseElementsAttr::get(kernelsType, ArrayRef<double>(kernels)),
      /*column_weights=*/DenseFPElementsAttr(),
      /*column_permutation=*/DenseI64ArrayAttr(),
      /*input_offsets=*/DenseI64ArrayAttr(),
      /*gather_offsets=*/DenseI64ArrayAttr(),
      /*layout=*/DenseI64ArrayAttr(), /*tiling=*/TilingAttr(),
      /*packed_coefficients=*/DenseI32ArrayAttr(), op.getStepsAttr(),
      op.getBoundaryAttr(), op.getBoundaryValueAttr(),
      /*fused_steps=*/IntegerAttr(), /*step_pattern=*/PatternAttr(),
      /*step_weights=*/DenseF64ArrayAttr());
  if (fusedSteps > 1) {
    rowGemm.setFusedStepsAttr(rewriter.getI64IntegerAttr(fusedSteps));
    rowGemm.setStepPatternAttr(stepPattern);
    rowGemm.setStepWeightsAttr(stepWeights);
  }
  rowGemm->setAttr(kSourceAttrName, source);
  return success();
}

/// The low-rank chain (LoRAStencil, eq. 9): V_k becomes kernel
/// row k (at row offset 0) of a `stencil.row_gemm` and u_k its column
/// weights, so Sum_k U_k (X V_k) runs on the dense row-form kernel.
FailureOr<RowGemmOp> StencilDecomposePass::buildChain(
    IRRewriter &rewriter, Operation *op, Value input, Value output, int64_t h,
    int64_t terms, ArrayRef<double> u, ArrayRef<double> v, IntegerAttr steps,
    BoundaryKindAttr boundary, FloatAttr boundaryValue) {
  if (h > LowRankColumnLayout::kMaxRadius)
    return op->emitOpError("has radius ")
           << h << ", but the low-rank Tensor Core chain reaches at most "
           << LowRankColumnLayout::kMaxRadius
           << " rows (its 16-row stage-2 MMA needs 8 + 2h <= 16); use the "
              "direct form (no low-rank) for this stencil";
  int64_t l = rowsPerBlock ? int64_t(rowsPerBlock)
                           : chooseRowsPerBlock(h, kMmaRows);
  if (l == 0 || l % 2 != 0 || l < 2 * h + 2 || kMmaRows % l != 0)
    return op->emitOpError("rows-per-block=")
           << l << " must be even, at least 2r + 2 = " << 2 * h + 2
           << " and divide " << kMmaRows;
  int64_t n = 2 * h + 1;
  SmallVector<double> kernels;
  for (int64_t k = 0; k < terms; ++k) {
    KernelMatrix m = buildBandedKernelMatrix(v.slice(k * n, n), l, 2 * l);
    kernels.append(m.data.begin(), m.data.end());
  }
  auto kernelsType =
      RankedTensorType::get({terms, l, 2 * l}, rewriter.getF64Type());
  auto columnsType = RankedTensorType::get({terms, n}, rewriter.getF64Type());
  // Read before the op is replaced (and freed).
  Attribute source = op->getAttr(kSourceAttrName);
  rewriter.setInsertionPoint(op);
  auto rowGemm = rewriter.replaceOpWithNewOp<RowGemmOp>(
      op, input, output, rewriter.getI64IntegerAttr(h),
      rewriter.getI64IntegerAttr(l), rewriter.getI64IntegerAttr(0),
      rewriter.getDenseI64ArrayAttr(SmallVector<int64_t>(terms, 0)),
      DenseElementsAttr::get(kernelsType, ArrayRef<double>(kernels)),
      cast<DenseFPElementsAttr>(DenseElementsAttr::get(columnsType, u)),
      /*column_permutation=*/DenseI64ArrayAttr(),
      /*input_offsets=*/DenseI64ArrayAttr(),
      /*gather_offsets=*/DenseI64ArrayAttr(),
      /*layout=*/DenseI64ArrayAttr(), /*tiling=*/TilingAttr(),
      /*packed_coefficients=*/DenseI32ArrayAttr(), steps, boundary,
      boundaryValue,
      /*fused_steps=*/IntegerAttr(), /*step_pattern=*/PatternAttr(),
      /*step_weights=*/DenseF64ArrayAttr());
  if (source)
    rowGemm->setAttr(kSourceAttrName, source);
  return rowGemm;
}

LogicalResult StencilDecomposePass::decompose(IRRewriter &rewriter,
                                              LowRankOp op) {
  if (fusedSteps != 1)
    return op.emitOpError("is a low-rank chain of one step, which takes no "
                          "fused steps (fused-steps=")
           << fusedSteps.getValue() << "); decompose the stencil.linear "
           << "with fused-steps and low-rank=true, which factors the "
              "composed weights";
  if (op.getBoundary() != BoundaryKind::halo)
    return op.emitOpError("has a '")
           << stringifyBoundaryKind(op.getBoundary())
           << "' boundary; the matrix form supports only 'halo' (use "
              "--lower-to-cpu for periodic and dirichlet boundaries)";
  SmallVector<double> u(op.getU().getValues<double>());
  SmallVector<double> v(op.getV().getValues<double>());
  return buildChain(rewriter, op, op.getInput(), op.getOutput(),
                    op.getRadius(), op.getRank(), u, v, op.getStepsAttr(),
                    op.getBoundaryAttr(), op.getBoundaryValueAttr());
}

/// Fused steps on the low-rank chain. The t-fold composed weights W_t (n x
/// n, n = 2 t h + 1) are factored by their SVD, keeping the fewest leading
/// terms whose residual R = W_t - Sum_k u_k v_k^T has Sum_ij |R_ij| <=
/// u S_t (u the element type's unit roundoff, S_t = Sum_ij |W_t|_ij): the
/// truncation then changes no output by more than u S_t M (M = max
/// |input|), the rounding of the composed weights to the element type that
/// the runner's composed tolerance already allows (docs/LaunchDescription.md),
/// while the chain's own roundings are its chain_abs_sum term. The composed
/// weights of a random step are of full rank in f64 but their singular
/// values decay fast in f16 (bench/NOTES.md, "Not built"); where the chain
/// needs more than t h + 1 terms (the bound of --stencil-low-rank) the
/// direct composed form is built, with a warning.
FailureOr<bool> StencilDecomposePass::decomposeComposedLowRank(
    IRRewriter &rewriter, LinearOp op, PatternAttr pattern,
    ArrayRef<double> weights) {
  SmallVector<int64_t> radii = pattern.getRadii();
  // As --stencil-low-rank: a 2-D pattern with one radius along both
  // dimensions.
  if (pattern.getRank() != 2 || radii[0] != radii[1])
    return false;
  int64_t h = radii[0], n = 2 * h + 1;
  int64_t stepRadius = op.getPattern().getRadii().back();
  if (h > LowRankColumnLayout::kMaxRadius)
    return op.emitOpError("has radius ")
           << h << " after composing " << fusedSteps.getValue()
           << " fused steps of a stencil of radius " << stepRadius
           << ", but the low-rank Tensor Core chain reaches at most "
           << LowRankColumnLayout::kMaxRadius
           << " rows (8 + 2h <= 16): use fewer fused steps, or low-rank=false";
  SquareMatrix w = getWeightMatrix(h, pattern.getOffsets(), weights);
  double absSum = 0;
  for (double x : w.values)
    absSum += std::abs(x);
  Type elementType =
      cast<MemRefType>(op.getInput().getType()).getElementType();
  RankDecomposition terms =
      svdWithinResidual(w, getUnitRoundoff(elementType) * absSum);
  if (terms.rank() > h + 1) {
    op.emitWarning("the ")
        << fusedSteps.getValue() << "-fold composed weights (" << n << " x "
        << n << ") need " << terms.rank()
        << " rank-1 terms within the element type's rounding, but the "
           "low-rank chain pays off up to "
        << h + 1 << "; composing directly";
    return false;
  }
  SmallVector<double> u, v;
  for (int64_t k = 0; k < terms.rank(); ++k) {
    u.append(terms.u[k].begin(), terms.u[k].end());
    v.append(terms.v[k].begin(), terms.v[k].end());
  }
  // The step stencil and the source ride along for the fused kernels and
  // the launch description.
  PatternAttr stepPattern = op.getPattern();
  DenseF64ArrayAttr stepWeights = op.getWeightsAttr();
  op->setAttr(kSourceAttrName, getSourceAttr(stepPattern, stepWeights));
  FailureOr<RowGemmOp> rowGemm = buildChain(
      rewriter, op, op.getInput(), op.getOutput(), h, terms.rank(), u, v,
      op.getStepsAttr(), op.getBoundaryAttr(), op.getBoundaryValueAttr());
  if (failed(rowGemm))
    return failure();
  rowGemm->setFusedStepsAttr(rewriter.getI64IntegerAttr(fusedSteps));
  rowGemm->setStepPatternAttr(stepPattern);
  rowGemm->setStepWeightsAttr(stepWeights);
  return true;
}

void StencilDecomposePass::runOnOperation() {
  // 1. A general-form stencil left by --stencil-linearize is not linear.
  WalkResult result = getOperation()->walk([](ApplyOp op) {
    op.emitOpError("has a non-linear body, which cannot be decomposed into "
                   "kernel-matrix products (Tensor Cores need constant "
                   "weights); use --lower-to-cuda-core or --lower-to-cpu");
    return WalkResult::interrupt();
  });
  if (result.wasInterrupted())
    return signalPassFailure();

  // 2. Rewrite every stencil.linear.
  SmallVector<LinearOp> ops;
  getOperation()->walk([&](LinearOp op) { ops.push_back(op); });
  IRRewriter rewriter(&getContext());
  for (LinearOp op : ops)
    if (failed(decompose(rewriter, op)))
      return signalPassFailure();
  SmallVector<LowRankOp> lowRankOps;
  getOperation()->walk([&](LowRankOp op) { lowRankOps.push_back(op); });
  for (LowRankOp op : lowRankOps)
    if (failed(decompose(rewriter, op)))
      return signalPassFailure();
}
