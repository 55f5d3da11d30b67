//===- stencil-pipeline-fuzzer.cpp - Every pipeline on fuzzed stencils ----===//
//
// libFuzzer target over the compiler's pipelines. An input that parses and
// verifies as a stencil program (ops of the stencil, func, arith, math and
// memref dialects only: the pipelines' input language) goes, on a copy each,
// through every pipeline with its default options:
//
//   --lower-to-cpu, --lower-to-sptc, --lower-to-tc, --lower-to-tc=low-rank=1,
//   --lower-to-cuda-core, --lower-to-fft, --lower-to-auto (ptxas=none: no
//   assembler process per input; its stencil part is
//   --stencil-select-pipeline, which runs every candidate's stencil part and
//   the cost model on their launch records)
//
// The GPU pipelines run their stencil part (build*KernelPipeline: every pass
// of this project, down to the gpu.module and the host launches, verified);
// one input in 16 (by a hash of its bytes; one in N with the environment
// variable STENCIL_FUZZ_EMIT_EVERY=N; the corpus replay keeps 16, so each
// input runs as it ran when fuzzing)
// runs the whole pipelines, with upstream's NVVM emission and LLVM's NVPTX
// back end, which take about 50x as long and are not this project's code. The
// guarantees checked: no crash, hang or sanitizer report, and a pipeline that
// fails has said why (at least one error diagnostic; a failure without one
// aborts). New pipelines join the list below as they land.
//
// The target counts what the inputs reached and prints it when the process
// exits:
//
//   stencil-pipeline-fuzzer: N inputs, V verified stencil programs, P
//   pipeline runs (S succeeded, F failed with a diagnostic), E with emission
//
//===----------------------------------------------------------------------===//

#include "StencilFuzzing.h"

#include "stencil/InitAll.h"
#include "stencil/Pipelines/Passes.h"
#include "stencil/Pipelines/Pipelines.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/xxhash.h"

#include <cstdio>
#include <cstdlib>

using namespace mlir;
using namespace stencil_fuzz;

namespace {
struct Counts {
  unsigned long inputs = 0, verified = 0, runs = 0, succeeded = 0, failed = 0,
                emitted = 0;
  ~Counts() {
    std::fprintf(stderr,
                 "stencil-pipeline-fuzzer: %lu inputs, %lu verified stencil "
                 "programs, %lu pipeline runs (%lu succeeded, %lu failed with "
                 "a diagnostic), %lu with emission\n",
                 inputs, verified, runs, succeeded, failed, emitted);
  }
};

struct Pipeline {
  const char *name;
  /// Builds the pipeline: whole, or its stencil part only.
  std::function<void(OpPassManager &, bool whole)> build;
};
} // namespace

static Counts counts;

static std::unique_ptr<MLIRContext> makeContext() {
  // What stencil-opt registers: the pipelines need the NVVM target and the
  // LLVM IR translations for gpu-module-to-binary.
  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  stencil::registerAllStencilDialects(registry);
  return std::make_unique<MLIRContext>(registry);
}

/// A GPU pipeline of default options: `whole` builds it whole, `stencilPart`
/// its stencil part only.
template <typename Options>
static Pipeline
gpuPipeline(const char *name, void (*whole)(OpPassManager &, const Options &),
            void (*stencilPart)(OpPassManager &, const Options &)) {
  return {name, [=](OpPassManager &pm, bool all) {
            Options options;
            all ? whole(pm, options) : stencilPart(pm, options);
          }};
}

static const std::vector<Pipeline> &getPipelines() {
  using namespace mlir::stencil;
  static const std::vector<Pipeline> pipelines = {
      {"lower-to-cpu",
       [](OpPassManager &pm, bool) {
         buildLowerToCpuPipeline(pm, LowerToCpuOptions());
       }},
      gpuPipeline("lower-to-sptc", buildLowerToSpTCPipeline,
                  buildSpTCKernelPipeline),
      gpuPipeline("lower-to-tc", buildLowerToTCPipeline, buildTCKernelPipeline),
      {"lower-to-tc low-rank",
       [](OpPassManager &pm, bool whole) {
         LowerToTCOptions options;
         options.lowRank = true;
         whole ? buildLowerToTCPipeline(pm, options)
               : buildTCKernelPipeline(pm, options);
       }},
      gpuPipeline("lower-to-cuda-core", buildLowerToCudaCorePipeline,
                  buildCudaCoreKernelPipeline),
      gpuPipeline("lower-to-fft", buildLowerToFftPipeline,
                  buildFftKernelPipeline),
      {"lower-to-auto",
       [](OpPassManager &pm, bool whole) {
         if (whole) {
           LowerToAutoOptions options;
           options.ptxas = "none";
           buildLowerToAutoPipeline(pm, options);
           return;
         }
         StencilSelectPipelineOptions options;
         options.ptxas = "none";
         pm.addPass(createStencilSelectPipeline(options));
       }},
  };
  return pipelines;
}

/// True when every op of `module` is in the pipelines' input language.
static bool isStencilProgram(ModuleOp module) {
  static const llvm::StringSet<> dialects = {"builtin", "stencil", "func",
                                             "arith", "math", "memref"};
  bool ok = true;
  module->walk([&](Operation *op) {
    if (!dialects.contains(op->getName().getDialectNamespace()))
      ok = false;
  });
  return ok;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // A fresh context now and then: pipelines intern many types and attributes.
  static ContextPool pool(makeContext, /*period=*/64);
  ++counts.inputs;
  MLIRContext &context = pool.get();
  ErrorCounter parseErrors(context);
  StringRef input(reinterpret_cast<const char *>(data), size);
  OwningOpRef<ModuleOp> module = parse(context, input);
  if (!module || !isStencilProgram(*module))
    return 0;
  ++counts.verified;
  static const uint64_t emitEvery = [] {
    const char *every = std::getenv("STENCIL_FUZZ_EMIT_EVERY");
    uint64_t n = every ? std::strtoull(every, nullptr, 10) : 16;
    return n ? n : 16;
  }();
  bool whole = llvm::xxh3_64bits(input) % emitEvery == 0;
  counts.emitted += whole;

  for (const Pipeline &pipeline : getPipelines()) {
    OwningOpRef<ModuleOp> copy = module->clone();
    PassManager pm(&context);
    pipeline.build(pm, whole);
    ErrorCounter errors(context);
    ++counts.runs;
    if (succeeded(pm.run(*copy))) {
      ++counts.succeeded;
      continue;
    }
    ++counts.failed;
    if (errors.errors == 0)
      fail(std::string("a pipeline failed without an error: --") +
               pipeline.name,
           input);
  }
  return 0;
}
