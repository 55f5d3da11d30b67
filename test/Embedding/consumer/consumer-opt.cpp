// consumer-opt: another MLIR compiler's driver, with the stencil dialect,
// passes and pipelines registered next to upstream's, and one pipeline of its
// own that embeds the stencil CPU pipeline through its builder function.

#include "stencil/InitAll.h"
#include "stencil/Pipelines/Pipelines.h"

#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

/// The consumer's own pipeline: its own cleanup, then the stencil CPU
/// pipeline with typed options, as one stage among others.
static void buildMyCpuPipeline(OpPassManager &pm) {
  pm.addPass(createCSEPass());
  stencil::LowerToCpuOptions options;
  options.linearize = true;
  stencil::buildLowerToCpuPipeline(pm, options);
}

int main(int argc, char **argv) {
  registerAllPasses();
  stencil::registerAllStencilPasses();
  PassPipelineRegistration<>("my-cpu-pipeline",
                             "CSE, then the stencil CPU pipeline",
                             buildMyCpuPipeline);

  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  stencil::registerAllStencilDialects(registry);

  return asMainReturnCode(
      MlirOptMain(argc, argv, "A consumer of the stencil compiler", registry));
}
