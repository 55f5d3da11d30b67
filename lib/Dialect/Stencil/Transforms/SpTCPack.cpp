//===- SpTCPack.cpp - Per-lane packing of the kernel matrices -------------===//
//
// Implements `--stencil-sptc-pack` (SPIDER 3.3.2) with
// `packSpTCCoefficients` of Support/SpTCPacking.h; see Passes.td.
//
//===----------------------------------------------------------------------===//

#include "stencil/Dialect/Stencil/Transforms/Passes.h"
#include "stencil/Support/FloatRange.h"
#include "stencil/Support/SpTCPacking.h"

namespace mlir {
namespace stencil {
#define GEN_PASS_DEF_STENCILSPTCPACK
#include "stencil/Dialect/Stencil/Transforms/Passes.h.inc"
} // namespace stencil
} // namespace mlir

using namespace mlir;
using namespace mlir::stencil;

/// The first of `values` that is finite but overflows the float type `type`
/// (rounds to an infinity), or std::nullopt.
static std::optional<double> findOverflow(ArrayRef<double> values, Type type) {
  for (double v : values)
    if (overflowsFloatFormat(v, cast<FloatType>(type).getFloatSemantics()))
      return v;
  return std::nullopt;
}

/// `v` rounded to the 16-bit operand type `type` (f16 or bf16) of the
/// Tensor Core kernels, as its bit pattern: the rounding libStencilRuntime
/// repeats for replaced weights (CoefficientPacking.h).
static uint16_t toOperandBits(double v, Type type) {
  return roundToOperandBits(v, type.isBF16() ? OperandType::bf16
                                             : OperandType::f16);
}

namespace {
struct StencilSpTCPackPass
    : public stencil::impl::StencilSpTCPackBase<StencilSpTCPackPass> {
  void runOnOperation() override {
    WalkResult result = getOperation()->walk([&](RowFormOpInterface form) {
      int64_t l = form.getRowsPerBlock();
      if (16 % l != 0) {
        form.emitOpError("rows_per_block ")
            << l << " does not divide the 16 rows of an "
            << (form.isDense() ? "m16n8k16 mma.sync" : "m16n8k32 mma.sp");
        return WalkResult::interrupt();
      }
      // The words of each form's own operands: the compressed values and
      // indices of mma.sp, or the dense kernels (and chain weights) of
      // mma.sync.
      std::vector<uint32_t> words;
      if (auto sparse = dyn_cast<SparseRowGemmOp>(form.getOperation())) {
        SmallVector<uint16_t> valueBits;
        for (APFloat v : sparse.getValues().getValues<APFloat>())
          valueBits.push_back(v.bitcastToAPInt().getZExtValue());
        SmallVector<uint8_t> indices;
        for (int8_t i : sparse.getIndices().getValues<int8_t>())
          indices.push_back(i);
        words = packSpTCCoefficients(valueBits, indices, sparse.getNumRows(),
                                     l);
        form.setPackedCoefficients(
            SmallVector<int32_t>(words.begin(), words.end()));
        return WalkResult::advance();
      }
      auto dense = cast<RowGemmOp>(form.getOperation());
      Type elementType = form.getGridElementType();
      if (elementType.isF64())
        return packF64(dense);
      // The dense kernels, rounded to the grid's type (f16 or bf16: the
      // Tensor Core operands; the layout is that of 16-bit elements).
      SmallVector<double> kernels(dense.getKernels().getValues<double>());
      if (auto columns = dense.getColumnWeightsAttr())
        kernels.append(columns.getValues<double>().begin(),
                       columns.getValues<double>().end());
      if (std::optional<double> v = findOverflow(kernels, elementType)) {
        form.emitOpError("has a kernel value ")
            << *v << " that overflows the Tensor Core operand type "
            << elementType << " (the weights, composed over the fused steps "
            << "when there are several, are rounded to the grid's type): "
               "scale the weights, or use --lower-to-cuda-core, which "
               "computes in f32";
        return WalkResult::interrupt();
      }
      SmallVector<uint16_t> kernelBits;
      for (double v : dense.getKernels().getValues<double>())
        kernelBits.push_back(toOperandBits(v, elementType));
      words = packTCCoefficients(kernelBits, dense.getNumRows(), l);
      // A low-rank chain: the stage-2 B operands follow.
      if (auto columns = dense.getColumnWeightsAttr()) {
        SmallVector<uint16_t> columnBits;
        for (double v : columns.getValues<double>())
          columnBits.push_back(toOperandBits(v, elementType));
        std::vector<uint32_t> columnWords = packLowRankColumnWeights(
            columnBits, dense.getNumRows(), dense.getColumnRadius());
        words.insert(words.end(), columnWords.begin(), columnWords.end());
      }
      form.setPackedCoefficients(
          SmallVector<int32_t>(words.begin(), words.end()));
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }

  /// The f64 form: the 1-D weights w_o(dx) of every kernel row, read off
  /// the first output of its Toeplitz block, packed as m8n8k4 B operands
  /// (TCF64CoefficientLayout).
  WalkResult packF64(RowGemmOp op) {
    if (op.getColumnWeightsAttr()) {
      op.emitOpError("is a low-rank chain on f64 grids; its kernel computes "
                     "on f16 or bf16 (m16n8k16)");
      return WalkResult::interrupt();
    }
    if (op.getGatherOffsets()) {
      op.emitOpError("is a gathered form (layout, gather_offsets) on f64 "
                     "grids; its kernel computes on f16 or bf16 (mma.sp, "
                     "m16n8k16)");
      return WalkResult::interrupt();
    }
    std::optional<ArrayRef<int64_t>> offsets = op.getInputOffsets();
    if (!offsets) {
      op.emitOpError("still has a column permutation: run "
                     "--stencil-fold-row-swap first");
      return WalkResult::interrupt();
    }
    int64_t r = op.getRadius(), l = op.getRowsPerBlock();
    int64_t numRows = op.getNumRows();
    SmallVector<double> kernels(op.getKernels().getValues<double>());
    SmallVector<double> weights(numRows * (2 * r + 1), 0.0);
    for (int64_t o = 0; o < numRows; ++o)
      for (int64_t i = 0; i < l; ++i)
        for (int64_t c = 0; c < 2 * l; ++c) {
          double w = kernels[(o * l + i) * 2 * l + c];
          int64_t dx = (*offsets)[c] - i;
          if (w == 0.0)
            continue;
          if (dx < -r || dx > r) {
            op.emitOpError("kernel row ")
                << o << " has a weight at offset " << dx
                << ", outside its radius " << r;
            return WalkResult::interrupt();
          }
          weights[o * (2 * r + 1) + dx + r] = w;
        }
    std::vector<uint32_t> words = packTCF64Coefficients(weights, numRows, r);
    op.setPackedCoefficients(SmallVector<int32_t>(words.begin(), words.end()));
    return WalkResult::advance();
  }
};
} // namespace
