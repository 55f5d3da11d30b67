//===- CudaCorePlaneSweep.h - The z sweep of 3-D blocks ---------*- C++ -*-===//
//
// Private to lib/Conversion/StencilToCudaCore: the base of the builders of
// the streamed 3-D schedules (CudaCoreTiling::stream; AN5D's streaming of
// the outermost dimension), the sweep along z that the ring
// (CudaCoreStreaming.h) and the plane sums (CudaCorePlaneSums.h) share:
// the split into interior and edge blocks, the staging of a plane,
// prefetched or not, and the ring's slots (CudaCorePlaneSweep.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_LIB_CONVERSION_STENCILTOCUDACORE_CUDACOREPLANESWEEP_H
#define STENCIL_LIB_CONVERSION_STENCILTOCUDACORE_CUDACOREPLANESWEEP_H

#include "CudaCoreKernelBuilder.h"

namespace mlir {
namespace stencil {
namespace detail {

/// The most staging values per thread that a streamed sweep loads one plane
/// ahead (CudaCoreStreaming.cpp): registers held through the iteration.
inline constexpr int64_t kMaxPrefetchedStagingValues = 16;

/// A streamed 3-D block: its sweep over its planes (buildSweep, the
/// schedule's), built twice, for blocks whose (y, x) tile and halo lie in
/// the grid (interiorYX) and for the others.
class StreamedPlanesKernel : public CudaCoreKernelBuilder {
public:
  using CudaCoreKernelBuilder::CudaCoreKernelBuilder;

protected:
  /// The split into interior and edge blocks (with vector columns, also by
  /// the grid's rows being a multiple of the width: vectorStaging), each
  /// with its buildSweep.
  void buildBody() override;
  /// The sweep over the block's planes: staging, steps, stores.
  virtual void buildSweep() = 0;
  /// Stages plane `planeZ` at shared-memory index `destBase` (stageTile).
  virtual void stagePlane(Value planeZ, Value destBase);
  /// Prefetched staging of a streamed sweep (spec.prefetchPlanes, one step
  /// per launch): the staging values per thread of one plane (the same
  /// positions and guards for every plane), or 0 where the sweep stages
  /// each plane in its iteration (fused steps, or more than
  /// kMaxPrefetchedStagingValues per thread).
  virtual int64_t prefetchedValuesPerThread() const;
  /// The staging loads of plane `planeZ` for the prefetch.
  virtual StagingValues prefetchLoads(Value planeZ);
  /// Before a prefetching sweep: the values of planes 0 .. d - 1 (d =
  /// spec.prefetchDistance), the initial `pending` of stagePrefetched.
  SmallVector<Value> prefetchFirstPlanes();
  /// Iteration i of a prefetching sweep: loads plane i + d, then stores
  /// plane i's values (the first of `pending`, the values of planes i .. i
  /// + d - 1) at `destBase()`, and leaves planes i + 1 .. i + d in
  /// `pending`.
  void stagePrefetched(Value i, function_ref<Value()> destBase,
                       SmallVectorImpl<Value> &pending);
  /// The first element of the ring slot of local plane `localZ` of `level`
  /// (CudaCoreTiling::ringOffset).
  Value ringBase(int64_t level, Value localZ);

  /// While building a plane-sums sweep with vector columns on a grid whose
  /// rows are a multiple of the width: planes are staged, and outputs
  /// stored, as whole vectors (else element by element;
  /// VectorPlaneSumsKernel).
  bool vectorStaging = false;
};

} // namespace detail
} // namespace stencil
} // namespace mlir

#endif // STENCIL_LIB_CONVERSION_STENCILTOCUDACORE_CUDACOREPLANESWEEP_H
