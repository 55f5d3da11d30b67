//===- CudaCoreStreaming.h - The streaming CUDA-core kernel -----*- C++ -*-===//
//
// Private to lib/Conversion/StencilToCudaCore: the builder of the ring
// schedule of streamed 3-D blocks (rings of planes per fused step; AN5D),
// CudaCoreStreaming.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_LIB_CONVERSION_STENCILTOCUDACORE_CUDACORESTREAMING_H
#define STENCIL_LIB_CONVERSION_STENCILTOCUDACORE_CUDACORESTREAMING_H

#include "CudaCorePlaneSweep.h"

namespace mlir {
namespace stencil {
namespace detail {

/// The plane sweep through rings of 2 r_z + 1 planes per level
/// (CudaCoreTiling::stream without planeSums).
class StreamedRingKernel final : public StreamedPlanesKernel {
public:
  using StreamedPlanesKernel::StreamedPlanesKernel;

private:
  void buildSweep() override;
  /// Index functions over the planes localZ - r_z .. localZ + r_z of
  /// `level`: point k of a group whose first point is at (y, x) = `yxBase`
  /// (a plane index) plus `offset`.
  Value ringIndex(int64_t level, Value localZ, Value yxBase, int64_t k,
                  ArrayRef<int64_t> offset,
                  SmallVectorImpl<std::pair<int64_t, Value>> &rowBases);
  /// ringIndex with the offset in index values (the loop form).
  Value ringLoopIndex(int64_t level, Value localZ, Value yxBase, int64_t k,
                      ArrayRef<Value> offset);
  /// Intermediate step `step` on its plane `localZ`.
  void streamIntermediateStep(int64_t step, Value localZ);
  /// The last step on its plane `localZ`: computes and stores the thread's
  /// outputs there.
  void streamLastStep(Value localZ);
};

} // namespace detail
} // namespace stencil
} // namespace mlir

#endif // STENCIL_LIB_CONVERSION_STENCILTOCUDACORE_CUDACORESTREAMING_H
