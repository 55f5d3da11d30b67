//===- FftSpectrum.cpp - kernel spectrum to the T (FlashFFTStencil 4) -----===//
//
// Implements `--stencil-fft-spectrum` (FlashFFTStencil, section 4,
// eq. (10)); see Passes.td. The spectrum is `computeFftSpectrum` in
// Support/FftTiling.h.
//
//===----------------------------------------------------------------------===//

#include "stencil/Dialect/Stencil/Transforms/Passes.h"
#include "stencil/Support/FftTiling.h"

#include "mlir/IR/BuiltinAttributes.h"

namespace mlir {
namespace stencil {
#define GEN_PASS_DEF_STENCILFFTSPECTRUM
#include "stencil/Dialect/Stencil/Transforms/Passes.h.inc"
} // namespace stencil
} // namespace mlir

using namespace mlir;
using namespace mlir::stencil;

/// S = H^steps / prod N_d on `plan`'s tile as a complex<f64> tensor.
static DenseElementsAttr getSpectrumAttr(FftApplyOp op, FftTilePlan plan,
                                         int64_t steps) {
  plan.fusedSteps = steps;
  std::vector<std::complex<double>> spectrum = computeFftSpectrum(
      plan, op.getPattern().getOffsets(), op.getWeights());
  auto type = RankedTensorType::get(
      plan.getAxisExtents(), ComplexType::get(Float64Type::get(op.getContext())));
  return DenseElementsAttr::get(type, ArrayRef<std::complex<double>>(spectrum));
}

namespace {
struct StencilFftSpectrumPass
    : public stencil::impl::StencilFftSpectrumBase<StencilFftSpectrumPass> {
  using StencilFftSpectrumBase::StencilFftSpectrumBase;

  void runOnOperation() override {
    getOperation()->walk([&](FftApplyOp op) {
      if (op.getSpectrumAttr())
        return;
      FftTilePlan plan = op.getTilePlan();
      op.setSpectrumAttr(getSpectrumAttr(op, plan, op.getFusedSteps()));
      // The tail kernel's: one step, launched for the steps left over (of
      // the op's, and of any run's in libStencilRuntime).
      if (op.getFusedSteps() > 1)
        op.setTailSpectrumAttr(getSpectrumAttr(op, plan, 1));
    });
  }
};
} // namespace
