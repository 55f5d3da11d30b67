//===- StencilToSpTC.h - Lower the sparse form to mma.sp kernels -*- C++ -*-===//

#ifndef STENCIL_CONVERSION_STENCILTOSPTC_STENCILTOSPTC_H
#define STENCIL_CONVERSION_STENCILTOSPTC_STENCILTOSPTC_H

#include "stencil/Conversion/StencilGPUCommon/HostLaunch.h"
#include "stencil/Support/OptionEnums.h"

#include "mlir/Pass/Pass.h"

namespace mlir {
namespace stencil {

#define GEN_PASS_DECL_CONVERTSTENCILTOSPTC
#include "stencil/Conversion/Passes.h.inc"

} // namespace stencil
} // namespace mlir

#endif // STENCIL_CONVERSION_STENCILTOSPTC_STENCILTOSPTC_H
