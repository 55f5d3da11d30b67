//===- WgmmaSpKernel.cpp - The warpgroup row-form kernel ------------------===//
//
// The sm_90a kernel of a banded f16 `stencil.sparse_row_gemm`, or of a
// dense f16 `stencil.row_gemm` (WgmmaSpKernel.h): one warpgroup (128
// threads) per block, the y-phase
// split of Support/WgmmaSpTiling.h (the math, the staged layout and the
// descriptors are described there and checked by the unit tests through the
// CPU model of the instruction, Support/WgmmaSpModel.h). The coefficient
// buffer is the warp-level kernel's (Support/SpTCPacking.h, SPIDER 3.3.2;
// TCCoefficientLayout for the dense form, whose stacked 16 x 32 kernel row
// is the A of two dense m64nNk16, the second reading B from row 16).
//
// Kernel outline, for a block at (z_0, y_0, x_0) of `strips` strips of 16
// outputs along x, with T = min(sub_tiles, the sub-tiles left in the grid)
// sub-tiles of 4 n output rows:
//   1. for every staged plane q and shift S, each warp w loads the A words
//      and metadata of kernel row (dz, S - w), or zeros where there is none
//      (the row index is a select on the warp id among four constants); a
//      (q, S) that no warp has a row for issues no MMA. They stay in
//      registers for the T sub-tiles;
//   2. the block stages the input tile of a sub-tile, B row 32 s + k of
//      plane q holding the input at x_0 + 16 s + off(k), in the y-phase
//      layout (input pairs, zero outside the grid);
//   3. wgmma.fence, one wgmma.mma_async.sp m64nNk32 per (q, S, strip) into
//      the strip's accumulators, commit, wait;
//   4. the accumulators are rounded to f16 and leave through shared memory:
//      d_i of thread (w, g, t) in strip s is output (y_0 + 4 c + w, x_0 +
//      16 s + i'), c = 8 (i >> 2) + 2 t + (i & 1), i' = g + 8 ((i >> 1) & 1);
//      `stmatrix .trans` writes them as rows of grid row c, which the warp
//      reads back 16 bytes at a time and stores where they are interior
//      outputs (16-byte stores where all 8 are and N_x is a multiple of 8).
//
// Where rows are 4-byte aligned (N_x even; x_0 and every off(k) of a pair
// are even, so each input pair is one aligned word) the sub-tiles are a
// software pipeline over a ring of `stages` buffers: step t waits for its
// copies (cp.async, 4 bytes, zero-filled outside the grid), orders them
// before the Tensor Cores' reads (fence.proxy.async: cp.async writes
// through the generic proxy) and meets the block at a barrier, issues its
// MMAs, then issues the copies of sub-tile t + stages - 1 into the buffer
// the MMAs of step t - 1 read and finished before that barrier, so that
// they run under the MMAs and the stores of the steps between. Odd N_x
// stages synchronously into one buffer, one sub-tile at a time. The
// sub-tile loop hides its first row from LLVM (hideFromOptimizer): loop
// strength reduction would otherwise keep every staging and store address
// in a register of its own across the loop.
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
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::stencil;

namespace {
class WgmmaSpKernelBuilder : MmaKernelBuilder {
public:
  WgmmaSpKernelBuilder(RowFormOpInterface op, const WgmmaSpGeometry &geo)
      : op(op), geo(geo) {}
  gpu::GPUFuncOp build(OpBuilder &moduleBuilder, StringRef name);

private:
  /// The A registers and metadata of one MMA (plane q, shift S); dense: the
  /// eight A registers of its two k16 halves, no metadata.
  struct MmaOperands {
    int64_t plane, shift;
    SmallVector<Value, 4> a;
    Value metadata;
  };
  /// One of the thread's staged entries (locateRows): its offset in the
  /// buffer, where its input row starts and whether it lies in the grid.
  struct StagedRow {
    int64_t element; // past threadElement(), in f16 elements
    Value linear;    // y N_x
    Value inside;    // y in the grid
  };
  void loadOperands();
  /// The A words of the dense form (TCCoefficientLayout), by warp row.
  void loadDenseOperands(int64_t q, int64_t s, ArrayRef<int64_t> rows);
  /// The `n` words of the packed coefficients at `base[warp] + n lane`, as
  /// one aligned vector, zeros where `valid[warp]` is 0 (a missing row);
  /// and whether the warp's row is there (i1).
  std::pair<Value, Value> loadLaneWords(ArrayRef<int64_t> base,
                                        ArrayRef<int64_t> valid, int64_t n);
  /// One of the constants `values`, `values[index]` (the warp id, or the
  /// thread's pair in a row).
  Value selectConstant(Value index, ArrayRef<int64_t> values);
  /// The thread's staged rows of the tile whose first output row is `y0`.
  SmallVector<StagedRow> locateRows(Value y0);
  Value threadElement();
  /// The x of element e (0, 1) of the thread's pair in strip 0.
  Value pairX(int64_t e);
  /// Whether every pair of B rows (2 p, 2 p + 1) holds adjacent inputs whose
  /// first offset is even: a pair is then one aligned word of an even row.
  bool pairsAreWords();
  /// Synchronous staging into buffer 0 (any N_x).
  void stageTile(Value y0);
  void stageStrip(int64_t strip, ArrayRef<StagedRow> stagedRows, Value element,
                  ArrayRef<Value> x, ArrayRef<Value> xInside);
  /// The cp.async copies of the tile at `y0` into the buffer starting at
  /// element `bufferBase` (zero fill where `valid` is false); returns the
  /// group's token.
  Value copyTileAsync(Value y0, Value bufferBase, Value valid);
  /// Makes the thread's staged writes (stores, or completed cp.async copies)
  /// visible to the Tensor Cores, which read shared memory through the async
  /// proxy (fence.proxy.async), and meets the block at a barrier.
  void publishTile();
  /// The accumulators of each strip.
  using Accumulators = SmallVector<SmallVector<Value>>;
  /// Issues the MMAs on the buffer whose address is `bufferUnits` (>> 4).
  Accumulators issueMmas(Value bufferUnits);
  /// Waits for the MMAs and returns their accumulators.
  Accumulators waitMmas(const Accumulators &acc);
  void storeTile(const Accumulators &acc, Value y0);
  /// Step 4's global stores: the warp's rows of the store staging.
  void storeRows(Value y0);
  /// The first output row of sub-tile `t`.
  Value subTileRow(Value t) {
    return hideFromOptimizer(
        *b, add(origin[geo.rank - 2], mul(t, cst(geo.tileRows()))));
  }
  Value i32(int64_t v) {
    return arith::ConstantIntOp::create(*b, b->getI32Type(), v);
  }

  RowFormOpInterface op;
  const WgmmaSpGeometry &geo;
  SmallVector<MmaOperands> mmas;
  /// The shared-memory address of buffer 0, and >> 4 (descriptor units).
  Value smemAddress, smemUnits;
  SmallVector<int64_t> radii;
};
} // namespace

Value WgmmaSpKernelBuilder::selectConstant(Value index,
                                           ArrayRef<int64_t> values) {
  int64_t last = values.size() - 1;
  Value v = cst(values[last]);
  for (int64_t i = last - 1; i >= 0; --i) {
    if (values[i] == values[last])
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
  for (int64_t q = 0; q < geo.planes(); ++q)
    for (int64_t s = geo.firstShift(); s < geo.firstShift() + geo.numShifts();
         ++s) {
      SmallVector<int64_t> rows;
      for (int64_t w = 0; w < WgmmaSpGeometry::kPhases; ++w)
        rows.push_back(findKernelRow(rowOffsets, rank, q - geo.radiusZ, s - w));
      if (llvm::all_of(rows, [](int64_t o) { return o < 0; }))
        continue;
      if (op.isDense()) {
        loadDenseOperands(q, s, rows);
        continue;
      }
      // Missing rows read row 0 and are replaced by zeros.
      SmallVector<int64_t> valueBase, metaBase, parity, valid;
      for (int64_t o : rows) {
        valueBase.push_back(
            SpTCCoefficientLayout::valueWord(std::max<int64_t>(o, 0), 0, 0));
        metaBase.push_back(layout.metadataWord(std::max<int64_t>(o, 0), 0));
        parity.push_back(o >= 0 ? (o & 1) * 2 : 0);
        valid.push_back(o >= 0);
      }
      auto [words, isValid] = loadLaneWords(valueBase, valid, 4);
      // Selector 0 reads lanes 4g and 4g + 1; odd rows sit two lanes on.
      Value rowParity = selectConstant(warp, parity);
      Value evenLane = arith::AndIOp::create(*b, lane, cst(~int64_t(2)));
      Value sourceLane = arith::OrIOp::create(*b, evenLane, rowParity);
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

std::pair<Value, Value>
WgmmaSpKernelBuilder::loadLaneWords(ArrayRef<int64_t> base,
                                    ArrayRef<int64_t> valid, int64_t n) {
  auto type = VectorType::get({n}, b->getI32Type());
  Value zero = cst(0);
  Value warpValid = selectConstant(warp, valid);
  Value isValid = arith::CmpIOp::create(*b, arith::CmpIPredicate::ne,
                                        warpValid, zero);
  Value laneWord = mul(lane, cst(n));
  Value warpWord = selectConstant(warp, base);
  Value words = vector::LoadOp::create(
      *b, type, coef, ValueRange{add(warpWord, laneWord)},
      /*nontemporal=*/false, llvm::MaybeAlign(4 * n));
  Value zeros = arith::ConstantOp::create(
      *b, DenseElementsAttr::get(type, b->getI32IntegerAttr(0)));
  return {arith::SelectOp::create(*b, isValid, words, zeros), isValid};
}

void WgmmaSpKernelBuilder::loadDenseOperands(int64_t q, int64_t s,
                                             ArrayRef<int64_t> rows) {
  SmallVector<int64_t> base, valid;
  for (int64_t o : rows) {
    base.push_back(TCCoefficientLayout::word(std::max<int64_t>(o, 0), 0, 0, 0));
    valid.push_back(o >= 0);
  }
  Value words = loadLaneWords(base, valid, 8).first;
  MmaOperands mma{q, s, {}, Value()};
  for (int64_t j = 0; j < 8; ++j)
    mma.a.push_back(vector::ExtractOp::create(*b, words, j));
  mmas.push_back(mma);
}

/// Step 2, where the thread's work lies. Lane l of warp w stages pair p = l
/// mod 4 of K-chunk kc = (l mod 16) / 4 of entries h, h + 2, ... (h = l /
/// 16) of phase w (input rows y_0 + 4 (h + 2 i - H) + w): one warp
/// instruction reads two rows of the grid (a line or two each: L1 serves it
/// in few wavefronts) and writes 32 bytes of each of the four chunks, which
/// the padded chunk stride puts on different banks. The addresses step by
/// constants (8 rows of the grid, 32 bytes of shared memory) from one
/// iteration to the next; J being even, every thread has J / 2 entries.
SmallVector<WgmmaSpKernelBuilder::StagedRow>
WgmmaSpKernelBuilder::locateRows(Value y0) {
  int64_t entries = geo.phaseEntries(), halo = geo.haloEntries();
  assert(entries % 2 == 0 && "J = n + 2 H is even");
  Value ny = sizes[geo.rank - 2];
  Value h = arith::DivUIOp::create(*b, lane, cst(16));
  Value yThread = add(addConst(add(y0, mul(h, cst(4))), -4 * halo), warp);
  SmallVector<StagedRow> result;
  for (int64_t it = 0; it < entries / 2; ++it) {
    Value y = addConst(yThread, 8 * it);
    result.push_back(
        {2 * it * 8, mul(y, sizes[geo.rank - 1]), isWithin(*b, y, ny, 0)});
  }
  return result;
}

/// The element offset, in the buffer, of the thread's pair in its first
/// entry of strip 0: kc C / 2 + (w J + h) 8 + 2 p (strip s is 4 s chunks
/// further).
Value WgmmaSpKernelBuilder::threadElement() {
  Value h = arith::DivUIOp::create(*b, lane, cst(16));
  Value chunks = cst(4);
  Value quad = arith::DivUIOp::create(*b, lane, cst(4));
  Value kc = arith::RemUIOp::create(*b, quad, chunks);
  Value row = add(mul(warp, cst(geo.phaseEntries())), h);
  Value pairElement = mul(threadInGroup, cst(2));
  Value rowElement = mul(row, cst(8));
  Value chunkElement = mul(kc, cst(geo.chunkBytes() / 2));
  return add(add(chunkElement, rowElement), pairElement);
}

Value WgmmaSpKernelBuilder::pairX(int64_t e) {
  ArrayRef<int64_t> inputOffsets = *op.getInputOffsets();
  SmallVector<int64_t> offsets;
  for (int64_t k = 0; k < kWgmmaSpK; k += 2)
    offsets.push_back(
        getStackedInputOffset(k + e, op.getRowsPerBlock(), inputOffsets));
  Value pairInRow = arith::RemUIOp::create(*b, lane, cst(16));
  return add(origin[geo.rank - 1], selectConstant(pairInRow, offsets));
}

bool WgmmaSpKernelBuilder::pairsAreWords() {
  ArrayRef<int64_t> inputOffsets = *op.getInputOffsets();
  for (int64_t k = 0; k < kWgmmaSpK; k += 2) {
    int64_t first =
        getStackedInputOffset(k, op.getRowsPerBlock(), inputOffsets);
    int64_t second =
        getStackedInputOffset(k + 1, op.getRowsPerBlock(), inputOffsets);
    if (second != first + 1 || first % 2 != 0)
      return false;
  }
  return true;
}

/// Step 2, synchronous: loads the pairs (2-byte loads, zero outside the
/// grid; x_0 + off(k) need not be even here) and stores them into buffer 0.
/// A load outside the grid reads row, column (and plane) 0 instead, and is
/// replaced by zero: clamping the coordinates rather than each address keeps
/// the addresses a row base plus a column (LLVM's strength reduction would
/// otherwise carry each of them across the sub-tile loop).
void WgmmaSpKernelBuilder::stageTile(Value y0) {
  Value zeroIndex = cst(0);
  Value nx = sizes[geo.rank - 1];
  SmallVector<StagedRow> stagedRows = locateRows(y0);
  Value element = threadElement();
  Value firstX[2] = {pairX(0), pairX(1)};
  for (int64_t strip = 0; strip < geo.strips; ++strip) {
    SmallVector<Value, 2> x, xInside;
    for (int64_t e = 0; e < 2; ++e) {
      Value xe = addConst(firstX[e], WgmmaSpGeometry::kOutputsX * strip);
      xInside.push_back(isWithin(*b, xe, nx, 0));
      x.push_back(arith::SelectOp::create(*b, xInside[e], xe, zeroIndex));
    }
    stageStrip(strip, stagedRows, element, x, xInside);
  }
}

/// stageTile's loads and stores of one strip, at columns `x` (clamped into
/// the grid) of which `xInside` says whether they are in it.
void WgmmaSpKernelBuilder::stageStrip(int64_t strip,
                                      ArrayRef<StagedRow> stagedRows,
                                      Value element, ArrayRef<Value> x,
                                      ArrayRef<Value> xInside) {
  int64_t rank = geo.rank;
  Type f16 = b->getF16Type();
  Value zero = arith::ConstantOp::create(*b, b->getZeroAttr(f16));
  Value zeroIndex = cst(0);
  Value nx = sizes[rank - 1], ny = sizes[rank - 2];
  for (int64_t q = 0; q < geo.planes(); ++q) {
    Value zInside, zLinear;
    if (rank == 3) {
      Value z = addConst(origin[0], q - geo.radiusZ);
      zInside = isWithin(*b, z, sizes[0], 0);
      z = arith::SelectOp::create(*b, zInside, z, zeroIndex);
      zLinear = mul(mul(z, ny), nx);
    }
    // In f16 elements: the plane, then the strip's 4 chunks.
    int64_t planeBase =
        (q * geo.planeBytes() + 4 * strip * geo.chunkBytes()) / 2;
    for (const StagedRow &r : stagedRows) {
      Value yInside = r.inside;
      if (zInside)
        yInside = arith::AndIOp::create(*b, yInside, zInside);
      Value rowLinear =
          arith::SelectOp::create(*b, r.inside, r.linear, zeroIndex);
      if (zLinear)
        rowLinear = add(zLinear, rowLinear);
      SmallVector<Value, 2> values;
      for (int64_t e = 0; e < 2; ++e) {
        Value inside = arith::AndIOp::create(*b, yInside, xInside[e]);
        Value v =
            memref::LoadOp::create(*b, in, ValueRange{add(rowLinear, x[e])});
        values.push_back(arith::SelectOp::create(*b, inside, v, zero));
      }
      Value vec =
          vector::FromElementsOp::create(*b, VectorType::get({2}, f16), values);
      vector::StoreOp::create(
          *b, vec, smem, ValueRange{addConst(element, planeBase + r.element)},
          /*nontemporal=*/false, llvm::MaybeAlign(4));
    }
  }
}

/// Step 2, asynchronous (N_x even, pairsAreWords): one 4-byte cp.async per
/// pair, reading nothing and filling zeros outside the grid (a pair is
/// wholly inside or outside, x being even and N_x even).
Value WgmmaSpKernelBuilder::copyTileAsync(Value y0, Value bufferBase,
                                          Value valid) {
  int64_t rank = geo.rank;
  Value nx = sizes[rank - 1], ny = sizes[rank - 2];
  Value zeroIndex = cst(0);
  auto tokenType = nvgpu::DeviceAsyncTokenType::get(b->getContext());
  SmallVector<Value> tokens;
  SmallVector<StagedRow> stagedRows = locateRows(y0);
  Value threadBase = add(bufferBase, threadElement());
  Value firstX = pairX(0);
  for (int64_t q = 0; q < geo.planes(); ++q) {
    Value planeValid = valid, zLinear;
    if (rank == 3) {
      Value z = addConst(origin[0], q - geo.radiusZ);
      planeValid =
          arith::AndIOp::create(*b, planeValid, isWithin(*b, z, sizes[0], 0));
      zLinear = mul(mul(z, ny), nx);
    }
    for (int64_t strip = 0; strip < geo.strips; ++strip) {
      Value x = addConst(firstX, WgmmaSpGeometry::kOutputsX * strip);
      Value planeInside =
          arith::AndIOp::create(*b, planeValid, isWithin(*b, x, nx, 0));
      // In f16 elements: the plane, then the strip's 4 chunks.
      int64_t planeBase =
          (q * geo.planeBytes() + 4 * strip * geo.chunkBytes()) / 2;
      for (const StagedRow &r : stagedRows) {
        Value inside = arith::AndIOp::create(*b, planeInside, r.inside);
        Value at = add(zLinear ? add(zLinear, r.linear) : r.linear, x);
        Value src = arith::SelectOp::create(*b, inside, at, zeroIndex);
        Value count = arith::SelectOp::create(*b, inside, cst(2), zeroIndex);
        Value dst = addConst(threadBase, planeBase + r.element);
        tokens.push_back(nvgpu::DeviceAsyncCopyOp::create(
            *b, tokenType, smem, ValueRange{dst}, in, ValueRange{src},
            b->getIndexAttr(2), count, /*bypassL1=*/UnitAttr()));
      }
    }
  }
  return nvgpu::DeviceAsyncCreateGroupOp::create(*b, tokenType, tokens);
}

void WgmmaSpKernelBuilder::publishTile() {
  NVVM::FenceProxyOp::create(
      *b, NVVM::ProxyKind::async_shared,
      NVVM::SharedSpaceAttr::get(b->getContext(),
                                 NVVM::SharedSpace::shared_cta));
  gpu::BarrierOp::create(*b);
}

/// Step 3: every MMA of every strip into the strip's accumulators, reading
/// the buffer at `bufferUnits` (its shared-memory address >> 4). The strips
/// take turns MMA by MMA, so that consecutive MMAs do not wait on each
/// other's accumulators.
WgmmaSpKernelBuilder::Accumulators
WgmmaSpKernelBuilder::issueMmas(Value bufferUnits) {
  Value zero = arith::ConstantOp::create(*b, b->getZeroAttr(b->getF32Type()));
  Accumulators acc(geo.strips, SmallVector<Value>(geo.n / 2, zero));
  Type i64 = b->getI64Type();
  // Descriptor bits that do not depend on the MMA: LBO and SBO, no swizzle.
  WgmmaDescriptor fixed = geo.getDescriptor(0, 0, 0);
  fixed.startAddress = 0;
  uint64_t fixedBits = *fixed.encode();
  NVVM::WgmmaFenceAlignedOp::create(*b);
  auto descriptorAt = [&](const MmaOperands &mma, int64_t strip,
                          int64_t firstK) {
    WgmmaDescriptor d =
        geo.getDescriptor(mma.plane, mma.shift, 0, strip, firstK);
    Value mask = arith::ConstantIntOp::create(*b, i64, 0x3fff);
    Value offset = arith::ConstantIntOp::create(*b, i64, d.startAddress >> 4);
    Value address = arith::AddIOp::create(*b, bufferUnits, offset);
    Value start = arith::AndIOp::create(*b, address, mask);
    return arith::OrIOp::create(
        *b, start, arith::ConstantIntOp::create(*b, i64, fixedBits));
  };
  for (const MmaOperands &mma : mmas)
    for (int64_t strip = 0; strip < geo.strips; ++strip) {
      if (!op.isDense()) {
        acc[strip] =
            createWgmmaSp(*b, acc[strip], mma.a, descriptorAt(mma, strip, 0),
                          mma.metadata, /*selector=*/0);
        continue;
      }
      // Dense: K rows 0..15 with A words 0..3, then 16..31 with 4..7.
      for (int64_t half = 0; half < 2; ++half)
        acc[strip] = createWgmma(*b, acc[strip],
                                 ArrayRef<Value>(mma.a).slice(4 * half, 4),
                                 descriptorAt(mma, strip, 16 * half));
    }
  NVVM::WgmmaGroupSyncAlignedOp::create(*b);
  return acc;
}

WgmmaSpKernelBuilder::Accumulators
WgmmaSpKernelBuilder::waitMmas(const Accumulators &acc) {
  NVVM::WgmmaWaitGroupSyncOp::create(*b, 0);
  Accumulators result;
  for (const SmallVector<Value> &strip : acc)
    result.push_back(fenceAccumulators(*b, strip));
  return result;
}

/// Step 4, into the store staging: the thread's accumulators of n-tile j
/// (d_4j .. d_4j+3) are, rounded to f16 and paired, its fragments of two 8
/// x 8 matrices, D rows g and g + 8 (x) by columns 8 j .. 8 j + 7 (grid
/// rows c); `stmatrix .x4 .trans` stores two n-tiles' four matrices
/// transposed, lane l giving the address of row l % 8 of matrix l / 8: row
/// c = 8 j + l % 8 of the warp's staging, at x = 16 s + 8 (matrix % 2). The
/// warp then stores its rows (storeRows).
void WgmmaSpKernelBuilder::storeTile(const Accumulators &acc, Value y0) {
  Type i32 = b->getI32Type(), i64 = b->getI64Type();
  auto f16x2 = VectorType::get({2}, b->getF16Type());
  auto i32x1 = VectorType::get({1}, i32);
  auto pack = [&](Value lo, Value hi) {
    Value v = vector::FromElementsOp::create(
        *b, f16x2,
        ValueRange{arith::TruncFOp::create(*b, b->getF16Type(), lo),
                   arith::TruncFOp::create(*b, b->getF16Type(), hi)});
    return vector::ExtractOp::create(
        *b, vector::BitCastOp::create(*b, i32x1, v), 0);
  };
  Value matrix = arith::DivUIOp::create(*b, lane, cst(8));
  Value tileRows = cst(8);
  Value tile = arith::DivUIOp::create(*b, matrix, cst(2));
  Value tileRow = mul(tile, tileRows);
  Value rowInMatrix = arith::RemUIOp::create(*b, lane, cst(8));
  Value warpRow = mul(warp, cst(geo.n));
  Value row = add(add(warpRow, rowInMatrix), tileRow);
  Value halfBytes = cst(16);
  Value half = arith::RemUIOp::create(*b, matrix, cst(2));
  Value halfByte = mul(half, halfBytes);
  Value rowByte = addConst(mul(row, cst(geo.outputPitch())), geo.outputBase());
  Value laneByte = add(rowByte, halfByte);
  Value laneAddress = arith::AddIOp::create(
      *b, smemAddress, arith::IndexCastOp::create(*b, i64, laneByte));
  auto sharedPtr = LLVM::LLVMPointerType::get(b->getContext(), 3);
  int64_t tiles = geo.n / 8;
  for (int64_t strip = 0; strip < geo.strips; ++strip)
    for (int64_t j = 0; j < tiles; j += 2) {
      int64_t count = std::min<int64_t>(2, tiles - j);
      SmallVector<Value> sources;
      for (int64_t i = 4 * j; i < 4 * (j + count); i += 2)
        sources.push_back(pack(acc[strip][i], acc[strip][i + 1]));
      int64_t offset = 8 * j * geo.outputPitch() + 2 * 16 * strip;
      Value address = arith::AddIOp::create(
          *b, laneAddress, arith::ConstantIntOp::create(*b, i64, offset));
      NVVM::StMatrixOp::create(
          *b, LLVM::IntToPtrOp::create(*b, sharedPtr, address), sources,
          NVVM::MMALayout::col,
          NVVM::LdStMatrixShapeAttr::get(b->getContext(), 8, 8),
          NVVM::LdStMatrixEltType::B16);
    }
  NVVM::SyncWarpOp::create(*b, this->i32(-1));
  storeRows(y0);
}

/// Step 4, to the grid: the warp's n rows of the store staging, 16 bytes
/// (8 outputs) per lane and instruction, consecutive lanes along a row.
/// Rows outside the interior are skipped; an 8-output run wholly inside it
/// is one 16-byte store where N_x is a multiple of 8 (x_0 is one of 16,
/// so the run is then aligned), else one f16 store per interior output.
void WgmmaSpKernelBuilder::storeRows(Value y0) {
  int64_t rank = geo.rank;
  Type f16 = b->getF16Type();
  auto f16x8 = VectorType::get({8}, f16);
  Value nx = sizes[rank - 1];
  Value zero = cst(0);
  Value nxMod8 = arith::RemUIOp::create(*b, nx, cst(8));
  Value aligned =
      arith::CmpIOp::create(*b, arith::CmpIPredicate::eq, nxMod8, zero);
  Value zInside, zLinear;
  if (rank == 3) {
    zInside = isWithin(*b, origin[0], sizes[0], radii[0]);
    zLinear = mul(origin[0], sizes[1]);
  }
  int64_t runsPerRow = geo.blockWidth() / 8;
  int64_t runs = geo.n * runsPerRow;
  Value runInRow = arith::RemUIOp::create(*b, lane, cst(runsPerRow));
  Value firstRow = arith::DivUIOp::create(*b, lane, cst(runsPerRow));
  Value x = add(origin[rank - 1], mul(runInRow, cst(8)));
  Value xFull = arith::AndIOp::create(
      *b, aligned, isWithin(*b, x, nx, radii[rank - 1], /*extent=*/8));
  SmallVector<Value, 8> xInside;
  for (int64_t e = 0; e < 8; ++e)
    xInside.push_back(isWithin(*b, addConst(x, e), nx, radii[rank - 1]));
  Value runElement = addConst(mul(runInRow, cst(8)), geo.outputBase() / 2);
  Value warpRows = mul(warp, cst(geo.n * geo.outputPitch() / 2));
  Value warpElement = add(warpRows, runElement);
  for (int64_t first = 0; first < runs; first += stencil::kWarpSize) {
    // Row c = first / runsPerRow + lane / runsPerRow of the warp.
    Value c = addConst(firstRow, first / runsPerRow);
    Value element = add(warpElement, mul(c, cst(geo.outputPitch() / 2)));
    Value y = add(add(y0, mul(c, cst(4))), warp);
    Value inside = isWithin(*b, y, sizes[rank - 2], radii[rank - 2]);
    if (zInside)
      inside = arith::AndIOp::create(*b, inside, zInside);
    if (runs - first < int64_t(stencil::kWarpSize))
      inside = arith::AndIOp::create(
          *b, inside,
          arith::CmpIOp::create(*b, arith::CmpIPredicate::ult, lane,
                                cst(runs - first)));
    auto ifInside = scf::IfOp::create(*b, inside, /*withElse=*/false);
    OpBuilder::InsertionGuard guard(*b);
    b->setInsertionPointToStart(&ifInside.getThenRegion().front());
    Value run =
        vector::LoadOp::create(*b, f16x8, smem, ValueRange{element},
                               /*nontemporal=*/false, llvm::MaybeAlign(16));
    Value linear = add(mul(zLinear ? add(zLinear, y) : y, nx), x);
    auto ifFull = scf::IfOp::create(*b, xFull, /*withElse=*/true);
    b->setInsertionPointToStart(&ifFull.getThenRegion().front());
    vector::StoreOp::create(*b, run, out, ValueRange{linear},
                            /*nontemporal=*/false, llvm::MaybeAlign(16));
    b->setInsertionPointToStart(&ifFull.getElseRegion().front());
    for (int64_t e = 0; e < 8; ++e) {
      auto ifOne = scf::IfOp::create(*b, xInside[e], /*withElse=*/false);
      OpBuilder::InsertionGuard oneGuard(*b);
      b->setInsertionPointToStart(&ifOne.getThenRegion().front());
      Value index = addConst(linear, e);
      Value output = vector::ExtractOp::create(*b, run, e);
      memref::StoreOp::create(*b, output, out, ValueRange{index});
    }
  }
}

gpu::GPUFuncOp WgmmaSpKernelBuilder::build(OpBuilder &moduleBuilder,
                                           StringRef name) {
  Type f16 = Float16Type::get(op.getContext());
  int64_t rank = geo.rank;
  // Dynamic shared memory (the ring and the store staging may pass 48
  // KiB), which starts on a 16-byte boundary as descriptor start addresses
  // (16-byte units) and the 16-byte vectors of the store staging need.
  gpu::GPUFuncOp func = beginKernel(moduleBuilder, op.getLoc(), name, f16, rank,
                                    geo.smemBytes() / 2, kWarpgroupSize,
                                    geo.blockTile(), /*dynamicShared=*/true);
  radii = getRowFormRadii(rank, op.getRadius(), op.getRowOffsets());
  // Large 2-D tiles hold 5 A registers per MMA (90 at r_y = 7): ptxas gives
  // them 182-192 registers, two blocks per SM. Asking for three (at most
  // 168 registers, a few bytes of spills) was faster on an H100.
  if (int64_t blocks = getWgmmaMinBlocksPerSM(
          rank, countWgmmaSpMmas(geo, op.getRowOffsets())))
    func->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                  b->getI32IntegerAttr(blocks));
  loadOperands();
  Type i64 = b->getI64Type();
  smemAddress = arith::IndexCastOp::create(
      *b, i64, memref::ExtractAlignedPointerAsIndexOp::create(*b, smem));
  smemUnits = arith::ShRUIOp::create(*b, smemAddress,
                                     arith::ConstantIntOp::create(*b, i64, 4));
  // T: the sub-tiles of the block that hold rows of the grid (a trip count
  // the compiler cannot unroll: the A registers stay live across it).
  Value rowsLeft = arith::SubIOp::create(*b, sizes[rank - 2], origin[rank - 2]);
  Value tilesLeft =
      arith::CeilDivUIOp::create(*b, rowsLeft, cst(geo.tileRows()));
  Value maxSubTiles = cst(geo.subTiles);
  Value numSubTiles = arith::MinUIOp::create(*b, maxSubTiles, tilesLeft);
  int64_t bufferElements = geo.tileBytes() / 2;

  // The synchronous loop, one buffer.
  auto buildSyncLoop = [&] {
    Value step = cst(1);
    Value lower = cst(0);
    auto loop = scf::ForOp::create(*b, lower, numSubTiles, step);
    OpBuilder::InsertionGuard guard(*b);
    b->setInsertionPointToStart(loop.getBody());
    Value y0 = subTileRow(loop.getInductionVar());
    stageTile(y0);
    publishTile();
    storeTile(waitMmas(issueMmas(smemUnits)), y0);
    // The next sub-tile overwrites shared memory.
    gpu::BarrierOp::create(*b);
  };
  if (!pairsAreWords()) {
    buildSyncLoop();
    gpu::ReturnOp::create(*b);
    return func;
  }
  Value zero = cst(0);
  Value nxMod2 = arith::RemUIOp::create(*b, sizes[rank - 1], cst(2));
  Value even =
      arith::CmpIOp::create(*b, arith::CmpIPredicate::eq, nxMod2, zero);
  auto ifEven = scf::IfOp::create(*b, even, /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(*b);
    b->setInsertionPointToStart(&ifEven.getThenRegion().front());
    // The prologue: sub-tiles 0 .. stages - 2, a group each (zero fills
    // past the last).
    int64_t ahead = geo.stages - 1;
    SmallVector<Value> prologue;
    for (int64_t t = 0; t < ahead; ++t) {
      Value valid = arith::CmpIOp::create(*b, arith::CmpIPredicate::ult, cst(t),
                                          numSubTiles);
      Value base = cst(t * bufferElements);
      Value y0 = subTileRow(cst(t));
      prologue.push_back(copyTileAsync(y0, base, valid));
    }
    Value step = cst(1);
    Value lower = cst(0);
    auto loop = scf::ForOp::create(*b, lower, numSubTiles, step,
                                   ValueRange{prologue.back()});
    OpBuilder::InsertionGuard loopGuard(*b);
    b->setInsertionPointToStart(loop.getBody());
    Value t = loop.getInductionVar();
    // Sub-tile t's copies are done when at most the stages - 2 groups
    // issued after them are in flight; after the barrier every thread's
    // are, and the MMAs of step t - 1 are finished.
    nvgpu::DeviceAsyncWaitOp::create(*b, loop.getRegionIterArgs()[0],
                                     b->getI32IntegerAttr(ahead - 1));
    publishTile();
    Value buffer = arith::RemUIOp::create(*b, t, cst(geo.stages));
    Value tileUnits =
        arith::ConstantIntOp::create(*b, i64, geo.tileBytes() / 16);
    Value bufferIndex = arith::IndexCastOp::create(*b, i64, buffer);
    Value bufferOffset = arith::MulIOp::create(*b, bufferIndex, tileUnits);
    Value bufferUnits = arith::AddIOp::create(*b, smemUnits, bufferOffset);
    Accumulators acc = issueMmas(bufferUnits);
    // Sub-tile t + stages - 1 into buffer (t - 1) mod stages, which the
    // MMAs of step t - 1 read (zeros past the last sub-tile).
    Value next = addConst(t, ahead);
    Value hasNext =
        arith::CmpIOp::create(*b, arith::CmpIPredicate::ult, next, numSubTiles);
    Value bufferSize = cst(bufferElements);
    Value nextBuffer = arith::RemUIOp::create(*b, next, cst(geo.stages));
    Value nextBase = mul(nextBuffer, bufferSize);
    Value token = copyTileAsync(subTileRow(next), nextBase, hasNext);
    acc = waitMmas(acc);
    storeTile(acc, subTileRow(t));
    scf::YieldOp::create(*b, token);
    // No copy outlives the block (the last steps' are zero fills).
    b->setInsertionPointAfter(loop);
    nvgpu::DeviceAsyncWaitOp::create(*b, loop.getResult(0),
                                     b->getI32IntegerAttr(0));
  }
  {
    OpBuilder::InsertionGuard guard(*b);
    b->setInsertionPointToStart(&ifEven.getElseRegion().front());
    buildSyncLoop();
  }
  gpu::ReturnOp::create(*b);
  return func;
}

gpu::GPUFuncOp mlir::stencil::buildWgmmaSpKernel(
    OpBuilder &moduleBuilder, RowFormOpInterface op,
    const WgmmaSpGeometry &geometry, StringRef name) {
  return WgmmaSpKernelBuilder(op, geometry).build(moduleBuilder, name);
}
