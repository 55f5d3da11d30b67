//===- StencilToSpTC.cpp - Lower the sparse form to mma.sp kernels --------===//
//
// Implements `--convert-stencil-to-sptc`. The tiling, packing and row-swap
// scheme is described in the pass description (Conversion/Passes.td); the
// operand layouts of m16n8k32 `mma.sp` are in docs/MmaSparseLayout.md and
// Support/MmaSpModel.h, the coefficient layout in Support/SpTCPacking.h.
//
// Kernel outline (one time step), for a block at (z0, y0, x0):
//   1. each lane loads the A values and metadata of every kernel row;
//   2. the block stages its input tile plus halo into shared memory;
//   3. for every kernel row o and n-tile j: 8 shared-memory loads build the
//      B operand at base(lane) + const(o, j, i), then one mma.sp;
//   4. every accumulator that is an interior point is rounded to f16 and
//      stored.
//
//===----------------------------------------------------------------------===//

#include "stencil/Conversion/StencilToSpTC/StencilToSpTC.h"
#include "stencil/Conversion/StencilGPUCommon/HostLaunch.h"
#include "stencil/Conversion/StencilGPUCommon/KernelABI.h"
#include "stencil/Dialect/Stencil/IR/StencilDialect.h"
#include "stencil/Support/MmaSpModel.h"
#include "stencil/Support/SpTCPacking.h"
#include "stencil/Support/SpTCTiling.h"

#include "RowForm.h"
#include "TCF64Kernel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/SymbolTable.h"

#include <map>

namespace mlir {
namespace stencil {
#define GEN_PASS_DEF_CONVERTSTENCILTOSPTC
#include "stencil/Conversion/Passes.h.inc"
} // namespace stencil
} // namespace mlir

using namespace mlir;
using namespace mlir::stencil;

static constexpr StringLiteral kSparseGpuModuleName = "stencil_sptc";
static constexpr StringLiteral kDenseGpuModuleName = "stencil_tc";

namespace {

using BOperandPlan = SpTCBOperandPlan;

/// Builds the gpu.func of one row form.
class SpTCKernelBuilder {
public:
  /// A banded form reads B as `plan` says; a gathered form (SparStencil)
  /// as `gather` says.
  SpTCKernelBuilder(RowForm op, const SpTCGeometry &geometry,
                    const BOperandPlan *plan, const SpTCGather *gather,
                    bool orderedMetadata)
      : op(op), geo(geometry), plan(plan), gather(gather),
        orderedMetadata(orderedMetadata),
        elemType(cast<MemRefType>(op.getInput().getType()).getElementType()) {}

  gpu::GPUFuncOp build(OpBuilder &moduleBuilder, StringRef name);

private:
  /// Where vector `e` of a tile comes from: the global x of its first
  /// element, whether its row lies in the grid, and the row's linear index
  /// (in rows of N_x elements).
  struct VectorSource {
    Value gx, rowInside, rowLinear;
  };
  VectorSource locateVector(Value e, ArrayRef<Value> tileOrigin);
  Value loadVector(Value e, ArrayRef<Value> tileOrigin);
  /// The first `count` vectors of a tile (all of them by default) from
  /// `tileOrigin`: loadTile into registers, stageTile into shared memory.
  SmallVector<Value> loadTile(ArrayRef<Value> tileOrigin, int64_t count = 0);
  void storeTile(ArrayRef<Value> vectors, int64_t count = 0,
                 Value base = Value());
  void storeVector(Value vector, Value e, Value base = Value());
  void stageTile(ArrayRef<Value> tileOrigin, int64_t count = 0);
  /// Calls `body(k, e)` for the thread's vectors e = tid + k * threads of
  /// the first `count` vectors of a tile, under an `e < count` guard where
  /// some threads have none.
  void forEachThreadVector(int64_t count,
                           function_ref<void(int64_t k, Value e)> body);
  /// The 3-D plane stream (SpTCGeometry::streamsPlanes).
  void buildPlaneStream(ArrayRef<Value> blockOrigin);
  /// The B addresses of input plane `dz` (3-D) from the lane's offsets:
  /// the lane parts and the constant part for n-tile shift `shift`.
  std::pair<SmallVector<Value>, int64_t>
  getPlaneAddresses(ArrayRef<Value> laneOffsets, int64_t dz, int64_t shift);
  Value copyTileAsync(ArrayRef<Value> tileOrigin, Value bufferBase,
                      Value valid);
  void buildAsyncPipeline(function_ref<SmallVector<Value>(Value)> subOrigin);
  int64_t numVectors() const { return geo.smemSize / SpTCGeometry::kVector; }
  int64_t vectorsPerThread(int64_t count) const {
    return (count + geo.threads() - 1) / geo.threads();
  }
  Value cst(int64_t v) { return arith::ConstantIndexOp::create(*b, v); }
  Value add(Value x, Value y) { return arith::AddIOp::create(*b, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(*b, x, y); }
  Value addConst(Value x, int64_t c) { return c ? add(x, cst(c)) : x; }
  /// SpTCBOperandPlan::swizzle of a shared-memory column.
  Value swizzleColumn(Value column);
  /// Whether the halves of vector `e` of a tile trade places in shared
  /// memory (the swizzle; null when there is none).
  Value swapsHalves(Value e);

  void loadCoefficients();
  SmallVector<Value> getLaneOffsets();
  SmallVector<Value> getGatherLaneOffsets();
  SmallVector<Value, 4> loadBOperand(ArrayRef<Value> laneOffsets,
                                     int64_t offset);
  SmallVector<Value, 4> mmaM16N8K16(ArrayRef<Value> a, ArrayRef<Value> bRegs,
                                    ArrayRef<Value> c);
  SmallVector<Value, 4> mmaDenseRow(ArrayRef<Value> aRow,
                                    ArrayRef<Value> bRegs, ArrayRef<Value> c);
  void computeAndStore();
  void computeGatheredAndStore();
  void computeLowRankAndStore();
  /// acc += the product of kernel row `o` (its A registers) and `bRegs`.
  void multiplyRow(int64_t o, ArrayRef<Value> bRegs,
                   SmallVectorImpl<Value> &acc);
  /// The grid coordinates of output `m` of column `n` of n-tile `j` (rank
  /// >= 2).
  SmallVector<Value> getOutputCoords(Value m, Value n, int64_t j);
  void storeOutputs(ArrayRef<SmallVector<Value, 4>> acc);
  void storeTransposed(ArrayRef<SmallVector<Value, 4>> acc);
  void storeScalar(ArrayRef<SmallVector<Value, 4>> acc);

  RowForm op;
  const SpTCGeometry &geo;
  const BOperandPlan *plan;
  const SpTCGather *gather;
  bool orderedMetadata;
  /// The grid's and the MMA operands' type: f16, or bf16 (dense form).
  Type elemType;

  std::optional<ImplicitLocOpBuilder> b;
  Value in, out, coef, smem;
  SmallVector<Value> sizes;   // N_d, outermost first
  SmallVector<Value> origin;  // first output of the block, outermost first
  Value tid, lane, warp, groupId, threadInGroup;
  /// Where the current tile starts in shared memory (double buffering).
  Value smemBase;
  /// With streamed planes: entry r_z + dz is where the plane at dz from the
  /// current output plane starts in shared memory (empty otherwise).
  SmallVector<Value> planeBases;
  // A operand registers (4, or 8 for the dense form, x vector<2xf16>) and
  // metadata of every row.
  SmallVector<SmallVector<Value, 4>> aRegs;
  SmallVector<Value> metadata;
};
} // namespace

gpu::GPUFuncOp SpTCKernelBuilder::build(OpBuilder &moduleBuilder,
                                        StringRef name) {
  Location loc = op.getLoc();
  StencilKernel kernel = createStencilKernel(
      moduleBuilder, loc, name, elemType, geo.rank,
      geo.allocatedElements(), geo.threads());
  gpu::GPUFuncOp func = kernel.func;
  b.emplace(ImplicitLocOpBuilder::atBlockBegin(loc, &func.getBody().front()));
  in = kernel.in;
  out = kernel.out;
  coef = kernel.coeffs;
  sizes = kernel.sizes;
  smem = kernel.smem;

  // Thread coordinates.
  tid = gpu::ThreadIdOp::create(*b, gpu::Dimension::x);
  lane = arith::RemUIOp::create(*b, tid, cst(32));
  warp = arith::DivUIOp::create(*b, tid, cst(32));
  groupId = arith::DivUIOp::create(*b, lane, cst(4));
  threadInGroup = arith::RemUIOp::create(*b, lane, cst(4));

  // The block's first output along each dimension.
  origin = getBlockOrigin(*b, geo.blockTile);

  loadCoefficients();

  // The sub-tiles, software-pipelined: the loads of sub-tile k + 1 are in
  // flight while sub-tile k computes.
  SmallVector<Value> blockOrigin(origin);
  auto subOrigin = [&](Value sub) {
    SmallVector<Value> o(blockOrigin);
    o[geo.subDim] = add(o[geo.subDim], mul(sub, cst(geo.tile[geo.subDim])));
    return o;
  };
  if (geo.streamsPlanes()) {
    buildPlaneStream(blockOrigin);
    gpu::ReturnOp::create(*b);
    return func;
  }
  if (geo.asyncCopy) {
    buildAsyncPipeline(subOrigin);
    gpu::ReturnOp::create(*b);
    return func;
  }
  if (geo.subTiles == 1) {
    stageTile(blockOrigin);
    gpu::BarrierOp::create(*b);
    computeAndStore();
    gpu::ReturnOp::create(*b);
    return func;
  }
  SmallVector<Value> first = loadTile(blockOrigin);
  auto loop = scf::ForOp::create(*b, cst(0), cst(geo.subTiles), cst(1), first);
  {
    OpBuilder::InsertionGuard guard(*b);
    b->setInsertionPointToStart(loop.getBody());
    Value sub = loop.getInductionVar();
    storeTile(llvm::to_vector_of<Value>(loop.getRegionIterArgs()));
    gpu::BarrierOp::create(*b);
    Value nextSub = addConst(sub, 1);
    Value hasNext = arith::CmpIOp::create(*b, arith::CmpIPredicate::slt,
                                          nextSub, cst(geo.subTiles));
    SmallVector<Type> types(first.size(), first.front().getType());
    auto next = scf::IfOp::create(*b, types, hasNext, /*withElse=*/true);
    {
      OpBuilder::InsertionGuard g(*b);
      b->setInsertionPointToStart(&next.getThenRegion().front());
      scf::YieldOp::create(*b, loadTile(subOrigin(nextSub)));
      b->setInsertionPointToStart(&next.getElseRegion().front());
      Value zeros = arith::ConstantOp::create(
          *b, DenseElementsAttr::get(cast<ShapedType>(types.front()),
                                     b->getZeroAttr(elemType)));
      scf::YieldOp::create(*b, SmallVector<Value>(types.size(), zeros));
    }
    origin = subOrigin(sub);
    computeAndStore();
    gpu::BarrierOp::create(*b);
    scf::YieldOp::create(*b, next.getResults());
  }
  gpu::ReturnOp::create(*b);
  return func;
}

Value SpTCKernelBuilder::swizzleColumn(Value column) {
  if (!geo.swizzleBit)
    return column;
  // column ^ (((column >> bit) & 1) << 2)
  Value bit = arith::AndIOp::create(
      *b, arith::ShRUIOp::create(*b, column, cst(geo.swizzleBit)), cst(1));
  return arith::XOrIOp::create(*b, column,
                               arith::ShLIOp::create(*b, bit, cst(2)));
}

Value SpTCKernelBuilder::swapsHalves(Value e) {
  if (!geo.swizzleBit)
    return Value();
  // The vector's column is 8 * (e % vectorsPerRow).
  int64_t vectorsPerRow = geo.smemShape[geo.rank - 1] / SpTCGeometry::kVector;
  Value column = mul(arith::RemUIOp::create(*b, e, cst(vectorsPerRow)),
                     cst(SpTCGeometry::kVector));
  Value bit = arith::AndIOp::create(
      *b, arith::ShRUIOp::create(*b, column, cst(geo.swizzleBit)), cst(1));
  return arith::CmpIOp::create(*b, arith::CmpIPredicate::ne, bit, cst(0));
}

/// Step 1: the lane's A values (4 words per row) and metadata.
void SpTCKernelBuilder::loadCoefficients() {
  Type i32 = b->getI32Type();
  int64_t numRows = op.getNumRows();
  SpTCCoefficientLayout layout{numRows};
  // Words per lane and kernel row: 4 (mma.sp) or 8 (two m16n8k16).
  const int64_t perLane = op.isDense() ? 8 : 4;
  Value laneWords = mul(lane, cst(perLane));
  for (int64_t o = 0; o < numRows; ++o) {
    // The lane's words of row o are contiguous and 16-byte aligned: one
    // 16-byte load per four (valueWord / TCCoefficientLayout::word).
    SmallVector<Value, 4> regs;
    for (int64_t part = 0; part < perLane / 4; ++part) {
      int64_t first = op.isDense()
                          ? TCCoefficientLayout::word(o, 0, part, 0)
                          : SpTCCoefficientLayout::valueWord(o, 0, 0);
      Value words = vector::LoadOp::create(
          *b, VectorType::get({4}, i32), coef,
          ValueRange{addConst(laneWords, first)},
          /*nontemporal=*/false, llvm::MaybeAlign(16));
      Value pairs =
          vector::BitCastOp::create(*b, VectorType::get({8}, elemType), words);
      for (int64_t j = 0; j < 4; ++j)
        regs.push_back(vector::ShuffleOp::create(
            *b, pairs, pairs, ArrayRef<int64_t>{2 * j, 2 * j + 1}));
    }
    aRegs.push_back(regs);
    if (!op.isDense() && o % 2 == 0)
      metadata.push_back(memref::LoadOp::create(
          *b, coef, ValueRange{addConst(lane, layout.metadataWord(o, 0))}));
  }
}

SpTCKernelBuilder::VectorSource
SpTCKernelBuilder::locateVector(Value e, ArrayRef<Value> tileOrigin) {
  const int64_t vec = SpTCGeometry::kVector;
  int64_t rank = geo.rank;
  int64_t vectorsPerRow = geo.smemShape[rank - 1] / vec;
  Value row = arith::DivUIOp::create(*b, e, cst(vectorsPerRow));
  Value vcol = arith::RemUIOp::create(*b, e, cst(vectorsPerRow));
  VectorSource source;
  source.gx = arith::SubIOp::create(
      *b, add(tileOrigin[rank - 1], mul(vcol, cst(vec))), cst(geo.pad));
  source.rowInside = arith::ConstantIntOp::create(*b, b->getI1Type(), 1);
  source.rowLinear = cst(0);
  for (int64_t d = 0; d + 1 < rank; ++d) {
    Value local = row;
    if (d + 2 < rank)
      local = arith::DivUIOp::create(*b, row, cst(geo.smemShape[d + 1]));
    if (d > 0)
      local = arith::RemUIOp::create(*b, local, cst(geo.smemShape[d]));
    Value coord = arith::SubIOp::create(*b, add(tileOrigin[d], local),
                                        cst(geo.radii[d]));
    source.rowInside =
        arith::AndIOp::create(*b, source.rowInside, isWithin(*b, coord, sizes[d], /*margin=*/0));
    source.rowLinear = add(mul(source.rowLinear, sizes[d]), coord);
  }
  return source;
}

/// Step 2: one vector (8 elements, 16 bytes) of the input tile with its
/// halo, zero outside the grid: one 16-byte load when it lies inside the
/// grid and the rows are 16-byte aligned (N_x % 8 == 0), guarded scalar
/// loads otherwise. `e` is the vector's index in the shared-memory tile.
Value SpTCKernelBuilder::loadVector(Value e, ArrayRef<Value> tileOrigin) {
  const int64_t vec = SpTCGeometry::kVector;
  auto vecType = VectorType::get({vec}, elemType);
  Value zero = arith::ConstantOp::create(*b, b->getZeroAttr(elemType));
  Value zeroIndex = cst(0);
  int64_t rank = geo.rank;
  Value nx = sizes[rank - 1];
  Value aligned = arith::CmpIOp::create(
      *b, arith::CmpIPredicate::eq, arith::RemUIOp::create(*b, nx, cst(vec)),
      zeroIndex);
  // 1. Which vector: its shared-memory row and the global coordinates.
  auto [gx, rowInside, rowLinear] = locateVector(e, tileOrigin);
  Value linear = add(mul(rowLinear, nx), gx);

  // 2. The whole vector inside an aligned row: one 16-byte load.
  Value full = arith::AndIOp::create(
      *b, arith::AndIOp::create(*b, rowInside, aligned),
      arith::AndIOp::create(
          *b,
          arith::CmpIOp::create(*b, arith::CmpIPredicate::sge, gx, zeroIndex),
          arith::CmpIOp::create(*b, arith::CmpIPredicate::sle,
                                addConst(gx, vec), nx)));
  auto ifOp = scf::IfOp::create(
      *b, full,
      [&](OpBuilder &then, Location loc) {
        Value v = vector::LoadOp::create(then, loc, vecType, in,
                                         ValueRange{linear},
                                         /*nontemporal=*/false,
                                         llvm::MaybeAlign(16));
        scf::YieldOp::create(then, loc, v);
      },
      [&](OpBuilder &otherwise, Location loc) {
        // 3. Otherwise element by element, zero outside the grid.
        ImplicitLocOpBuilder eb(loc, otherwise);
        SmallVector<Value> elements;
        for (int64_t k = 0; k < vec; ++k) {
          Value x = arith::AddIOp::create(eb, gx,
                                          arith::ConstantIndexOp::create(eb, k));
          Value inside = arith::AndIOp::create(
              eb, rowInside,
              arith::AndIOp::create(
                  eb,
                  arith::CmpIOp::create(eb, arith::CmpIPredicate::sge, x,
                                        zeroIndex),
                  arith::CmpIOp::create(eb, arith::CmpIPredicate::slt, x, nx)));
          Value index = arith::AddIOp::create(
              eb, linear, arith::ConstantIndexOp::create(eb, k));
          auto elementIf = scf::IfOp::create(
              eb, inside,
              [&](OpBuilder &t, Location l) {
                scf::YieldOp::create(
                    t, l,
                    memref::LoadOp::create(t, l, in, ValueRange{index})
                        .getResult());
              },
              [&](OpBuilder &o, Location l) {
                scf::YieldOp::create(o, l, zero);
              });
          elements.push_back(elementIf.getResult(0));
        }
        scf::YieldOp::create(
            eb, vector::FromElementsOp::create(eb, vecType, elements)
                    .getResult());
      });
  return ifOp.getResult(0);
}

/// The thread's vectors of a tile: vector tid + k * threads, for every k
/// (zero past the tile's end).
SmallVector<Value> SpTCKernelBuilder::loadTile(ArrayRef<Value> tileOrigin,
                                               int64_t count) {
  auto vecType = VectorType::get({SpTCGeometry::kVector}, elemType);
  if (!count)
    count = numVectors();
  SmallVector<Value> vectors;
  for (int64_t k = 0; k < vectorsPerThread(count); ++k) {
    Value e = addConst(tid, k * geo.threads());
    if ((k + 1) * geo.threads() <= count) {
      vectors.push_back(loadVector(e, tileOrigin));
      continue;
    }
    Value valid =
        arith::CmpIOp::create(*b, arith::CmpIPredicate::ult, e, cst(count));
    auto ifOp = scf::IfOp::create(*b, TypeRange{vecType}, valid,
                                  /*withElse=*/true);
    OpBuilder::InsertionGuard guard(*b);
    b->setInsertionPointToStart(&ifOp.getThenRegion().front());
    scf::YieldOp::create(*b, loadVector(e, tileOrigin));
    b->setInsertionPointToStart(&ifOp.getElseRegion().front());
    scf::YieldOp::create(
        *b, arith::ConstantOp::create(
                *b, DenseElementsAttr::get(vecType,
                                           b->getZeroAttr(elemType)))
                .getResult());
    vectors.push_back(ifOp.getResult(0));
  }
  return vectors;
}

void SpTCKernelBuilder::forEachThreadVector(
    int64_t count, function_ref<void(int64_t k, Value e)> body) {
  for (int64_t k = 0; k < vectorsPerThread(count); ++k) {
    Value e = addConst(tid, k * geo.threads());
    if ((k + 1) * geo.threads() <= count) {
      body(k, e);
      continue;
    }
    Value valid =
        arith::CmpIOp::create(*b, arith::CmpIPredicate::ult, e, cst(count));
    auto ifOp = scf::IfOp::create(*b, valid, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(*b);
    b->setInsertionPointToStart(&ifOp.getThenRegion().front());
    body(k, e);
  }
}

/// Loads the thread's vectors of a tile and stores each into shared memory
/// right away (no vector stays live across the others).
void SpTCKernelBuilder::stageTile(ArrayRef<Value> tileOrigin, int64_t count) {
  forEachThreadVector(count ? count : numVectors(), [&](int64_t, Value e) {
    storeVector(loadVector(e, tileOrigin), e);
  });
}

/// Stores the thread's vectors of `loadTile` into shared memory, from
/// `base` (the tile's start by default) on.
void SpTCKernelBuilder::storeTile(ArrayRef<Value> vectors, int64_t count,
                                  Value base) {
  forEachThreadVector(count ? count : numVectors(), [&](int64_t k, Value e) {
    storeVector(vectors[k], e, base);
  });
}

/// One 16-byte store of vector `e` into the tile (`base` elements on, when
/// given), its halves swapped where the swizzle says so.
void SpTCKernelBuilder::storeVector(Value vector, Value e, Value base) {
  if (Value swap = swapsHalves(e)) {
    const int64_t half = SpTCGeometry::kVector / 2;
    SmallVector<int64_t> mask;
    for (int64_t k = 0; k < SpTCGeometry::kVector; ++k)
      mask.push_back((k + half) % SpTCGeometry::kVector);
    Value swapped = vector::ShuffleOp::create(*b, vector, vector, mask);
    vector = arith::SelectOp::create(*b, swap, swapped, vector);
  }
  Value index = mul(e, cst(SpTCGeometry::kVector));
  vector::StoreOp::create(*b, vector, smem,
                          ValueRange{base ? add(base, index) : index},
                          /*nontemporal=*/false, llvm::MaybeAlign(16));
}

/// Issues the asynchronous copies (cp.async, 16 bytes, zero-filled past the
/// grid) of the thread's vectors of a tile into the buffer at `bufferBase`;
/// with `valid` false nothing is read (zero fill). Returns the group's token.
Value SpTCKernelBuilder::copyTileAsync(ArrayRef<Value> tileOrigin,
                                       Value bufferBase, Value valid) {
  const int64_t vec = SpTCGeometry::kVector;
  int64_t rank = geo.rank;
  Value zeroIndex = cst(0);
  Value nx = sizes[rank - 1];
  auto tokenType = nvgpu::DeviceAsyncTokenType::get(b->getContext());
  SmallVector<Value> tokens;
  for (int64_t k = 0; k < vectorsPerThread(numVectors()); ++k) {
    Value e = addConst(tid, k * geo.threads());
    auto [gx, rowInside, rowLinear] = locateVector(e, tileOrigin);
    Value inside = arith::AndIOp::create(
        *b, arith::AndIOp::create(*b, valid, rowInside),
        arith::CmpIOp::create(*b, arith::CmpIPredicate::ult, e,
                              cst(numVectors())));
    // gx is a multiple of 8: a vector lies wholly left of the grid, or
    // starts inside it and keeps min(8, N_x - gx) elements.
    inside = arith::AndIOp::create(
        *b, inside,
        arith::AndIOp::create(
            *b,
            arith::CmpIOp::create(*b, arith::CmpIPredicate::sge, gx,
                                  zeroIndex),
            arith::CmpIOp::create(*b, arith::CmpIPredicate::slt, gx, nx)));
    Value count = arith::MinSIOp::create(
        *b, cst(vec), arith::SubIOp::create(*b, nx, gx));
    count = arith::SelectOp::create(*b, inside, count, zeroIndex);
    Value src = arith::SelectOp::create(*b, inside,
                                        add(mul(rowLinear, nx), gx), zeroIndex);
    Value dst = add(bufferBase, mul(e, cst(vec)));
    Value swap = swapsHalves(e);
    if (!swap) {
      tokens.push_back(nvgpu::DeviceAsyncCopyOp::create(
          *b, tokenType, smem, ValueRange{dst}, in, ValueRange{src},
          b->getIndexAttr(vec), count, /*bypassL1=*/b->getUnitAttr()));
      continue;
    }
    // Swizzled rows: two 8-byte copies, each half to its stored place (the
    // count is 0 or 8 here, the rows being 16-byte aligned).
    const int64_t half = vec / 2;
    Value halfCount = arith::DivUIOp::create(*b, count, cst(2));
    for (int64_t h = 0; h < 2; ++h) {
      Value place = arith::SelectOp::create(*b, swap, cst((1 - h) * half),
                                            cst(h * half));
      tokens.push_back(nvgpu::DeviceAsyncCopyOp::create(
          *b, tokenType, smem, ValueRange{add(dst, place)}, in,
          ValueRange{addConst(src, h * half)}, b->getIndexAttr(half),
          halfCount, /*bypassL1=*/UnitAttr()));
    }
  }
  return nvgpu::DeviceAsyncCreateGroupOp::create(*b, tokenType, tokens);
}

/// The double-buffered pipeline (rows 16-byte aligned): the copies of
/// sub-tile k + 1 run while sub-tile k computes. Rows that are not 16-byte
/// aligned (N_x % 8 != 0) take the synchronous path, one sub-tile at a time.
void SpTCKernelBuilder::buildAsyncPipeline(
    function_ref<SmallVector<Value>(Value)> subOrigin) {
  const int64_t vec = SpTCGeometry::kVector;
  Value aligned = arith::CmpIOp::create(
      *b, arith::CmpIPredicate::eq,
      arith::RemUIOp::create(*b, sizes[geo.rank - 1], cst(vec)), cst(0));
  auto ifOp = scf::IfOp::create(*b, aligned, /*withElseRegion=*/true);
  SmallVector<Value> savedOrigin(origin);
  {
    OpBuilder::InsertionGuard guard(*b);
    b->setInsertionPointToStart(&ifOp.getThenRegion().front());
    Value yes = arith::ConstantIntOp::create(*b, b->getI1Type(), 1);
    Value first = copyTileAsync(subOrigin(cst(0)), cst(0), yes);
    auto loop = scf::ForOp::create(*b, cst(0), cst(geo.subTiles), cst(1),
                                   ValueRange{first});
    OpBuilder::InsertionGuard loopGuard(*b);
    b->setInsertionPointToStart(loop.getBody());
    Value sub = loop.getInductionVar();
    Value nextSub = addConst(sub, 1);
    Value hasNext = arith::CmpIOp::create(*b, arith::CmpIPredicate::slt,
                                          nextSub, cst(geo.subTiles));
    Value nextBase = mul(arith::RemUIOp::create(*b, nextSub, cst(2)),
                         cst(geo.bufferStride()));
    Value next = copyTileAsync(subOrigin(nextSub), nextBase, hasNext);
    // Only the group just issued may still be in flight.
    nvgpu::DeviceAsyncWaitOp::create(*b, next, b->getI32IntegerAttr(1));
    gpu::BarrierOp::create(*b);
    origin = subOrigin(sub);
    smemBase = mul(arith::RemUIOp::create(*b, sub, cst(2)),
                   cst(geo.bufferStride()));
    computeAndStore();
    gpu::BarrierOp::create(*b);
    scf::YieldOp::create(*b, next);
  }
  {
    OpBuilder::InsertionGuard guard(*b);
    b->setInsertionPointToStart(&ifOp.getElseRegion().front());
    auto loop = scf::ForOp::create(*b, cst(0), cst(geo.subTiles), cst(1));
    OpBuilder::InsertionGuard loopGuard(*b);
    b->setInsertionPointToStart(loop.getBody());
    Value sub = loop.getInductionVar();
    stageTile(subOrigin(sub));
    gpu::BarrierOp::create(*b);
    origin = subOrigin(sub);
    smemBase = Value();
    computeAndStore();
    gpu::BarrierOp::create(*b);
  }
  origin = savedOrigin;
}

/// The 3-D plane stream (SpTCGeometry::streamsPlanes), the z-marching of
/// GPU stencil codes: the block computes output planes z_0 .. z_0 + K - 1
/// (K sub-tiles) one after the other. Their input planes z_0 - r_z .. z_0 +
/// K - 1 + r_z are a ring of P = 2 r_z + 1 slots: input plane p (at z_0 -
/// r_z + p) goes to slot p mod P. Before the loop the block stages planes
/// 0 .. 2 r_z - 1 and loads plane 2 r_z into registers. Step k stores the
/// registers (plane k + 2 r_z) into its slot, which held plane k - 1, used
/// for the last time by step k - 1; after the barrier it loads plane k + 1
/// + 2 r_z into registers (in flight while it computes) and computes output
/// plane z_0 + k, whose plane at dz is in slot (k + r_z + dz) mod P
/// (`planeBases`). Each input plane is loaded once per block instead of
/// 2 r_z + 1 times.
void SpTCKernelBuilder::buildPlaneStream(ArrayRef<Value> blockOrigin) {
  int64_t rz = geo.radii[0], ring = geo.smemShape[0];
  int64_t plane = geo.planeElements();
  int64_t planeVectors = plane / SpTCGeometry::kVector;
  // Input plane p comes from a tile origin p planes past the block's.
  auto planeOrigin = [&](Value p) {
    SmallVector<Value> o(blockOrigin);
    o[0] = add(o[0], p);
    return o;
  };
  auto slotBase = [&](Value p) {
    return mul(arith::RemUIOp::create(*b, p, cst(ring)), cst(plane));
  };
  if (rz > 0)
    stageTile(blockOrigin, 2 * rz * planeVectors);
  SmallVector<Value> first = loadTile(planeOrigin(cst(2 * rz)), planeVectors);
  auto loop = scf::ForOp::create(*b, cst(0), cst(geo.subTiles), cst(1), first);
  OpBuilder::InsertionGuard guard(*b);
  b->setInsertionPointToStart(loop.getBody());
  Value k = loop.getInductionVar();
  storeTile(llvm::to_vector_of<Value>(loop.getRegionIterArgs()), planeVectors,
            slotBase(addConst(k, 2 * rz)));
  gpu::BarrierOp::create(*b);
  Value hasNext = arith::CmpIOp::create(*b, arith::CmpIPredicate::slt,
                                        addConst(k, 1), cst(geo.subTiles));
  SmallVector<Type> types(first.size(), first.front().getType());
  auto next = scf::IfOp::create(*b, types, hasNext, /*withElse=*/true);
  {
    OpBuilder::InsertionGuard g(*b);
    b->setInsertionPointToStart(&next.getThenRegion().front());
    scf::YieldOp::create(
        *b, loadTile(planeOrigin(addConst(k, 2 * rz + 1)), planeVectors));
    b->setInsertionPointToStart(&next.getElseRegion().front());
    Value zeros = arith::ConstantOp::create(
        *b, DenseElementsAttr::get(cast<ShapedType>(types.front()),
                                   b->getZeroAttr(elemType)));
    scf::YieldOp::create(*b, SmallVector<Value>(types.size(), zeros));
  }
  SmallVector<Value> savedOrigin(origin);
  origin.assign(blockOrigin.begin(), blockOrigin.end());
  origin[0] = add(origin[0], k);
  // Slot (k + c) mod P for c = r_z + dz in 0 .. 2 r_z: k mod P + c, less P
  // where that reaches P.
  Value kSlot = arith::RemUIOp::create(*b, k, cst(ring));
  for (int64_t c = 0; c < ring; ++c) {
    Value slot = addConst(kSlot, c);
    if (c > 0) {
      Value wraps =
          arith::CmpIOp::create(*b, arith::CmpIPredicate::uge, slot, cst(ring));
      slot = arith::SelectOp::create(*b, wraps, addConst(slot, -ring), slot);
    }
    planeBases.push_back(mul(slot, cst(plane)));
  }
  computeAndStore();
  planeBases.clear();
  origin = savedOrigin;
  gpu::BarrierOp::create(*b);
  scf::YieldOp::create(*b, next.getResults());
}

std::pair<SmallVector<Value>, int64_t>
SpTCKernelBuilder::getPlaneAddresses(ArrayRef<Value> laneOffsets, int64_t dz,
                                     int64_t shift) {
  if (planeBases.empty())
    return {SmallVector<Value>(laneOffsets), geo.constantOffset(dz, shift)};
  // Streamed planes: the plane's slot, then the in-plane constant (that of
  // the plane at -r_z, whose slot part is 0).
  Value base = planeBases[geo.radii[0] + dz];
  SmallVector<Value> offsets;
  for (Value offset : laneOffsets)
    offsets.push_back(add(offset, base));
  return {offsets, geo.constantOffset(-geo.radii[0], shift)};
}

/// The lane's part of every B address: one per load (pair).
SmallVector<Value> SpTCKernelBuilder::getLaneOffsets() {
  if (gather)
    return getGatherLaneOffsets();
  // The lane's part of every B address (pass description, "Row swap"):
  // b_i of lane (g, t) holds row k_i = 2t + (i & 1) + 8 (i >> 1) of B, the
  // input at innermost offset dx(k_i) (the folded row swap), so its address
  // is laneOffsets[i] + constantOffset(kernel row, n-tile) with
  // laneOffsets[i] = row(g) + swizzle(column(g, warp) + pad + dx(k_i)). The
  // four candidates of dx are constants, selected once per lane; every load
  // then has a constant offset from a per-lane register.
  Value rowBase, columnBase;
  if (geo.rank == 1) {
    rowBase = cst(0);
    columnBase = add(mul(warp, cst(kMmaSpM * kMmaSpN * geo.nTiles)),
                     mul(groupId, cst(kMmaSpM)));
  } else {
    rowBase = mul(groupId, cst(geo.smemStrides[geo.rank - 2]));
    columnBase = mul(warp, cst(kMmaSpM));
  }
  if (smemBase)
    rowBase = add(rowBase, smemBase);
  // One offset per load: per register pair when the plan pairs them.
  SmallVector<Value> laneOffsets;
  unsigned stride = plan->paired ? 2 : 1;
  for (unsigned i = 0; i < 8; i += stride) {
    Value dx;
    for (int64_t t = 3; t >= 0; --t) {
      Value candidate = cst(plan->pad + plan->dx[i][t]);
      if (!dx) {
        dx = candidate;
        continue;
      }
      Value isT = arith::CmpIOp::create(*b, arith::CmpIPredicate::eq,
                                        threadInGroup, cst(t));
      dx = arith::SelectOp::create(*b, isT, candidate, dx);
    }
    laneOffsets.push_back(add(rowBase, swizzleColumn(add(columnBase, dx))));
  }
  return laneOffsets;
}

/// The lane's part of every B address of a gathered form, one per MMA q and
/// register p (SparStencil's lookup-table address mapping, section 3.3,
/// with the table folded into constants). Register p of lane (g, t) holds
/// B rows 2s and 2s + 1, s = t + 4 p (docs/MmaSparseLayout.md): the input
/// pair of slot s from the origin of MMA column n = g. Its address
/// (SpTCGeometry::groupStride and what follows it) is the column's origin
/// in the tile (the lane part), plus the slot's offset, one of four
/// constants picked by t, plus the n-tile's constant offset.
SmallVector<Value> SpTCKernelBuilder::getGatherLaneOffsets() {
  Value base = add(mul(groupId, cst(geo.groupStride())),
                   mul(warp, cst(geo.warpStride())));
  if (smemBase)
    base = add(base, smemBase);
  // Slot s of MMA q: (its plane, its constant offset). With streamed planes
  // the plane's slot in the ring is a per-step value (`planeBases`) and the
  // constant holds the rest; otherwise the constant holds it all.
  bool streamed = !planeBases.empty();
  auto slotKey = [&](int64_t q, int64_t s) -> std::pair<int64_t, int64_t> {
    auto [dz, dy, dx] = gather->slots[16 * q + s];
    if (streamed)
      return {dz, geo.slotOffset(0, dy, dx)};
    return {0, geo.slotOffset(dz, dy, dx)};
  };
  auto planeBase = [&](int64_t dz) { return planeBases[geo.radii[0] + dz]; };
  // Register p of lane t: one of four values picked by t.
  auto pick = [&](function_ref<Value(int64_t t)> valueOf,
                  function_ref<bool(int64_t t)> sameAsLast) {
    Value value = valueOf(3);
    for (int64_t t = 2; t >= 0; --t) {
      if (sameAsLast(t))
        continue;
      Value isT = arith::CmpIOp::create(*b, arith::CmpIPredicate::eq,
                                        threadInGroup, cst(t));
      value = arith::SelectOp::create(*b, isT, valueOf(t), value);
    }
    return value;
  };
  SmallVector<Value> laneOffsets;
  for (int64_t q = 0; q < gather->numRows(); ++q)
    for (int64_t p = 0; p < 4; ++p) {
      auto key = [&](int64_t t) { return slotKey(q, t + 4 * p); };
      bool onePlane = llvm::all_of(llvm::seq<int64_t>(0, 3), [&](int64_t t) {
        return key(t).first == key(3).first;
      });
      Value offset;
      if (!streamed || onePlane) {
        // A constant per t, then (streamed) the plane they share.
        offset =
            pick([&](int64_t t) { return cst(key(t).second); },
                 [&](int64_t t) { return key(t).second == key(3).second; });
        if (streamed)
          offset = add(offset, planeBase(key(3).first));
      } else {
        offset = pick(
            [&](int64_t t) {
              return addConst(planeBase(key(t).first), key(t).second);
            },
            [&](int64_t t) { return key(t) == key(3); });
      }
      laneOffsets.push_back(add(base, offset));
    }
  return laneOffsets;
}

/// The B operand (b_0..b_7 as four f16 pairs) at `offset` from the lane's
/// addresses.
SmallVector<Value, 4>
SpTCKernelBuilder::loadBOperand(ArrayRef<Value> laneOffsets, int64_t offset) {
  auto pairType = VectorType::get({2}, elemType);
  SmallVector<Value, 4> bRegs;
  if (!plan || plan->paired) {
    for (unsigned p = 0; p < 4; ++p)
      bRegs.push_back(vector::LoadOp::create(
          *b, pairType, smem, ValueRange{addConst(laneOffsets[p], offset)},
          /*nontemporal=*/false, llvm::MaybeAlign(4)));
    return bRegs;
  }
  SmallVector<Value> bValues;
  for (unsigned i = 0; i < 8; ++i)
    bValues.push_back(memref::LoadOp::create(
        *b, smem, ValueRange{addConst(laneOffsets[i], offset)}));
  for (unsigned p = 0; p < 4; ++p)
    bRegs.push_back(vector::FromElementsOp::create(
        *b, pairType, ValueRange{bValues[2 * p], bValues[2 * p + 1]}));
  return bRegs;
}

/// One `mma.sync.m16n8k16` f16 x f16 + f32 (or bf16 x bf16 + f32, whose
/// operand registers NVVM takes as i32): D = A B + C.
SmallVector<Value, 4> SpTCKernelBuilder::mmaM16N8K16(ArrayRef<Value> a,
                                                     ArrayRef<Value> bRegs,
                                                     ArrayRef<Value> c) {
  Type f32 = b->getF32Type();
  auto resultType =
      LLVM::LLVMStructType::getLiteral(b->getContext(), {f32, f32, f32, f32});
  NVVM::MMATypes type = NVVM::MMATypes::f16;
  SmallVector<Value> aOperands(a), bOperands(bRegs);
  if (elemType.isBF16()) {
    type = NVVM::MMATypes::bf16;
    for (Value &reg : llvm::concat<Value>(aOperands, bOperands))
      reg = LLVM::BitcastOp::create(*b, b->getI32Type(), reg);
  }
  auto mma = NVVM::MmaOp::create(
      *b, resultType, aOperands, bOperands, c,
      ArrayRef<int64_t>{kMmaSpM, kMmaSpN, 16}, std::nullopt, std::nullopt,
      std::array<NVVM::MMATypes, 2>{type, type},
      std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                     NVVM::MMALayout::col});
  SmallVector<Value, 4> d;
  for (unsigned i = 0; i < 4; ++i)
    d.push_back(
        LLVM::ExtractValueOp::create(*b, mma.getRes(), ArrayRef<int64_t>{i}));
  return d;
}

/// The dense form of one kernel row: K = 0..15 with b_0..b_3, then 16..31
/// with b_4..b_7 (Support/MmaModel.h).
SmallVector<Value, 4> SpTCKernelBuilder::mmaDenseRow(ArrayRef<Value> aRow,
                                                     ArrayRef<Value> bRegs,
                                                     ArrayRef<Value> c) {
  SmallVector<Value, 4> d = mmaM16N8K16(aRow.slice(0, 4), bRegs.slice(0, 2), c);
  return mmaM16N8K16(aRow.slice(4, 4), bRegs.slice(2, 2), d);
}

/// acc += kernel row `o` times `bRegs`: one mma.sp with the row's A values
/// and metadata, or the two m16n8k16 of the dense form.
void SpTCKernelBuilder::multiplyRow(int64_t o, ArrayRef<Value> bRegs,
                                    SmallVectorImpl<Value> &acc) {
  if (op.isDense()) {
    SmallVector<Value, 4> d = mmaDenseRow(aRegs[o], bRegs, acc);
    acc.assign(d.begin(), d.end());
    return;
  }
  Type f32 = b->getF32Type();
  auto resultType =
      LLVM::LLVMStructType::getLiteral(b->getContext(), {f32, f32, f32, f32});
  Value selector = LLVM::ConstantOp::create(*b, b->getI32Type(),
                                            b->getI32IntegerAttr(o % 2));
  auto mma = NVVM::MmaSpOp::create(
      *b, resultType, aRegs[o], bRegs, acc, metadata[o / 2], selector,
      ArrayRef<int64_t>{kMmaSpM, kMmaSpN, kMmaSpK}, std::nullopt,
      std::array<NVVM::MMATypes, 2>{NVVM::MMATypes::f16, NVVM::MMATypes::f16});
  if (orderedMetadata)
    mma.setOrderedMetadata(true);
  for (unsigned i = 0; i < 4; ++i)
    acc[i] =
        LLVM::ExtractValueOp::create(*b, mma.getRes(), ArrayRef<int64_t>{i});
}

/// Steps 3 and 4 of a gathered form (SparStencil): MMA q of n-tile j reads
/// B at the lane's offsets of q plus the n-tile's constant offset; the MMAs
/// of one q follow each other over the n-tiles (independent accumulators).
void SpTCKernelBuilder::computeGatheredAndStore() {
  SmallVector<Value> laneOffsets = getLaneOffsets();
  Value zero = arith::ConstantOp::create(*b, b->getZeroAttr(b->getF32Type()));
  SmallVector<SmallVector<Value, 4>> acc(geo.nTiles,
                                         SmallVector<Value, 4>(4, zero));
  // The lane offsets hold the slots' planes (dz); with streamed planes
  // their ring slots, whose constant part is that of the plane at -r_z.
  int64_t planeDz = planeBases.empty() ? 0 : -geo.radii[0];
  for (int64_t q = 0; q < gather->numRows(); ++q)
    for (int64_t j = 0; j < geo.nTiles; ++j) {
      SmallVector<Value, 4> bRegs =
          loadBOperand(ArrayRef<Value>(laneOffsets).slice(4 * q, 4),
                       geo.constantOffset(planeDz, geo.nTileShift(j)));
      multiplyRow(q, bRegs, acc[j]);
    }
  storeOutputs(acc);
}

/// Steps 3 and 4: the MMAs, then the interior stores.
void SpTCKernelBuilder::computeAndStore() {
  if (op.getColumnRadius() > 0)
    return computeLowRankAndStore();
  if (gather)
    return computeGatheredAndStore();
  Type f32 = b->getF32Type();
  ArrayRef<int64_t> rowOffsets = op.getRowOffsets();
  int64_t outerRank = geo.rank - 1;
  SmallVector<Value> laneOffsets = getLaneOffsets();

  Value zero = arith::ConstantOp::create(*b, b->getZeroAttr(f32));
  SmallVector<SmallVector<Value, 4>> acc(geo.nTiles,
                                         SmallVector<Value, 4>(4, zero));

  // Register tiling: B depends on the kernel row and n-tile only through
  // the shift s = 8 j + dy of its columns (and dz), so each distinct B is
  // loaded once and feeds every (row, n-tile) pair with that shift.
  // key (dz, s) -> the (row, n-tile) pairs.
  std::map<std::pair<int64_t, int64_t>, SmallVector<std::pair<int64_t, int64_t>>>
      uses;
  for (int64_t o = 0, e = op.getNumRows(); o < e; ++o) {
    ArrayRef<int64_t> outer = rowOffsets.slice(o * outerRank, outerRank);
    int64_t dz = geo.rank == 3 ? outer[0] : 0;
    int64_t dy = geo.rank >= 2 ? outer[geo.rank - 2] : 0;
    for (int64_t j = 0; j < geo.nTiles; ++j)
      uses[{dz, kMmaSpN * j + dy}].push_back({o, j});
  }
  for (const auto &[key, pairs] : uses) {
    auto [offsets, offset] =
        getPlaneAddresses(laneOffsets, key.first, key.second);
    SmallVector<Value, 4> bRegs = loadBOperand(offsets, offset);
    for (auto [o, j] : pairs)
      multiplyRow(o, bRegs, acc[j]);
  }

  storeOutputs(acc);
}

/// Steps 3 and 4 of a low-rank chain (`column_weights`; LoRAStencil, seed
/// 003, eq. 9; the math and the fragment identity are in
/// Support/SpTCPacking.h, LowRankColumnLayout, checked by the mma model in
/// SpTCPackingTest). Stage 1: T-tile q (q = 0..n-tiles, rows y_0 - h + 8q
/// .. + 7, the shared tile's rows 8q + n) of term k is the dense row form
/// of V_k on the B operand at shift 8q - h, which every term shares. Stage
/// 2: output n-tile p accumulates one m16n8k16 per term whose A is T-tiles
/// p and p + 1 rounded to f16 pairs in place and whose B is u_k.
void SpTCKernelBuilder::computeLowRankAndStore() {
  Type f32 = b->getF32Type();
  auto pairType = VectorType::get({2}, elemType);
  int64_t terms = op.getNumRows(), h = op.getColumnRadius();
  SmallVector<Value> laneOffsets = getLaneOffsets();
  Value zero = arith::ConstantOp::create(*b, b->getZeroAttr(f32));
  SmallVector<Value, 4> zeros(4, zero);

  // Stage 1: t[k][q] = (c_0, c_1) and (c_2, c_3) of T-tile q as f16 pairs.
  auto toPair = [&](Value x, Value y) -> Value {
    return vector::FromElementsOp::create(
        *b, pairType,
        ValueRange{arith::TruncFOp::create(*b, elemType, x),
                   arith::TruncFOp::create(*b, elemType, y)});
  };
  SmallVector<SmallVector<std::array<Value, 2>>> t(terms);
  for (int64_t q = 0; q <= geo.nTiles; ++q) {
    SmallVector<Value, 4> bRegs =
        loadBOperand(laneOffsets, geo.constantOffset(0, kMmaSpN * q - h));
    for (int64_t k = 0; k < terms; ++k) {
      SmallVector<Value, 4> c = mmaDenseRow(aRegs[k], bRegs, zeros);
      t[k].push_back({toPair(c[0], c[1]), toPair(c[2], c[3])});
    }
  }

  // Stage 2, with the lane's u_k words (b_0, b_1) and (b_2, b_3).
  LowRankColumnLayout layout{terms};
  SmallVector<SmallVector<Value, 4>> acc(geo.nTiles, zeros);
  for (int64_t k = 0; k < terms; ++k) {
    Value words = vector::LoadOp::create(
        *b, VectorType::get({2}, b->getI32Type()), coef,
        ValueRange{addConst(mul(lane, cst(2)), layout.word(k, 0, 0))},
        /*nontemporal=*/false, llvm::MaybeAlign(8));
    Value halves =
        vector::BitCastOp::create(*b, VectorType::get({4}, elemType), words);
    SmallVector<Value, 2> uRegs;
    for (int64_t p = 0; p < 2; ++p)
      uRegs.push_back(vector::ShuffleOp::create(
          *b, halves, halves, ArrayRef<int64_t>{2 * p, 2 * p + 1}));
    for (int64_t p = 0; p < geo.nTiles; ++p) {
      SmallVector<Value, 4> a = {t[k][p][0], t[k][p][1], t[k][p + 1][0],
                                 t[k][p + 1][1]};
      acc[p] = mmaM16N8K16(a, uRegs, acc[p]);
    }
  }
  storeOutputs(acc);
}

/// Output m = u r1 + v of column n of n-tile j lies at (u, v) from the
/// column's origin: (y0 + 8 r2 j + r2 n, x0 + r1 w) for warp w, or with the
/// columns along x (y0 + r2 j, x0 + 8 r1 w + r1 n) (SpTCGeometry).
SmallVector<Value> SpTCKernelBuilder::getOutputCoords(Value m, Value n,
                                                      int64_t j) {
  int64_t rank = geo.rank;
  Value u, v = m;
  if (geo.r1 < kMmaSpM) {
    u = arith::DivUIOp::create(*b, m, cst(geo.r1));
    v = arith::RemUIOp::create(*b, m, cst(geo.r1));
  }
  SmallVector<Value> coords(origin);
  Value x, y;
  if (geo.columnsAlongX) {
    x = add(mul(warp, cst(kMmaSpN * geo.r1)), mul(n, cst(geo.r1)));
    y = cst(geo.r2 * j);
  } else {
    x = mul(warp, cst(geo.r1));
    y = addConst(geo.r2 == 1 ? n : mul(n, cst(geo.r2)), kMmaSpN * geo.r2 * j);
  }
  coords[rank - 1] = add(add(origin[rank - 1], x), v);
  coords[rank - 2] = add(origin[rank - 2], u ? add(y, u) : y);
  return coords;
}

/// Step 4: every accumulator that is an interior point, rounded to f16. In
/// 2-D and 3-D rows whose length is not a multiple of 4 cannot take 8-byte
/// stores: they store each output on its own (`storeScalar`), as do MMA
/// columns two outputs wide (layout [2, 8]), whose four consecutive
/// outputs span two rows.
void SpTCKernelBuilder::storeOutputs(ArrayRef<SmallVector<Value, 4>> acc) {
  if (geo.rank == 1) {
    storeTransposed(acc);
    return;
  }
  if (geo.r1 < 4) {
    storeScalar(acc);
    return;
  }
  Value aligned = arith::CmpIOp::create(
      *b, arith::CmpIPredicate::eq,
      arith::AndIOp::create(*b, sizes[geo.rank - 1], cst(3)), cst(0));
  auto ifOp = scf::IfOp::create(*b, aligned, /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(*b);
  b->setInsertionPointToStart(&ifOp.getThenRegion().front());
  storeTransposed(acc);
  b->setInsertionPointToStart(&ifOp.getElseRegion().front());
  storeScalar(acc);
}

/// The outputs of the thread and its neighbours, transposed so that each
/// thread stores four consecutive ones (rows 4-element aligned).
void SpTCKernelBuilder::storeTransposed(ArrayRef<SmallVector<Value, 4>> acc) {
  // c_i of lane (g, t) is output (m, n) = (g + 8 (i >> 1),
  // 2t + (i & 1)): one f16 per store, half a sector used. A 4 x 4 transpose
  // over the lanes of groups 4h .. 4h + 3 (same t) gives lane (4h + k, t)
  // the outputs m = 4h + 8 (k >> 1) + 0..3 of column n = 2t + (k & 1),
  // consecutive along x: one 8-byte store, whole sectors. Two shuffles: with
  // group g ^ 1 (lane ^ 4) the outputs of the other parity of k, then with
  // group g ^ 2 (lane ^ 8) those of the other half.
  Type i32 = b->getI32Type();
  auto pairType2 = VectorType::get({2}, elemType);
  Value bit0 = arith::CmpIOp::create(
      *b, arith::CmpIPredicate::ne,
      arith::AndIOp::create(*b, groupId, cst(1)), cst(0));
  Value bit1 = arith::CmpIOp::create(
      *b, arith::CmpIPredicate::ne,
      arith::AndIOp::create(*b, groupId, cst(2)), cst(0));
  auto makePair = [&](Value x, Value y) -> Value {
    return vector::FromElementsOp::create(*b, pairType2, ValueRange{x, y});
  };
  auto shuffleXor = [&](Value pair, int32_t mask) -> Value {
    Value word = vector::ExtractOp::create(
        *b,
        vector::BitCastOp::create(*b, VectorType::get({1}, i32), pair),
        ArrayRef<int64_t>{0});
    auto shuffle = gpu::ShuffleOp::create(*b, word, mask, 32,
                                          gpu::ShuffleMode::XOR);
    Value vec = vector::FromElementsOp::create(
        *b, VectorType::get({1}, i32), ValueRange{Value(shuffle.getShuffleResult())});
    return vector::BitCastOp::create(*b, pairType2, vec);
  };
  auto element = [&](Value pair, int64_t i) -> Value {
    return vector::ExtractOp::create(*b, pair, ArrayRef<int64_t>{i});
  };
  auto select = [&](Value c, Value x, Value y) -> Value {
    return arith::SelectOp::create(*b, c, x, y);
  };
  // The lane's outputs after the transpose: m0 + 0..3 in column n.
  Value m0 = add(mul(arith::ShRUIOp::create(*b, groupId, cst(2)), cst(4)),
                 select(bit1, cst(8), cst(0)));
  Value n = add(mul(threadInGroup, cst(2)), select(bit0, cst(1), cst(0)));
  for (int64_t j = 0; j < geo.nTiles; ++j) {
    SmallVector<Value, 4> v;
    for (unsigned i = 0; i < 4; ++i)
      v.push_back(arith::TruncFOp::create(*b, elemType, acc[j][i]));
    // Stage 1: keep c_k with k & 1 == g & 1, trade the others.
    Value keep0 = select(bit0, v[1], v[0]), keep1 = select(bit0, v[3], v[2]);
    Value got = shuffleXor(makePair(select(bit0, v[0], v[1]),
                                    select(bit0, v[2], v[3])),
                           4);
    // Pairs ordered by source group (even, odd): for k = g & 1 and k + 2.
    Value lo = select(bit0, makePair(element(got, 0), keep0),
                      makePair(keep0, element(got, 0)));
    Value hi = select(bit0, makePair(element(got, 1), keep1),
                      makePair(keep1, element(got, 1)));
    // Stage 2: keep k = g & 3, trade the other pair.
    Value mine = select(bit1, hi, lo);
    Value theirs = shuffleXor(select(bit1, lo, hi), 8);
    Value quad = select(
        bit1,
        vector::ShuffleOp::create(*b, theirs, mine, ArrayRef<int64_t>{0, 1, 2, 3}),
        vector::ShuffleOp::create(*b, mine, theirs, ArrayRef<int64_t>{0, 1, 2, 3}));

    SmallVector<Value> coords(origin);
    if (geo.rank == 1) {
      // x = x0 + w 128 nTiles + (8 j + n) 16 + m.
      Value column = addConst(n, kMmaSpN * j);
      coords[0] =
          add(add(origin[0], mul(warp, cst(kMmaSpM * kMmaSpN * geo.nTiles))),
              add(mul(column, cst(kMmaSpM)), m0));
    } else {
      coords = getOutputCoords(m0, n, j);
    }
    // Interior: r_d <= coord_d < N_d - r_d; along x for all four.
    int64_t xDim = geo.rank - 1;
    Value rowInterior = arith::ConstantIntOp::create(*b, b->getI1Type(), 1);
    for (int64_t d = 0; d < xDim; ++d)
      rowInterior = arith::AndIOp::create(
          *b, rowInterior, isWithin(*b, coords[d], sizes[d], geo.radii[d]));
    Value linear = getLinearIndex(*b, coords, sizes);
    Value whole = arith::AndIOp::create(
        *b, rowInterior,
        isWithin(*b, coords[xDim], sizes[xDim], geo.radii[xDim], 4));
    scf::IfOp::create(
        *b, whole,
        [&](OpBuilder &then, Location loc) {
          vector::StoreOp::create(then, loc, quad, out, ValueRange{linear},
                                  /*nontemporal=*/false, llvm::MaybeAlign(8));
          scf::YieldOp::create(then, loc);
        },
        [&](OpBuilder &otherwise, Location loc) {
          // Near the grid's edge: each of the four on its own.
          OpBuilder::InsertionGuard guard(*b);
          b->setInsertionPoint(scf::YieldOp::create(otherwise, loc));
          for (int64_t e = 0; e < 4; ++e) {
            Value inside = arith::AndIOp::create(
                *b, rowInterior,
                isWithin(*b, addConst(coords[xDim], e), sizes[xDim],
                         geo.radii[xDim]));
            Value value =
                vector::ExtractOp::create(*b, quad, ArrayRef<int64_t>{e});
            Value index = addConst(linear, e);
            scf::IfOp::create(*b, inside, [&](OpBuilder &t, Location l) {
              memref::StoreOp::create(t, l, value, out, ValueRange{index});
              scf::YieldOp::create(t, l);
            });
          }
        });
  }
}

/// One store per output, c_i of lane (g, t) at (m, n) = (g + 8 (i >> 1),
/// 2t + (i & 1)).
void SpTCKernelBuilder::storeScalar(ArrayRef<SmallVector<Value, 4>> acc) {
  Value nBase = mul(threadInGroup, cst(2));
  for (int64_t j = 0; j < geo.nTiles; ++j) {
    for (unsigned i = 0; i < 4; ++i) {
      Value m = addConst(groupId, 8 * (i >> 1));
      Value n = addConst(nBase, i & 1);
      SmallVector<Value> coords = getOutputCoords(m, n, j);
      // Interior: r_d <= coord_d < N_d - r_d.
      Value interior;
      for (int64_t d = 0; d < geo.rank; ++d) {
        Value inDim = isWithin(*b, coords[d], sizes[d], geo.radii[d]);
        interior = interior ? arith::AndIOp::create(*b, interior, inDim)
                            : inDim;
      }
      Value linear = getLinearIndex(*b, coords, sizes);
      Value value = arith::TruncFOp::create(*b, elemType, acc[j][i]);
      scf::IfOp::create(*b, interior, [&](OpBuilder &then, Location loc) {
        memref::StoreOp::create(then, loc, value, out, ValueRange{linear});
        scf::YieldOp::create(then, loc);
      });
    }
  }
}

namespace {
struct ConvertStencilToSpTCPass
    : public stencil::impl::ConvertStencilToSpTCBase<ConvertStencilToSpTCPass> {
  using ConvertStencilToSpTCBase::ConvertStencilToSpTCBase;

  void runOnOperation() override;

private:
  LogicalResult convert(RowForm op, gpu::GPUModuleOp gpuModule,
                        SymbolTable &symbols,
                        SmallVectorImpl<Attribute> &launches);
  /// The f16 kernel (mma.sp, or two mma.sync m16n8k16 per kernel row).
  LogicalResult buildF16Kernel(RowForm op, int64_t rank, int64_t warps,
                               int64_t tilesPerWarp, int64_t subTilesPerBlock,
                               bool useAsyncCopy, ArrayRef<int64_t> radii,
                               const SpTCGather *gather,
                               OpBuilder &moduleBuilder, StringRef name,
                               StencilKernelLaunch &launch);
};
} // namespace

/// Checks what the kernel supports; emits a located error otherwise.
static LogicalResult checkSupported(RowForm op) {
  auto type = cast<MemRefType>(op.getInput().getType());
  Type elementType = type.getElementType();
  bool denseType =
      op.isDense() && (elementType.isF64() || elementType.isBF16());
  if (!elementType.isF16() && !denseType)
    return op.emitOpError("has element type ")
           << elementType << ", but the "
           << (op.isDense()
                   ? "Tensor Core kernels compute on f16 or bf16 (mma.sync "
                     "m16n8k16) or f64 (mma.sync m8n8k4, m16n8k4 on sm_90)"
                   : "Sparse Tensor Core kernel computes on f16")
           << " operands (use --lower-to-cuda-core or --lower-to-cpu for "
              "other element types"
           << (op.isDense() ? ")" : ", --lower-to-tc for bf16 and f64)");
  if (!type.getLayout().isIdentity())
    return op.emitOpError("needs grids with the identity layout");
  if (op.getBoundary() != BoundaryKind::halo)
    return op.emitOpError("supports only the 'halo' boundary");
  if (op.getColumnRadius() > 0 && elementType.isF64())
    return op.emitOpError("is a low-rank chain on ")
           << elementType
           << " grids; its kernel computes on f16 or bf16 (m16n8k16)";
  if (op.isGathered() && elementType.isF64())
    return op.emitOpError("is a gathered form (layout, gather_offsets) on "
                          "f64 grids; its kernel computes on f16 or bf16 "
                          "(mma.sp, m16n8k16)");
  if (!op.getInputOffsets() && !op.isGathered())
    return op.emitOpError("still has a column permutation: run "
                          "--stencil-fold-row-swap first");
  if (!op.getTilingAttr())
    return op.emitOpError("has no tiling: run --stencil-sptc-tile first");
  if (!op.getPackedCoefficients())
    return op.emitOpError("has no packed coefficients: run "
                          "--stencil-sptc-pack first");
  if (kMmaSpM % op.getRowsPerBlock() != 0)
    return op.emitOpError("rows_per_block ")
           << op.getRowsPerBlock() << " does not divide the " << kMmaSpM
           << " rows of an m16n8k32 mma.sp";
  return success();
}

LogicalResult ConvertStencilToSpTCPass::convert(
    RowForm op, gpu::GPUModuleOp gpuModule, SymbolTable &symbols,
    SmallVectorImpl<Attribute> &launches) {
  // 1. Checks and geometry.
  if (failed(checkSupported(op)))
    return failure();
  auto gridType = cast<MemRefType>(op.getInput().getType());
  int64_t rank = gridType.getRank();
  // The tiling of --stencil-sptc-tile (checked by the op's verifier).
  DictionaryAttr tiling = op.getTilingAttr();
  int64_t warps = tiling.getAs<IntegerAttr>("warps").getInt();
  int64_t tilesPerWarp = tiling.getAs<IntegerAttr>("n_tiles").getInt();
  int64_t subTilesPerBlock = tiling.getAs<IntegerAttr>("sub_tiles").getInt();
  bool useAsyncCopy = tiling.getAs<BoolAttr>("async_copy").getValue();
  SmallVector<int64_t> radii;
  std::optional<SpTCGather> gather = op.getGather(radii);
  if (!gather)
    radii = getRowFormRadii(rank, op.getRadius(), op.getRowOffsets(),
                            op.getColumnRadius());
  auto parent =
      op.getOperation()->getParentOfType<FunctionOpInterface>();
  std::string name = (parent ? parent.getName().str() : "stencil") +
                     (op.isDense() ? "_tc" : "_sptc");
  OpBuilder moduleBuilder = OpBuilder::atBlockEnd(gpuModule.getBody());
  StencilKernelLaunch launch;
  launch.threads = 32 * warps;
  launch.coefficients = *op.getPackedCoefficients();

  if (gridType.getElementType().isF64()) {
    // The f64 kernel (TCF64Kernel.h).
    TCF64Geometry geo(rank, warps, tilesPerWarp,
                      tiling.getAs<IntegerAttr>("m_tiles")
                          ? tiling.getAs<IntegerAttr>("m_tiles").getInt()
                          : 1,
                      radii);
    if (f64Shape != "m8n8k4" && f64Shape != "m16n8k4")
      return op.emitOpError("f64-shape must be 'm8n8k4' or 'm16n8k4', got '")
             << f64Shape.getValue() << "'";
    geo.pairMTiles = f64Shape == "m16n8k4";
    if (geo.smemElements() * 8 > kMaxStaticSharedBytes)
      return op.emitOpError("needs ")
             << geo.smemElements() * 8
             << " bytes of shared memory for its tile, more than "
             << kMaxStaticSharedBytes << ": use fewer warps, n-tiles or m-tiles";
    launch.kernel = buildTCF64Kernel(moduleBuilder, op, geo, name);
    launch.blockTile = geo.tile;
    launch.accumulator = "f64";
    // Per kernel row and n-tile, C chunks of 2 * 8 * 8 * 4 flops for 8 x 8
    // outputs.
    launch.unit = geo.pairMTiles && geo.mTiles > 1 ? "mma.f64.m16n8k4"
                                                   : "mma.f64";
    launch.unitFlopsPerPoint = double(op.getNumRows()) * geo.chunks * 8;
  } else {
    if (failed(buildF16Kernel(op, rank, warps, tilesPerWarp, subTilesPerBlock,
                              useAsyncCopy, radii, gather ? &*gather : nullptr,
                              moduleBuilder, name, launch)))
      return failure();
  }
  SymbolTable(gpuModule).insert(launch.kernel);
  emitHostLaunches(op.getOperation(), op.getInput(), op.getOutput(),
                   op.getSteps(), launch, symbols, launches);
  op.getOperation()->erase();
  return success();
}

LogicalResult ConvertStencilToSpTCPass::buildF16Kernel(
    RowForm op, int64_t rank, int64_t warps, int64_t tilesPerWarp,
    int64_t subTilesPerBlock, bool useAsyncCopy, ArrayRef<int64_t> radii,
    const SpTCGather *gather, OpBuilder &moduleBuilder, StringRef name,
    StencilKernelLaunch &launch) {
  // The B operand: the banded form's plan (row swap, swizzle), or the
  // gathered form's rows (no swizzle: the slots' offsets are arbitrary).
  std::optional<BOperandPlan> plan;
  int64_t pad = 0, pitch = 0;
  SmallVector<int64_t, 2> layout;
  if (gather) {
    SpTCGatherRows rows =
        planSpTCGatherRows(*gather, rank, warps, tilesPerWarp, radii);
    pad = rows.pad;
    pitch = rows.pitch;
    layout = {gather->r1, gather->r2};
  } else {
    plan = planSpTCBOperand(
        *op.getInputOffsets(), op.getRowsPerBlock(), rank,
        SpTCGeometry::innermostTile(rank, warps, tilesPerWarp));
    pad = plan->pad;
    pitch = plan->pitch;
  }
  int64_t h = op.getColumnRadius();
  SpTCGeometry geo(rank, warps, tilesPerWarp, subTilesPerBlock,
                   op.getRowsPerBlock(), radii, pad, pitch,
                   /*extraRows=*/h > 0 ? kMmaSpN - 2 * h : 0, layout);
  geo.asyncCopy = useAsyncCopy;
  geo.swizzleBit = plan ? plan->swizzleBit : 0;
  if (geo.streamsPlanes() && geo.asyncCopy)
    return op.emitOpError("streams its input planes (3-D, ")
           << subTilesPerBlock
           << " sub-tiles along z) through registers: async_copy is not "
              "supported there (use one sub-tile, or async-copy=off)";
  if (geo.allocatedElements() * 2 > kMaxStaticSharedBytes)
    return op.emitOpError("needs ")
           << geo.allocatedElements() * 2 << " bytes of shared memory for its tile, more "
           << "than " << kMaxStaticSharedBytes << ": use fewer warps or n-tiles";

  // The kernel; its coefficients are the packed words (SPIDER 3.3.2) of
  // --stencil-sptc-pack.
  SpTCKernelBuilder kernelBuilder(op, geo, plan ? &*plan : nullptr, gather,
                                  orderedMetadata);
  launch.kernel = kernelBuilder.build(moduleBuilder, name);
  launch.blockTile = geo.blockTile;
  launch.accumulator = "f32";
  // Per kernel row, one m16n8k32 mma.sp (or two m16n8k16 mma.sync) of
  // 2 * 16 * 8 * 32 dense-equivalent flops for 16 x 8 outputs.
  bool bf16 = cast<MemRefType>(op.getInput().getType())
                  .getElementType()
                  .isBF16();
  launch.unit = !op.isDense() ? "mma.sp.f16" : bf16 ? "mma.bf16" : "mma.f16";
  launch.unitFlopsPerPoint =
      double(op.getNumRows()) * 2 * kMmaSpK * kMmaSpM * kMmaSpN /
      (kMmaSpM * kMmaSpN);
  if (h > 0) {
    // The chain rounds T_k = X V_k to f16: Sum_k |u_k|_1 |v_k|_1 bounds it
    // (row 0 of kernel matrix k holds every weight of v_k once).
    auto dense = cast<RowGemmOp>(op.getOperation());
    SmallVector<double> u(dense.getColumnWeightsAttr().getValues<double>());
    SmallVector<double> kernels(dense.getKernels().getValues<double>());
    int64_t n = 2 * h + 1, l = op.getRowsPerBlock();
    for (int64_t k = 0; k < op.getNumRows(); ++k) {
      double uNorm = 0, vNorm = 0;
      for (int64_t i = 0; i < n; ++i)
        uNorm += std::abs(u[k * n + i]);
      for (int64_t c = 0; c < 2 * l; ++c)
        vNorm += std::abs(kernels[k * l * 2 * l + c]);
      launch.chainAbsSum += uNorm * vNorm;
    }
    // Per term: stage 1 on n-tiles + 1 T-tiles (K = 32) and stage 2 on
    // n-tiles output tiles (K = 16), for n-tiles x 16 x 8 outputs.
    launch.unitFlopsPerPoint =
        double(op.getNumRows()) *
        (2.0 * kMmaSpK * (tilesPerWarp + 1) + 2.0 * 16 * tilesPerWarp) /
        tilesPerWarp;
  }
  return success();
}

void ConvertStencilToSpTCPass::runOnOperation() {
  ModuleOp module = getOperation();
  SmallVector<RowForm> ops;
  module.walk([&](Operation *op) {
    if (isa<RowForm>(op))
      ops.push_back(RowForm(op));
  });
  if (ops.empty())
    return;

  // One kernel per op, in the gpu.module of its form.
  SymbolTable symbols(module);
  SmallVector<Attribute> launches;
  for (RowForm op : ops) {
    gpu::GPUModuleOp gpuModule = getOrCreateGpuModule(
        module, symbols,
        op.isDense() ? kDenseGpuModuleName : kSparseGpuModuleName);
    if (failed(convert(op, gpuModule, symbols, launches)))
      return signalPassFailure();
  }
  appendLaunchRecords(module, launches);
}
