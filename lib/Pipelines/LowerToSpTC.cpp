//===- LowerToSpTC.cpp - The Sparse Tensor Core pipeline ------------------===//
//
// `--lower-to-sptc` and `--lower-to-tc`: the SPIDER passes (section 3),
// the mma.sp / mma.sync kernel generation, then the emission every GPU
// pipeline shares (GPUEmission.cpp). See docs/Pipelines.md.
//
//===----------------------------------------------------------------------===//

#include "stencil/Conversion/StencilToSpTC/StencilToSpTC.h"
#include "stencil/Dialect/Stencil/Transforms/Passes.h"
#include "stencil/Pipelines/Passes.h"
#include "stencil/Pipelines/Pipelines.h"
#include "stencil/Support/GPUTarget.h"

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
  buildStencilGPUEmissionPipeline(pm, "lower-to-sptc", options);
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
  buildStencilGPUEmissionPipeline(pm, "lower-to-tc", options);
}
