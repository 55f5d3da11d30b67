//===- StridedSwap.cpp - Kernel-matrix columns into 2:4 sparsity ----------===//
//
// Implements `--stencil-strided-swap` (SPIDER 3.1.2); see Passes.td and
// Support/SparseKernel.h for the math.
//
//===----------------------------------------------------------------------===//

#include "stencil/Dialect/Stencil/Transforms/Passes.h"
#include "stencil/Dialect/Stencil/Transforms/Transforms.h"
#include "stencil/Support/SparseKernel.h"

#include "mlir/IR/BuiltinAttributes.h"

namespace mlir {
namespace stencil {
#define GEN_PASS_DEF_STENCILSTRIDEDSWAP
#include "stencil/Dialect/Stencil/Transforms/Passes.h.inc"
} // namespace stencil
} // namespace mlir

using namespace mlir;
using namespace mlir::stencil;

SmallVector<KernelMatrix> mlir::stencil::getKernelMatrices(RowGemmOp op) {
  int64_t l = op.getRowsPerBlock();
  SmallVector<double> data(op.getKernels().getValues<double>());
  SmallVector<KernelMatrix> matrices;
  for (int64_t row = 0, e = op.getNumRows(); row < e; ++row) {
    KernelMatrix k(l, 2 * l);
    std::copy_n(data.begin() + row * l * 2 * l, l * 2 * l, k.data.begin());
    matrices.push_back(std::move(k));
  }
  return matrices;
}

namespace {
struct StencilStridedSwapPass
    : public stencil::impl::StencilStridedSwapBase<StencilStridedSwapPass> {
  using StencilStridedSwapBase::StencilStridedSwapBase;

  void runOnOperation() override {
    WalkResult result = getOperation()->walk([&](RowGemmOp op) {
      // 1. Already permuted: nothing to do. A low-rank chain has no sparse
      // kernel (its stage 2 multiplies by the dense T).
      // The gathered form (SparStencil) is ordered by --stencil-sptc-match.
      if (op.getColumnPermutation() || op.getGatherOffsets())
        return WalkResult::advance();
      if (op.getColumnWeightsAttr()) {
        op.emitOpError("is a low-rank chain (column_weights), which runs on "
                       "the dense Tensor Cores only (--lower-to-tc "
                       "low-rank=true)");
        return WalkResult::interrupt();
      }

      // 2. Swap the columns of every kernel matrix and check 2:4.
      int64_t l = op.getRowsPerBlock();
      if (paired && l % 2 != 0) {
        op.emitOpError("the paired strided swap needs an even "
                       "rows_per_block, got ")
            << l;
        return WalkResult::interrupt();
      }
      SmallVector<int64_t> perm =
          paired ? pairedSwapPermutation(l)
                 : stridedSwapPermutation(
                       l, 2 * l,
                       oddParity ? SwapParity::Odd : SwapParity::Even);
      SmallVector<double> swapped;
      for (auto [row, k] : llvm::enumerate(getKernelMatrices(op))) {
        KernelMatrix permuted = permuteColumns(k, perm);
        std::string why;
        if (!satisfies2to4(permuted, &why)) {
          op.emitOpError("kernel row #")
              << row << " is not 2:4 sparse after the strided swap: " << why;
          return WalkResult::interrupt();
        }
        swapped.append(permuted.data.begin(), permuted.data.end());
      }

      // 3. Record the permutation with the permuted kernels.
      op.setKernelsAttr(DenseElementsAttr::get(
          cast<ShapedType>(op.getKernels().getType()),
          ArrayRef<double>(swapped)));
      op.setColumnPermutation(perm);
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
