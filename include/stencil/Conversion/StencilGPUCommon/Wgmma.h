//===- Wgmma.h - Warpgroup MMAs of the GPU kernels --------------*- C++ -*-===//
//
// The sm_90a warpgroup instructions the kernels issue where LLVM 22's NVVM
// dialect has no op: the sparse `wgmma.mma_async.sp` (NVVM has the dense
// `nvvm.wgmma.mma_async` only), as inline PTX. Its operand layouts are
// modelled by Support/WgmmaSpModel.h and checked against an H100 by
// bench/wgmma-probe. The fence, commit and wait around it are NVVM's own
// ops (nvvm.wgmma.fence.aligned, nvvm.wgmma.commit.group.sync.aligned,
// nvvm.wgmma.wait.group.sync.aligned).
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_CONVERSION_STENCILGPUCOMMON_WGMMA_H
#define STENCIL_CONVERSION_STENCILGPUCOMMON_WGMMA_H

#include "mlir/IR/ImplicitLocOpBuilder.h"

#include <string>

namespace mlir {
namespace stencil {

/// The PTX of one `wgmma.mma_async.sp.sync.aligned.m64n<n>k32.f32.f16.f16`
/// with A in registers, as the inline assembly of createWgmmaSp numbers its
/// operands: D in $0 .. $(n/2 - 1) (tied to the inputs that follow), A in
/// four .b32, the B descriptor, the metadata, then `selector` as an
/// immediate, scale-d true (D += A B, through a predicate set in the
/// same block), scale-a/b 1, B not transposed.
std::string getWgmmaSpPtx(int64_t n, unsigned selector);

/// D += A B on the warpgroup (asynchronous: the accumulators are defined
/// once a later wgmma.wait_group covers it; see fenceAccumulators). `acc`
/// holds the thread's n/2 f32 accumulators, `a` its four i32 A registers,
/// `descriptor` the i64 B descriptor, `metadata` the i32 metadata register.
SmallVector<Value> createWgmmaSp(ImplicitLocOpBuilder &b, ArrayRef<Value> acc,
                                 ArrayRef<Value> a, Value descriptor,
                                 Value metadata, unsigned selector);

/// The PTX of one dense `wgmma.mma_async.sync.aligned.m64n<n>k16.f32.f16.f16`
/// with A in registers, numbered as createWgmma does: D in $0 .. $(n/2 - 1)
/// (tied), A in four .b32, the B descriptor; scale-d true, scale-a/b 1, B
/// not transposed.
std::string getWgmmaPtx(int64_t n);
/// D += A B of the dense m64nNk16 (WgmmaSpModel.h, simulateWgmmaM64NK16):
/// `acc` the thread's n/2 f32 accumulators, `a` its four i32 A registers,
/// `descriptor` the i64 B descriptor. (Upstream's nvvm.wgmma.mma_async takes
/// A from shared memory or registers too; this helper keeps one form for
/// both kernels' operands and fences.)
SmallVector<Value> createWgmma(ImplicitLocOpBuilder &b, ArrayRef<Value> acc,
                               ArrayRef<Value> a, Value descriptor);
/// The accumulators after a wgmma.wait_group, passed through an empty
/// inline assembly with side effects so that no read of them is scheduled
/// before the wait (what CUTLASS's warpgroup_fence_operand does).
SmallVector<Value> fenceAccumulators(ImplicitLocOpBuilder &b,
                                     ArrayRef<Value> acc);

} // namespace stencil
} // namespace mlir

#endif // STENCIL_CONVERSION_STENCILGPUCOMMON_WGMMA_H
