//===- SpTCCompute.cpp - MMAs of the row-form kernel ----------------------===//
//
// Step 3 of the row-form kernel (SpTCKernelBuilder.h): the B operand
// addresses of the banded forms (row swap, swizzle) and of the gathered
// forms (SparStencil's lookup table folded into per-lane constants), and
// the MMAs (mma.sp, the dense m16n8k16 pair, the low-rank chain).
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

#include <map>

using namespace mlir;
using namespace mlir::stencil;

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
    Value groupColumn = mul(groupId, cst(kMmaSpM));
    Value warpColumn = mul(warp, cst(kMmaSpM * kMmaSpN * geo.nTiles));
    columnBase = add(warpColumn, groupColumn);
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
  Value warpBase = mul(warp, cst(geo.warpStride()));
  Value groupBase = mul(groupId, cst(geo.groupStride()));
  Value base = add(groupBase, warpBase);
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
  std::map<std::pair<int64_t, int64_t>,
           SmallVector<std::pair<int64_t, int64_t>>>
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

/// Steps 3 and 4 of a low-rank chain (`column_weights`; LoRAStencil,
/// eq. 9; the math and the fragment identity are in
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
