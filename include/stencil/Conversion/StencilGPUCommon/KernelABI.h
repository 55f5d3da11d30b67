//===- KernelABI.h - Device side of the stencil GPU kernels -----*- C++ -*-===//
//
// What every GPU kernel of the stencil compiler starts with and ends with:
// the `gpu.func` of the stencil kernel ABI `(in, out, coeffs, N_0 ..
// N_{R-1})` with its shared-memory tile (docs/LaunchDescription.md; the host
// side is HostLaunch.h), the first output of the thread block, and the
// interior test and linear index of the stores (halo boundary).
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_CONVERSION_STENCILGPUCOMMON_KERNELABI_H
#define STENCIL_CONVERSION_STENCILGPUCOMMON_KERNELABI_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

namespace mlir {
namespace stencil {

/// A stencil kernel and the values of its entry block.
struct StencilKernel {
  gpu::GPUFuncOp func;
  Value in, out, coeffs;
  /// N_d, outermost first.
  SmallVector<Value> sizes;
  /// The workgroup buffer: `smemElements` of the grid's element type.
  Value smem;
};

/// Creates, at the end of `moduleBuilder`'s block, the `gpu.kernel` named
/// `name` taking grids of `elementType` and rank `rank`, with a shared tile
/// of `smemElements` elements and a known block size of `threads` x 1 x 1.
StencilKernel createStencilKernel(OpBuilder &moduleBuilder, Location loc,
                                  StringRef name, Type elementType,
                                  int64_t rank, int64_t smemElements,
                                  int64_t threads);

/// As createStencilKernel, but the shared buffer is `smemElements` of
/// `smemElementType` in dynamic shared memory (`gpu.dynamic_shared_memory`,
/// launched with that many bytes), which may exceed the 48 KiB of a static
/// allocation.
StencilKernel createStencilKernelWithDynamicShared(
    OpBuilder &moduleBuilder, Location loc, StringRef name, Type elementType,
    int64_t rank, Type smemElementType, int64_t smemElements, int64_t threads);

/// The block's first output along each dimension, outermost first:
/// `blockIdx.{x, y, z} x blockTile` for the innermost, next and outermost
/// dimensions (the grid HostLaunch.h launches).
SmallVector<Value> getBlockOrigin(ImplicitLocOpBuilder &b,
                                  ArrayRef<int64_t> blockTile);

/// A thread's place in a 1-D block of warps, as the fragments of the warp
/// MMAs (mma.sync, mma.sp) index it: lane = tid % 32, warp = tid / 32,
/// groupId = lane / 4, threadInGroup = lane % 4.
struct MmaThread {
  Value tid, lane, warp, groupId, threadInGroup;
};
MmaThread getMmaThread(ImplicitLocOpBuilder &b);

/// `margin <= coord` and `coord + extent - 1 < size - margin`: the `extent`
/// points from `coord` lie in the grid (margin 0) or in its interior along a
/// dimension of halo width `margin`.
Value isWithin(ImplicitLocOpBuilder &b, Value coord, Value size,
               int64_t margin, int64_t extent = 1);

/// `index`, through an empty PTX move: the same value, which LLVM cannot see
/// into. A loop that derives many addresses from its induction variable
/// hides the variable so that loop strength reduction does not carry each
/// address across iterations in a register of its own (recomputing them
/// from one base costs a few integer instructions; carrying them costs
/// registers, which limit how many blocks an SM holds).
Value hideFromOptimizer(ImplicitLocOpBuilder &b, Value index);

/// BandTiling::get (Support/StepComposition.h) in IR, for a grid of `sizes`
/// (outermost first): per dimension n_d = ceil(N_d / T_d), lo_d = min(n_d,
/// ceil(m_d / T_d)) and hi_d = max(lo_d, floor((N_d - m_d) / T_d)) (0 when
/// N_d < m_d; n_d when m_d = 0), for the band kernel's blocks (in the
/// kernel) and their number (on the host).
struct BandTilingValues {
  SmallVector<Value> counts, lo, hi;
};
BandTilingValues getBandTiling(ImplicitLocOpBuilder &b, ValueRange sizes,
                               ArrayRef<int64_t> tile,
                               ArrayRef<int64_t> margins);

/// The most points of a linear stencil whose sum a kernel unrolls, one load
/// and one multiply-add per point. Above, the CUDA-core kernels' sums and
/// the FFT kernel's direct steps loop over the points, reading each one's
/// offset and weight from constant tables (createConstantTable), so that
/// the kernel, and the time to compile it, do not grow with the pattern.
/// 256 keeps every stencil up to a 15 x 15 box (225 points) unrolled.
inline constexpr int64_t kMaxUnrolledPoints = 256;

/// The discardable `gpu.func` attribute (an integer) by which a conversion
/// asks for the LLVM optimization level of its kernel's module, where LLVM's
/// default (3) was measured to hurt it; `--stencil-attach-target` reads and
/// removes it (the lowest level of a module's kernels wins).
inline constexpr llvm::StringLiteral kLLVMOptLevelAttrName =
    "stencil.llvm_opt_level";

/// NVPTX's global address space (`.global`), where the constant tables of
/// the loop forms live (they may exceed the 64 KiB of `.const`).
inline constexpr unsigned kGlobalAddressSpace = 1;

/// Adds to `gpuModule` a constant `.global` table holding `values` (an
/// internal `llvm.mlir.global` of a 1-D array), named `name`, or `name_N`
/// for the smallest N >= 1 no symbol has; returns the name given.
std::string createConstantTable(gpu::GPUModuleOp gpuModule, Location loc,
                                StringRef name, DenseElementsAttr values);

/// Entry `index` (an index value) of the table `name` of `type` elements in
/// address space `addressSpace`.
Value loadTableEntry(ImplicitLocOpBuilder &b, StringRef name, Type type,
                     Value index, unsigned addressSpace = kGlobalAddressSpace);

/// The row-major linear index of `coords` in a grid of `sizes`.
Value getLinearIndex(ImplicitLocOpBuilder &b, ValueRange coords,
                     ValueRange sizes);

} // namespace stencil
} // namespace mlir

#endif // STENCIL_CONVERSION_STENCILGPUCOMMON_KERNELABI_H
