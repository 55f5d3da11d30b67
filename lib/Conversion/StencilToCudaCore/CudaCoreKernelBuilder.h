//===- CudaCoreKernelBuilder.h - The CUDA-core kernel builder ---*- C++ -*-===//
//
// Private to lib/Conversion/StencilToCudaCore: the class that builds the
// kernel of `--convert-stencil-to-cuda-core`. Its staged schedule (the whole
// tile in shared memory) is CudaCoreKernel.cpp, its streaming schedule (a
// plane sweep through rings, CudaCoreTiling::stream) CudaCoreStreaming.cpp,
// with partial sums of the planes (CudaCoreTiling::planeSums)
// CudaCorePlaneSums.cpp, the row sweep of 2-D stencils CudaCoreRowStream.cpp.
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
/// The most staging values per thread that a streamed sweep loads one plane
/// ahead (CudaCoreStreaming.cpp): registers held through the iteration.
inline constexpr int64_t kMaxPrefetchedStagingValues = 16;

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
/// where duplicate offsets were summed), for the row sweeps.
struct RowPoint {
  int64_t dy, dx;
  double weight;
  int64_t index;
};

/// A point's plane offset and summed weight (index -1 where duplicate
/// offsets were summed), for the plane sums.
struct PlaneUse {
  int64_t dz;
  double weight;
  int64_t index;
};

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

/// Builds the gpu.func of one stencil op.
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

  gpu::GPUFuncOp build(OpBuilder &moduleBuilder, StringRef name);

private:
  Value cst(int64_t v) { return arith::ConstantIndexOp::create(*b, v); }
  Value add(Value x, Value y) { return arith::AddIOp::create(*b, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(*b, x, y); }
  Value addConst(Value x, int64_t c) { return c ? add(x, cst(c)) : x; }

  /// The first output of a band-mode block (BandTiling::decode in IR).
  SmallVector<Value> bandBlockOrigin();
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
  /// Prefetched staging of a streamed sweep (spec.prefetchPlanes, one step
  /// per launch): the staging values per thread of one plane (the same
  /// positions and guards for every plane), or 0 where the sweep stages
  /// each plane in its iteration (fused steps, or more than
  /// kMaxPrefetchedStagingValues per thread).
  int64_t prefetchedValuesPerThread() const;
  /// The staging loads of plane `planeZ` for the prefetch.
  StagingValues prefetchLoads(Value planeZ);
  /// Before a prefetching sweep: the values of planes 0 .. d - 1 (d =
  /// spec.prefetchDistance), the initial `pending` of stagePrefetched.
  SmallVector<Value> prefetchFirstPlanes();
  /// Iteration i of a prefetching sweep: loads plane i + d, then stores
  /// plane i's values (the first of `pending`, the values of planes i .. i
  /// + d - 1) at `destBase()`, and leaves planes i + 1 .. i + d in
  /// `pending`.
  void stagePrefetched(Value i, function_ref<Value()> destBase,
                       SmallVectorImpl<Value> &pending);
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
  /// Steps 1 .. t - 1 of a fused kernel.
  void computeIntermediateStep(int64_t step);
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
  /// The shared-memory index of the thread's output `k` plus `offset` in the
  /// buffer the last step reads.
  Value smemIndex(int64_t k, ArrayRef<int64_t> offset);
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
  SmallVector<Value> computeLinear(int64_t count, SmemIndexFn index,
                                   SmemLoopIndexFn loopIndex);
  /// Whether computeLinear sums in a loop (more than kMaxUnrolledPoints).
  bool sumsInLoop() const {
    return linear && linear->getNumPoints() > kMaxUnrolledPoints;
  }
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
  SmallVector<Value> computeApply(ApplyOp apply, int64_t count,
                                  SmemIndexFn index);
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

  // The streaming schedule (CudaCoreStreaming.cpp).
  /// The sweep over the block's planes: staging, steps, stores; twice, for
  /// blocks whose (y, x) tile and halo lie in the grid (interiorYX) and for
  /// the others.
  void buildStream();
  void buildSweep();
  /// The first element of the ring slot of local plane `localZ` of `level`
  /// (CudaCoreTiling::ringOffset).
  Value ringBase(int64_t level, Value localZ);
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
  /// The sweep of a linear one-step kernel that keeps 2 r_z + 1 partial
  /// sums per output (CudaCoreTiling::planeSums, CudaCorePlaneSums.cpp).
  void buildPlaneSumSweep();
  /// The plane sums with vector columns (CudaCoreTiling::vectorWidth > 1).
  void buildVectorPlaneSumSweep();
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
  /// stored by stagingStores). stageTile, prefetchLoads and
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

  // The row streaming schedule of 2-D linear stencils
  // (CudaCoreRowStream.cpp), and its row groups (CudaCoreRowGroups.cpp).
  /// Row streaming: column j of the thread (local column tid + j threads):
  /// its staging coordinate (wrapped under periodic) and whether it is in the
  /// grid, the raw grid x, whether it is in the grid, whether the boundary
  /// computes its points (null: always), whether it is one of the block's
  /// own columns (local [t r_x, t r_x + T_x)), whether its outputs are
  /// stored, and its element in a shared row.
  struct RowColumn {
    Value insideX, stageX, gridX, inGrid, written, own, stored, slot;
  };
  RowColumn rowColumn(int64_t j);
  void buildRowStream();
  /// The per-row sweep of one block: the interior one (no boundary checks)
  /// or the general one, which any block may take (the row groups' edge
  /// blocks do).
  void buildRowStreamSweep(bool interior);
  /// The per-row sweep's state: its points in (dy, dx) order, the thread's
  /// `columns` columns, the block's rows, and what its loop carries: the
  /// parity's shared offsets (written, read) and, per column, the rows
  /// loaded ahead (row i in slot i mod unroll), the partial sums
  /// (level-major, sum of row o at slot o mod `slots`) and each level's
  /// value of the previous iteration (levels 0 .. t - 1; the centre of the
  /// next level's row).
  struct RowSweep {
    bool interior;
    int64_t steps, slots, columns, unroll;
    SmallVector<RowPoint> points;
    SmallVector<RowColumn> cols;
    Value zeroAcc, rows;
    Value writeOffset, readOffset;
    SmallVector<Value> ahead, acc, previous;
    int64_t aheadIndex(int64_t j, int64_t u) const { return j * unroll + u; }
    int64_t accIndex(int64_t j, int64_t level, int64_t slot) const {
      return (j * steps + level - 1) * slots + slot;
    }
    int64_t previousIndex(int64_t j, int64_t level) const {
      return j * steps + level;
    }
    int64_t slotOf(int64_t x) const { return ((x % slots) + slots) % slots; }
  };
  /// The per-row sweep's rows (C, fewer in the last block along y) in
  /// `s.rows`; returns its number of unrolled groups of iterations.
  Value rowSweepGroups(RowSweep &s);
  /// The level-0 value of local row `local` in column `col`.
  Value loadSweepRow(const RowSweep &s, Value local, const RowColumn &col);
  /// Iteration `u` of an unrolled group (local input row `i`): row i into
  /// shared memory, row i + unroll loaded ahead, then every level.
  void rowSweepIteration(RowSweep &s, int64_t u, Value i);
  /// Level `level` of iteration `u` adds the row q = u - 1 - (level - 1)
  /// (r_y + 1) it receives to its sums (the thread's columns one point
  /// after the other).
  void addRowSweepPoints(RowSweep &s, int64_t u, int64_t level);
  /// Level `level` of iteration `u` (input row `i`): output row q - r_y is
  /// complete; stored in the level's buffer (`values`: its value for the
  /// next iteration) or, for the last level, in `out`; its slot restarts
  /// at zero.
  void completeRowSweepRow(RowSweep &s, int64_t u, int64_t level, Value i,
                           SmallVectorImpl<Value> &values);

  void buildRowGroups();
  /// The grouped sweep's state: the points by dx phase, each phase's in
  /// (dy, dx) order, and the offsets dx each phase reads; the thread's
  /// column and `base`, its slot through an opaque move once per group
  /// (see rowGroupElement); what the loop carries: the pending copies'
  /// token (`async`), the partial sums (level-major, `slots` per level).
  struct RowGroupSweep {
    SmallVector<SmallVector<RowPoint>> phasePoints;
    SmallVector<SmallVector<int64_t>> phaseOffsets;
    RowColumn col;
    Value zeroAcc, base, rows, token;
    bool async;
    int64_t slots;
    SmallVector<Value> acc;
    int64_t accIndex(int64_t level, int64_t slot) const {
      return (level - 1) * slots + slot;
    }
    int64_t slotOf(int64_t x) const { return ((x % slots) + slots) % slots; }
  };
  /// The points and offsets of each phase (RowGroupSweep).
  void rowGroupPhases(RowGroupSweep &s);
  /// The shared element of column dx of row j of a group buffer.
  Value rowGroupElement(const RowGroupSweep &s, int64_t level, int64_t parity,
                        int64_t j, int64_t dx);
  /// The cp.async copies of group `g`'s rows into input buffer `parity`
  /// (none read where `valid` is false); returns the group's token.
  Value copyRowGroup(const RowGroupSweep &s, Value g, int64_t parity,
                     Value valid);
  /// The grouped sweep of an interior block: C rows, every load in the
  /// grid, every point computed.
  void buildRowGroupSweep(RowGroupSweep &s);
  /// Level 0 of group `g` (first local row `q0`): its rows in buffer `h`.
  void stageRowGroup(RowGroupSweep &s, int64_t h, Value g, Value q0);
  /// Phase `p` of level `level` on the group in buffer `h`: the phase's
  /// weights, then each row's FMAs.
  void addRowGroupPhase(RowGroupSweep &s, int64_t h, int64_t level, int64_t p);
  /// Rows q0 - level r_y + j of level `level` are complete: stored, their
  /// slots restarted at 0.
  void completeRowGroupRows(RowGroupSweep &s, int64_t h, int64_t level,
                            Value q0);
  /// Row streaming: shared memory set to zero (the first iterations read
  /// rows no level has written yet, and the r_x pads of each row), then a
  /// barrier.
  void zeroRowSharedMemory();
  /// Row streaming: grid y of local row `local`.
  Value rowGridY(Value local);
  /// Row streaming: whether the boundary computes the points of local row
  /// `local` (null: every one; an interior sweep's rows all are).
  Value rowWrittenY(Value local, bool interior);
  /// Row streaming: a completed point's value in the element type: `sum`
  /// where the boundary computes it (`rowWritten` and the column's), else
  /// the kept value (Dirichlet: the boundary value; halo: the input's,
  /// loaded where in the grid).
  Value completedRowValue(Value sum, Value local, Value rowWritten,
                          const RowColumn &col, bool interior);
  /// Row streaming: stores the last level's `value` of local row `local` in
  /// `out` if it is one of the block's `rows` own rows and the column's.
  void storeRowOutput(Value value, Value local, Value rows, Value rowWritten,
                      const RowColumn &col, bool interior);

  const CudaCoreKernelSpec &spec;
  /// The weights of a linear stencil (none for a general body).
  const std::optional<LinearStencil> &linear;
  const CudaCoreTiling &geo;
  Type elementType;
  BoundaryKind boundary;
  double boundaryValue;
  Type accType;

  /// While building the sweep of a block whose (y, x) tile grown by the
  /// halo t r lies in the grid: every staged position and every point a
  /// step computes is then in the grid's interior along y and x (halo) or
  /// in the grid (the others), so those checks are left out.
  bool interiorYX = false;
  /// While building a plane-sums sweep with vector columns on a grid whose
  /// rows are a multiple of the width: planes are staged, and outputs
  /// stored, as whole vectors (else element by element).
  bool vectorStaging = false;
  /// While building the vector plane sums of an edge block with whole
  /// vectors: the plane-invariant part of its checks (computeEdgeYX).
  std::optional<EdgeYX> edgeYX;
  /// The loop form's tables, once built (pointTables).
  std::optional<PointTables> tables;
  /// The kernel's name (the tables' names start with it).
  std::string kernelName;

  std::optional<ImplicitLocOpBuilder> b;
  Value in, out, smem;
  SmallVector<Value> sizes;  // N_d, outermost first
  SmallVector<Value> origin; // first output of the block, outermost first
  Value tid, tx, ty;
};

} // namespace detail
} // namespace stencil
} // namespace mlir

#endif // STENCIL_LIB_CONVERSION_STENCILTOCUDACORE_CUDACOREKERNELBUILDER_H
