//===- Pipelines.h - The stencil compiler's pass pipelines ------*- C++ -*-===//
//
// Each pipeline is a builder function with a typed options struct, so other
// MLIR compilers can add it to their own pass managers, and a
// `PassPipelineRegistration` for `stencil-opt --lower-to-...`.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_PIPELINES_PIPELINES_H
#define STENCIL_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir {
namespace stencil {

/// Options of `--lower-to-cpu`.
struct LowerToCpuOptions : public PassPipelineOptions<LowerToCpuOptions> {
  PassOptions::Option<bool> linearize{
      *this, "linearize",
      llvm::cl::desc("Run --stencil-linearize first, so linear general-form "
                     "bodies are evaluated like stencil.linear (f64 "
                     "accumulation)"),
      llvm::cl::init(false)};
};

/// `--lower-to-cpu`: stencil -> scf loops -> LLVM dialect, runnable with
/// `mlir-runner`. This is the reference every other pipeline is checked
/// against; see docs/Pipelines.md.
void buildLowerToCpuPipeline(OpPassManager &pm,
                             const LowerToCpuOptions &options);

/// Registers every pipeline with the command line (`--lower-to-...`).
void registerStencilPipelines();

} // namespace stencil
} // namespace mlir

#endif // STENCIL_PIPELINES_PIPELINES_H
