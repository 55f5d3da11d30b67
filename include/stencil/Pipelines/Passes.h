//===- Passes.h - The passes of --lower-to-auto -----------------*- C++ -*-===//

#ifndef STENCIL_PIPELINES_PASSES_H
#define STENCIL_PIPELINES_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace stencil {

#define GEN_PASS_DECL
#include "stencil/Pipelines/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "stencil/Pipelines/Passes.h.inc"

/// The module attribute naming the chosen pipeline.
constexpr StringLiteral kPipelineAttrName = "stencil.pipeline";

} // namespace stencil
} // namespace mlir

#endif // STENCIL_PIPELINES_PASSES_H
