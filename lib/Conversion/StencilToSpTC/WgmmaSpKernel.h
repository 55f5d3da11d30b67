//===- WgmmaSpKernel.h - The warpgroup row-form kernel ----------*- C++ -*-===//
//
// Private to lib/Conversion/StencilToSpTC: the kernel `--convert-stencil-to-
// sptc` builds for a banded `stencil.sparse_row_gemm` on f16 grids whose
// tiling names a warpgroup N (`wgmma_n`; `--stencil-sptc-tile mma=warpgroup`,
// chip=sm_90a): `wgmma.mma_async.sp` m64nNk32 with B read by the Tensor
// Cores from shared memory (Support/WgmmaSpTiling.h).
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_LIB_CONVERSION_STENCILTOSPTC_WGMMASPKERNEL_H
#define STENCIL_LIB_CONVERSION_STENCILTOSPTC_WGMMASPKERNEL_H

#include "RowForm.h"
#include "stencil/Support/WgmmaSpTiling.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir {
namespace stencil {

/// Builds the kernel of the banded f16 sparse row form `op` at the end of
/// `moduleBuilder`'s block.
gpu::GPUFuncOp buildWgmmaSpKernel(OpBuilder &moduleBuilder, RowForm op,
                                  const WgmmaSpGeometry &geometry,
                                  StringRef name);

} // namespace stencil
} // namespace mlir

#endif // STENCIL_LIB_CONVERSION_STENCILTOSPTC_WGMMASPKERNEL_H
