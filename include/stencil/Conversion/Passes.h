//===- Passes.h - Stencil conversion passes ---------------------*- C++ -*-===//

#ifndef STENCIL_CONVERSION_PASSES_H
#define STENCIL_CONVERSION_PASSES_H

#include "stencil/Conversion/StencilToCudaCore/StencilToCudaCore.h"
#include "stencil/Conversion/StencilToFft/StencilToFft.h"
#include "stencil/Conversion/StencilToSCF/StencilToSCF.h"
#include "stencil/Conversion/StencilToSpTC/StencilToSpTC.h"
#include "stencil/Support/OptionEnums.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace stencil {

#define GEN_PASS_REGISTRATION
#include "stencil/Conversion/Passes.h.inc"

} // namespace stencil
} // namespace mlir

#endif // STENCIL_CONVERSION_PASSES_H
