//===- CudaCoreStagedTile.h - The staged CUDA-core kernel -------*- C++ -*-===//
//
// Private to lib/Conversion/StencilToCudaCore: the builder of the staged
// schedule (the whole tile and its halo in shared memory; the kernel
// outline of CudaCoreKernel.cpp), CudaCoreStagedTile.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_LIB_CONVERSION_STENCILTOCUDACORE_CUDACORESTAGEDTILE_H
#define STENCIL_LIB_CONVERSION_STENCILTOCUDACORE_CUDACORESTAGEDTILE_H

#include "CudaCoreKernelBuilder.h"

namespace mlir {
namespace stencil {
namespace detail {

/// The staged tile: stages it, runs the fused steps 1 .. t - 1 from one
/// shared buffer into the other, then computes and stores the outputs; the
/// schedule of 1-D grids, of 2-D and 3-D ones without `stream`, and of the
/// band kernels.
class StagedTileKernel final : public CudaCoreKernelBuilder {
public:
  using CudaCoreKernelBuilder::CudaCoreKernelBuilder;

private:
  void buildBody() override;
  /// Steps 1 .. t - 1 of a fused kernel.
  void computeIntermediateStep(int64_t step);
  /// The shared-memory index of the thread's output `k` plus `offset` in the
  /// buffer the last step reads.
  Value smemIndex(int64_t k, ArrayRef<int64_t> offset);
};

} // namespace detail
} // namespace stencil
} // namespace mlir

#endif // STENCIL_LIB_CONVERSION_STENCILTOCUDACORE_CUDACORESTAGEDTILE_H
