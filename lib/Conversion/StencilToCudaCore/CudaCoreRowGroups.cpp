//===- CudaCoreRowGroups.cpp - Row streaming in groups of rows -----------===//
//
// The row sweep of a 2-D linear CUDA-core kernel in groups of rows, with the
// x offsets in phases (RowGroupsKernel, derived from the per-row sweep's
// RowSweepKernel; `stream=on row-phases=N`, N >= 1; the geometry is
// CudaCoreTiling::rowGroups(), Support/CudaCoreTiling.h, and the unit tests
// RowStream.RowGroups* run the schedule on the CPU). It is the register
// streaming of CudaCoreRowStream.cpp (AN5D, Matsumura et al., CGO 2020,
// sections 3.1-3.3; the fused CUDA-core kernels of "Do We Need Tensor
// Cores?", section 3.2.2) with
// the loop reordered for the weights' sake.
//
// Why: the per-row sweep applies all of a level's weights to each row it
// receives, so a weight is used again only after all the others. ptxas on
// sm_90 takes no FP64 operand from the constant bank: each weight passes
// through a uniform register, and the 63 of them hold 31 f64 weights. With
// the 49 of a 7 x 7 box it reloads or moves a weight at almost every use,
// about half the issued instructions of the sweep (bench/NOTES.md, "The
// weights in SASS"). Here a level applies the offsets dx in N contiguous
// ranges [lo_p, hi_p] (the phases, CudaCoreTiling::rowPhaseRange) to a whole
// group of G = 2 r_y + 1 rows before the next range, so a phase uses only
// (2 r_y + 1)(hi_p - lo_p + 1) weights: with 3 phases 21 of the box's 49,
// which stay in uniform registers for the phase. Each x neighbour is read
// from shared memory in the one phase its dx belongs to.
//
// The schedule. Group g holds local input rows q0 = g G .. q0 + G - 1, in
// input buffer g mod 2. Level s (1 <= s <= t, the fused steps) reads level
// s - 1's rows p = q0 - (s - 1) r_y + j (0 <= j < G) of the group and, for
// each phase, row and point (dy, dx) of the phase in (dy, dx) order,
//
//   acc_s[p - dy] += w(dy, dx) v_{s-1}[p][c + dx],
//
// the sum of row o at slot o mod 2 G (2 G sums per level: a row's sum is
// open from the group of its first row o - r_y to that of its last o +
// r_y; with two groups unrolled the slots are static). Rows q0 - s r_y + j
// (0 <= j < G) then have all their rows and are complete: stored in level
// s's buffer (s < t) or, for the last level, in `out` (the block's own rows
// and columns; the boundary's rule for points it does not compute, as in
// the per-row sweep). A barrier precedes each level; the input rows of
// group g + 1 are copied while group g computes. Each output sums its
// points by (group, phase, dy, dx): the rounding differs from the per-row
// sweep's (dy, dx) order.
//
// Staging. Blocks whose loaded rows and columns lie r or more from the
// grid's edges (the interior sweep, no bounds checks) copy group g + 1's
// rows with cp.async (nvgpu.device_async_copy; 4- and 8-byte elements)
// right after the barrier that starts group g, so that no register holds
// them; 16-bit grids load and store their group's rows at its start.
//
// The other blocks (at the grid's edges: about a tenth at 10240^2) take
// the per-row sweep's general form (buildRowStreamSweep), which has the
// boundary's checks: the same points, summed in (dy, dx) order. A grouped
// sweep with those checks needs more registers than the interior one
// (ptxas: 146 against 122 for f64 Box-2D49P with 2 steps, or spills under
// the 128 that two blocks of 256 threads per SM allow), and ptxas
// allocates one count for the whole kernel.
//
//===----------------------------------------------------------------------===//

#include "CudaCoreRowGroups.h"
#include "stencil/Conversion/StencilGPUCommon/KernelABI.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::stencil;
using namespace mlir::stencil::detail;

void RowGroupsKernel::rowGroupPhases(RowGroupSweep &s) {
  s.phasePoints.resize(geo.rowPhases);
  s.phaseOffsets.resize(geo.rowPhases);
  auto points = summedPoints();
  for (int64_t p = 0; p < geo.rowPhases; ++p) {
    auto [lo, hi] = geo.rowPhaseRange(p);
    for (const auto &[offset, weight] : points) {
      if (offset[1] < lo || offset[1] > hi)
        continue;
      s.phasePoints[p].push_back(
          {offset[0], offset[1], weight.first, weight.second});
      if (!llvm::is_contained(s.phaseOffsets[p], offset[1]))
        s.phaseOffsets[p].push_back(offset[1]);
    }
    llvm::sort(s.phaseOffsets[p]);
  }
}

// Shared element of column dx of row j of a group buffer, from `base` (the
// thread's column, col.slot, through an opaque move once per group: LLVM
// would otherwise hoist each row's address out of the loop into a 64-bit
// register of its own; 148 registers instead of 116 for f64 Box-2D49P with
// 2 steps).
Value RowGroupsKernel::rowGroupElement(const RowGroupSweep &s, int64_t level,
                                       int64_t parity, int64_t j, int64_t dx) {
  return addConst(s.base, geo.rowGroupRow(level, parity, j) + dx);
}

// Every row of the sweep is in the grid; the sources derive from one row
// start. Where `valid` is false (the group past the last) zeros land in a
// buffer no level reads again.
Value RowGroupsKernel::copyRowGroup(const RowGroupSweep &s, Value g,
                                    int64_t parity, Value valid) {
  int64_t group = geo.rowGroupRows();
  Value sizeX = sizes[1];
  auto tokenType = nvgpu::DeviceAsyncTokenType::get(b->getContext());
  SmallVector<Value> tokens;
  Value first = mul(g, cst(group));
  Value none = cst(0);
  Value one = cst(1);
  Value count = arith::SelectOp::create(*b, valid, one, none).getResult();
  Value noStart = cst(0);
  Value start = add(mul(rowGridY(first), sizeX), s.col.gridX);
  Value rowStart = arith::SelectOp::create(*b, valid, start, noStart);
  Value stride = arith::SelectOp::create(*b, valid, sizeX, cst(0));
  for (int64_t j = 0; j < group; ++j) {
    Value src = add(rowStart, mul(cst(j), stride));
    tokens.push_back(nvgpu::DeviceAsyncCopyOp::create(
        *b, tokenType, smem, ValueRange{rowGroupElement(s, 0, parity, j, 0)},
        in, ValueRange{src}, b->getIndexAttr(1), count,
        /*bypassL1=*/UnitAttr()));
  }
  return nvgpu::DeviceAsyncCreateGroupOp::create(*b, tokenType, tokens);
}

void RowGroupsKernel::stageRowGroup(RowGroupSweep &s, int64_t h, Value g,
                                    Value q0) {
  int64_t group = geo.rowGroupRows();
  if (s.async) {
    nvgpu::DeviceAsyncWaitOp::create(*b, s.token, b->getI32IntegerAttr(0));
    gpu::BarrierOp::create(*b);
    Value next = addConst(g, 1);
    s.token =
        copyRowGroup(s, next, 1 - h,
                     arith::CmpIOp::create(*b, arith::CmpIPredicate::slt, next,
                                           cst(geo.rowGroupCount(geo.planes))));
    return;
  }
  for (int64_t j = 0; j < group; ++j) {
    Value dest = rowGroupElement(s, 0, h, j, 0);
    Value local = addConst(q0, j);
    Value row = memref::LoadOp::create(
        *b, in, ValueRange{add(mul(rowGridY(local), sizes[1]), s.col.gridX)});
    memref::StoreOp::create(*b, row, smem, ValueRange{dest});
  }
  gpu::BarrierOp::create(*b);
}

void RowGroupsKernel::addRowGroupPhase(RowGroupSweep &s, int64_t h,
                                       int64_t level, int64_t p) {
  int64_t group = geo.rowGroupRows();
  // Source rows p = q0 - (level - 1) r_y + j; q0 = h G mod 2 G.
  int64_t first = h * group - (level - 1) * geo.radii[0];
  // This phase's weights, fetched where the phase starts.
  SmallVector<Value> weights;
  for (const RowPoint &point : s.phasePoints[p])
    weights.push_back(weightValue(point.index, point.weight));
  for (int64_t j = 0; j < group; ++j) {
    DenseMap<int64_t, Value> x;
    for (int64_t dx : s.phaseOffsets[p]) {
      Value v = memref::LoadOp::create(
          *b, smem,
          ValueRange{rowGroupElement(s, level - 1, level == 1 ? h : 0, j, dx)});
      if (v.getType() != accType)
        v = arith::ExtFOp::create(*b, accType, v);
      x[dx] = v;
    }
    for (auto [point, weight] : llvm::zip(s.phasePoints[p], weights)) {
      Value &sum = s.acc[s.accIndex(level, s.slotOf(first + j - point.dy))];
      sum = LLVM::FMAOp::create(*b, weight, x[point.dx], sum);
    }
    // The row's FMAs before the next row's loads (else LLVM may sink them
    // to where each sum completes, keeping every row's neighbours live;
    // emitOrderingFence).
    emitOrderingFence(
        ArrayRef<Value>(s.acc).slice(s.accIndex(level, 0), s.slots));
  }
}

void RowGroupsKernel::completeRowGroupRows(RowGroupSweep &s, int64_t h,
                                           int64_t level, Value q0) {
  int64_t group = geo.rowGroupRows(), ry = geo.radii[0];
  // The boundary computes every point of an interior block.
  for (int64_t j = 0; j < group; ++j) {
    Value local = addConst(q0, j - level * ry);
    Value &done =
        s.acc[s.accIndex(level, s.slotOf(h * group - level * ry + j))];
    Value value = toElementType(done);
    done = s.zeroAcc;
    if (level < geo.steps)
      memref::StoreOp::create(*b, value, smem,
                              ValueRange{rowGroupElement(s, level, 0, j, 0)});
    else
      storeRowOutput(value, local, s.rows, /*rowWritten=*/Value(), s.col,
                     /*interior=*/true);
  }
}

void RowGroupsKernel::buildRowGroupSweep(RowGroupSweep &s) {
  int64_t steps = geo.steps, group = geo.rowGroupRows();
  int64_t groups = geo.rowGroupCount(geo.planes);
  s.rows = cst(geo.planes);
  int64_t elementBytes = elementType.getIntOrFloatBitWidth() / 8;
  s.async = elementBytes == 4 || elementBytes == 8;

  // Carried: the pending copies' token (async), the partial sums.
  SmallVector<Value> inits;
  if (s.async) {
    Value valid = arith::ConstantIntOp::create(*b, b->getI1Type(), 1);
    Value firstGroup = cst(0);
    inits.push_back(copyRowGroup(s, firstGroup, 0, valid));
  }
  inits.append(steps * s.slots, s.zeroAcc);
  Value one = cst(1);
  Value pairs = cst(groups / 2);
  Value zero = cst(0);
  auto loop = scf::ForOp::create(*b, zero, pairs, one, inits);
  OpBuilder::InsertionGuard guard(*b);
  b->setInsertionPointToStart(loop.getBody());
  SmallVector<Value> state(loop.getRegionIterArgs());
  s.token = s.async ? state.front() : Value();
  s.acc.assign(state.begin() + (s.async ? 1 : 0), state.end());
  Value two = cst(2);
  Value pairIndex = hideFromOptimizer(*b, loop.getInductionVar());
  Value pairFirst = mul(pairIndex, two);
  for (int64_t h = 0; h < 2; ++h) {
    s.base = hideFromOptimizer(*b, s.col.slot);
    Value g = addConst(pairFirst, h);
    Value q0 = mul(g, cst(group));
    // Level 0: the group's rows in buffer h.
    stageRowGroup(s, h, g, q0);
    for (int64_t level = 1; level <= steps; ++level) {
      if (level > 1)
        gpu::BarrierOp::create(*b);
      for (int64_t p = 0; p < geo.rowPhases; ++p)
        addRowGroupPhase(s, h, level, p);
      // Rows q0 - level r_y + j are complete; their slots restart at 0.
      completeRowGroupRows(s, h, level, q0);
    }
  }
  s.base = s.col.slot;
  SmallVector<Value> yields;
  if (s.async)
    yields.push_back(s.token);
  yields.append(s.acc.begin(), s.acc.end());
  scf::YieldOp::create(*b, yields);
}

void RowGroupsKernel::buildBody() {
  assert(linear && geo.rowGroups() && geo.outputs == 1 &&
         "row groups of a linear 2-D stencil, one column per thread");
  int64_t ry = geo.radii[0], rx = geo.radii[1];
  int64_t group = geo.rowGroupRows();
  int64_t groups = geo.rowGroupCount(geo.planes);
  RowGroupSweep s;
  s.slots = geo.rowGroupSlots();
  s.zeroAcc = arith::ConstantOp::create(*b, b->getZeroAttr(accType));
  rowGroupPhases(s);

  zeroRowSharedMemory();
  s.col = rowColumn(0);
  s.base = s.col.slot;
  Value sizeY = sizes[0], sizeX = sizes[1];

  // Interior blocks: every row the sweep loads (groups x G from local row 0)
  // and every column lies r or more from the grid's edges.
  Value interiorX = isWithin(*b, addConst(origin[1], -geo.halo[1]), sizeX, rx,
                             /*extent=*/geo.rowWidth());
  Value interiorY = isWithin(*b, addConst(origin[0], -geo.halo[0]), sizeY, ry,
                             /*extent=*/groups * group);
  Value interior = arith::AndIOp::create(*b, interiorY, interiorX);
  auto ifInterior = scf::IfOp::create(*b, interior, /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(*b);
  b->setInsertionPointToStart(ifInterior.thenBlock());
  // The grouped sweep of an interior block (see "Staging").
  buildRowGroupSweep(s);
  b->setInsertionPointToStart(ifInterior.elseBlock());
  buildRowStreamSweep(/*interior=*/false);
}
