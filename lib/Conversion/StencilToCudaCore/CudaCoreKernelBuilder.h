//===- CudaCoreKernelBuilder.h - The CUDA-core kernel builder ---*- C++ -*-===//
//
// Private to lib/Conversion/StencilToCudaCore: the base class of the
// builders of the kernel of `--convert-stencil-to-cuda-core`, what every
// schedule uses (the kernel's ABI values, thread and block indices, the
// staging of the tile or of a plane, the grid's indices and the boundary's
// predicates, the per-point body and the stores; CudaCoreKernelBuilder.cpp
// and CudaCorePointBody.cpp), and one derived class per schedule, which
// createCudaCoreKernelBuilder (CudaCoreKernel.cpp) picks from the tiling:
//   - StagedTileKernel (CudaCoreStagedTile.h): the whole tile in shared
//     memory;
//   - StreamedPlanesKernel (CudaCorePlaneSweep.h): the sweep along z of a
//     streamed 3-D block (CudaCoreTiling::stream), with its schedules
//     StreamedRingKernel (CudaCoreStreaming.h: rings of planes) and
//     PlaneSumsKernel, VectorPlaneSumsKernel (CudaCorePlaneSums.h: partial
//     sums of the planes, CudaCoreTiling::planeSums and vectorWidth);
//   - RowSweepKernel (CudaCoreRowStream.h): the row sweep of 2-D stencils
//     (CudaCoreTiling::rowStream()), and RowGroupsKernel
//     (CudaCoreRowGroups.h) its groups of rows (CudaCoreTiling::rowGroups()).
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_LIB_CONVERSION_STENCILTOCUDACORE_CUDACOREKERNELBUILDER_H
#define STENCIL_LIB_CONVERSION_STENCILTOCUDACORE_CUDACOREKERNELBUILDER_H

#include "CudaCoreKernel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

#include <map>
#include <memory>

namespace mlir {
namespace stencil {
namespace detail {

/// A thread's staged values (CudaCoreKernelBuilder::stagingLoads): each
/// with its position in the tile or plane and, where positions may lie past
/// its end, whether it lies in it (else null).
struct StagingValues {
  SmallVector<Value> values, valid, positions;
};

/// The global loads a thread issues before storing them to shared memory
/// while staging (stageTile).
inline constexpr int64_t kStagingLoadsInFlight = 8;

/// The register tiling along y of one column of a linear stencil (its
/// points that differ only in dy, `rows` mapping dy to an entry): `count`
/// consecutive points along y read the input rows iy = dyMin .. count - 1 +
/// dyMax (relative to the first point) once each, and point k uses row iy
/// through dy = iy - k. Calls read(iy, uses) for every row some point uses,
/// rows ascending, with the pairs (k, the entry of dy = iy - k), k
/// ascending.
template <typename Entry, typename Read>
void forEachColumnRow(const std::map<int64_t, Entry> &rows, int64_t count,
                      Read read) {
  int64_t dyMin = rows.begin()->first, dyMax = rows.rbegin()->first;
  for (int64_t iy = dyMin; iy < count + dyMax; ++iy) {
    SmallVector<std::pair<int64_t, const Entry *>> uses;
    for (int64_t k = 0; k < count; ++k)
      if (auto it = rows.find(iy - k); it != rows.end())
        uses.push_back({k, &it->second});
    if (!uses.empty())
      read(iy, ArrayRef<std::pair<int64_t, const Entry *>>(uses));
  }
}

/// A point of a 2-D linear stencil with its summed weight (point index -1

/// Bytes of a vector of `type` (its alignment in the vector columns' loads
/// and stores).
inline int64_t getVectorBytes(VectorType type) {
  return type.getNumElements() * type.getElementTypeBitWidth() / 8;
}

/// The shared-memory index of the point `offset` away from point `k` of a
/// thread's (or a work unit's) points.
using SmemIndexFn = function_ref<Value(int64_t k, ArrayRef<int64_t> offset)>;
/// The same with the offset in index values (one per dimension, outermost
/// first), for the loop form of a large stencil (computeLinearLoop).
using SmemLoopIndexFn = function_ref<Value(int64_t k, ArrayRef<Value> offset)>;

/// Builds the gpu.func of one stencil op: build() creates the kernel and
/// its thread and block indices, the derived class of the schedule its body
/// (buildBody).
class CudaCoreKernelBuilder {
public:
  CudaCoreKernelBuilder(const CudaCoreKernelSpec &spec,
                        const CudaCoreTiling &tiling)
      : spec(spec), linear(spec.linear), geo(tiling),
        elementType(spec.elementType), boundary(spec.boundary),
        boundaryValue(spec.boundaryValue),
        accType(elementType.isF64()
                    ? Type(Float64Type::get(spec.loc.getContext()))
                    : Type(Float32Type::get(spec.loc.getContext()))) {}
  virtual ~CudaCoreKernelBuilder() = default;

  gpu::GPUFuncOp build(OpBuilder &moduleBuilder, StringRef name);

protected:
  /// The schedule's ops, between the block's origin and the gpu.return.
  virtual void buildBody() = 0;

  Value cst(int64_t v) { return arith::ConstantIndexOp::create(*b, v); }
  Value add(Value x, Value y) { return arith::AddIOp::create(*b, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(*b, x, y); }
  Value addConst(Value x, int64_t c) { return c ? add(x, cst(c)) : x; }

  /// Step 1: stages the tile; or, with `planeZ`, the (y, x) plane of local
  /// z `planeZ` of a streaming kernel at shared-memory index `destBase`.
  void stageTile(Value planeZ = {}, Value destBase = {});
  /// The values of `count` staging positions first + j * threads (j <
  /// count) of the shared tile, or of plane `planeZ` of a streamed block,
  /// from the grid (outside it: the boundary's value); with `guard`,
  /// positions at or past the tile's end are skipped (their value is
  /// unused). stagingStores writes them at destBase + position (a vector
  /// whole).
  StagingValues stagingLoads(Value first, int64_t count, bool guard,
                             Value planeZ);
  void stagingStores(const StagingValues &staged, Value destBase);
  /// The grid coordinate of local position `local` of the tile along
  /// dimension `d`: wrapped (periodic), or with `inside` and-ed with its
  /// being in the grid (the other boundaries).
  Value stagingCoord(int64_t d, Value local, Value &inside);
  /// in[linear] where `inside` (periodic: where `valid`, or always if it is
  /// null, as the coordinates are wrapped into the grid), else the value
  /// outside the grid; with `vectorType`, the aligned vector starting there
  /// (else the value outside in every lane).
  Value loadElement(Value linear, Value inside, Value valid,
                    VectorType vectorType = {});
  /// The linear index of grid point `coords` (outermost first); in the
  /// streamed 3-D kernels of 16- and 32-bit grids, an opaque plane start
  /// plus the index in the plane.
  Value gridIndex(ArrayRef<Value> coords);
  /// Whether plane starts are hidden from the optimizer (gridIndex).
  bool hasOpaquePlaneStarts() const;
  /// The linear index of the first point of plane `z` of a 3-D grid,
  /// opaque as in gridIndex.
  Value planeStart(Value z);
  /// The local position of the first point of work unit `unit` of `step`
  /// (CudaCoreTiling::unitOrigin).
  SmallVector<Value> unitOrigin(int64_t step, Value unit);
  /// A loop of the threads over `units` work units of `step`, round-robin,
  /// the insertion point moved into its body (the caller's InsertionGuard
  /// puts it back): the unit's origin (unitOrigin).
  SmallVector<Value> beginUnitLoop(int64_t step, int64_t units);
  /// An scf.for over [0, count) carrying `inits`, the insertion point moved
  /// to the start of its body (the caller's InsertionGuard puts it back).
  scf::ForOp beginCountedLoop(Value count, ValueRange inits);
  /// The grid coordinates of the thread's output `k` (< outputsPerThread),
  /// outermost first.
  SmallVector<Value> outputCoords(int64_t k);
  /// The grid coordinates of local position `local` of the shared tile.
  SmallVector<Value> gridCoords(ArrayRef<Value> local);
  /// Whether a one-step launch writes the point at `coords` (which may lie
  /// outside the grid, in a fused step's region): the interior
  /// r_d <= coord_d < N_d - r_d (halo), every grid point (the others). A
  /// fused periodic step computes every position of its region instead.
  /// With `dims` = [first, end), only those dimensions are checked.
  Value isWritten(ArrayRef<Value> coords,
                  std::pair<int64_t, int64_t> dims = {0, -1});
  /// Whether the last step stores the output at `coords`: isWritten, and in
  /// band mode outside the exact region.
  Value isStored(ArrayRef<Value> coords);
  /// The negation of an i1 `condition`.
  Value logicalNot(Value condition);
  /// Whether every coords_d lies in [margin_d, N_d - margin_d), for d in
  /// `dims` = [first, end) (end -1: the rank).
  Value isWithinAll(ArrayRef<Value> coords, ArrayRef<int64_t> margins,
                    std::pair<int64_t, int64_t> dims = {0, -1});
  /// `value` rounded to the element type.
  Value toElementType(Value value);
  /// The values of `count` points from shared memory (`index`). A linear
  /// stencil of more than kMaxUnrolledPoints points is summed in a loop
  /// whose shared-memory index is `loopIndex`, by default index(k, 0) plus
  /// the offset times geo.smemStrides (every index linear in the offset).
  SmallVector<Value> compute(int64_t count, SmemIndexFn index,
                             SmemLoopIndexFn loopIndex = {});
  /// Whether computeLinear sums in a loop (more than kMaxUnrolledPoints).
  bool sumsInLoop() const {
    return linear && linear->getNumPoints() > kMaxUnrolledPoints;
  }
  /// Stores outputs `first`, `first + 1`, ... of the thread; with `z`, at
  /// that grid z instead of the tile's (a streamed plane).
  void storeOutputs(int64_t first, ArrayRef<Value> values, Value z = {});
  /// A fused step's new value at local position `local`: `value` rounded to
  /// the element type where the boundary computes the point (isWritten),
  /// else the point's value in the buffer it reads, at `oldIndex` (every
  /// position under `periodic`, whose old value is then not read).
  Value nextStepValue(Value value, ArrayRef<Value> local,
                      function_ref<Value()> oldIndex);
  /// Weight `w` of point `i` of a linear stencil in the accumulation type:
  /// a load of entry i of spec.weightsGlobal, or the immediate w (also for
  /// i < 0, a sum of duplicate points). LLVM may hoist the loads out of a
  /// loop; the cubin is the same either way: ptxas on sm_90 takes no FP64
  /// operand from the constant bank and moves each weight through a uniform
  /// register, reloading those that do not fit (bench/NOTES.md, "The
  /// weights in SASS").
  Value weightValue(int64_t i, double w);
  /// The linear stencil's points by offset (lexicographic, outermost
  /// first), each with its weight and point index; points sharing an
  /// offset are one entry, their weights added in point order, index -1.
  std::map<SmallVector<int64_t>, std::pair<double, int64_t>>
  summedPoints() const;
  /// An empty `asm volatile` reading `values` (see computeLinear).
  void emitOrderingFence(ValueRange values);

  const CudaCoreKernelSpec &spec;
  /// The weights of a linear stencil (none for a general body).
  const std::optional<LinearStencil> &linear;
  const CudaCoreTiling &geo;
  Type elementType;
  BoundaryKind boundary;
  double boundaryValue;
  Type accType;

  /// While building the sweep of a block whose (y, x) tile grown by the
  /// halo t r lies in the grid (StreamedPlanesKernel): every staged
  /// position and every point a step computes is then in the grid's
  /// interior along y and x (halo) or in the grid (the others), so those
  /// checks are left out.
  bool interiorYX = false;

  std::optional<ImplicitLocOpBuilder> b;
  Value in, out, smem;
  SmallVector<Value> sizes;  // N_d, outermost first
  SmallVector<Value> origin; // first output of the block, outermost first
  Value tid, tx, ty;

private:
  /// The first output of a band-mode block (BandTiling::decode in IR).
  SmallVector<Value> bandBlockOrigin();
  /// Step 3 of a linear stencil: register tiling along y (`count`
  /// consecutive points; independent points in 1-D).
  SmallVector<Value> computeLinear(int64_t count, SmemIndexFn index,
                                   SmemLoopIndexFn loopIndex);
  /// The loop form of computeLinear: an scf.for over the points in the
  /// order the unrolled form adds them to each output (the pattern's in
  /// 1-D; columns, then dy ascending, duplicates summed, above), each
  /// iteration reading its point's offset and weight from constant tables
  /// (pointTables) and adding one FMA to each of the `count` sums: the same
  /// products added in the same order, so the same values bit for bit.
  SmallVector<Value> computeLinearLoop(int64_t count, SmemLoopIndexFn index);
  /// The loop form's tables in the kernel's gpu.module, built once per
  /// kernel: the points' offsets (and point index) as i32, and, unless the
  /// weights come from spec.weightsGlobal, their weights in the
  /// accumulation type; both `.global` constants.
  struct PointTables {
    int64_t numEntries = 0;
    std::string offsets, weights;
  };
  const PointTables &pointTables();
  /// Step 3 of a stencil.apply: its body, once per point.
  SmallVector<Value> computeApply(ApplyOp apply, int64_t count,
                                  SmemIndexFn index);

  /// The loop form's tables, once built (pointTables).
  std::optional<PointTables> tables;
  /// The kernel's name (the tables' names start with it).
  std::string kernelName;
};

/// The builder of the schedule `tiling` names (CudaCoreKernel.cpp).
std::unique_ptr<CudaCoreKernelBuilder>
createCudaCoreKernelBuilder(const CudaCoreKernelSpec &spec,
                            const CudaCoreTiling &tiling);

} // namespace detail
} // namespace stencil
} // namespace mlir

#endif // STENCIL_LIB_CONVERSION_STENCILTOCUDACORE_CUDACOREKERNELBUILDER_H
