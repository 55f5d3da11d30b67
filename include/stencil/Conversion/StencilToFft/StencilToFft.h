//===- StencilToFft.h - Lower stencil.fft_apply to GPU kernels --*- C++ -*-===//

#ifndef STENCIL_CONVERSION_STENCILTOFFT_STENCILTOFFT_H
#define STENCIL_CONVERSION_STENCILTOFFT_STENCILTOFFT_H

#include "stencil/Conversion/StencilGPUCommon/HostLaunch.h"
#include "stencil/Support/OptionEnums.h"

#include "mlir/Pass/Pass.h"

namespace mlir {
namespace stencil {

#define GEN_PASS_DECL_CONVERTSTENCILTOFFT
#include "stencil/Conversion/Passes.h.inc"

} // namespace stencil
} // namespace mlir

#endif // STENCIL_CONVERSION_STENCILTOFFT_STENCILTOFFT_H
