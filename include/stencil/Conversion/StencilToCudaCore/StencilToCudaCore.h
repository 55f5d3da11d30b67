//===- StencilToCudaCore.h - Lower stencils to CUDA-core kernels -*- C++ -*-===//

#ifndef STENCIL_CONVERSION_STENCILTOCUDACORE_STENCILTOCUDACORE_H
#define STENCIL_CONVERSION_STENCILTOCUDACORE_STENCILTOCUDACORE_H

#include "stencil/Conversion/StencilGPUCommon/HostLaunch.h"

#include "mlir/Pass/Pass.h"

namespace mlir {
namespace stencil {

#define GEN_PASS_DECL_CONVERTSTENCILTOCUDACORE
#include "stencil/Conversion/Passes.h.inc"

} // namespace stencil
} // namespace mlir

#endif // STENCIL_CONVERSION_STENCILTOCUDACORE_STENCILTOCUDACORE_H
