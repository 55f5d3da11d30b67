//===- LowerToFft.cpp - The FFT pipeline ------------------------------------===//
//
// `--lower-to-fft`: linear stencils to FFT kernels on the f64 Tensor Cores
// (FlashFFTStencil), then the NVVM emission every GPU pipeline
// shares. See docs/Pipelines.md.
//
//===----------------------------------------------------------------------===//

#include "stencil/Conversion/StencilToFft/StencilToFft.h"
#include "stencil/Dialect/Stencil/Transforms/Passes.h"
#include "stencil/Pipelines/Pipelines.h"
#include "stencil/Support/GPUTarget.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::stencil;

void mlir::stencil::buildFftKernelPipeline(OpPassManager &pm,
                                           const LowerToFftOptions &options) {
  // 0. The chip has the f64 mma.sync, features the PTX ISA it needs
  // (GPUTarget.h).
  addGPUTargetCheck(pm, "lower-to-fft", options);

  // 1. Linear bodies become stencil.linear; kernel tailoring (3.1) and the
  // spectrum to the T (4).
  pm.addPass(createStencilLinearize());
  StencilFftTailorOptions tailor;
  tailor.fusedSteps = options.fusedSteps;
  tailor.maxTileElements = options.maxTileElements;
  tailor.cooleyTukey = options.cooleyTukey;
  pm.addPass(createStencilFftTailor(tailor));
  pm.addPass(createStencilFftSpectrum());

  // 2. The kernels and host launches; on sm_90 and later the DFT stages
  // take m16n8k4, which runs at twice the rate of m8n8k4 there.
  ConvertStencilToFftOptions convert;
  convert.warps = options.warps;
  if (hasMmaF64M16N8K4(options.chip))
    convert.f64Shape = F64Shape::M16N8K4;
  pm.addPass(createConvertStencilToFft(convert));
}

void mlir::stencil::buildLowerToFftPipeline(OpPassManager &pm,
                                            const LowerToFftOptions &options) {
  buildFftKernelPipeline(pm, options);
  // 3. Upstream: NVVM, LLVM, PTX in a gpu.binary; the contract.
  buildStencilGPUEmissionPipeline(pm, "lower-to-fft", options);
}
