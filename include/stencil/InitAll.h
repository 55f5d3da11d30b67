//===- InitAll.h - Register the stencil compiler ----------------*- C++ -*-===//
//
// One place to register the project's dialects, passes and pipelines, in
// the style of upstream's InitAllDialects.h / InitAllPasses.h.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_INITALL_H
#define STENCIL_INITALL_H

#include "stencil/Conversion/Passes.h"
#include "stencil/Dialect/Stencil/IR/StencilDialect.h"
#include "stencil/Dialect/Stencil/Transforms/Passes.h"
#include "stencil/Pipelines/Passes.h"
#include "stencil/Pipelines/Pipelines.h"

#include "mlir/IR/DialectRegistry.h"

namespace mlir {
namespace stencil {

/// Adds the project's dialects to `registry`.
inline void registerAllStencilDialects(DialectRegistry &registry) {
  registry.insert<StencilDialect>();
}

/// Registers every pass and pipeline of the project with the command line.
inline void registerAllStencilPasses() {
  registerStencilPasses();
  registerStencilConversionPasses();
  registerStencilPipelinesPasses();
  registerStencilPipelines();
}

} // namespace stencil
} // namespace mlir

#endif // STENCIL_INITALL_H
