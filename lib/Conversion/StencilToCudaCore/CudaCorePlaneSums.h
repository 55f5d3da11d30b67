//===- CudaCorePlaneSums.h - Partial sums of 3-D planes ---------*- C++ -*-===//
//
// Private to lib/Conversion/StencilToCudaCore: the builders of the plane
// sums of streamed 3-D linear stencils (CudaCoreTiling::planeSums; AN5D's
// register streaming in 3-D), with one column per thread or with vector
// columns (CudaCoreTiling::vectorWidth > 1), CudaCorePlaneSums.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_LIB_CONVERSION_STENCILTOCUDACORE_CUDACOREPLANESUMS_H
#define STENCIL_LIB_CONVERSION_STENCILTOCUDACORE_CUDACOREPLANESUMS_H

#include "CudaCorePlaneSweep.h"

#include <map>

namespace mlir {
namespace stencil {
namespace detail {

/// A point's plane offset and summed weight (index -1 where duplicate
/// offsets were summed), for the plane sums.
struct PlaneUse {
  int64_t dz;
  double weight;
  int64_t index;
};

/// The sweep of a linear one-step kernel that keeps 2 r_z + 1 partial sums
/// per output, one column per thread.
class PlaneSumsKernel : public StreamedPlanesKernel {
public:
  using StreamedPlanesKernel::StreamedPlanesKernel;

protected:
  void buildSweep() override;
  /// The loop both plane-sum sweeps run: `sums` partial sums per ring slot
  /// (an output's, or an output column's) carried through whole unrolled
  /// groups of iterations over the block's planes. Iteration u (input
  /// plane i) stages plane i, waits at the barrier and lets `addPlane` add
  /// it to the sums (`base`: the thread's first output in the plane's slot
  /// of shared memory); then the sums of output plane i - r_z, each through
  /// `finish`, restart at 0 and go to `store` with the plane's grid z where
  /// it is one of the block's planes (a uniform condition).
  void buildPlaneSumLoop(
      int64_t sums,
      function_ref<void(int64_t u, Value base, SmallVectorImpl<Value> &acc)>
          addPlane,
      function_ref<Value(Value)> finish,
      function_ref<void(ArrayRef<Value> values, Value z)> store);
  /// Sum j of ring slot `slot` (any integer, taken modulo the slots) in the
  /// carried sums of buildPlaneSumLoop.
  Value &planeSum(SmallVectorImpl<Value> &acc, int64_t j, int64_t slot) const;
};

/// The plane sums with vector columns: each thread W adjacent columns,
/// moved as whole vectors where the grid's rows allow them.
class VectorPlaneSumsKernel final : public PlaneSumsKernel {
public:
  using PlaneSumsKernel::PlaneSumsKernel;

private:
  void buildSweep() override;
  void stagePlane(Value planeZ, Value destBase) override;
  int64_t prefetchedValuesPerThread() const override;
  StagingValues prefetchLoads(Value planeZ) override;
  /// The vector plane sums' points by row dy, then column dx (the plane
  /// offsets with their weights, dz ascending), the columns' vector type
  /// and alignment, and whether planes are staged and outputs stored as
  /// whole vectors (vectorStaging).
  struct VectorPlaneSums {
    std::map<int64_t, std::map<int64_t, SmallVector<PlaneUse>>> rowsOfPoints;
    VectorType vectorType;
    llvm::MaybeAlign align;
    bool vectors;
  };
  /// The sum after the outputs' that carries kept lane l of output row k
  /// (edgeYX).
  int64_t vectorKeptSum(int64_t k, int64_t l) const;
  /// Adds iteration u's plane (`base`: the thread's first output in its
  /// ring slot) to the sums, row by row.
  void addVectorPlane(const VectorPlaneSums &v, int64_t u, Value base,
                      SmallVectorImpl<Value> &acc);
  /// One input row `iy` of addVectorPlane: the aligned vectors covering
  /// the columns its points read, each used element converted once, and
  /// their FMAs (and an edge block's kept lanes).
  void addVectorPlaneRow(const VectorPlaneSums &v, int64_t u, Value base,
                         int64_t iy, SmallVectorImpl<Value> &acc);
  /// Stores the outputs of plane `z`, row by row.
  void storeVectorPlane(const VectorPlaneSums &v, ArrayRef<Value> values,
                        Value z);
  /// Each column of an output row on its own (near the grid's x edges, or
  /// rows that are not a multiple of the width).
  void storeVectorColumns(ArrayRef<Value> row, SmallVectorImpl<Value> &coords,
                          Value x0);
  /// An edge block's output row k: its y and x checks come from before the
  /// sweep, z's is the plane's (uniform). A whole vector where the boundary
  /// writes any column, the halo's kept lanes among them with their input
  /// values.
  void storeEdgeVector(const VectorPlaneSums &v, ArrayRef<Value> values,
                       int64_t k, SmallVectorImpl<Value> &coords, Value x0);
  /// One vector where the boundary writes its first and last column (then
  /// every one between; in an interior block only z is checked), else
  /// column by column.
  void storeVectorOrColumns(const VectorPlaneSums &v, ArrayRef<Value> row,
                            SmallVectorImpl<Value> &coords, Value x0);
  /// Vector columns: the vector of one thread's columns, the staging
  /// vectors per thread of one plane, and their loads for plane `planeZ`
  /// (rows a multiple of the width, so that each vector lies in the grid
  /// or outside it as a whole; positions are the vectors' first elements,
  /// stored by stagingStores). stagePlane, prefetchLoads and
  /// prefetchedValuesPerThread take them while vectorStaging is set.
  VectorType columnVectorType() const {
    return VectorType::get({geo.vectorWidth}, elementType);
  }
  int64_t stagingVectorsPerThread() const;
  StagingValues vectorStagingLoads(Value planeZ);
  /// Staging vector `e` of a plane: the grid y and x of its first element
  /// (wrapped under periodic, else `inside` ANDed with whether it lies in
  /// the grid, as stagingCoord does).
  std::pair<Value, Value> stagingVectorCoords(Value e, Value &inside);
  /// Vector columns in a block at the grid's y or x edge: what does not
  /// change from plane to plane, computed once before the sweep (see "Edge
  /// blocks" in CudaCorePlaneSums.cpp). Per staging vector its index in a
  /// plane, y N_x + x (wrapped under periodic, clamped into the grid under
  /// halo), and whether it lies in the grid along y and x (Dirichlet only,
  /// else null); per output row k whether the boundary writes any of the
  /// row's columns; under halo, the lanes of a thread's vector that may be
  /// kept columns (x < r_x or x >= N_x - r_x) and whether they are.
  struct EdgeYX {
    SmallVector<Value> stagingIndex, stagingInside, rowStored, laneKept;
    SmallVector<int64_t> keptLanes;
  };
  EdgeYX computeEdgeYX();

  /// While building the vector plane sums of an edge block with whole
  /// vectors: the plane-invariant part of its checks (computeEdgeYX).
  std::optional<EdgeYX> edgeYX;
};

} // namespace detail
} // namespace stencil
} // namespace mlir

#endif // STENCIL_LIB_CONVERSION_STENCILTOCUDACORE_CUDACOREPLANESUMS_H
