//===- LowerToSpTC.cpp - The Sparse Tensor Core pipeline ------------------===//
//
// `--lower-to-sptc`: the SPIDER passes (section 3), the mma.sp
// kernel generation, upstream's GPU-to-NVVM pipeline, and the contract
// check. See docs/Pipelines.md.
//
//===----------------------------------------------------------------------===//

#include "stencil/Conversion/StencilToSpTC/StencilToSpTC.h"
#include "stencil/Dialect/Stencil/Transforms/Passes.h"
#include "stencil/Pipelines/Passes.h"
#include "stencil/Pipelines/Pipelines.h"
#include "stencil/Support/GPUTarget.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::stencil;

/// Step 2 of both Tensor Core pipelines, on the row form step 1 left
/// (`stencil.sparse_row_gemm` or `stencil.row_gemm`): tiling, packing, then
/// the kernel and host launches (SPIDER 3.3).
template <typename Options>
static void addRowFormKernelPasses(OpPassManager &pm, const Options &options,
                                   const ConvertStencilToSpTCOptions &convert,
                                   int64_t mTiles = 0) {
  StencilSpTCTileOptions tile;
  tile.mma = options.mma;
  tile.chip = options.chip;
  tile.wgmmaN = options.wgmmaN;
  tile.wgmmaStages = options.wgmmaStages;
  tile.wgmmaStrips = options.wgmmaStrips;
  tile.warps = options.warps;
  tile.nTiles = options.nTiles;
  tile.subTiles = options.subTiles;
  tile.asyncCopy = options.asyncCopy;
  tile.mTiles = mTiles;
  pm.addPass(createStencilSpTCTile(tile));
  pm.addPass(createStencilSpTCPack());
  pm.addPass(createConvertStencilToSpTC(convert));
}

void mlir::stencil::buildSpTCKernelPipeline(OpPassManager &pm,
                                            const LowerToSpTCOptions &options) {
  // 0. The chip has mma.sp, features the PTX ISA it needs (GPUTarget.h).
  addGPUTargetCheck(pm, "lower-to-sptc", options);

  // 1. Stencil -> matrix form -> sparse form: SparStencil's gathered form
  // (SparStencil, 3.1-3.3) for the stencils `layout` sends there, SPIDER's
  // kernel rows for the others (3.1, 3.2). The passes of each route leave
  // the other's ops alone; both share encoding, tiling, packing and the
  // kernel.
  pm.addPass(createStencilLinearize());
  // The warpgroup kernel (sm_90a) takes the banded forms only: with
  // mma=warpgroup layout=auto means the strided swap. (mma=auto keeps the
  // layout's choice: a gathered form takes the warp-level kernel.)
  bool warpgroup = options.mma == MmaKind::Warpgroup;
  if (options.layout == SpTCLayout::Matching ||
      (options.layout == SpTCLayout::Auto && !warpgroup)) {
    StencilFlattenOptions flatten;
    flatten.route = options.layout == SpTCLayout::Matching
                        ? FlattenRoute::Matching
                        : FlattenRoute::Auto;
    flatten.keepWarpgroup =
        options.mma == MmaKind::Auto && hasWarpgroupMma(options.chip);
    flatten.fusedSteps = options.fusedSteps;
    pm.addPass(createStencilFlatten(flatten));
  }
  // Fused steps: the banded form of the composed weights (StepComposition.h).
  StencilDecomposeOptions decompose;
  decompose.fusedSteps = options.fusedSteps;
  pm.addPass(createStencilDecompose(decompose));
  pm.addPass(createStencilStridedSwap());
  pm.addPass(createStencilSpTCMatch());
  pm.addPass(createStencilEncode2to4());
  pm.addPass(createStencilFoldRowSwap());

  // 2. The mma.sp kernel and host launches (SPIDER 3.3).
  ConvertStencilToSpTCOptions convert;
  convert.orderedMetadata = options.orderedMetadata;
  // On sm_90a the banded 2-D and 3-D forms take the warpgroup kernel
  // (wgmma.mma_async.sp, Support/WgmmaSpTiling.h).
  addRowFormKernelPasses(pm, options, convert);
}

void mlir::stencil::buildLowerToSpTCPipeline(OpPassManager &pm,
                                             const LowerToSpTCOptions &options) {
  buildSpTCKernelPipeline(pm, options);
  // 3. Upstream: NVVM, LLVM, PTX in a gpu.binary; the contract.
  buildStencilGPUEmissionPipeline(pm, options.chip,
                                  options.getEmittedFeatures(),
                                  options.optLevel, "lower-to-sptc");
}

void mlir::stencil::buildTCKernelPipeline(OpPassManager &pm,
                                          const LowerToTCOptions &options) {
  // 0. The chip has mma.sync, features the PTX ISA it needs (GPUTarget.h);
  // no 2:4 sparse row form, which only --lower-to-sptc lowers.
  addGPUTargetCheck(pm, "lower-to-tc", options);

  // 1. Stencil -> matrix form (SPIDER 3.1.1), no swap: dense operands; with
  // low-rank, 2-D stencils of low rank first become U_k X V_k chains
  // (LoRAStencil II-D), which decompose into row forms with column weights;
  // with fused steps the decomposition factors the composed weights itself
  // (--stencil-decompose low-rank).
  pm.addPass(createStencilLinearize());
  if (options.lowRank && options.fusedSteps == 1)
    pm.addPass(createStencilLowRank());
  StencilDecomposeOptions decompose;
  decompose.fusedSteps = options.fusedSteps;
  decompose.lowRank = options.lowRank && options.fusedSteps > 1;
  pm.addPass(createStencilDecompose(decompose));
  pm.addPass(createStencilFoldRowSwap());

  // 2. The mma.sync kernel and host launches: the passes of --lower-to-sptc
  // on stencil.row_gemm (m16n8k16 on f16 grids, m8n8k4 on f64 grids).
  // On sm_90 and later the f64 kernel takes m16n8k4, which runs at twice the
  // rate of m8n8k4 there (stencil-run --roofline).
  ConvertStencilToSpTCOptions convert;
  if (hasMmaF64M16N8K4(options.chip))
    convert.f64Shape = F64Shape::M16N8K4;
  // On sm_90a, mma=warpgroup takes the dense wgmma.mma_async kernel.
  addRowFormKernelPasses(pm, options, convert, options.mTiles);
}

void mlir::stencil::buildLowerToTCPipeline(OpPassManager &pm,
                                           const LowerToTCOptions &options) {
  buildTCKernelPipeline(pm, options);
  // 3. Upstream: NVVM, LLVM, PTX in a gpu.binary; the contract.
  buildStencilGPUEmissionPipeline(pm, options.chip,
                                  options.getEmittedFeatures(),
                                  options.optLevel, "lower-to-tc");
}

void mlir::stencil::addGPUTargetCheck(OpPassManager &pm, StringRef pipeline,
                                      StringRef chip, StringRef features,
                                      int optLevel,
                                      ArrayRef<GPUInstructions> instructions) {
  StencilCheckTargetOptions check;
  check.pipeline = ("--" + pipeline).str();
  check.chip = chip.str();
  check.features = features.str();
  check.optLevel = optLevel;
  for (GPUInstructions i : instructions)
    check.instructions.push_back(getInstructionsName(i).str());
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
