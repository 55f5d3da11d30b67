//===- Pipelines.cpp - Registration of the stencil pipelines --------------===//

#include "stencil/Pipelines/Pipelines.h"

#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::stencil;

void mlir::stencil::registerStencilPipelines() {
  PassPipelineRegistration<LowerToCpuOptions>(
      "lower-to-cpu",
      "Lower stencils to loops in the LLVM dialect, runnable with "
      "mlir-runner: the CPU reference",
      buildLowerToCpuPipeline);
  PassPipelineRegistration<LowerToSpTCOptions>(
      "lower-to-sptc",
      "Lower linear f16 stencils to 2:4 Sparse Tensor Core kernels (SPIDER) "
      "and PTX",
      buildLowerToSpTCPipeline);
  PassPipelineRegistration<LowerToTCOptions>(
      "lower-to-tc",
      "Lower linear f16 stencils to dense Tensor Core kernels (mma.sync "
      "m16n8k16, SPIDER's decomposition without sparsity) and PTX",
      buildLowerToTCPipeline);
  PassPipelineRegistration<LowerToCudaCoreOptions>(
      "lower-to-cuda-core",
      "Lower stencils of any element type and body to plain FMA GPU kernels "
      "(shared-memory tiles, register tiling) and PTX",
      buildLowerToCudaCorePipeline);
  PassPipelineRegistration<LowerToFftOptions>(
      "lower-to-fft",
      "Lower linear f64 and f32 stencils to FFT kernels on the f64 Tensor "
      "Cores (FlashFFTStencil: tiles, prime-factor DFTs as MMAs, T fused "
      "steps by the spectrum to the T) and PTX",
      buildLowerToFftPipeline);
  PassPipelineRegistration<LowerToAutoOptions>(
      "lower-to-auto",
      "Lower stencils through the GPU pipeline the performance model of seed "
      "001 predicts fastest on the device profile (explain=true prints the "
      "ranking)",
      buildLowerToAutoPipeline);
}
