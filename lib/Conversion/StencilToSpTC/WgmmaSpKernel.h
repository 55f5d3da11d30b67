//===- WgmmaSpKernel.h - The warpgroup row-form kernel ----------*- C++ -*-===//
//
// Private to lib/Conversion/StencilToSpTC: the kernel `--convert-stencil-to-
// sptc` builds for a banded f16 row form whose tiling names a warpgroup N
// (`wgmma_n`; `--stencil-sptc-tile mma=warpgroup`, chip=sm_90a), with B read
// by the Tensor Cores from shared memory (Support/WgmmaSpTiling.h):
//   - `stencil.sparse_row_gemm`: `wgmma.mma_async.sp` m64nNk32, A (2:4
//     compressed) and its metadata in registers;
//   - `stencil.row_gemm` (the dense form of `--lower-to-tc`): two dense
//     `wgmma.mma_async` m64nNk16 per k32 slice, A in registers.
// Both read A from registers, a form that has no NVVM op in LLVM 22
// (`nvvm.wgmma.mma_async` takes A by descriptor only), hence the inline PTX
// of StencilGPUCommon/Wgmma.h.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_LIB_CONVERSION_STENCILTOSPTC_WGMMASPKERNEL_H
#define STENCIL_LIB_CONVERSION_STENCILTOSPTC_WGMMASPKERNEL_H

#include "stencil/Dialect/Stencil/IR/StencilDialect.h"
#include "stencil/Support/WgmmaSpTiling.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir {
namespace stencil {

/// Builds the kernel of the banded f16 row form `op` (sparse or dense) at the
/// end of `moduleBuilder`'s block.
gpu::GPUFuncOp buildWgmmaSpKernel(OpBuilder &moduleBuilder,
                                  RowFormOpInterface op,
                                  const WgmmaSpGeometry &geometry,
                                  StringRef name);

} // namespace stencil
} // namespace mlir

#endif // STENCIL_LIB_CONVERSION_STENCILTOSPTC_WGMMASPKERNEL_H
