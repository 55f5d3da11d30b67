//===- AttachTarget.cpp - The NVVM target at each kernel's LLVM level ----===//
//
// Implements `--stencil-attach-target`: upstream's `nvvm-attach-target` with
// the LLVM optimization level of each GPU module taken from its kernels
// (`stencil.llvm_opt_level`, which a conversion sets where LLVM's O3 was
// measured to hurt its kernel) unless `opt-level` fixes it.
//
//===----------------------------------------------------------------------===//

#include "stencil/Conversion/StencilGPUCommon/KernelABI.h"
#include "stencil/Pipelines/Passes.h"
#include "stencil/Support/GPUTarget.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir {
namespace stencil {
#define GEN_PASS_DEF_STENCILATTACHTARGET
#include "stencil/Pipelines/Passes.h.inc"
} // namespace stencil
} // namespace mlir

using namespace mlir;
using namespace mlir::stencil;

namespace {
struct StencilAttachTargetPass
    : public stencil::impl::StencilAttachTargetBase<StencilAttachTargetPass> {
  using StencilAttachTargetBase::StencilAttachTargetBase;

  void runOnOperation() override {
    if (std::string error = checkLLVMOptLevel(optLevel); !error.empty()) {
      emitError(getOperation().getLoc()) << error;
      return signalPassFailure();
    }
    MLIRContext *context = &getContext();
    StringRef hint = kLLVMOptLevelAttrName;
    getOperation().walk([&](gpu::GPUModuleOp gpuModule) {
      // The level: opt-level, else the lowest any kernel asks, else 3.
      int level = optLevel >= 0 ? int(optLevel) : 3;
      for (auto func : gpuModule.getOps<gpu::GPUFuncOp>()) {
        if (auto asked = func->getAttrOfType<IntegerAttr>(hint)) {
          if (optLevel < 0)
            level = std::min<int>(level, asked.getInt());
          func->removeAttr(hint);
        }
      }
      // As upstream's pass: the target appended, an equal one not repeated.
      SmallVector<Attribute> targets;
      if (std::optional<ArrayAttr> attrs = gpuModule.getTargets())
        targets.append(attrs->begin(), attrs->end());
      Attribute target = NVVM::NVVMTargetAttr::get(
          context, level, "nvptx64-nvidia-cuda", chip, features);
      if (!llvm::is_contained(targets, target))
        targets.push_back(target);
      gpuModule.setTargetsAttr(ArrayAttr::get(context, targets));
    });
  }
};
} // namespace
