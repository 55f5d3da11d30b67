//===- CudaCoreRowStream.cpp - Register streaming of 2-D stencils ---------===//
//
// The row sweep of a 2-D linear CUDA-core kernel (RowSweepKernel, the base
// of the row groups' RowGroupsKernel, CudaCoreRowGroups.cpp, whose edge
// blocks take its general sweep; `stream=on` in 2-D; the geometry is
// CudaCoreTiling::rowStream(), Support/CudaCoreTiling.h, and the unit tests run
// the schedule on the CPU). AN5D (Matsumura et al., CGO 2020, sections 3.1-3.3:
// "register-based streaming" along the outermost dimension, the inner
// dimensions' neighbours through shared memory, one diagonal wavefront of the
// fused steps per iteration) and the fused CUDA-core kernels of "Do We Need
// Tensor Cores?" (section 3.2.2).
//
// The block is one row of W columns, k per thread (outputs-per-thread,
// default 1): thread c owns local columns c + j W / k, 0 <= j < k (grid x
// = x0 - t r_x + column), and sweeps the block's C output rows plus the
// halo. Its columns' FMAs of each point follow each other, so that one
// fetch of the weight serves the k of them. For
// a linear stencil with weights w(dy, dx) each level s (1 <= s <= t, the
// fused steps) keeps P = 2 r_y + 1 partial sums in registers: when the row q
// of level s - 1 arrives, for every dy
//
//   acc_s[q - dy] += sum_dx w(dy, dx) v_{s-1}[q][c + dx]       (dx ascending)
//
// (v_{s-1}[q][c + dx] from level s - 1's row in shared memory, the centre
// dx = 0 from a register), after which output row q - r_y has received its
// 2 r_y + 1 rows and is complete. Each output's sum thus runs over its
// points in (dy, dx) order, one FMA each, starting from 0: shared memory
// serves only the horizontal neighbours, 2 r_x loads per point and step
// instead of one per point of the stencil, and only one row per level and
// parity lives there.
//
// Iteration i (the loop is unrolled by a multiple U >= 4 of P, so that the
// partial sums' slots, q mod P, and the rows loaded ahead are static):
//   level 0: the input row i (loaded U iterations ahead) -> shared
//   level s: receives level s - 1's row of iteration i - 1 (shared memory of
//            the other parity, centre from a register), completes local row
//            i - s (r_y + 1) -> shared (s < t) or `out` (s = t)
//   barrier
// A completed point the boundary does not compute keeps its value: halo:
// the input's (it is never computed at any level; loaded again from `in`,
// which only blocks at the grid's edges do), Dirichlet: the boundary value
// outside the grid. Rows and columns a level computes from values that are
// not yet (or no longer) valid only reach points no valid output depends on
// (the trapezoid of each fused step shrinks by r per side), and the block
// stores only its C x T_x outputs.
//
// Two sweeps, chosen per block by a uniform branch: a block whose rows (the
// rows loaded ahead past its last iteration too) and columns all lie r or
// more from the grid's edges computes every point it holds and loads only
// inside the grid, so its sweep has no bounds checks, selects or reloads of
// kept values; the other blocks take the general one. Each level's FMAs end
// at an ordering fence (emitOrderingFence), which keeps LLVM from sinking
// them to the row that completes each partial sum.
//
//===----------------------------------------------------------------------===//

#include "CudaCoreRowStream.h"
#include "stencil/Conversion/StencilGPUCommon/KernelABI.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::stencil;
using namespace mlir::stencil::detail;

namespace {
/// The conjunction of two conditions, either of which may be null (always
/// true).
Value andOf(ImplicitLocOpBuilder &b, Value x, Value y) {
  return !x ? y : !y ? x : arith::AndIOp::create(b, x, y).getResult();
}
} // namespace

RowSweepKernel::RowColumn RowSweepKernel::rowColumn(int64_t j) {
  auto cmp = [&](arith::CmpIPredicate predicate, Value x, Value y) -> Value {
    return arith::CmpIOp::create(*b, predicate, x, y);
  };
  Value sizeX = sizes[1];
  RowColumn col;
  Value local = addConst(tid, j * geo.threads());
  col.insideX = arith::ConstantIntOp::create(*b, b->getI1Type(), 1);
  col.stageX = stagingCoord(1, local, col.insideX);
  Value haloX = cst(geo.halo[1]);
  Value stagedX = add(origin[1], local);
  col.gridX = arith::SubIOp::create(*b, stagedX, haloX);
  col.inGrid = isWithin(*b, col.gridX, sizeX, /*margin=*/0);
  if (boundary == BoundaryKind::halo)
    col.written = isWithin(*b, col.gridX, sizeX, geo.radii[1]);
  else if (boundary == BoundaryKind::dirichlet)
    col.written = col.inGrid;
  Value ownEnd = cst(geo.halo[1] + geo.tile[1]);
  Value beforeEnd = cmp(arith::CmpIPredicate::ult, local, ownEnd);
  Value ownStart = cst(geo.halo[1]);
  Value afterStart = cmp(arith::CmpIPredicate::uge, local, ownStart);
  col.own = andOf(*b, afterStart, beforeEnd);
  col.stored = andOf(
      *b, col.own,
      andOf(*b, cmp(arith::CmpIPredicate::slt, col.gridX, sizeX), col.written));
  col.slot = addConst(local, geo.radii[1]);
  return col;
}

void RowSweepKernel::zeroRowSharedMemory() {
  Value zeroElement =
      arith::ConstantOp::create(*b, b->getZeroAttr(elementType));
  int64_t total = geo.sharedElements(), threads = geo.threads();
  for (int64_t first = 0; first < total; first += threads) {
    Value e = addConst(tid, first);
    if (first + threads <= total) {
      memref::StoreOp::create(*b, zeroElement, smem, ValueRange{e});
      continue;
    }
    scf::IfOp::create(
        *b, arith::CmpIOp::create(*b, arith::CmpIPredicate::ult, e, cst(total)),
        [&](OpBuilder &then, Location loc) {
          memref::StoreOp::create(then, loc, zeroElement, smem, ValueRange{e});
          scf::YieldOp::create(then, loc);
        });
  }
  gpu::BarrierOp::create(*b);
}

Value RowSweepKernel::rowGridY(Value local) {
  Value haloY = cst(geo.halo[0]);
  Value stagedY = add(origin[0], local);
  return arith::SubIOp::create(*b, stagedY, haloY);
}

Value RowSweepKernel::rowWrittenY(Value local, bool interior) {
  if (interior)
    return {};
  Value y = rowGridY(local);
  if (boundary == BoundaryKind::halo)
    return isWithin(*b, y, sizes[0], geo.radii[0]);
  if (boundary == BoundaryKind::dirichlet)
    return isWithin(*b, y, sizes[0], /*margin=*/0);
  return {};
}

Value RowSweepKernel::completedRowValue(Value sum, Value local,
                                        Value rowWritten, const RowColumn &col,
                                        bool interior) {
  Value value = toElementType(sum);
  Value written = andOf(*b, rowWritten, interior ? Value() : col.written);
  if (!written)
    return value;
  Value kept;
  if (boundary == BoundaryKind::dirichlet) {
    kept = arith::ConstantOp::create(
        *b, b->getFloatAttr(elementType, boundaryValue));
  } else {
    // Halo: the input's value where in the grid (the branch is taken only by
    // points at the grid's edges).
    Value y = rowGridY(local), sizeY = sizes[0], sizeX = sizes[1];
    Value trueValue = arith::ConstantIntOp::create(*b, b->getI1Type(), 1);
    Value zeroElement =
        arith::ConstantOp::create(*b, b->getZeroAttr(elementType));
    Value inGrid = arith::AndIOp::create(
        *b, isWithin(*b, y, sizeY, /*margin=*/0), col.inGrid);
    Value notWritten = arith::XOrIOp::create(*b, written, trueValue);
    Value load = arith::AndIOp::create(*b, notWritten, inGrid);
    auto ifOp = scf::IfOp::create(
        *b, load,
        [&](OpBuilder &then, Location loc) {
          Value linearIndex = arith::AddIOp::create(
              then, loc, arith::MulIOp::create(then, loc, y, sizeX), col.gridX);
          Value v =
              memref::LoadOp::create(then, loc, in, ValueRange{linearIndex});
          scf::YieldOp::create(then, loc, v);
        },
        [&](OpBuilder &otherwise, Location loc) {
          scf::YieldOp::create(otherwise, loc, zeroElement);
        });
    kept = ifOp.getResult(0);
  }
  return arith::SelectOp::create(*b, written, value, kept);
}

void RowSweepKernel::storeRowOutput(Value value, Value local, Value rows,
                                    Value rowWritten, const RowColumn &col,
                                    bool interior) {
  auto cmp = [&](arith::CmpIPredicate predicate, Value x, Value y) -> Value {
    return arith::CmpIOp::create(*b, predicate, x, y);
  };
  // The block's own rows [t r_y, t r_y + rows).
  Value ownPoint = andOf(*b, interior ? col.own : col.stored, rowWritten);
  Value rowsEnd = addConst(rows, geo.halo[0]);
  Value beforeEnd = cmp(arith::CmpIPredicate::slt, local, rowsEnd);
  Value rowsStart = cst(geo.halo[0]);
  Value afterStart = cmp(arith::CmpIPredicate::sge, local, rowsStart);
  Value ownRow = andOf(*b, afterStart, beforeEnd);
  Value stored = andOf(*b, ownRow, ownPoint);
  Value y = rowGridY(local), sizeX = sizes[1];
  scf::IfOp::create(*b, stored, [&](OpBuilder &then, Location loc) {
    Value linearIndex = arith::AddIOp::create(
        then, loc, arith::MulIOp::create(then, loc, y, sizeX), col.gridX);
    memref::StoreOp::create(then, loc, value, out, ValueRange{linearIndex});
    scf::YieldOp::create(then, loc);
  });
}

Value RowSweepKernel::rowSweepGroups(RowSweep &s) {
  if (s.interior) {
    s.rows = cst(geo.planes);
    return cst(geo.rowStreamIterations(geo.planes) / s.unroll);
  }
  Value maxRows = cst(geo.planes);
  Value left = arith::SubIOp::create(*b, sizes[0], origin[0]);
  s.rows = arith::MinUIOp::create(*b, left, maxRows);
  Value unrollCst = cst(s.unroll);
  Value lastRow = addConst(s.rows, 2 * geo.halo[0] + s.steps + s.unroll - 1);
  return arith::DivUIOp::create(*b, lastRow, unrollCst);
}

Value RowSweepKernel::loadSweepRow(const RowSweep &s, Value local,
                                   const RowColumn &col) {
  Value sizeX = sizes[1];
  if (s.interior)
    return memref::LoadOp::create(
        *b, in, ValueRange{add(mul(rowGridY(local), sizeX), col.gridX)});
  Value inside = col.insideX;
  Value y = stagingCoord(0, local, inside);
  Value linearIndex = add(mul(y, sizeX), col.stageX);
  return loadElement(linearIndex, inside, /*valid=*/{});
}

void RowSweepKernel::addRowSweepPoints(RowSweep &s, int64_t u, int64_t level) {
  // The row q this level receives (local row of level - 1, completed in
  // iteration i - 1), and its static slot q mod P. Each point's FMAs for
  // the thread's columns follow each other: one fetch of the weight serves
  // them all (ptxas holds the weights in uniform registers and reloads
  // those that do not fit).
  int64_t q = u - 1 - (level - 1) * (geo.radii[0] + 1);
  SmallVector<Value> rowBases;
  for (int64_t j = 0; j < s.columns; ++j)
    rowBases.push_back(add(
        addConst(s.readOffset, (level - 1) * geo.rowLength()), s.cols[j].slot));
  for (const RowPoint &point : s.points) {
    Value weight = weightValue(point.index, point.weight);
    for (int64_t j = 0; j < s.columns; ++j) {
      Value v = point.dx == 0
                    ? s.previous[s.previousIndex(j, level - 1)]
                    : memref::LoadOp::create(
                          *b, smem, ValueRange{addConst(rowBases[j], point.dx)})
                          .getResult();
      if (v.getType() != accType)
        v = arith::ExtFOp::create(*b, accType, v);
      Value &sum = s.acc[s.accIndex(j, level, s.slotOf(q - point.dy))];
      sum = LLVM::FMAOp::create(*b, weight, v, sum);
    }
  }
  // The level's FMAs before anything that follows: without the fence LLVM's
  // NVPTX instruction selection sinks each slot's FMAs down to the row that
  // completes it, so that up to P rows of x neighbours stay live (7 x 7 in
  // f64: 166 registers; emitOrderingFence).
  SmallVector<Value> levelSums;
  for (int64_t j = 0; j < s.columns; ++j)
    for (int64_t slot = 0; slot < s.slots; ++slot)
      levelSums.push_back(s.acc[s.accIndex(j, level, slot)]);
  emitOrderingFence(levelSums);
}

void RowSweepKernel::completeRowSweepRow(RowSweep &s, int64_t u, int64_t level,
                                         Value i,
                                         SmallVectorImpl<Value> &values) {
  int64_t ry = geo.radii[0];
  int64_t q = u - 1 - (level - 1) * (ry + 1);
  Value local = addConst(i, -level * (ry + 1));
  Value rowWritten = rowWrittenY(local, s.interior);
  for (int64_t j = 0; j < s.columns; ++j) {
    const RowColumn &col = s.cols[j];
    Value &done = s.acc[s.accIndex(j, level, s.slotOf(q - ry))];
    Value value = completedRowValue(done, local, rowWritten, col, s.interior);
    done = s.zeroAcc;
    if (level < s.steps) {
      memref::StoreOp::create(
          *b, value, smem,
          ValueRange{
              add(addConst(s.writeOffset, level * geo.rowLength()), col.slot)});
      values[s.previousIndex(j, level)] = value;
      continue;
    }
    // The last level: the block's own rows.
    storeRowOutput(value, local, s.rows, rowWritten, col, s.interior);
  }
}

void RowSweepKernel::rowSweepIteration(RowSweep &s, int64_t u, Value i) {
  // Level 0: row i into shared memory; row i + unroll loaded ahead.
  SmallVector<Value> values(s.columns * s.steps);
  for (int64_t j = 0; j < s.columns; ++j) {
    Value current = s.ahead[s.aheadIndex(j, u)];
    Value next = loadSweepRow(s, addConst(i, s.unroll), s.cols[j]);
    s.ahead[s.aheadIndex(j, u)] = next;
    memref::StoreOp::create(*b, current, smem,
                            ValueRange{add(s.writeOffset, s.cols[j].slot)});
    values[s.previousIndex(j, 0)] = current;
  }
  for (int64_t level = 1; level <= s.steps; ++level) {
    addRowSweepPoints(s, u, level);
    completeRowSweepRow(s, u, level, i, values);
  }
  gpu::BarrierOp::create(*b);
  s.previous = values;
  std::swap(s.writeOffset, s.readOffset);
}

void RowSweepKernel::buildRowStreamSweep(bool interior) {
  assert(linear && geo.rowStream() && "row streaming of a linear 2-D stencil");
  RowSweep s;
  s.interior = interior;
  s.steps = geo.steps;
  s.slots = geo.rowStreamSlots();

  // The points in (dy, dx) order, duplicates summed.
  for (const auto &[offset, weight] : summedPoints())
    s.points.push_back({offset[0], offset[1], weight.first, weight.second});

  s.zeroAcc = arith::ConstantOp::create(*b, b->getZeroAttr(accType));
  Value zeroElement =
      arith::ConstantOp::create(*b, b->getZeroAttr(elementType));

  // The thread's columns c + j W / k (0 <= j < k, W the row's columns).
  s.columns = geo.outputs;
  for (int64_t j = 0; j < s.columns; ++j)
    s.cols.push_back(rowColumn(j));
  s.unroll = geo.rowStreamUnroll();
  Value groups = rowSweepGroups(s);

  // Loop-carried: the parity's shared offsets (written, read), then the
  // columns' rows loaded ahead, partial sums and previous values.
  SmallVector<Value> inits;
  inits.push_back(cst(geo.rowSlot(0, 0)));
  inits.push_back(cst(geo.rowSlot(1, 0)));
  for (int64_t j = 0; j < s.columns; ++j)
    for (int64_t k = 0; k < s.unroll; ++k)
      inits.push_back(loadSweepRow(s, cst(k), s.cols[j]));
  for (int64_t k = 0; k < s.columns * s.steps * s.slots; ++k)
    inits.push_back(s.zeroAcc);
  for (int64_t k = 0; k < s.columns * s.steps; ++k)
    inits.push_back(zeroElement);
  OpBuilder::InsertionGuard guard(*b);
  auto loop = beginCountedLoop(groups, inits);
  SmallVector<Value> state(loop.getRegionIterArgs());
  s.writeOffset = state[0];
  s.readOffset = state[1];
  int64_t numAhead = s.columns * s.unroll;
  int64_t numAcc = s.columns * s.steps * s.slots;
  s.ahead.assign(state.begin() + 2, state.begin() + 2 + numAhead);
  s.acc.assign(state.begin() + 2 + numAhead,
               state.begin() + 2 + numAhead + numAcc);
  s.previous.assign(state.begin() + 2 + numAhead + numAcc, state.end());
  // The induction variable through an opaque move: the addresses derived
  // from it are recomputed from one base instead of each carried in
  // registers by loop strength reduction.
  Value unrollCst = cst(s.unroll);
  Value group = hideFromOptimizer(*b, loop.getInductionVar());
  Value groupFirst = mul(group, unrollCst);
  for (int64_t u = 0; u < s.unroll; ++u)
    rowSweepIteration(s, u, addConst(groupFirst, u));

  SmallVector<Value> yields = {s.writeOffset, s.readOffset};
  yields.append(s.ahead.begin(), s.ahead.end());
  yields.append(s.acc.begin(), s.acc.end());
  yields.append(s.previous.begin(), s.previous.end());
  scf::YieldOp::create(*b, yields);
}

void RowSweepKernel::buildBody() {
  assert(linear && geo.rowStream() && "row streaming of a linear 2-D stencil");
  int64_t ry = geo.radii[0], rx = geo.radii[1];
  // Shared memory starts at zero, so that the first iterations' reads of
  // rows no level has written yet (they feed only points no output depends
  // on) and the r_x pads of each row read defined values.
  zeroRowSharedMemory();
  Value sizeY = sizes[0], sizeX = sizes[1];
  // The sweep, twice. `interior`: the block's every row and column, its
  // halo's and the rows it loads ahead past its last too, lie r or more from
  // the grid's edges, so every level computes every point it holds, every
  // load is in the grid and the block has C rows: that sweep skips the
  // boundary's predicates, selects and loads, which took more issue slots
  // per row than the FMAs.
  Value interiorX = isWithin(*b, addConst(origin[1], -geo.halo[1]), sizeX, rx,
                             /*extent=*/geo.rowWidth());
  Value interiorY = isWithin(*b, addConst(origin[0], -geo.halo[0]), sizeY, ry,
                             /*extent=*/geo.rowStreamIterations(geo.planes) +
                                 geo.rowStreamUnroll());
  Value interior = andOf(*b, interiorY, interiorX);
  auto ifInterior = scf::IfOp::create(*b, interior, /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(*b);
  b->setInsertionPointToStart(ifInterior.thenBlock());
  buildRowStreamSweep(/*interior=*/true);
  b->setInsertionPointToStart(ifInterior.elseBlock());
  buildRowStreamSweep(/*interior=*/false);
}
