//===- LowerToAuto.cpp - The pipeline the cost model chooses --------------===//
//
// `--lower-to-auto`: `--stencil-select-pipeline` (the model of "Do We Need Tensor Cores?"
// ranks every GPU pipeline that lowers the module) then
// `--stencil-lower-selected` (the chosen one runs). See docs/Pipelines.md.
//
//===----------------------------------------------------------------------===//

#include "stencil/Pipelines/Passes.h"
#include "stencil/Pipelines/Pipelines.h"

using namespace mlir;
using namespace mlir::stencil;

void mlir::stencil::buildLowerToAutoPipeline(
    OpPassManager &pm, const LowerToAutoOptions &options) {
  StencilSelectPipelineOptions select;
  select.chip = options.chip;
  select.features = options.features;
  select.deviceProfile = options.deviceProfile;
  select.fusedSteps = options.fusedSteps;
  select.optLevel = options.optLevel;
  select.explain = options.explain;
  select.ptxas = options.ptxas;
  select.grid.assign(options.grid.begin(), options.grid.end());
  pm.addPass(createStencilSelectPipeline(select));
  pm.addPass(createStencilLowerSelected());
}
