//===- Pipelines.cpp - Registration of the stencil pipelines --------------===//

#include "stencil/Pipelines/Pipelines.h"

#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::stencil;

/// Registers `--<arg>` like PassPipelineRegistration, except that an option
/// string that does not parse is one error naming the pipeline, what was
/// wrong, and the pipeline's options with their defaults (instead of a bare
/// "Cannot find option named ...").
template <typename Options>
static void registerPipeline(StringRef arg, StringRef description,
                             void (*builder)(OpPassManager &,
                                             const Options &)) {
  std::string name = arg.str();
  registerPassPipeline(
      arg, description,
      [name, builder](OpPassManager &pm, StringRef optionsStr,
                      function_ref<LogicalResult(const Twine &)> errorHandler) {
        Options options;
        std::string message;
        llvm::raw_string_ostream os(message);
        if (failed(options.parseFromString(optionsStr, os))) {
          std::string defaults;
          llvm::raw_string_ostream ds(defaults);
          Options().print(ds);
          // llvm::cl's words, without its program-name prefix and the "!".
          StringRef what = StringRef(message).trim();
          what.consume_front("<Pass-Options-Parser>: ");
          what.consume_front(": ");
          what.consume_back("!");
          // A value that does not parse is reported by llvm::cl itself, on
          // the line before.
          if (what.empty())
            what = "a value does not parse as its option's type (above)";
          return errorHandler("--" + name + "='" + optionsStr + "': " + what +
                              " (options are separated by spaces; the "
                              "options and their defaults: " +
                              defaults + ")");
        }
        builder(pm, options);
        return success();
      },
      [](function_ref<void(const detail::PassOptions &)> optHandler) {
        optHandler(Options());
      });
}

void mlir::stencil::registerStencilPipelines() {
  registerPipeline<LowerToCpuOptions>(
      "lower-to-cpu",
      "Lower stencils to loops in the LLVM dialect, runnable with "
      "mlir-runner: the CPU reference",
      buildLowerToCpuPipeline);
  registerPipeline<LowerToSpTCOptions>(
      "lower-to-sptc",
      "Lower linear f16 stencils to 2:4 Sparse Tensor Core kernels (SPIDER's "
      "strided swap, SparStencil's matching) and PTX",
      buildLowerToSpTCPipeline);
  registerPipeline<LowerToTCOptions>(
      "lower-to-tc",
      "Lower linear f16, bf16 and f64 stencils to dense Tensor Core kernels "
      "(SPIDER's decomposition without sparsity: mma.sync m16n8k16 for f16 "
      "and bf16, the f64 mma.sync shapes for f64; low-rank=true: "
      "LoRAStencil's low-rank chain) and PTX",
      buildLowerToTCPipeline);
  registerPipeline<LowerToCudaCoreOptions>(
      "lower-to-cuda-core",
      "Lower stencils of any element type and body to plain FMA GPU kernels "
      "(shared-memory tiles, register tiling) and PTX",
      buildLowerToCudaCorePipeline);
  registerPipeline<LowerToFftOptions>(
      "lower-to-fft",
      "Lower linear f64 and f32 stencils to FFT kernels on the f64 Tensor "
      "Cores (FlashFFTStencil: tiles, prime-factor DFTs as MMAs, T fused "
      "steps by the spectrum to the T) and PTX",
      buildLowerToFftPipeline);
  registerPipeline<LowerToAutoOptions>(
      "lower-to-auto",
      "Lower stencils through the GPU pipeline the performance model of "
      "\"Do We Need Tensor Cores for Stencil Computations?\" predicts fastest on the device profile (explain=true prints the "
      "ranking)",
      buildLowerToAutoPipeline);
}
