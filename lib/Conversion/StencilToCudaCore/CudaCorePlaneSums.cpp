//===- CudaCorePlaneSums.cpp - Partial sums of streamed 3-D planes --------===//
//
// The plane sweep of a streamed 3-D linear stencil with one step per launch
// (PlaneSumsKernel, with vector columns VectorPlaneSumsKernel, below; the
// block split and the staging are CudaCorePlaneSweep.cpp; `plane-sums=true`,
// CudaCoreTiling::planeSums; CudaCoreTilingTest's
// PlaneSums3D runs the schedule on the CPU). AN5D (Matsumura et al., CGO 2020,
// sections 3.1-3.3) streams the outermost dimension with the values along it in
// registers: here each thread keeps, for each of its `outputs` outputs
// along y, P = 2 r_z + 1 partial sums, one per output plane that the input
// plane in shared memory feeds. With weights w(dz, dy, dx), iteration i
// (input plane i of the block's virtual tile, local output planes
// p = i - dz):
//
//   stage input plane i in slot i mod 2 (with prefetch-planes, its values
//   loaded in iteration i - d, d = prefetch-distance); barrier
//   for dx ascending, for input rows iy ascending (relative to the thread's
//   first output row), v = plane_i[y0 + iy][x + dx] (one shared load):
//     acc[k][(i - dz) mod P] += w(dz, iy - k, dx) v      for every k, dz
//   output plane i - r_z is complete: stored if it is one of the block's
//   planes, and its sums restart at 0.
//
// Each in-plane value is read from shared memory once for the 2 r_z + 1
// output planes it feeds, where the ring (CudaCoreStreaming.cpp) reads it
// once per output plane: Box-3D27P with 4 outputs per thread loads 18
// values per plane instead of 54. Each output's sum runs over its points
// dz-major (the planes arrive in order), then dx, then dy, one FMA each
// from 0: the order of the staged and the ring kernels' register tiling
// (column by column), so the results are the same bit for bit. The loop is
// unrolled by P (CudaCoreTiling::planeSumUnroll), so that the slots
// (i - dz) mod P are static, and runs whole unrolled groups: the planes past
// the block's last are staged (predicated at the grid's edge) and summed but
// never stored. Where P groups of the plane's FMAs would make a large kernel
// (CudaCoreTiling::kMaxUnrolledPlaneSumTerms: a radius of 12 along z), the
// group is U < P iterations and the slots are those of the plane's index
// within the group, (u - dz) mod P: the group's sums are yielded rotated by
// U, the slot s of the next group being slot (s + U) mod P of this one, the
// same sums in the same order. The
// two staging slots need one barrier per plane: slot i mod 2 was last read
// in iteration i - 2, a barrier before.
//
// With prefetch-planes the staging values of plane i are loaded in
// iteration i - d (d = prefetch-distance) and carried in the loop's
// iter_args after the sums, as in the ring's sweep.
//
// Off by default: on an H100 the sums' registers cost more occupancy than
// the saved shared loads give back for f32 and f64 grids; with the
// prefetch they are the fastest f16 Box-3D27P kernel and tie the ring on
// f16 Heat-3D (bench/NOTES.md, "Plane sums", "Prefetch distance").
//
//===----------------------------------------------------------------------===//

#include "CudaCorePlaneSums.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <map>

using namespace mlir;
using namespace mlir::stencil;
using namespace mlir::stencil::detail;

void PlaneSumsKernel::buildSweep() {
  assert(linear && geo.planeSums && "plane sums of a linear 3-D stencil");
  int64_t outputs = geo.outputs, strideY = geo.smemStrides[1];

  // The points by column dx, then row dy: the plane offsets dz with their
  // weights, dz ascending.
  std::map<int64_t, std::map<int64_t, SmallVector<PlaneUse>>> columns;
  for (const auto &[offset, weight] : summedPoints())
    columns[offset[2]][offset[1]].push_back(
        {offset[0], weight.first, weight.second});

  buildPlaneSumLoop(
      outputs,
      [&](int64_t u, Value base, SmallVectorImpl<Value> &acc) {
        for (const auto &[dx, rowsOfColumn] : columns) {
          forEachColumnRow(
              rowsOfColumn, outputs,
              [&](int64_t iy,
                  ArrayRef<std::pair<int64_t, const SmallVector<PlaneUse> *>>
                      uses) {
                Value v = memref::LoadOp::create(
                    *b, smem, ValueRange{addConst(base, iy * strideY + dx)});
                if (v.getType() != accType)
                  v = arith::ExtFOp::create(*b, accType, v);
                for (auto [k, planeUses] : uses)
                  for (const PlaneUse &use : *planeUses) {
                    Value &sum = planeSum(acc, k, u - use.dz);
                    sum = LLVM::FMAOp::create(
                        *b, weightValue(use.index, use.weight), v, sum);
                  }
              });
          // The column's loads and FMAs before the next column's
          // (emitOrderingFence, as in the staged kernel's register tiling).
          emitOrderingFence(acc);
        }
      },
      /*finish=*/[](Value sum) { return sum; },
      [&](ArrayRef<Value> values, Value z) {
        storeOutputs(/*first=*/0, values, z);
      });
}

Value &PlaneSumsKernel::planeSum(SmallVectorImpl<Value> &acc, int64_t j,
                                 int64_t slot) const {
  int64_t slots = geo.planeSumSlots();
  return acc[j * slots + ((slot % slots) + slots) % slots];
}

void PlaneSumsKernel::buildPlaneSumLoop(
    int64_t sums,
    function_ref<void(int64_t, Value, SmallVectorImpl<Value> &)> addPlane,
    function_ref<Value(Value)> finish,
    function_ref<void(ArrayRef<Value>, Value)> store) {
  int64_t rz = geo.radii[0], haloZ = geo.halo[0];
  int64_t slots = geo.planeSumSlots(), unroll = geo.planeSumUnroll();
  int64_t outputs = geo.outputs, strideY = geo.smemStrides[1];
  int64_t width = geo.vectorWidth;

  Value zeroAcc = arith::ConstantOp::create(*b, b->getZeroAttr(accType));
  // The block's planes (`planes`, fewer in the last block along z), and
  // the whole unrolled groups of iterations over them.
  Value maxRows = cst(geo.planes);
  Value left = arith::SubIOp::create(*b, sizes[0], origin[0]);
  Value rows = arith::MinUIOp::create(*b, left, maxRows);
  Value unrollCst = cst(unroll);
  Value lastRow = addConst(rows, 2 * haloZ + unroll - 1);
  Value groups = arith::DivUIOp::create(*b, lastRow, unrollCst);
  // The thread's first output (y, x) in a plane of the ring; with vector
  // columns a multiple of the width.
  Value xBase = width == 1 ? tx : mul(tx, cst(width));
  Value yBase = mul(ty, cst(outputs * strideY));
  Value yxBase = add(yBase, xBase);
  yxBase = addConst(yxBase, geo.halo[1] * strideY + geo.halo[2]);

  // With prefetch-planes, the staging values of planes i .. i + d - 1 (d =
  // prefetch-distance) ride in the loop's iter_args after the sums, as in
  // the ring's sweep (CudaCoreStreaming.cpp); the unrolled iterations pass
  // them on statically.
  bool prefetch = prefetchedValuesPerThread() > 0;
  SmallVector<Value> initial(sums * slots, zeroAcc);
  if (prefetch)
    llvm::append_range(initial, prefetchFirstPlanes());
  OpBuilder::InsertionGuard guard(*b);
  auto loop = beginCountedLoop(groups, initial);
  ValueRange carried = loop.getRegionIterArgs();
  SmallVector<Value> acc(carried.begin(), carried.begin() + sums * slots);
  SmallVector<Value> pending(carried.begin() + sums * slots, carried.end());
  // The induction variable through an opaque move, so that the addresses
  // derived from it are recomputed from one base (as in the row sweep)
  // instead of each carried in a register by loop strength reduction.
  Value unrollStep = cst(unroll);
  Value group = hideFromOptimizer(*b, loop.getInductionVar());
  Value groupFirst = mul(group, unrollStep);

  for (int64_t u = 0; u < unroll; ++u) {
    Value i = addConst(groupFirst, u);
    Value slotBase = ringBase(/*level=*/0, i);
    if (prefetch)
      stagePrefetched(i, [&] { return slotBase; }, pending);
    else
      stagePlane(i, slotBase);
    gpu::BarrierOp::create(*b);
    addPlane(u, add(slotBase, yxBase), acc);

    // Local output plane i - r_z is complete; it is one of the block's
    // planes where haloZ <= i - r_z < haloZ + rows (a uniform condition).
    SmallVector<Value> values;
    for (int64_t j = 0; j < sums; ++j) {
      Value &done = planeSum(acc, j, u - rz);
      values.push_back(finish(done));
      done = zeroAcc;
    }
    Value localZ = addConst(i, -rz);
    Value ownEnd = addConst(rows, haloZ);
    Value beforeEnd =
        arith::CmpIOp::create(*b, arith::CmpIPredicate::ult, localZ, ownEnd);
    Value ownStart = cst(haloZ);
    Value afterStart =
        arith::CmpIOp::create(*b, arith::CmpIPredicate::uge, localZ, ownStart);
    Value own = arith::AndIOp::create(*b, afterStart, beforeEnd);
    auto ifOwn = scf::IfOp::create(*b, own, /*withElseRegion=*/false);
    b->setInsertionPointToStart(ifOwn.thenBlock());
    store(values, addConst(add(origin[0], localZ), -haloZ));
    b->setInsertionPointAfter(ifOwn);
  }
  // The next group starts `unroll` planes later: its slot s is this
  // group's slot (s + unroll) mod P (no move where P divides the group).
  SmallVector<Value> yielded;
  for (int64_t j = 0; j < sums; ++j)
    for (int64_t s = 0; s < slots; ++s)
      yielded.push_back(acc[j * slots + (s + unroll) % slots]);
  llvm::append_range(yielded, pending);
  scf::YieldOp::create(*b, yielded);
}

//===----------------------------------------------------------------------===//
// Vector columns
//===----------------------------------------------------------------------===//
//
// With `vector-width` W > 1 (CudaCoreTiling::vectorWidth) thread x owns the
// W adjacent columns W x .. W x + W - 1 of its rows, and the halo along x is
// r_x rounded up to a multiple of W, so a plane's rows, and each thread's
// columns, start on multiples of W elements in shared memory. Blocks of the
// interior sweep (their tile and halo in the grid; rows a multiple of W, so
// every vector of the grid is aligned too) stage a plane as its
// (T_y + 2 h_y) (T_x + 2 h_x) / W vectors, vector e of thread
// e mod threads, one global load and one shared store each (prefetched as
// the scalar staging is), and store an output row's W values as one vector.
// The other blocks stage element by element into the same layout and store
// each output on its own. In both, iteration i reads input row iy of its
// outputs' neighbourhood as the aligned vectors covering columns dx_min ..
// W - 1 + dx_max (one load for r_x = 0, three for 0 < r_x <= W), converts
// each element it uses once, and adds
//
//   acc[k][c][(i - dz) mod P] += w(dz, iy - k, dx) v_i[iy][c + dx]
//
// for every output k fed by the row, dx ascending, every dz and column c.
// Per plane the rows come in order, so each output sums its points
// dz-major, then by dy, then dx: the ring sums dz, dx, dy, so the results
// differ by rounding only. An f16 Box-3D27P with W = 4 issues per plane and
// thread (2 outputs along y, 8 outputs) 12 vector shared loads where one
// column per thread issues 12 scalar ones per 2 outputs, and a quarter of
// the global loads and stores.
//
// Edge blocks (computeEdgeYX). On grids whose rows are a multiple of W, the
// blocks at the grid's y and x edges (at 768^3 with 128-column tiles a
// third of them, two thirds for Heat-3D's 256 columns) run the same sweep.
// Their staging positions and output columns do not change from plane to
// plane, so their checks along y and x are computed once, before it: each
// staging vector's index in a plane (wrapped under periodic; under halo
// clamped into the grid, since what the vectors outside feed is never
// stored; under Dirichlet with an in-grid flag, outside: the boundary
// value) and whether each output row has a written column. A plane then
// costs such a block what it costs an interior one plus the z check of its
// stores. The store is a whole vector; under halo, where r_x is not a
// multiple of W, the vectors at the grid's x edges hold kept columns
// (x < r_x or x >= N_x - r_x, lanes < r_x mod W or >= W - r_x mod W),
// which must keep their input value. That value is the row's own element
// at dz = dy = dx = 0: iteration i, which converts it anyway, writes it to
// an extra sum of ring slot i, completed with output plane i at iteration
// i + r_z, and the store selects it for the kept lanes:
//
//   kept[k][l][i mod P] = v_i[k][l],   out[k][l] = kept_l ? kept[k][l] : acc
//
// (exact: f16 -> f32 -> f16 round trips). Measured on an H100 (bench/NOTES.md,
// "Edge blocks"): the edge loop fell from 1174 to 989 instructions per
// three planes (the interior's: 980), Box-3D27P went from 562 to 619
// GStencil/s and Heat-3D from 612 to 692, bit for bit the same outputs.
// Two other forms lost: per-column stores for the threads holding a kept
// column (577 and 638: those warps diverge at every plane), and whole
// vectors with the kept columns copied back from the input after the sweep
// (585 and 600).

int64_t VectorPlaneSumsKernel::stagingVectorsPerThread() const {
  return llvm::divideCeil(geo.planeSize() / geo.vectorWidth, geo.threads());
}

void VectorPlaneSumsKernel::stagePlane(Value planeZ, Value destBase) {
  if (vectorStaging) {
    stagingStores(vectorStagingLoads(planeZ), destBase);
    return;
  }
  StreamedPlanesKernel::stagePlane(planeZ, destBase);
}

int64_t VectorPlaneSumsKernel::prefetchedValuesPerThread() const {
  // Vector columns: whole vectors where the grid's rows allow them, as many
  // as hold kMaxPrefetchedStagingValues registers (a vector of B bytes
  // ceil(B / 4)); staged element by element, none (the scalar prefetch of
  // the wider plane cost 70 registers more).
  int64_t perThread = stagingVectorsPerThread();
  int64_t registers =
      perThread * llvm::divideCeil(getVectorBytes(columnVectorType()), 4);
  bool prefetch = vectorStaging && spec.prefetchPlanes &&
                  registers <= kMaxPrefetchedStagingValues;
  return prefetch ? perThread : 0;
}

StagingValues VectorPlaneSumsKernel::prefetchLoads(Value planeZ) {
  if (vectorStaging)
    return vectorStagingLoads(planeZ);
  return StreamedPlanesKernel::prefetchLoads(planeZ);
}

StagingValues VectorPlaneSumsKernel::vectorStagingLoads(Value planeZ) {
  int64_t width = geo.vectorWidth, threads = geo.threads();
  int64_t total = geo.planeSize() / width;
  int64_t perThread = stagingVectorsPerThread();
  bool guard = perThread * threads > total;

  // The plane's z: wrapped (periodic), or whether it is in the grid.
  Value zInside = arith::ConstantIntOp::create(*b, b->getI1Type(), 1);
  Value z = stagingCoord(0, planeZ, zInside);
  StagingValues staged;
  for (int64_t j = 0; j < perThread; ++j) {
    Value e = addConst(tid, j * threads);
    Value isValid;
    if (guard && (j + 1) * threads > total)
      isValid =
          arith::CmpIOp::create(*b, arith::CmpIPredicate::ult, e, cst(total));
    Value inside = zInside;
    Value y, x;
    if (edgeYX) {
      // The y and x checks of an edge block, computed before the sweep.
      if (Value insideYX = edgeYX->stagingInside[j])
        inside = arith::AndIOp::create(*b, inside, insideYX);
    } else {
      std::tie(y, x) = stagingVectorCoords(e, inside);
    }
    if (isValid && boundary != BoundaryKind::periodic)
      inside = arith::AndIOp::create(*b, inside, isValid);
    Value index = edgeYX ? add(planeStart(z), edgeYX->stagingIndex[j])
                         : gridIndex({z, y, x});
    staged.values.push_back(
        loadElement(index, inside, isValid, columnVectorType()));
    staged.valid.push_back(isValid);
    // Vector e of the plane starts at element W e: rows hold whole vectors.
    staged.positions.push_back(mul(e, cst(width)));
  }
  return staged;
}

std::pair<Value, Value>
VectorPlaneSumsKernel::stagingVectorCoords(Value e, Value &inside) {
  // The vector's first element: a multiple of the width, as is N_x, so the
  // vector lies in the grid (periodic: wraps) or outside as a whole.
  int64_t width = geo.vectorWidth;
  int64_t rowVectors = geo.smemShape[2] / width;
  Value row = arith::DivUIOp::create(*b, e, cst(rowVectors));
  Value column = arith::RemUIOp::create(*b, e, cst(rowVectors));
  Value y = stagingCoord(1, row, inside);
  Value x = stagingCoord(2, mul(column, cst(width)), inside);
  return {y, x};
}

VectorPlaneSumsKernel::EdgeYX VectorPlaneSumsKernel::computeEdgeYX() {
  int64_t width = geo.vectorWidth, threads = geo.threads();
  bool halo = boundary == BoundaryKind::halo;
  // Clamps `v` into [0, hi].
  auto clamp = [&](Value v, Value hi) {
    Value zero = cst(0);
    Value below = arith::MinSIOp::create(*b, v, hi);
    return arith::MaxSIOp::create(*b, below, zero);
  };
  EdgeYX edge;
  for (int64_t j = 0, e = stagingVectorsPerThread(); j < e; ++j) {
    Value position = addConst(tid, j * threads);
    Value inside = arith::ConstantIntOp::create(*b, b->getI1Type(), 1);
    auto [y, x] = stagingVectorCoords(position, inside);
    if (halo) {
      y = clamp(y, addConst(sizes[1], -1));
      x = clamp(x, addConst(sizes[2], -width));
    }
    edge.stagingIndex.push_back(add(mul(y, sizes[2]), x));
    edge.stagingInside.push_back(boundary == BoundaryKind::dirichlet ? inside
                                                                     : Value());
  }
  Value x0 = add(origin[2], mul(tx, cst(width)));
  for (int64_t k = 0; k < geo.outputs; ++k) {
    SmallVector<Value> coords = outputCoords(k);
    Value any;
    for (int64_t c = 0; c < width; ++c) {
      coords[2] = addConst(x0, c);
      Value written = isWritten(coords, /*dims=*/{1, 3});
      any = any ? arith::OrIOp::create(*b, any, written) : written;
    }
    edge.rowStored.push_back(any);
  }
  // The halo's kept columns x < r_x and x >= N_x - r_x fall in stored
  // vectors where r_x is not a multiple of W, at lanes < r_x mod W and
  // >= W - (r_x mod W) (N_x is a multiple of W).
  int64_t partial = halo ? geo.radii[2] % width : 0;
  for (int64_t lane = 0; lane < width; ++lane) {
    if (lane >= partial && lane < width - partial)
      continue;
    SmallVector<Value> coords = outputCoords(0);
    coords[2] = addConst(x0, lane);
    edge.keptLanes.push_back(lane);
    edge.laneKept.push_back(logicalNot(isWritten(coords, /*dims=*/{2, 3})));
  }
  return edge;
}

int64_t VectorPlaneSumsKernel::vectorKeptSum(int64_t k, int64_t l) const {
  return geo.outputs * geo.vectorWidth + k * edgeYX->keptLanes.size() + l;
}

void VectorPlaneSumsKernel::addVectorPlaneRow(const VectorPlaneSums &v,
                                              int64_t u, Value base, int64_t iy,
                                              SmallVectorImpl<Value> &acc) {
  int64_t outputs = geo.outputs, width = geo.vectorWidth;
  int64_t strideY = geo.smemStrides[1];
  std::map<int64_t, Value> loaded, converted;
  auto valueAt = [&](int64_t p) -> Value {
    auto [it, fresh] = converted.try_emplace(p);
    if (!fresh)
      return it->second;
    int64_t q = llvm::divideFloorSigned(p, width);
    Value &vec = loaded[q];
    if (!vec)
      vec = vector::LoadOp::create(
          *b, v.vectorType, smem,
          ValueRange{addConst(base, iy * strideY + q * width)},
          /*nontemporal=*/false, v.align);
    Value element =
        vector::ExtractOp::create(*b, vec, ArrayRef<int64_t>{p - q * width});
    if (element.getType() != accType)
      element = arith::ExtFOp::create(*b, accType, element);
    return it->second = element;
  };
  // An edge block's kept lanes of output row iy (dz = dy = dx = 0): their
  // input values, through the ring slots of the sums, to the store of that
  // output plane.
  bool used = false;
  if (edgeYX && iy >= 0 && iy < outputs)
    for (auto [l, lane] : llvm::enumerate(edgeYX->keptLanes)) {
      Value kept = valueAt(lane);
      planeSum(acc, vectorKeptSum(iy, l), u) = kept;
      used = true;
    }
  for (int64_t k = 0; k < outputs; ++k) {
    auto row = v.rowsOfPoints.find(iy - k);
    if (row == v.rowsOfPoints.end())
      continue;
    used = true;
    for (const auto &[dx, planeUses] : row->second)
      for (const PlaneUse &use : planeUses)
        for (int64_t c = 0; c < width; ++c) {
          Value &sum = planeSum(acc, k * width + c, u - use.dz);
          Value value = valueAt(c + dx);
          Value weight = weightValue(use.index, use.weight);
          sum = LLVM::FMAOp::create(*b, weight, value, sum);
        }
  }
  // The row's loads and FMAs before the next row's (emitOrderingFence).
  if (used)
    emitOrderingFence(acc);
}

void VectorPlaneSumsKernel::addVectorPlane(const VectorPlaneSums &v, int64_t u,
                                           Value base,
                                           SmallVectorImpl<Value> &acc) {
  // Row by row: the aligned vectors covering the columns the row's points
  // read, each used element converted once.
  int64_t outputs = geo.outputs;
  int64_t dyMin = v.rowsOfPoints.begin()->first;
  int64_t dyMax = v.rowsOfPoints.rbegin()->first;
  // (Rows 0 .. outputs - 1 too where kept lanes read them.)
  int64_t iyEnd = outputs + dyMax;
  if (edgeYX && !edgeYX->keptLanes.empty()) {
    dyMin = std::min<int64_t>(dyMin, 0);
    iyEnd = std::max(iyEnd, outputs);
  }
  for (int64_t iy = dyMin; iy < iyEnd; ++iy)
    addVectorPlaneRow(v, u, base, iy, acc);
}

void VectorPlaneSumsKernel::storeVectorColumns(ArrayRef<Value> row,
                                               SmallVectorImpl<Value> &coords,
                                               Value x0) {
  for (int64_t c = 0; c < geo.vectorWidth; ++c) {
    coords[2] = addConst(x0, c);
    Value written = isStored(coords);
    Value linear = gridIndex(coords);
    scf::IfOp::create(*b, written, [&](OpBuilder &then, Location loc) {
      memref::StoreOp::create(then, loc, row[c], out, ValueRange{linear});
      scf::YieldOp::create(then, loc);
    });
  }
}

void VectorPlaneSumsKernel::storeEdgeVector(const VectorPlaneSums &v,
                                            ArrayRef<Value> values, int64_t k,
                                            SmallVectorImpl<Value> &coords,
                                            Value x0) {
  ArrayRef<Value> row(values.begin() + k * geo.vectorWidth, geo.vectorWidth);
  SmallVector<Value> lanes(row);
  for (auto [l, lane] : llvm::enumerate(edgeYX->keptLanes))
    lanes[lane] = arith::SelectOp::create(
        *b, edgeYX->laneKept[l], values[vectorKeptSum(k, l)], lanes[lane]);
  coords[2] = x0;
  Value stored = arith::AndIOp::create(*b, isWritten(coords, /*dims=*/{0, 1}),
                                       edgeYX->rowStored[k]);
  Value linear = gridIndex(coords);
  Value vec = vector::FromElementsOp::create(*b, v.vectorType, lanes);
  scf::IfOp::create(*b, stored, [&](OpBuilder &then, Location loc) {
    vector::StoreOp::create(then, loc, vec, out, ValueRange{linear},
                            /*nontemporal=*/false, v.align);
    scf::YieldOp::create(then, loc);
  });
}

void VectorPlaneSumsKernel::storeVectorOrColumns(const VectorPlaneSums &v,
                                                 ArrayRef<Value> row,
                                                 SmallVectorImpl<Value> &coords,
                                                 Value x0) {
  coords[2] = addConst(x0, geo.vectorWidth - 1);
  Value lastWritten = isStored(coords);
  coords[2] = x0;
  Value whole = arith::AndIOp::create(*b, isStored(coords), lastWritten);
  Value linear = gridIndex(coords);
  Value vec = vector::FromElementsOp::create(*b, v.vectorType, row);
  auto ifWhole = scf::IfOp::create(*b, whole, /*withElseRegion=*/true);
  OpBuilder::InsertionGuard inIf(*b);
  b->setInsertionPointToStart(ifWhole.thenBlock());
  vector::StoreOp::create(*b, vec, out, ValueRange{linear},
                          /*nontemporal=*/false, v.align);
  b->setInsertionPointToStart(ifWhole.elseBlock());
  storeVectorColumns(row, coords, x0);
}

void VectorPlaneSumsKernel::storeVectorPlane(const VectorPlaneSums &v,
                                             ArrayRef<Value> values, Value z) {
  int64_t width = geo.vectorWidth;
  Value x0 = add(origin[2], mul(tx, cst(width)));
  for (int64_t k = 0; k < geo.outputs; ++k) {
    SmallVector<Value> coords = outputCoords(k);
    coords[0] = z;
    ArrayRef<Value> row(values.begin() + k * width, width);
    if (!v.vectors)
      storeVectorColumns(row, coords, x0);
    else if (edgeYX)
      storeEdgeVector(v, values, k, coords, x0);
    else
      storeVectorOrColumns(v, row, coords, x0);
  }
}

void VectorPlaneSumsKernel::buildSweep() {
  int64_t outputs = geo.outputs, width = geo.vectorWidth;
  VectorPlaneSums v;
  v.vectorType = columnVectorType();
  v.align = llvm::MaybeAlign(getVectorBytes(v.vectorType));

  // The points by row dy, then column dx: the plane offsets with their
  // weights, dz ascending.
  for (const auto &[offset, weight] : summedPoints())
    v.rowsOfPoints[offset[1]][offset[2]].push_back(
        {offset[0], weight.first, weight.second});

  // Whole vectors where the rows are a multiple of the width (vectorStaging),
  // loaded `prefetch-distance` iterations ahead; else element by element in
  // the iteration (prefetchedValuesPerThread). Sum k * W + c is output k's
  // column c.
  v.vectors = vectorStaging;

  // Edge blocks with whole vectors check y and x before the sweep (the
  // split needs isStored = isWritten: no band).
  if (v.vectors && !interiorYX && spec.bandMargins.empty())
    edgeYX = computeEdgeYX();
  int64_t kept = edgeYX ? outputs * edgeYX->keptLanes.size() : 0;
  buildPlaneSumLoop(
      outputs * width + kept,
      [&](int64_t u, Value base, SmallVectorImpl<Value> &acc) {
        addVectorPlane(v, u, base, acc);
      },
      /*finish=*/[&](Value sum) { return toElementType(sum); },
      [&](ArrayRef<Value> values, Value z) { storeVectorPlane(v, values, z); });
  edgeYX.reset();
}
