//===- SpTCStores.cpp - Stores of the row-form kernel ---------------------===//
//
// Step 4 of the row-form kernel (SpTCKernelBuilder.h): the interior
// outputs, four consecutive ones per 8-byte store after a 4 x 4 transpose
// over the lanes, or one by one.
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
    Value inWarp = mul(n, cst(geo.r1));
    Value warpStart = mul(warp, cst(kMmaSpN * geo.r1));
    x = add(warpStart, inWarp);
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
  Value zero = cst(0);
  Value low = arith::AndIOp::create(*b, sizes[geo.rank - 1], cst(3));
  Value aligned =
      arith::CmpIOp::create(*b, arith::CmpIPredicate::eq, low, zero);
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
  Value zero0 = cst(0);
  Value low0 = arith::AndIOp::create(*b, groupId, cst(1));
  Value bit0 = arith::CmpIOp::create(*b, arith::CmpIPredicate::ne, low0, zero0);
  Value zero1 = cst(0);
  Value low1 = arith::AndIOp::create(*b, groupId, cst(2));
  Value bit1 = arith::CmpIOp::create(*b, arith::CmpIPredicate::ne, low1, zero1);
  auto makePair = [&](Value x, Value y) -> Value {
    return vector::FromElementsOp::create(*b, pairType2, ValueRange{x, y});
  };
  auto shuffleXor = [&](Value pair, int32_t mask) -> Value {
    Value word = vector::ExtractOp::create(
        *b, vector::BitCastOp::create(*b, VectorType::get({1}, i32), pair),
        ArrayRef<int64_t>{0});
    auto shuffle =
        gpu::ShuffleOp::create(*b, word, mask, 32, gpu::ShuffleMode::XOR);
    Value vec = vector::FromElementsOp::create(
        *b, VectorType::get({1}, i32),
        ValueRange{Value(shuffle.getShuffleResult())});
    return vector::BitCastOp::create(*b, pairType2, vec);
  };
  auto element = [&](Value pair, int64_t i) -> Value {
    return vector::ExtractOp::create(*b, pair, ArrayRef<int64_t>{i});
  };
  auto select = [&](Value c, Value x, Value y) -> Value {
    return arith::SelectOp::create(*b, c, x, y);
  };
  // The lane's outputs after the transpose: m0 + 0..3 in column n.
  Value noHalf = cst(0);
  Value half = cst(8);
  Value halfOffset = select(bit1, half, noHalf);
  Value four = cst(4);
  Value quarter = arith::ShRUIOp::create(*b, groupId, cst(2));
  Value m0 = add(mul(quarter, four), halfOffset);
  Value even = cst(0);
  Value odd = cst(1);
  Value parity = select(bit0, odd, even);
  Value n = add(mul(threadInGroup, cst(2)), parity);
  for (int64_t j = 0; j < geo.nTiles; ++j) {
    SmallVector<Value, 4> v;
    for (unsigned i = 0; i < 4; ++i)
      v.push_back(arith::TruncFOp::create(*b, elemType, acc[j][i]));
    // Stage 1: keep c_k with k & 1 == g & 1, trade the others.
    Value keep0 = select(bit0, v[1], v[0]), keep1 = select(bit0, v[3], v[2]);
    Value give1 = select(bit0, v[2], v[3]);
    Value give0 = select(bit0, v[0], v[1]);
    Value got = shuffleXor(makePair(give0, give1), 4);
    // Pairs ordered by source group (even, odd): for k = g & 1 and k + 2.
    Value loEven = makePair(keep0, element(got, 0));
    Value loOdd = makePair(element(got, 0), keep0);
    Value lo = select(bit0, loOdd, loEven);
    Value hiEven = makePair(keep1, element(got, 1));
    Value hiOdd = makePair(element(got, 1), keep1);
    Value hi = select(bit0, hiOdd, hiEven);
    // Stage 2: keep k = g & 3, trade the other pair.
    Value mine = select(bit1, hi, lo);
    Value theirs = shuffleXor(select(bit1, lo, hi), 8);
    Value mineFirst = vector::ShuffleOp::create(*b, mine, theirs,
                                                ArrayRef<int64_t>{0, 1, 2, 3});
    Value theirsFirst = vector::ShuffleOp::create(
        *b, theirs, mine, ArrayRef<int64_t>{0, 1, 2, 3});
    Value quad = select(bit1, theirsFirst, mineFirst);

    SmallVector<Value> coords(origin);
    if (geo.rank == 1) {
      // x = x0 + w 128 nTiles + (8 j + n) 16 + m.
      Value column = addConst(n, kMmaSpN * j);
      Value inWarp = add(mul(column, cst(kMmaSpM)), m0);
      Value warpStart =
          add(origin[0], mul(warp, cst(kMmaSpM * kMmaSpN * geo.nTiles)));
      coords[0] = add(warpStart, inWarp);
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
            Value inside =
                arith::AndIOp::create(*b, rowInterior,
                                      isWithin(*b, addConst(coords[xDim], e),
                                               sizes[xDim], geo.radii[xDim]));
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
        interior =
            interior ? arith::AndIOp::create(*b, interior, inDim) : inDim;
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
