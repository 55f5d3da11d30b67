//===- Passes.h - The passes of --lower-to-auto -----------------*- C++ -*-===//

#ifndef STENCIL_PIPELINES_PASSES_H
#define STENCIL_PIPELINES_PASSES_H

#include "stencil/Dialect/Stencil/IR/LaunchRecord.h"
#include "stencil/Support/OptionEnums.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace stencil {

#define GEN_PASS_DECL
#include "stencil/Pipelines/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "stencil/Pipelines/Passes.h.inc"

// The module attributes naming the chosen pipeline and what the choice
// assumed, kPipelineAttrName and kDeviceProfileAttrName, are the stencil
// dialect's (LaunchRecord.h), which verifies them.

} // namespace stencil
} // namespace mlir

#endif // STENCIL_PIPELINES_PASSES_H
