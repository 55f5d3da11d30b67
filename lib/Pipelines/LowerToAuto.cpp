//===- LowerToAuto.cpp - The pipeline the cost model chooses --------------===//
//
// `--lower-to-auto`: `--stencil-select-pipeline` (the model of "Do We Need Tensor Cores?"
// ranks every GPU pipeline that lowers the module) with `lower=true`: the
// module becomes the copy the chosen pipeline lowered, as
// `--stencil-lower-selected` would lower it. See docs/Pipelines.md.
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
  // The selection lowers the module too, with the copy it ranked (the same
  // output as --stencil-lower-selected, without compiling it again).
  select.lower = true;
  pm.addPass(createStencilSelectPipeline(select));
}
