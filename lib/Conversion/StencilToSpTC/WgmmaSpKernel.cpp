//===- WgmmaSpKernel.cpp - The warpgroup row-form kernel ------------------===//
//
// The sm_90a kernel of a banded f16 `stencil.sparse_row_gemm`
// (WgmmaSpKernel.h): one warpgroup (128 threads) per block, the y-phase
// split of Support/WgmmaSpTiling.h (the math, the staged layout and the
// descriptors are described there and checked by the unit tests through the
// CPU model of the instruction, Support/WgmmaSpModel.h). The coefficient
// buffer is the warp-level kernel's (Support/SpTCPacking.h, SPIDER 3.3.2).
//
// Kernel outline, for a block at (z_0, y_0, x_0):
//   1. for every staged plane q and shift S, each warp w loads the A words
//      and metadata of kernel row (dz, S - w), or zeros where there is none
//      (the row index is a select on the warp id among four constants); a
//      (q, S) that no warp has a row for issues no MMA;
//   2. per sub-tile of 4 n output rows: the block stages the input tile,
//      B row k of plane q holding the input at x_0 + off(k), in the y-phase
//      layout (input pairs, zero outside the grid), then
//      fence.proxy.async (generic-proxy writes before the Tensor Cores'
//      reads) and a barrier;
//   3. wgmma.fence, one wgmma.mma_async.sp m64nNk32 per (q, S) into the same
//      accumulators, commit, wait;
//   4. every accumulator that is an interior output is rounded to f16 and
//      stored: d_i of thread (w, g, t) is output (y_0 + 4 c + w, x_0 + i'),
//      c = 8 (i >> 2) + 2 t + (i & 1), i' = g + 8 ((i >> 1) & 1).
//
//===----------------------------------------------------------------------===//

#include "WgmmaSpKernel.h"
#include "MmaKernelBuilder.h"
#include "stencil/Conversion/StencilGPUCommon/KernelABI.h"
#include "stencil/Conversion/StencilGPUCommon/Wgmma.h"
#include "stencil/Support/SpTCPacking.h"
#include "stencil/Support/SpTCTiling.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::stencil;

namespace {
class WgmmaSpKernelBuilder : MmaKernelBuilder {
public:
  WgmmaSpKernelBuilder(RowForm op, const WgmmaSpGeometry &geo)
      : op(op), geo(geo) {}
  gpu::GPUFuncOp build(OpBuilder &moduleBuilder, StringRef name);

private:
  /// The A registers and metadata of one MMA (plane q, shift S).
  struct MmaOperands {
    int64_t plane, shift;
    SmallVector<Value, 4> a;
    Value metadata;
  };
  void loadOperands();
  /// One of four constants, `values[index]`, for an index in [0, 4) (the
  /// warp id, or the thread's pair in a chunk).
  Value selectConstant(Value index, ArrayRef<int64_t> values);
  void stageTile(Value y0);
  SmallVector<Value> computeTile();
  void storeTile(ArrayRef<Value> acc, Value y0);
  Value i32(int64_t v) {
    return arith::ConstantIntOp::create(*b, b->getI32Type(), v);
  }

  RowForm op;
  const WgmmaSpGeometry &geo;
  SmallVector<MmaOperands> mmas;
  /// The shared-memory address of the tile, >> 4 (descriptor units).
  Value smemUnits;
  SmallVector<int64_t> radii;
};
} // namespace

Value WgmmaSpKernelBuilder::selectConstant(Value index,
                                           ArrayRef<int64_t> values) {
  Value v = cst(values[3]);
  for (int64_t i = 2; i >= 0; --i) {
    if (values[i] == values[3])
      continue;
    Value isI =
        arith::CmpIOp::create(*b, arith::CmpIPredicate::eq, index, cst(i));
    v = arith::SelectOp::create(*b, isI, cst(values[i]), v);
  }
  return v;
}

/// Step 1: the A words and metadata of every (q, S) some warp has a row for.
void WgmmaSpKernelBuilder::loadOperands() {
  int64_t rank = geo.rank;
  ArrayRef<int64_t> rowOffsets = op.getRowOffsets();
  SpTCCoefficientLayout layout{op.getNumRows()};
  Type i32Type = b->getI32Type();
  auto words4 = VectorType::get({4}, i32Type);
  for (int64_t q = 0; q < geo.planes(); ++q)
    for (int64_t s = geo.firstShift(); s < geo.firstShift() + geo.numShifts();
         ++s) {
      SmallVector<int64_t> rows;
      for (int64_t w = 0; w < WgmmaSpGeometry::kPhases; ++w)
        rows.push_back(findKernelRow(rowOffsets, rank, q - geo.radiusZ, s - w));
      if (llvm::all_of(rows, [](int64_t o) { return o < 0; }))
        continue;
      // Missing rows read row 0 and are replaced by zeros.
      SmallVector<int64_t> valueBase, metaBase, parity, valid;
      for (int64_t o : rows) {
        valueBase.push_back(
            SpTCCoefficientLayout::valueWord(std::max<int64_t>(o, 0), 0, 0));
        metaBase.push_back(layout.metadataWord(std::max<int64_t>(o, 0), 0));
        parity.push_back(o >= 0 ? (o & 1) * 2 : 0);
        valid.push_back(o >= 0);
      }
      Value isValid = arith::CmpIOp::create(
          *b, arith::CmpIPredicate::ne, selectConstant(warp, valid), cst(0));
      Value words = vector::LoadOp::create(
          *b, words4, coef,
          ValueRange{add(selectConstant(warp, valueBase), mul(lane, cst(4)))},
          /*nontemporal=*/false, llvm::MaybeAlign(16));
      Value zeros = arith::ConstantOp::create(
          *b, DenseElementsAttr::get(words4, b->getI32IntegerAttr(0)));
      words = arith::SelectOp::create(*b, isValid, words, zeros);
      // Selector 0 reads lanes 4g and 4g + 1; odd rows sit two lanes on.
      Value sourceLane = arith::OrIOp::create(
          *b, arith::AndIOp::create(*b, lane, cst(~int64_t(2))),
          selectConstant(warp, parity));
      Value meta = memref::LoadOp::create(
          *b, coef,
          ValueRange{add(selectConstant(warp, metaBase), sourceLane)});
      meta = arith::SelectOp::create(*b, isValid, meta, i32(0x44444444));
      MmaOperands mma{q, s, {}, meta};
      for (int64_t j = 0; j < 4; ++j)
        mma.a.push_back(vector::ExtractOp::create(*b, words, j));
      mmas.push_back(mma);
    }
}

/// Step 2: the input tile whose first output row is `y0`. Thread (row r, pair
/// p), r = tid / 4, p = tid % 4, writes pair p of the 16-byte chunk of
/// staged rows r, r + 32, ...: a warp writes 8 whole chunks, 128
/// consecutive bytes.
void WgmmaSpKernelBuilder::stageTile(Value y0) {
  int64_t rank = geo.rank;
  ArrayRef<int64_t> inputOffsets = *op.getInputOffsets();
  int64_t rowsPerBlock = op.getRowsPerBlock();
  int64_t entries = geo.phaseEntries(), halo = geo.haloEntries();
  int64_t rows = WgmmaSpGeometry::kPhases * entries;
  Type f16 = b->getF16Type();
  Value pair = arith::RemUIOp::create(*b, tid, cst(4));
  Value row0 = arith::DivUIOp::create(*b, tid, cst(4));
  Value zero = arith::ConstantOp::create(*b, b->getZeroAttr(f16));
  Value nx = sizes[rank - 1], ny = sizes[rank - 2];
  // Loads outside the grid read a clamped address (and are replaced by
  // zero): the last element of the grid.
  Value last = addConst(mul(rank == 3 ? mul(sizes[0], ny) : ny, nx), -1);
  for (int64_t q = 0; q < geo.planes(); ++q) {
    Value zInside, zLinear;
    if (rank == 3) {
      Value z = addConst(origin[0], q - geo.radiusZ);
      zInside = isWithin(*b, z, sizes[0], 0);
      zLinear = mul(z, ny);
    }
    for (int64_t kc = 0; kc < 4; ++kc) {
      // The x offsets of the thread's pair (B rows 8 kc + 2 p, + 1).
      SmallVector<Value, 2> x;
      for (int64_t e = 0; e < 2; ++e) {
        SmallVector<int64_t> offsets;
        for (int64_t p = 0; p < 4; ++p)
          offsets.push_back(getStackedInputOffset(8 * kc + 2 * p + e,
                                                  rowsPerBlock, inputOffsets));
        x.push_back(add(origin[rank - 1], selectConstant(pair, offsets)));
      }
      SmallVector<Value, 2> xInside = {isWithin(*b, x[0], nx, 0),
                                       isWithin(*b, x[1], nx, 0)};
      // Unrolled, every load before any store, so that all of them are in
      // flight at once; a load outside the grid reads a clamped address and
      // is replaced by zero.
      int64_t chunkBase = ((q * 4 + kc) * rows) * 8; // in f16 elements
      int64_t iterations = (rows + 31) / 32;
      SmallVector<std::pair<Value, Value>> staged; // (element, pair)
      for (int64_t it = 0; it < iterations; ++it) {
        // Staged row `row` is entry row % J - H of phase row / J: input
        // row y0 + 4 (row % J - H) + row / J. Rows past 4 J (the last
        // iteration) are clamped to the last one and store nothing new.
        Value row = addConst(row0, 32 * it);
        if (32 * (it + 1) > rows)
          row = arith::MinUIOp::create(*b, row, cst(rows - 1));
        Value phase = arith::DivUIOp::create(*b, row, cst(entries));
        Value entry = arith::RemUIOp::create(*b, row, cst(entries));
        Value y = add(addConst(add(y0, mul(entry, cst(4))), -4 * halo), phase);
        Value yInside = isWithin(*b, y, ny, 0);
        if (zInside)
          yInside = arith::AndIOp::create(*b, yInside, zInside);
        Value rowLinear = mul(zLinear ? add(zLinear, y) : y, nx);
        SmallVector<Value, 2> values;
        for (int64_t e = 0; e < 2; ++e) {
          Value inside = arith::AndIOp::create(*b, yInside, xInside[e]);
          Value at = add(rowLinear, x[e]);
          at = arith::MaxSIOp::create(*b, arith::MinSIOp::create(*b, at, last),
                                      cst(0));
          Value v = memref::LoadOp::create(*b, in, ValueRange{at});
          values.push_back(arith::SelectOp::create(*b, inside, v, zero));
        }
        Value vec = vector::FromElementsOp::create(
            *b, VectorType::get({2}, f16), values);
        Value at =
            addConst(add(mul(row, cst(8)), mul(pair, cst(2))), chunkBase);
        staged.push_back({at, vec});
      }
      for (auto [at, vec] : staged)
        vector::StoreOp::create(*b, vec, smem, ValueRange{at},
                                /*nontemporal=*/false, llvm::MaybeAlign(4));
    }
  }
  // The Tensor Cores read shared memory through the async proxy.
  NVVM::FenceProxyOp::create(
      *b, NVVM::ProxyKind::async_shared,
      NVVM::SharedSpaceAttr::get(b->getContext(),
                                 NVVM::SharedSpace::shared_cta));
  gpu::BarrierOp::create(*b);
}

/// Step 3: every MMA into one set of accumulators.
SmallVector<Value> WgmmaSpKernelBuilder::computeTile() {
  Value zero = arith::ConstantOp::create(*b, b->getZeroAttr(b->getF32Type()));
  SmallVector<Value> acc(geo.n / 2, zero);
  Type i64 = b->getI64Type();
  // Descriptor bits that do not depend on the MMA: LBO and SBO, no swizzle.
  WgmmaDescriptor fixed = geo.getDescriptor(0, 0, 0);
  fixed.startAddress = 0;
  uint64_t fixedBits = *fixed.encode();
  NVVM::WgmmaFenceAlignedOp::create(*b);
  for (const MmaOperands &mma : mmas) {
    WgmmaDescriptor d = geo.getDescriptor(mma.plane, mma.shift, 0);
    Value start = arith::AndIOp::create(
        *b,
        arith::AddIOp::create(
            *b, smemUnits,
            arith::ConstantIntOp::create(*b, i64, d.startAddress >> 4)),
        arith::ConstantIntOp::create(*b, i64, 0x3fff));
    Value descriptor = arith::OrIOp::create(
        *b, start, arith::ConstantIntOp::create(*b, i64, fixedBits));
    acc = createWgmmaSp(*b, acc, mma.a, descriptor, mma.metadata,
                        /*selector=*/0);
  }
  NVVM::WgmmaGroupSyncAlignedOp::create(*b);
  NVVM::WgmmaWaitGroupSyncOp::create(*b, 0);
  return fenceAccumulators(*b, acc);
}

/// Step 4: the interior outputs of the tile whose first row is `y0`.
void WgmmaSpKernelBuilder::storeTile(ArrayRef<Value> acc, Value y0) {
  int64_t rank = geo.rank;
  Type f16 = b->getF16Type();
  Value x = add(origin[rank - 1], groupId);
  Value xUpper = addConst(x, 8);
  Value yBase = add(add(y0, mul(threadInGroup, cst(8))), warp);
  Value zInside, zLinear;
  if (rank == 3) {
    zInside = isWithin(*b, origin[0], sizes[0], radii[0]);
    zLinear = mul(origin[0], sizes[1]);
  }
  Value xInside[2] = {isWithin(*b, x, sizes[rank - 1], radii[rank - 1]),
                      isWithin(*b, xUpper, sizes[rank - 1], radii[rank - 1])};
  for (int64_t i = 0; i < int64_t(acc.size()); ++i) {
    // Column c = 8 (i >> 2) + 2 t + (i & 1): row y0 + 4 c + w.
    Value y = addConst(yBase, 4 * (8 * (i >> 2) + (i & 1)));
    Value inside = arith::AndIOp::create(
        *b, isWithin(*b, y, sizes[rank - 2], radii[rank - 2]),
        xInside[(i >> 1) & 1]);
    if (zInside)
      inside = arith::AndIOp::create(*b, inside, zInside);
    auto ifInside = scf::IfOp::create(*b, inside, /*withElse=*/false);
    OpBuilder::InsertionGuard guard(*b);
    b->setInsertionPointToStart(&ifInside.getThenRegion().front());
    Value row = zLinear ? add(zLinear, y) : y;
    Value linear = add(mul(row, sizes[rank - 1]), (i >> 1) & 1 ? xUpper : x);
    memref::StoreOp::create(*b, arith::TruncFOp::create(*b, f16, acc[i]), out,
                            ValueRange{linear});
  }
}

gpu::GPUFuncOp WgmmaSpKernelBuilder::build(OpBuilder &moduleBuilder,
                                           StringRef name) {
  Type f16 = Float16Type::get(op.getContext());
  gpu::GPUFuncOp func =
      beginKernel(moduleBuilder, op.getLoc(), name, f16, geo.rank,
                  geo.smemBytes() / 2, kWarpgroupSize, geo.blockTile());
  // Descriptor start addresses are in 16-byte units: the tile must start
  // on a 16-byte boundary, which f16 elements alone do not promise.
  func.setWorkgroupAttributionAttr(0, LLVM::LLVMDialect::getAlignAttrName(),
                                   b->getI64IntegerAttr(16));
  radii = getRowFormRadii(geo.rank, op.getRadius(), op.getRowOffsets());
  loadOperands();
  Value address = memref::ExtractAlignedPointerAsIndexOp::create(*b, smem);
  smemUnits = arith::ShRUIOp::create(
      *b, arith::IndexCastOp::create(*b, b->getI64Type(), address),
      arith::ConstantIntOp::create(*b, b->getI64Type(), 4));
  Value firstRow = origin[geo.rank - 2];
  auto loop = scf::ForOp::create(*b, cst(0), cst(geo.subTiles), cst(1));
  {
    OpBuilder::InsertionGuard guard(*b);
    b->setInsertionPointToStart(loop.getBody());
    Value y0 = add(firstRow, mul(loop.getInductionVar(), cst(geo.tileRows())));
    stageTile(y0);
    SmallVector<Value> acc = computeTile();
    storeTile(acc, y0);
    // The next sub-tile overwrites shared memory.
    gpu::BarrierOp::create(*b);
  }
  gpu::ReturnOp::create(*b);
  return func;
}

gpu::GPUFuncOp
mlir::stencil::buildWgmmaSpKernel(OpBuilder &moduleBuilder, RowForm op,
                                  const WgmmaSpGeometry &geometry,
                                  StringRef name) {
  return WgmmaSpKernelBuilder(op, geometry).build(moduleBuilder, name);
}
