//===- SpTCStaging.cpp - Staging of the row-form kernel -------------------===//
//
// Step 2 of the row-form kernel (SpTCKernelBuilder.h): the input tile and
// its halo into shared memory, by synchronous 16-byte loads, by cp.async
// into two buffers, or as a stream of planes along z (3-D).
//
//===----------------------------------------------------------------------===//

#include "SpTCKernelBuilder.h"
#include "stencil/Conversion/StencilGPUCommon/KernelABI.h"
#include "stencil/Support/MmaSpModel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::stencil;

Value SpTCKernelBuilder::swizzleColumn(Value column) {
  if (!geo.swizzleBit)
    return column;
  // column ^ (((column >> bit) & 1) << 2)
  Value one = cst(1);
  Value shifted = arith::ShRUIOp::create(*b, column, cst(geo.swizzleBit));
  Value bit = arith::AndIOp::create(*b, shifted, one);
  return arith::XOrIOp::create(*b, column,
                               arith::ShLIOp::create(*b, bit, cst(2)));
}

Value SpTCKernelBuilder::swapsHalves(Value e) {
  if (!geo.swizzleBit)
    return Value();
  // The vector's column is 8 * (e % vectorsPerRow).
  int64_t vectorsPerRow = geo.smemShape[geo.rank - 1] / SpTCGeometry::kVector;
  Value width = cst(SpTCGeometry::kVector);
  Value vcol = arith::RemUIOp::create(*b, e, cst(vectorsPerRow));
  Value column = mul(vcol, width);
  Value one = cst(1);
  Value shifted = arith::ShRUIOp::create(*b, column, cst(geo.swizzleBit));
  Value bit = arith::AndIOp::create(*b, shifted, one);
  return arith::CmpIOp::create(*b, arith::CmpIPredicate::ne, bit, cst(0));
}

SpTCKernelBuilder::VectorSource
SpTCKernelBuilder::locateVector(Value e, ArrayRef<Value> tileOrigin) {
  const int64_t vec = SpTCGeometry::kVector;
  int64_t rank = geo.rank;
  int64_t vectorsPerRow = geo.smemShape[rank - 1] / vec;
  Value row = arith::DivUIOp::create(*b, e, cst(vectorsPerRow));
  Value vcol = arith::RemUIOp::create(*b, e, cst(vectorsPerRow));
  VectorSource source;
  Value pad = cst(geo.pad);
  Value x = add(tileOrigin[rank - 1], mul(vcol, cst(vec)));
  source.gx = arith::SubIOp::create(*b, x, pad);
  source.rowInside = arith::ConstantIntOp::create(*b, b->getI1Type(), 1);
  source.rowLinear = cst(0);
  for (int64_t d = 0; d + 1 < rank; ++d) {
    Value local = row;
    if (d + 2 < rank)
      local = arith::DivUIOp::create(*b, row, cst(geo.smemShape[d + 1]));
    if (d > 0)
      local = arith::RemUIOp::create(*b, local, cst(geo.smemShape[d]));
    Value radius = cst(geo.radii[d]);
    Value shifted = add(tileOrigin[d], local);
    Value coord = arith::SubIOp::create(*b, shifted, radius);
    source.rowInside = arith::AndIOp::create(
        *b, source.rowInside, isWithin(*b, coord, sizes[d], /*margin=*/0));
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
  Value end = addConst(gx, vec);
  Value fits = arith::CmpIOp::create(*b, arith::CmpIPredicate::sle, end, nx);
  Value starts =
      arith::CmpIOp::create(*b, arith::CmpIPredicate::sge, gx, zeroIndex);
  Value inRow = arith::AndIOp::create(*b, starts, fits);
  Value rowAligned = arith::AndIOp::create(*b, rowInside, aligned);
  Value full = arith::AndIOp::create(*b, rowAligned, inRow);
  auto ifOp = scf::IfOp::create(
      *b, full,
      [&](OpBuilder &then, Location loc) {
        Value v =
            vector::LoadOp::create(then, loc, vecType, in, ValueRange{linear},
                                   /*nontemporal=*/false, llvm::MaybeAlign(16));
        scf::YieldOp::create(then, loc, v);
      },
      [&](OpBuilder &otherwise, Location loc) {
        // 3. Otherwise element by element, zero outside the grid.
        ImplicitLocOpBuilder eb(loc, otherwise);
        SmallVector<Value> elements;
        for (int64_t k = 0; k < vec; ++k) {
          Value x = arith::AddIOp::create(
              eb, gx, arith::ConstantIndexOp::create(eb, k));
          Value beforeEnd =
              arith::CmpIOp::create(eb, arith::CmpIPredicate::slt, x, nx);
          Value afterStart = arith::CmpIOp::create(
              eb, arith::CmpIPredicate::sge, x, zeroIndex);
          Value inGrid = arith::AndIOp::create(eb, afterStart, beforeEnd);
          Value inside = arith::AndIOp::create(eb, rowInside, inGrid);
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
            eb,
            vector::FromElementsOp::create(eb, vecType, elements).getResult());
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
                *b, DenseElementsAttr::get(vecType, b->getZeroAttr(elemType)))
                .getResult());
    vectors.push_back(ifOp.getResult(0));
  }
  return vectors;
}

SmallVector<Value> SpTCKernelBuilder::loadNextTile(
    Value sub, function_ref<SmallVector<Value>(Value)> originOf,
    int64_t count) {
  if (!count)
    count = numVectors();
  auto vecType = VectorType::get({SpTCGeometry::kVector}, elemType);
  Value nextSub = addConst(sub, 1);
  Value hasNext = arith::CmpIOp::create(*b, arith::CmpIPredicate::slt, nextSub,
                                        cst(geo.subTiles));
  SmallVector<Type> types(vectorsPerThread(count), vecType);
  auto next = scf::IfOp::create(*b, types, hasNext, /*withElse=*/true);
  OpBuilder::InsertionGuard guard(*b);
  b->setInsertionPointToStart(&next.getThenRegion().front());
  scf::YieldOp::create(*b, loadTile(originOf(nextSub), count));
  b->setInsertionPointToStart(&next.getElseRegion().front());
  Value zeros = arith::ConstantOp::create(
      *b, DenseElementsAttr::get(vecType, b->getZeroAttr(elemType)));
  scf::YieldOp::create(*b, SmallVector<Value>(types.size(), zeros));
  return next.getResults();
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
    Value inTile = arith::CmpIOp::create(*b, arith::CmpIPredicate::ult, e,
                                         cst(numVectors()));
    Value rowValid = arith::AndIOp::create(*b, valid, rowInside);
    Value inside = arith::AndIOp::create(*b, rowValid, inTile);
    // gx is a multiple of 8: a vector lies wholly left of the grid, or
    // starts inside it and keeps min(8, N_x - gx) elements.
    Value beforeEnd =
        arith::CmpIOp::create(*b, arith::CmpIPredicate::slt, gx, nx);
    Value afterStart =
        arith::CmpIOp::create(*b, arith::CmpIPredicate::sge, gx, zeroIndex);
    Value inGrid = arith::AndIOp::create(*b, afterStart, beforeEnd);
    inside = arith::AndIOp::create(*b, inside, inGrid);
    Value rest = arith::SubIOp::create(*b, nx, gx);
    Value whole = cst(vec);
    Value count = arith::MinSIOp::create(*b, whole, rest);
    count = arith::SelectOp::create(*b, inside, count, zeroIndex);
    Value src = arith::SelectOp::create(*b, inside, add(mul(rowLinear, nx), gx),
                                        zeroIndex);
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
      Value straight = cst(h * half);
      Value swapped = cst((1 - h) * half);
      Value place = arith::SelectOp::create(*b, swap, swapped, straight);
      Value srcHalf = addConst(src, h * half);
      Value dstHalf = add(dst, place);
      tokens.push_back(nvgpu::DeviceAsyncCopyOp::create(
          *b, tokenType, smem, ValueRange{dstHalf}, in, ValueRange{srcHalf},
          b->getIndexAttr(half), halfCount, /*bypassL1=*/UnitAttr()));
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
  Value zero = cst(0);
  Value rem = arith::RemUIOp::create(*b, sizes[geo.rank - 1], cst(vec));
  Value aligned =
      arith::CmpIOp::create(*b, arith::CmpIPredicate::eq, rem, zero);
  auto ifOp = scf::IfOp::create(*b, aligned, /*withElseRegion=*/true);
  SmallVector<Value> savedOrigin(origin);
  {
    OpBuilder::InsertionGuard guard(*b);
    b->setInsertionPointToStart(&ifOp.getThenRegion().front());
    Value yes = arith::ConstantIntOp::create(*b, b->getI1Type(), 1);
    Value firstBase = cst(0);
    SmallVector<Value> firstOrigin = subOrigin(cst(0));
    Value first = copyTileAsync(firstOrigin, firstBase, yes);
    Value step = cst(1);
    Value upper = cst(geo.subTiles);
    Value lower = cst(0);
    auto loop = scf::ForOp::create(*b, lower, upper, step, ValueRange{first});
    OpBuilder::InsertionGuard loopGuard(*b);
    b->setInsertionPointToStart(loop.getBody());
    Value sub = loop.getInductionVar();
    Value nextSub = addConst(sub, 1);
    Value hasNext = arith::CmpIOp::create(*b, arith::CmpIPredicate::slt,
                                          nextSub, cst(geo.subTiles));
    Value nextStride = cst(geo.bufferStride());
    Value nextBuffer = arith::RemUIOp::create(*b, nextSub, cst(2));
    Value nextBase = mul(nextBuffer, nextStride);
    Value next = copyTileAsync(subOrigin(nextSub), nextBase, hasNext);
    // Only the group just issued may still be in flight.
    nvgpu::DeviceAsyncWaitOp::create(*b, next, b->getI32IntegerAttr(1));
    gpu::BarrierOp::create(*b);
    origin = subOrigin(sub);
    Value stride = cst(geo.bufferStride());
    Value buffer = arith::RemUIOp::create(*b, sub, cst(2));
    smemBase = mul(buffer, stride);
    computeAndStore();
    gpu::BarrierOp::create(*b);
    scf::YieldOp::create(*b, next);
  }
  {
    OpBuilder::InsertionGuard guard(*b);
    b->setInsertionPointToStart(&ifOp.getElseRegion().front());
    Value step = cst(1);
    Value upper = cst(geo.subTiles);
    Value lower = cst(0);
    auto loop = scf::ForOp::create(*b, lower, upper, step);
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
    Value planeSize = cst(plane);
    Value slot = arith::RemUIOp::create(*b, p, cst(ring));
    return mul(slot, planeSize);
  };
  if (rz > 0)
    stageTile(blockOrigin, 2 * rz * planeVectors);
  SmallVector<Value> first = loadTile(planeOrigin(cst(2 * rz)), planeVectors);
  Value step = cst(1);
  Value upper = cst(geo.subTiles);
  Value lower = cst(0);
  auto loop = scf::ForOp::create(*b, lower, upper, step, first);
  OpBuilder::InsertionGuard guard(*b);
  b->setInsertionPointToStart(loop.getBody());
  Value k = loop.getInductionVar();
  storeTile(llvm::to_vector_of<Value>(loop.getRegionIterArgs()), planeVectors,
            slotBase(addConst(k, 2 * rz)));
  gpu::BarrierOp::create(*b);
  // Output plane k + 1 needs input plane k + 1 + 2 r_z next.
  SmallVector<Value> next = loadNextTile(
      k, [&](Value nextK) { return planeOrigin(addConst(nextK, 2 * rz)); },
      planeVectors);
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
  scf::YieldOp::create(*b, next);
}
