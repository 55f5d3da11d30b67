//===- LowerSelected.cpp - Run the pipeline a module names ----------------===//
//
// Implements `--stencil-lower-selected`, the lowering half of
// `--lower-to-auto`: the module attribute `stencil.pipeline` (written by
// `--stencil-select-pipeline`, or by hand) names one GPU pipeline with its
// options, which runs here as a dynamic pass pipeline.
//
//===----------------------------------------------------------------------===//

#include "stencil/Pipelines/Candidates.h"
#include "stencil/Pipelines/Passes.h"

#include "mlir/Pass/PassManager.h"

namespace mlir {
namespace stencil {
#define GEN_PASS_DEF_STENCILLOWERSELECTED
#include "stencil/Pipelines/Passes.h.inc"
} // namespace stencil
} // namespace mlir

using namespace mlir;
using namespace mlir::stencil;

namespace {
struct StencilLowerSelectedPass
    : public stencil::impl::StencilLowerSelectedBase<StencilLowerSelectedPass> {
  using StencilLowerSelectedBase::StencilLowerSelectedBase;

  void getDependentDialects(DialectRegistry &registry) const override {
    // Every pipeline this pass may run, with default options.
    for (StringRef name : {"lower-to-sptc", "lower-to-tc", "lower-to-fft",
                           "lower-to-cuda-core"}) {
      OpPassManager pm(ModuleOp::getOperationName());
      FailureOr<PipelineCandidate> c = parsePipelineCandidate(name);
      if (succeeded(c) && succeeded(buildCandidatePipeline(pm, *c)))
        pm.getDependentDialects(registry);
    }
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto name = module->getAttrOfType<StringAttr>(kPipelineAttrName);
    if (!name) {
      module.emitError() << "no '" << kPipelineAttrName
                         << "' attribute naming the pipeline: run "
                            "--stencil-select-pipeline first";
      return signalPassFailure();
    }
    FailureOr<PipelineCandidate> candidate =
        parsePipelineCandidate(name.getValue());
    OpPassManager pm(ModuleOp::getOperationName());
    if (failed(candidate) || failed(buildCandidatePipeline(pm, *candidate))) {
      module.emitError() << "'" << kPipelineAttrName << "' = \""
                         << name.getValue()
                         << "\" is not a GPU pipeline with valid options "
                            "(lower-to-sptc, lower-to-tc, lower-to-fft or "
                            "lower-to-cuda-core, options in braces)";
      return signalPassFailure();
    }
    if (failed(runPipeline(pm, module)))
      return signalPassFailure();
  }
};
} // namespace
