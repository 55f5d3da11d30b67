//===- LowerToCudaCore.cpp - The CUDA-core pipeline -----------------------===//
//
// `--lower-to-cuda-core`: plain FMA kernels (shared-memory tiles, register
// tiling) for every element type and general stencil bodies, then the NVVM
// emission every GPU pipeline shares. See docs/Pipelines.md.
//
//===----------------------------------------------------------------------===//

#include "stencil/Conversion/StencilToCudaCore/StencilToCudaCore.h"
#include "stencil/Dialect/Stencil/Transforms/Passes.h"
#include "stencil/Pipelines/Pipelines.h"

using namespace mlir;
using namespace mlir::stencil;

void mlir::stencil::buildCudaCoreKernelPipeline(
    OpPassManager &pm, const LowerToCudaCoreOptions &options) {
  // 0. The chip and features (GPUTarget.h).
  addGPUTargetCheck(pm, "lower-to-cuda-core", options);

  // 1. Linear bodies become stencil.linear (merged offsets, no zero
  // weights): those get the register-tiled kernel.
  if (options.linearize)
    pm.addPass(createStencilLinearize());

  // 2. The kernels and host launches.
  ConvertStencilToCudaCoreOptions convert;
  convert.threadsX = options.threadsX;
  convert.threadsY = options.threadsY;
  convert.outputsPerThread = options.outputsPerThread;
  convert.fusedSteps = options.fusedSteps;
  convert.planes = options.planes;
  convert.stream = options.stream;
  convert.planeSums = options.planeSums;
  convert.prefetchPlanes = options.prefetchPlanes;
  convert.prefetchDistance = options.prefetchDistance;
  convert.vectorWidth = options.vectorWidth;
  convert.rowPhases = options.rowPhases;
  convert.minBlocksPerSM = options.minBlocksPerSM;
  convert.replaceableWeights = options.replaceableWeights;
  pm.addPass(createConvertStencilToCudaCore(convert));
}

void mlir::stencil::buildLowerToCudaCorePipeline(
    OpPassManager &pm, const LowerToCudaCoreOptions &options) {
  buildCudaCoreKernelPipeline(pm, options);
  // 3. Upstream: NVVM, LLVM, PTX in a gpu.binary; the contract.
  buildStencilGPUEmissionPipeline(pm, "lower-to-cuda-core", options);
}
