//===- CheckTarget.cpp - A GPU pipeline's chip and PTX ISA version --------===//
//
// Implements `--stencil-check-target`, the first pass of every GPU pipeline:
// the chip, the PTX ISA version and the instructions the kernels issue are
// checked against the rules of Support/GPUTarget.h before anything is
// emitted, so a target the pipeline cannot serve is a located error rather
// than a crash in LLVM's NVPTX backend.
//
//===----------------------------------------------------------------------===//

#include "stencil/Dialect/Stencil/IR/StencilDialect.h"
#include "stencil/Pipelines/Passes.h"
#include "stencil/Support/GPUTarget.h"

#include "llvm/ADT/STLExtras.h"

namespace mlir {
namespace stencil {
#define GEN_PASS_DEF_STENCILCHECKTARGET
#include "stencil/Pipelines/Passes.h.inc"
} // namespace stencil
} // namespace mlir

using namespace mlir;
using namespace mlir::stencil;

namespace {
struct StencilCheckTargetPass
    : public stencil::impl::StencilCheckTargetBase<StencilCheckTargetPass> {
  using StencilCheckTargetBase::StencilCheckTargetBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // 1. Diagnostics point at the first stencil op, else the module.
    Operation *first = nullptr;
    module.walk([&](Operation *op) {
      if (!isa<StencilDialect>(op->getDialect()))
        return WalkResult::advance();
      first = op;
      return WalkResult::interrupt();
    });
    Location loc = first ? first->getLoc() : module.getLoc();

    // 2. The instruction families the pipeline's kernels issue (the option
    // parser refused unknown names).
    ArrayRef<GPUInstructions> issued = instructions.families;

    // 3. The chip and the PTX ISA version (GPUTarget.h).
    std::string error = checkGPUTarget(pipeline, chip, features, issued);
    if (!error.empty()) {
      emitError(loc) << error;
      return signalPassFailure();
    }

    if (std::string error = checkLLVMOptLevel(optLevel); !error.empty()) {
      emitError(loc) << pipeline << ": " << error;
      return signalPassFailure();
    }

    // 4. No op needs instructions the pipeline does not issue: the 2:4
    // sparse row form is lowered to mma.sp only.
    bool sparse = llvm::any_of(issued, [](GPUInstructions i) {
      return i == GPUInstructions::MmaSp ||
             i == GPUInstructions::MmaSpOrderedMetadata;
    });
    WalkResult result = module.walk([&](SparseRowGemmOp op) {
      if (sparse)
        return WalkResult::advance();
      op.emitOpError()
          << "is the 2:4 sparse row form, which needs "
          << getInstructionNeeds(GPUInstructions::MmaSp).description << "; "
          << pipeline << " does not issue it (use --lower-to-sptc)";
      return WalkResult::interrupt();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
