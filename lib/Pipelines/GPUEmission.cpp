//===- GPUEmission.cpp - The first and last passes of every GPU pipeline --===//
//
// What every GPU pipeline shares: `--stencil-check-target` first (the chip,
// the PTX ISA version and the instructions, Support/GPUTarget.h), and the
// emission last: upstream's GPU-to-NVVM passes with
// `--stencil-attach-target`, PTX in a `gpu.binary`, and the contract check.
//
//===----------------------------------------------------------------------===//

#include "stencil/Dialect/Stencil/Transforms/Passes.h"
#include "stencil/Pipelines/Passes.h"
#include "stencil/Pipelines/Pipelines.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::stencil;

void mlir::stencil::addGPUTargetCheck(OpPassManager &pm, StringRef pipeline,
                                      StringRef chip, StringRef features,
                                      int optLevel,
                                      ArrayRef<GPUInstructions> instructions) {
  StencilCheckTargetOptions check;
  check.pipeline = ("--" + pipeline).str();
  check.chip = chip.str();
  check.features = features.str();
  check.optLevel = optLevel;
  check.instructions.families.assign(instructions.begin(), instructions.end());
  pm.addPass(createStencilCheckTarget(check));
}

void mlir::stencil::buildStencilGPUEmissionPipeline(OpPassManager &pm,
                                                    StringRef chip,
                                                    StringRef features,
                                                    int optLevel,
                                                    StringRef pipeline) {
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // The host's gpu.alloc / memcpy / launch_func become asynchronous, the form
  // gpu-to-llvm lowers to runtime calls.
  pm.addNestedPass<func::FuncOp>(createGpuAsyncRegionPass());

  // Upstream: NVVM, LLVM, PTX in a gpu.binary. The passes of upstream's
  // gpu-lower-to-nvvm-pipeline (buildLowerToNVVMPassPipeline, format isa),
  // with --stencil-attach-target in the place of nvvm-attach-target: each
  // gpu.module at the LLVM level its kernels ask where `opt-level` is -1.
  pm.addPass(createConvertNVGPUToNVVMPass());
  pm.addPass(createGpuKernelOutliningPass());
  pm.addPass(createConvertVectorToSCFPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertNVVMToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  StencilAttachTargetOptions target;
  target.chip = chip.str();
  target.features = features.str();
  target.optLevel = optLevel;
  pm.addPass(createStencilAttachTarget(target));
  pm.addPass(createLowerAffinePass());
  pm.addPass(createArithToLLVMConversionPass());
  ConvertIndexToLLVMPassOptions index;
  index.indexBitwidth = 64;
  pm.addPass(createConvertIndexToLLVMPass(index));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  ConvertGpuOpsToNVVMOpsOptions nvvm;
  nvvm.indexBitwidth = 64;
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertGpuOpsToNVVMOps(nvvm));
  pm.addNestedPass<gpu::GPUModuleOp>(createCanonicalizerPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createCSEPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createReconcileUnrealizedCastsPass());
  pm.addPass(createGpuToLLVMConversionPass());
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = "isa";
  pm.addPass(createGpuModuleToBinaryPass(binary));
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createReconcileUnrealizedCastsPass());

  // The contract: LLVM host code, the gpu.binary and its launches.
  StencilCheckLoweredOptions check;
  check.allowed = {"llvm", "gpu.binary", "gpu.launch_func"};
  check.pipeline = pipeline.str();
  pm.addPass(createStencilCheckLowered(check));
}
