//===- StencilToCudaCore.h - Lower stencils to CUDA-core kernels -*- C++ -*-===//

#ifndef STENCIL_CONVERSION_STENCILTOCUDACORE_STENCILTOCUDACORE_H
#define STENCIL_CONVERSION_STENCILTOCUDACORE_STENCILTOCUDACORE_H

#include "stencil/Conversion/StencilGPUCommon/HostLaunch.h"
#include "stencil/Support/OptionEnums.h"
#include "stencil/Support/StepComposition.h"

#include "mlir/Pass/Pass.h"

namespace mlir {
namespace stencil {

#define GEN_PASS_DECL_CONVERTSTENCILTOCUDACORE
#include "stencil/Conversion/Passes.h.inc"

/// A CUDA-core kernel of direct time steps built for another pipeline, with
/// the stencil kernel ABI (docs/LaunchDescription.md) and a static shared
/// buffer.
struct CudaCoreStepKernel {
  gpu::GPUFuncOp kernel;
  /// Outputs per block, outermost first, and threads per block.
  SmallVector<int64_t> tile;
  int64_t threads = 0;
  /// FMA flops per output and time step, the recomputed halo of fused
  /// steps included.
  double flopsPerPoint = 0;
};

/// Builds, at the end of `gpuModule`, the CUDA-core kernel of `steps` direct
/// steps of the linear stencil `step` on grids of `elementType` under the
/// halo boundary, as `--convert-stencil-to-cuda-core` builds it with its
/// default tiling (32 x 8 threads, automatic outputs per thread and planes;
/// temporal blocking for steps > 1), or with 32 x 4, 16 x 4 or 8 x 4 threads,
/// the first whose tile fits. The Tensor Core pipelines' fused steps
/// take two: the band kernel and the tail kernel (docs/Pipelines.md).
///
/// With `bandMargins` (one per dimension, outermost first), the kernel runs
/// in band mode: launched with a one-dimensional grid of
/// BandTiling::get(N, tile, bandMargins).getNumTiles() blocks, each block
/// computes one tile that reaches outside the exact region [m_d, N_d - m_d)
/// and stores only its points outside that region. Without, the grid is
/// that of the pass (x innermost) and every interior point is stored.
///
/// Fails with an error at `loc` when no such tile of `steps` steps fits in
/// 48 KiB of shared memory.
FailureOr<CudaCoreStepKernel>
buildCudaCoreStepKernel(gpu::GPUModuleOp gpuModule, Location loc,
                        const LinearStencil &step, Type elementType,
                        int64_t steps, ArrayRef<int64_t> bandMargins,
                        StringRef name);

} // namespace stencil
} // namespace mlir

#endif // STENCIL_CONVERSION_STENCILTOCUDACORE_STENCILTOCUDACORE_H
