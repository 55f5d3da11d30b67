//===- MmaKernelBuilder.h - Base of the row-form builders -------*- C++ -*-===//
//-*-===//
//
// Private to lib/Conversion/StencilToSpTC: the base of the builders of the
// f16/bf16 (SpTCKernelBuilder.h) and f64 (TCF64Kernel.cpp) row-form
// kernels: the kernel's arguments, the thread's place in the warp MMA
// fragments, the block's origin, and index arithmetic.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_LIB_CONVERSION_STENCILTOSPTC_MMAKERNELBUILDER_H
#define STENCIL_LIB_CONVERSION_STENCILTOSPTC_MMAKERNELBUILDER_H

#include "stencil/Conversion/StencilGPUCommon/KernelABI.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

#include <optional>

namespace mlir {
namespace stencil {

class MmaKernelBuilder {
protected:
  /// Creates the kernel `name` (KernelABI.h: `rank`-D grids of
  /// `elementType`, `sharedElements` of shared memory, `threads` per block),
  /// sets the builder at its start, and the members below, with the block's
  /// origin for blocks of `blockTile` outputs. With `dynamicShared` the
  /// shared memory is the launch's dynamic allocation (which may exceed the
  /// 48 KiB of a static one; the launch must name its bytes).
  gpu::GPUFuncOp beginKernel(OpBuilder &moduleBuilder, Location loc,
                             StringRef name, Type elementType, int64_t rank,
                             int64_t sharedElements, int64_t threads,
                             ArrayRef<int64_t> blockTile,
                             bool dynamicShared = false) {
    StencilKernel kernel =
        dynamicShared
            ? createStencilKernelWithDynamicShared(
                  moduleBuilder, loc, name, elementType, rank, elementType,
                  sharedElements, threads)
            : createStencilKernel(moduleBuilder, loc, name, elementType, rank,
                                  sharedElements, threads);
    // At the end: after the view of dynamic shared memory.
    b.emplace(
        ImplicitLocOpBuilder::atBlockEnd(loc, &kernel.func.getBody().front()));
    in = kernel.in;
    out = kernel.out;
    coef = kernel.coeffs;
    sizes = kernel.sizes;
    smem = kernel.smem;
    MmaThread thread = getMmaThread(*b);
    tid = thread.tid;
    lane = thread.lane;
    warp = thread.warp;
    groupId = thread.groupId;
    threadInGroup = thread.threadInGroup;
    origin = getBlockOrigin(*b, blockTile);
    return kernel.func;
  }

  Value cst(int64_t v) { return arith::ConstantIndexOp::create(*b, v); }
  Value add(Value x, Value y) { return arith::AddIOp::create(*b, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(*b, x, y); }
  Value addConst(Value x, int64_t c) { return c ? add(x, cst(c)) : x; }

  std::optional<ImplicitLocOpBuilder> b;
  Value in, out, coef, smem;
  SmallVector<Value> sizes;  // N_d, outermost first
  SmallVector<Value> origin; // first output of the block, outermost first
  Value tid, lane, warp, groupId, threadInGroup;
};

} // namespace stencil
} // namespace mlir

#endif // STENCIL_LIB_CONVERSION_STENCILTOSPTC_MMAKERNELBUILDER_H
