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
      "Lower linear f16 stencils to 2:4 Sparse Tensor Core kernels (SPIDER's "
      "strided swap, SparStencil's matching) and PTX",
      buildLowerToSpTCPipeline);
  PassPipelineRegistration<LowerToTCOptions>(
      "lower-to-tc",
      "Lower linear f16, bf16 and f64 stencils to dense Tensor Core kernels "
      "(SPIDER's decomposition without sparsity: mma.sync m16n8k16 for f16 "
      "and bf16, the f64 mma.sync shapes for f64; low-rank=true: "
      "LoRAStencil's low-rank chain) and PTX",
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
      "Lower stencils through the GPU pipeline the performance model of "
      "\"Do We Need Tensor Cores for Stencil Computations?\" predicts fastest on the device profile (explain=true prints the "
      "ranking)",
      buildLowerToAutoPipeline);
}
