//===- Passes.h - Stencil dialect transformation passes ---------*- C++ -*-===//

#ifndef STENCIL_DIALECT_STENCIL_TRANSFORMS_PASSES_H
#define STENCIL_DIALECT_STENCIL_TRANSFORMS_PASSES_H

#include "stencil/Dialect/Stencil/IR/StencilDialect.h"
#include "stencil/Support/OptionEnums.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace stencil {

#define GEN_PASS_DECL
#include "stencil/Dialect/Stencil/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "stencil/Dialect/Stencil/Transforms/Passes.h.inc"

} // namespace stencil
} // namespace mlir

#endif // STENCIL_DIALECT_STENCIL_TRANSFORMS_PASSES_H
