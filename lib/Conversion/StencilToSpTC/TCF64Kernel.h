//===- TCF64Kernel.h - The f64 mma.sync row-form kernel ---------*- C++ -*-===//
//
// Private to lib/Conversion/StencilToSpTC: the kernel `--convert-stencil-to-
// sptc` builds for a `stencil.row_gemm` on f64 grids (`--lower-to-tc`).
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_LIB_CONVERSION_STENCILTOSPTC_TCF64KERNEL_H
#define STENCIL_LIB_CONVERSION_STENCILTOSPTC_TCF64KERNEL_H

#include "stencil/Dialect/Stencil/IR/StencilDialect.h"
#include "stencil/Support/SpTCTiling.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir {
namespace stencil {

/// Builds the kernel of the f64 row form `op` at the end of
/// `moduleBuilder`'s block.
gpu::GPUFuncOp buildTCF64Kernel(OpBuilder &moduleBuilder, RowFormOpInterface op,
                                const TCF64Geometry &geometry, StringRef name);

} // namespace stencil
} // namespace mlir

#endif // STENCIL_LIB_CONVERSION_STENCILTOSPTC_TCF64KERNEL_H
