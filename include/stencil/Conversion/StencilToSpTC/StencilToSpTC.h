//===- StencilToSpTC.h - Lower the sparse form to mma.sp kernels -*- C++ -*-===//

#ifndef STENCIL_CONVERSION_STENCILTOSPTC_STENCILTOSPTC_H
#define STENCIL_CONVERSION_STENCILTOSPTC_STENCILTOSPTC_H

#include "mlir/Pass/Pass.h"

namespace mlir {
namespace stencil {

#define GEN_PASS_DECL_CONVERTSTENCILTOSPTC
#include "stencil/Conversion/Passes.h.inc"

/// The module attribute listing the kernels and how to launch them.
inline constexpr llvm::StringLiteral kLaunchesAttrName = "stencil.launches";

} // namespace stencil
} // namespace mlir

#endif // STENCIL_CONVERSION_STENCILTOSPTC_STENCILTOSPTC_H
