//===- Encode2to4.cpp - 2:4 kernel matrices into values and metadata ------===//
//
// Implements `--stencil-encode-2to4` (SPIDER 3.1.2, stage 3); see Passes.td
// and `encode2to4` in Support/SparseKernel.h.
//
//===----------------------------------------------------------------------===//

#include "stencil/Dialect/Stencil/Transforms/Passes.h"
#include "stencil/Dialect/Stencil/Transforms/Transforms.h"
#include "stencil/Support/FloatRange.h"
#include "stencil/Support/SparseKernel.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace stencil {
#define GEN_PASS_DEF_STENCILENCODE2TO4
#include "stencil/Dialect/Stencil/Transforms/Passes.h.inc"
} // namespace stencil
} // namespace mlir

using namespace mlir;
using namespace mlir::stencil;

namespace {
struct StencilEncode2to4Pass
    : public stencil::impl::StencilEncode2to4Base<StencilEncode2to4Pass> {
  void runOnOperation() override {
    SmallVector<RowGemmOp> ops;
    getOperation()->walk([&](RowGemmOp op) { ops.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (RowGemmOp op : ops)
      if (failed(encode(rewriter, op)))
        return signalPassFailure();
  }

  LogicalResult encode(IRRewriter &rewriter, RowGemmOp op) {
    // 1. Compress every kernel matrix.
    SmallVector<APFloat> values;
    SmallVector<int8_t> indices;
    for (auto [row, k] : llvm::enumerate(getKernelMatrices(op))) {
      std::string why;
      std::optional<Sparse24Matrix> sparse =
          satisfies2to4(k, &why) ? encode2to4(k) : std::nullopt;
      if (!sparse)
        return op.emitOpError("kernel row #")
               << row << " is not 2:4 sparse (" << why << "); run "
               << (op.getGatherOffsets() ? "--stencil-sptc-match"
                                         : "--stencil-strided-swap")
               << " first";
      for (double v : sparse->values) {
        if (overflowsFloatFormat(v, APFloat::IEEEhalf()))
          return op.emitOpError("kernel row #")
                 << row << " has a value " << v
                 << " that overflows f16, the sparse Tensor Cores' operand "
                    "type (the weights, composed over the fused steps when "
                    "there are several): scale the weights, or use "
                    "--lower-to-cuda-core, which computes in f32";
        bool losesInfo;
        APFloat f(v);
        f.convert(APFloat::IEEEhalf(), APFloat::rmNearestTiesToEven,
                  &losesInfo);
        values.push_back(f);
      }
      indices.append(sparse->indices.begin(), sparse->indices.end());
    }

    // 2. The sparse form keeps the permutation (identity if none was set).
    int64_t l = op.getRowsPerBlock();
    SmallVector<int64_t> perm;
    if (auto p = op.getColumnPermutation())
      perm.assign(p->begin(), p->end());
    else
      perm = llvm::to_vector(llvm::seq<int64_t>(0, 2 * l));
    SmallVector<int64_t> shape = {op.getNumRows(), l, l};
    auto valuesType = RankedTensorType::get(shape, rewriter.getF16Type());
    auto indicesType = RankedTensorType::get(shape, rewriter.getI8Type());
    rewriter.setInsertionPoint(op);
    auto sparse = SparseRowGemmOp::create(
        rewriter, op.getLoc(), op.getInput(), op.getOutput(),
        op.getRadiusAttr(), op.getRowsPerBlockAttr(), op.getColumnShiftAttr(),
        op.getRowOffsetsAttr(), DenseElementsAttr::get(valuesType, values),
        cast<DenseIntElementsAttr>(
            DenseElementsAttr::get(indicesType, ArrayRef<int8_t>(indices))),
        // The gathered form (SparStencil) keeps its offsets instead.
        op.getGatherOffsets() ? DenseI64ArrayAttr()
                              : rewriter.getDenseI64ArrayAttr(perm),
        /*input_offsets=*/DenseI64ArrayAttr(), op.getGatherOffsetsAttr(),
        op.getLayoutAttr(), /*tiling=*/TilingAttr(),
        /*packed_coefficients=*/DenseI32ArrayAttr(), op.getStepsAttr(),
        op.getBoundaryAttr(), op.getBoundaryValueAttr(), op.getFusedStepsAttr(),
        op.getStepPatternAttr(), op.getStepWeightsAttr());
    sparse->setDiscardableAttrs(op->getDiscardableAttrDictionary());
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace
