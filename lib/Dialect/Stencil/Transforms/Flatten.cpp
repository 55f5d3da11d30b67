//===- Flatten.cpp - SparStencil's flatten-and-crush ----------------------===//
//
// Implements `--stencil-flatten` (SparStencil, sections 3.1 and
// 3.3); see Passes.td and Support/SparStencil.h.
//
//===----------------------------------------------------------------------===//

#include "stencil/Dialect/Stencil/Transforms/Passes.h"
#include "stencil/Dialect/Stencil/Transforms/Transforms.h"
#include "stencil/Support/SparStencil.h"
#include "stencil/Support/StencilShape.h"
#include "stencil/Support/WgmmaSpTiling.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/PatternMatch.h"

#include <set>

namespace mlir {
namespace stencil {
#define GEN_PASS_DEF_STENCILFLATTEN
#include "stencil/Dialect/Stencil/Transforms/Passes.h.inc"
} // namespace stencil
} // namespace mlir

using namespace mlir;
using namespace mlir::stencil;

int64_t mlir::stencil::countStridedSwapMmas(PatternAttr pattern,
                                            ArrayRef<double> weights) {
  unsigned rank = pattern.getRank();
  std::set<SmallVector<int64_t>> rows;
  for (unsigned i = 0, e = pattern.getNumPoints(); i < e; ++i) {
    if (weights[i] == 0.0)
      continue;
    ArrayRef<int64_t> point = pattern.getPoint(i);
    rows.insert(SmallVector<int64_t>(point.begin(), point.begin() + rank - 1));
  }
  return rows.size();
}

std::optional<FlattenedKernel>
mlir::stencil::flattenStencil(PatternAttr pattern, ArrayRef<double> weights,
                              FlattenLayout layout, std::string *why) {
  SmallVector<int64_t> offsets;
  for (unsigned i = 0, e = pattern.getNumPoints(); i < e; ++i)
    llvm::append_range(offsets, pattern.getPoint(i));
  return flattenAndCrush(pattern.getRank(), offsets, weights, layout, why);
}

FailureOr<std::vector<ExploredLayout>>
mlir::stencil::exploreLayouts(PatternAttr pattern, ArrayRef<double> weights,
                              ArrayRef<FlattenLayout> layouts,
                              std::string *why) {
  int64_t points = llvm::count_if(weights, [](double w) { return w != 0; });
  std::vector<ExploredLayout> explored;
  for (FlattenLayout layout : layouts) {
    std::string message;
    std::optional<FlattenedKernel> kernel =
        flattenStencil(pattern, weights, layout, &message);
    if (!kernel) {
      if (why)
        *why = "layout [" + std::to_string(layout.r1) + ", " +
               std::to_string(layout.r2) + "]: " + message;
      return failure();
    }
    ExploredLayout entry;
    entry.kernel = std::move(*kernel);
    entry.fits = int64_t(entry.kernel.units.size()) <= kMaxGatheredUnits;
    if (entry.fits) {
      entry.matching = matchUnits(entry.kernel);
      MatchedKernel matched = buildMatchedKernel(entry.kernel, entry.matching);
      entry.cost = getLayoutCost(matched, points);
      // What the kernel would stage with its default tiling.
      std::vector<int64_t> gather = matched.getGatherOffsets();
      SmallVector<bool> nonZeros;
      for (double weight : matched.kernels)
        nonZeros.push_back(weight != 0);
      int64_t rank = pattern.getRank();
      SmallVector<int64_t, 2> layoutPair = {layout.r1, layout.r2};
      entry.staging = getDefaultSpTCGatherStaging(
          rank, getGatheredRadii(rank, layoutPair, gather, nonZeros),
          getSpTCGather(layoutPair, gather, nonZeros));
    }
    explored.push_back(std::move(entry));
  }
  return explored;
}

int64_t mlir::stencil::pickLayout(ArrayRef<ExploredLayout> explored) {
  // 1. The fewest mma.sp per tile.
  int64_t fewestMmas = -1;
  for (const ExploredLayout &entry : explored)
    if (entry.fits && (fewestMmas < 0 || entry.cost.mmas < fewestMmas))
      fewestMmas = entry.cost.mmas;
  auto isCandidate = [&](const ExploredLayout &entry) {
    return entry.fits && entry.cost.mmas == fewestMmas;
  };
  // 2. In 3-D, of those, the ones that stage at most 1 / kStagingMargin
  // times the fewest inputs per output with their default tiling (the
  // plane stream is bound by its staging: on an H100 [2, 8] ran Star-3D19P
  // and Star-3D25P 16% and 20% faster than [4, 4], which stages 24% and
  // 33% more). The margin covers what the count leaves out (Star-3D13P,
  // 11% more, ran as fast). In 2-D the staged count does not rank the
  // layouts (the cp.async sub-tiles run near the memory ceiling, where
  // the stores count: [2, 8] stores outputs one by one and lost 12% on
  // Star-2D13P though it stages 5% less), so the count is not used there
  // (bench/NOTES.md).
  constexpr double kStagingMargin = 0.9;
  double fewestStaged = -1;
  for (const ExploredLayout &entry : explored)
    if (isCandidate(entry) && entry.kernel.rank == 3 && entry.staging &&
        (fewestStaged < 0 || entry.staging->elementsPerPoint < fewestStaged))
      fewestStaged = entry.staging->elementsPerPoint;
  auto stagesLittle = [&](const ExploredLayout &entry) {
    return fewestStaged < 0 || !entry.staging ||
           kStagingMargin * entry.staging->elementsPerPoint <= fewestStaged;
  };
  // 3. Then the fewest units, then the first.
  int64_t best = -1;
  for (auto [i, entry] : llvm::enumerate(explored))
    if (isCandidate(entry) && stagesLittle(entry) &&
        (best < 0 ||
         entry.kernel.units.size() < explored[best].kernel.units.size()))
      best = i;
  return best;
}

bool mlir::stencil::preferMatching(PatternAttr pattern,
                                   ArrayRef<double> weights,
                                   int64_t matchedMmas) {
  return pattern.getRadii().back() > 7 ||
         matchedMmas < countStridedSwapMmas(pattern, weights);
}

namespace {
struct StencilFlattenPass
    : public stencil::impl::StencilFlattenBase<StencilFlattenPass> {
  using StencilFlattenBase::StencilFlattenBase;

  void runOnOperation() override {
    SmallVector<LinearOp> ops;
    getOperation()->walk([&](LinearOp op) { ops.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (LinearOp op : ops)
      if (failed(flatten(rewriter, op)))
        return signalPassFailure();
  }

  LogicalResult flatten(IRRewriter &rewriter, LinearOp op) {
    auto gridType = cast<MemRefType>(op.getInput().getType());
    // 1. What the gathered form supports: f16 grids (the Sparse Tensor Core
    // operands) with the halo boundary.
    if (!gridType.getElementType().isF16())
      return success();
    if (fusedSteps > 1) {
      if (route == FlattenRoute::Matching)
        return op.emitOpError("is to take ")
               << fusedSteps.getValue()
               << " fused steps by composition, which the gathered form "
                  "(SparStencil) does not take: use the strided swap "
                  "(layout=strided-swap or auto), or fused-steps=1";
      return success();
    }
    if (op.getBoundary() != BoundaryKind::halo) {
      if (route == FlattenRoute::Matching)
        return op.emitOpError("has a '")
               << stringifyBoundaryKind(op.getBoundary())
               << "' boundary; the matrix form supports only 'halo'";
      return success();
    }
    PatternAttr pattern = op.getPattern();
    int64_t rank = pattern.getRank();
    SmallVector<double> weights(op.getWeights());
    SmallVector<int64_t> radii = pattern.getRadii();
    if (*llvm::max_element(radii) > kMaxGatheredRadius) {
      if (route == FlattenRoute::Matching)
        return op.emitOpError("has radius ")
               << *llvm::max_element(radii)
               << "; the gathered form (SparStencil) takes radii up to "
               << kMaxGatheredRadius;
      return success();
    }

    // 2. The layouts to explore (3.3): the given one, or all of the rank's.
    SmallVector<FlattenLayout> candidates;
    if (r1 || r2) {
      int64_t x = r1 ? int64_t(r1) : 16 / std::max<int64_t>(r2, 1);
      int64_t y = r2 ? int64_t(r2) : 16 / std::max<int64_t>(r1, 1);
      candidates.push_back({x, y});
    } else if (layouts == FlattenLayouts::Horizontal) {
      candidates.push_back({16, 1});
    } else {
      candidates = getFlattenLayouts(rank);
    }

    // 3. The cheapest matched layout (pickLayout).
    std::string why;
    FailureOr<std::vector<ExploredLayout>> explored =
        exploreLayouts(pattern, weights, candidates, &why);
    if (failed(explored))
      return op.emitOpError("cannot be flattened with ") << why;
    int64_t bestIndex = pickLayout(*explored);
    if (bestIndex < 0) {
      if (route == FlattenRoute::Matching)
        return op.emitOpError("reads more than ")
               << kMaxGatheredUnits << " input pairs per 16 outputs in every "
               << "layout, more than the gathered form keeps in registers";
      return success();
    }
    const FlattenedKernel *best = &(*explored)[bestIndex].kernel;

    // 4. auto: keep the stencil for the strided swap unless matching issues
    // fewer MMAs or the swap cannot take its innermost radius.
    int64_t radius = radii.back();
    if (route == FlattenRoute::Auto &&
        !preferMatching(pattern, weights, (*explored)[bestIndex].cost.mmas))
      return success();
    // ... or where the warpgroup kernel, which takes banded forms only, is
    // the faster one.
    if (route == FlattenRoute::Auto && keepWarpgroup && radius <= 7 &&
        preferWarpgroupKernel(rank, radii[rank - 2]))
      return success();

    // 5. The gathered row form in the natural unit order.
    int64_t units = best->units.size();
    int64_t numRows = std::max<int64_t>((units + 15) / 16, 1);
    SmallVector<double> kernels(numRows * 16 * 32, 0.0);
    SmallVector<int64_t> gather(numRows * 16 * 3, 0);
    for (int64_t k = 0; k < units; ++k) {
      const GatherUnit &u = best->units[k];
      gather[k * 3] = u.dz;
      gather[k * 3 + 1] = u.dy;
      gather[k * 3 + 2] = u.dx;
      int64_t q = k / 16, slot = k % 16;
      for (int64_t m = 0; m < 16; ++m)
        for (int64_t e = 0; e < 2; ++e)
          kernels[(q * 16 + m) * 32 + 2 * slot + e] =
              best->matrix.at(m, 2 * k + e);
    }
    auto kernelsType =
        RankedTensorType::get({numRows, 16, 32}, rewriter.getF64Type());
    DictionaryAttr source = getSourceAttr(pattern, op.getWeightsAttr());
    rewriter.setInsertionPoint(op);
    auto rowGemm = rewriter.replaceOpWithNewOp<RowGemmOp>(
        op, op.getInput(), op.getOutput(), rewriter.getI64IntegerAttr(radius),
        rewriter.getI64IntegerAttr(16), rewriter.getI64IntegerAttr(0),
        rewriter.getDenseI64ArrayAttr({}),
        DenseElementsAttr::get(kernelsType, ArrayRef<double>(kernels)),
        /*column_weights=*/DenseFPElementsAttr(),
        /*column_permutation=*/DenseI64ArrayAttr(),
        /*input_offsets=*/DenseI64ArrayAttr(),
        rewriter.getDenseI64ArrayAttr(gather),
        rewriter.getDenseI64ArrayAttr({best->layout.r1, best->layout.r2}),
        /*tiling=*/TilingAttr(),
        /*packed_coefficients=*/DenseI32ArrayAttr(), op.getStepsAttr(),
        op.getBoundaryAttr(), op.getBoundaryValueAttr(),
        /*fused_steps=*/IntegerAttr(), /*step_pattern=*/PatternAttr(),
        /*step_weights=*/DenseF64ArrayAttr());
    rowGemm->setAttr(kSourceAttrName, source);
    return success();
  }
};
} // namespace
