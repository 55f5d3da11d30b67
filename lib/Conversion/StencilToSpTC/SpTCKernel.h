//===- SpTCKernel.h - The f16/bf16 row-form kernel --------------*- C++ -*-===//
//
// Private to lib/Conversion/StencilToSpTC: the kernel `--convert-stencil-to-
// sptc` builds for a `stencil.sparse_row_gemm` (mma.sp) or a
// `stencil.row_gemm` on f16/bf16 grids (mma.sync m16n8k16), banded or
// gathered.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_LIB_CONVERSION_STENCILTOSPTC_SPTCKERNEL_H
#define STENCIL_LIB_CONVERSION_STENCILTOSPTC_SPTCKERNEL_H

#include "stencil/Dialect/Stencil/IR/StencilDialect.h"
#include "stencil/Support/SpTCPacking.h"
#include "stencil/Support/SpTCTiling.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir {
namespace stencil {

/// Builds the kernel of the f16/bf16 row form `op` at the end of
/// `moduleBuilder`'s block: a banded form reads its B operand as `plan`
/// says, a gathered form (SparStencil) as `gather` says.
gpu::GPUFuncOp buildSpTCKernel(OpBuilder &moduleBuilder, RowFormOpInterface op,
                               const SpTCGeometry &geometry,
                               const SpTCBOperandPlan *plan,
                               const SpTCGather *gather, bool orderedMetadata,
                               StringRef name);

} // namespace stencil
} // namespace mlir

#endif // STENCIL_LIB_CONVERSION_STENCILTOSPTC_SPTCKERNEL_H
