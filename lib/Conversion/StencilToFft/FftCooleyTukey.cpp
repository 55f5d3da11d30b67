//===- FftCooleyTukey.cpp - Cooley-Tukey tiles of the FFT kernel ----------===//
//
// The FFT path of a Cooley-Tukey tile (`cooley_tukey` on stencil.fft_apply;
// the math, the layouts and the CPU model this code follows value by value
// are "Cooley-Tukey tiles" in Support/FftTiling.h). FlashFFTStencil
// section 3.3 (DFT as GEMM, fragment swizzling) with radix-8 digits:
// each 64-point line ("unit", one warp) is an 8 x 8 matrix whose two DFT
// stages run chained in registers, the first with the data as the MMA's B
// operand, the second with the first's accumulators as A, the twiddle W_64
// in between. Per block (two real tiles as one complex 64 x 64 array):
//   0. both layers' points are loaded as (re, im) pairs into the swizzled
//      array (2-D: (p0, p1) = (c0, c1); 1-D: n = nL + 64 nH at (nL, nH));
//   1. pass 1, one unit per row p0: the forward chain along axis 1;
//   2. pass 2, one unit per column p1: (1-D: the four-step twiddle) the
//      forward chain along axis 0, the product by S, the inverse chain
//      (1-D: the inverse twiddle), all in registers;
//   3. pass 3, one unit per row p0: the inverse chain along axis 1; 2-D
//      stores the valid points to the grid from the registers, 1-D writes
//      the array and copies the valid points out.
// A barrier separates the passes; within a pass a warp reads its unit, then
// (after __syncwarp) writes it back in place.
//
//===----------------------------------------------------------------------===//

#include "FftKernelBuilder.h"

#include "stencil/Conversion/StencilGPUCommon/KernelABI.h"
#include "stencil/Conversion/StencilGPUCommon/MmaF64.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::stencil;
using namespace mlir::stencil::fft_detail;

Value FftKernelBuilder::ctSlot(Value p0, Value p1) {
  // 64 p0 + 8 xa + (xb ^ yb ^ G(xa) ^ G(ya)), G(v) = 2 (v0 ^ v2) + 4 v1.
  auto shr = [&](Value v, int64_t s) {
    return arith::ShRUIOp::create(*b, v, cst(s)).getResult();
  };
  auto shl = [&](Value v, int64_t s) {
    return arith::ShLIOp::create(*b, v, cst(s)).getResult();
  };
  auto xorI = [&](Value x, Value y) {
    return arith::XOrIOp::create(*b, x, y).getResult();
  };
  // One op per statement, in gcc's order: the IR must not depend on the host
  // compiler's argument evaluation order.
  auto bit = [&](Value v, int64_t s) {
    Value one = cst(1);
    Value shifted = shr(v, s);
    return andI(shifted, one);
  };
  auto digitSwizzle = [&](Value v) {
    Value high = shl(bit(v, 1), 2);
    Value bit2 = bit(v, 2);
    Value bit0 = bit(v, 0);
    Value mixed = shl(xorI(bit0, bit2), 1);
    return orI(mixed, high);
  };
  Value ya = shr(p0, 3), yb = andI(p0, cst(7));
  Value xa = shr(p1, 3), xb = andI(p1, cst(7));
  Value swizzleY = digitSwizzle(ya);
  Value swizzleX = digitSwizzle(xa);
  Value swizzles = xorI(swizzleX, swizzleY);
  Value lowDigits = xorI(xb, yb);
  Value low = xorI(lowDigits, swizzles);
  Value col = shl(xa, 3);
  Value row = shl(p0, 6);
  return add(add(row, col), low);
}

CValue FftKernelBuilder::loadPair(Value slot) {
  VectorType pairType = VectorType::get({2}, b->getF64Type());
  Value pair =
      vector::LoadOp::create(*b, pairType, smem, ValueRange{mulConst(slot, 2)},
                             /*nontemporal=*/false, llvm::MaybeAlign(16));
  return {vector::ExtractOp::create(*b, pair, ArrayRef<int64_t>{0}),
          vector::ExtractOp::create(*b, pair, ArrayRef<int64_t>{1})};
}

void FftKernelBuilder::storePair(Value slot, CValue v) {
  VectorType pairType = VectorType::get({2}, b->getF64Type());
  Value pair =
      vector::FromElementsOp::create(*b, pairType, ValueRange{v.re, v.im});
  vector::StoreOp::create(*b, pair, smem, ValueRange{mulConst(slot, 2)},
                          /*nontemporal=*/false, llvm::MaybeAlign(16));
}

/// x y + z (sign -1: z - x y) with `contract`, so that the backend emits
/// one fma.rn.f64: the products by twiddles and by S are FP64 work on the
/// same pipe as the DMMAs (ncu: "Shared" pipe, Tensor (DP) plus FP64).
static Value fmaContract(ImplicitLocOpBuilder &b, Value x, Value y, Value z,
                         int sign) {
  auto contract = arith::FastMathFlagsAttr::get(b.getContext(),
                                                arith::FastMathFlags::contract);
  Value product = arith::MulFOp::create(b, x, y, contract);
  return sign > 0 ? arith::AddFOp::create(b, z, product, contract).getResult()
                  : arith::SubFOp::create(b, z, product, contract).getResult();
}

CValue FftKernelBuilder::cmul(CValue x, CValue y) {
  return {fmaContract(*b, x.im, y.im, fmul(x.re, y.re), -1),
          fmaContract(*b, x.im, y.re, fmul(x.re, y.im), +1)};
}

CValue FftKernelBuilder::cmulConj(CValue x, CValue y) {
  // x * conj(y).
  return {fmaContract(*b, x.im, y.im, fmul(x.re, y.re), +1),
          fmaContract(*b, x.re, y.im, fmul(x.im, y.re), -1)};
}

void FftKernelBuilder::mmaPair(Value a0, Value a1, Value bValue,
                               SmallVector<Value> &acc) {
  if (cfg.shape == FftMmaShape::M16N8K4) {
    auto d = createMmaF64(*b, {a0, a1}, bValue, acc);
    acc.assign(d.begin(), d.end());
    return;
  }
  auto top = createMmaF64(*b, {a0}, bValue, {acc[0], acc[1]});
  auto bottom = createMmaF64(*b, {a1}, bValue, {acc[2], acc[3]});
  acc = {top[0], top[1], bottom[0], bottom[1]};
}

std::array<CValue, 2> FftKernelBuilder::radix8Stage(ArrayRef<CValue> a,
                                                    ArrayRef<CValue> bOperand,
                                                    bool inverse,
                                                    bool dataAsA) {
  Value zero = f64(0.0);
  SmallVector<Value> p(4, zero), q(4, zero);
  for (int64_t i = 0; i < 2; ++i) {
    mmaPair(a[i].re, a[i].im, bOperand[i].re, p);
    mmaPair(a[i].re, a[i].im, bOperand[i].im, q);
  }
  std::array<CValue, 2> y;
  for (int64_t i = 0; i < 2; ++i) {
    if (!inverse)
      y[i] = CValue{fsub(p[i], q[2 + i]), fadd(q[i], p[2 + i])};
    else if (dataAsA)
      y[i] = CValue{fadd(p[i], q[2 + i]), fsub(p[2 + i], q[i])};
    else
      y[i] = CValue{fadd(p[i], q[2 + i]), fsub(q[i], p[2 + i])};
  }
  return y;
}

std::array<CValue, 2> FftKernelBuilder::forwardChain(ArrayRef<CValue> x) {
  std::array<CValue, 2> y = radix8Stage({ctFrag[0], ctFrag[1]}, x,
                                        /*inverse=*/false, /*dataAsA=*/false);
  for (int64_t i = 0; i < 2; ++i)
    y[i] = cmul(y[i], ctFrag[4 + i]);
  return radix8Stage(y, {ctFrag[2], ctFrag[3]}, /*inverse=*/false,
                     /*dataAsA=*/true);
}

std::array<CValue, 2> FftKernelBuilder::inverseChain(ArrayRef<CValue> z) {
  std::array<CValue, 2> y = radix8Stage({ctFrag[2], ctFrag[3]}, z,
                                        /*inverse=*/true, /*dataAsA=*/false);
  for (int64_t i = 0; i < 2; ++i)
    y[i] = cmulConj(y[i], ctFrag[4 + i]);
  return radix8Stage(y, {ctFrag[2], ctFrag[3]}, /*inverse=*/true,
                     /*dataAsA=*/true);
}

void FftKernelBuilder::ctLoadTile() {
  bool fourStep = rank == 1;
  forEachThread(4096, [&](Value q) {
    SmallVector<Value> c = digits(q, tileSize);
    Value p0 = fourStep ? remConst(q, 64) : c[0];
    Value p1 = fourStep ? divConst(q, 64) : c[1];
    CValue v;
    for (int64_t layer = 0; layer < 2; ++layer) {
      SmallVector<Value> x(rank);
      for (int64_t d = 0; d < rank; ++d)
        x[d] = loadCoord(d, layer, c[d]);
      (layer == 0 ? v.re : v.im) = loadGrid(gridIndex(x));
    }
    storePair(ctSlot(p0, p1), v);
  });
}

void FftKernelBuilder::ctForEachUnit(function_ref<void(Value)> body) {
  stridedLoop(warp, 64, cfg.warps, body);
}

void FftKernelBuilder::ctForwardRows() {
  ctForEachUnit([&](Value p0) {
    SmallVector<CValue> x;
    for (int64_t c = 0; c < 2; ++c)
      x.push_back(loadPair(ctSlot(p0, ctLoadPos[c])));
    std::array<CValue, 2> z = forwardChain(x);
    syncWarp();
    for (int64_t e = 0; e < 2; ++e)
      storePair(ctSlot(p0, ctAccPos[e]), z[e]);
  });
}

Value FftKernelBuilder::ctPackedWord(int64_t base, Value unit, int64_t perUnit,
                                     int64_t v) {
  Value laneWord = addConst(mulConst(lane, 4), base + v * 32 * 4);
  Value unitWord = mulConst(unit, perUnit * 32 * 4);
  return add(unitWord, laneWord);
}

void FftKernelBuilder::ctColumns() {
  bool fourStep = rank == 1;
  int64_t specWord = layout.spectrumWord(cfg.tail);
  ctForEachUnit([&](Value p1) {
    SmallVector<CValue> x;
    for (int64_t c = 0; c < 2; ++c) {
      CValue v = loadPair(ctSlot(ctLoadPos[c], p1));
      if (fourStep)
        v = cmul(v, loadComplexCoefficient(
                        ctPackedWord(layout.ctTwiddleWord, p1, 4, c)));
      x.push_back(v);
    }
    std::array<CValue, 2> z = forwardChain(x);
    for (int64_t e = 0; e < 2; ++e)
      z[e] =
          cmul(z[e], loadComplexCoefficient(ctPackedWord(specWord, p1, 2, e)));
    std::array<CValue, 2> o = inverseChain(z);
    if (fourStep)
      for (int64_t e = 0; e < 2; ++e)
        o[e] = cmul(o[e], loadComplexCoefficient(ctPackedWord(
                              layout.ctTwiddleWord, p1, 4, 2 + e)));
    syncWarp();
    for (int64_t e = 0; e < 2; ++e)
      storePair(ctSlot(ctAccPos[e], p1), o[e]);
  });
}

void FftKernelBuilder::ctStoreValid(ArrayRef<Value> c, CValue v) {
  Value valid = arith::ConstantIntOp::create(*b, 1, 1);
  for (int64_t d = 0; d < rank; ++d) {
    valid = andI(valid, cmp(arith::CmpIPredicate::uge, c[d], cst(margin[d])));
    valid = andI(valid, cmp(arith::CmpIPredicate::ult, c[d],
                            cst(margin[d] + validSize[d])));
  }
  auto ifValid = scf::IfOp::create(*b, valid, false);
  OpBuilder::InsertionGuard guard(*b);
  b->setInsertionPointToStart(ifValid.thenBlock());
  for (int64_t layer = 0; layer < 2; ++layer) {
    SmallVector<Value> x(rank);
    Value inside = arith::ConstantIntOp::create(*b, 1, 1);
    for (int64_t d = 0; d < rank; ++d) {
      x[d] = storeCoord(d, layer, c[d]);
      inside = andI(inside, cmp(arith::CmpIPredicate::ult, x[d], sizes[d]));
    }
    auto ifInside = scf::IfOp::create(*b, inside, false);
    OpBuilder::InsertionGuard g(*b);
    b->setInsertionPointToStart(ifInside.thenBlock());
    storeGrid(gridIndex(x), layer == 0 ? v.re : v.im);
  }
}

void FftKernelBuilder::ctInverseRows() {
  bool fourStep = rank == 1;
  ctForEachUnit([&](Value p0) {
    SmallVector<CValue> z;
    for (int64_t e = 0; e < 2; ++e)
      z.push_back(loadPair(ctSlot(p0, ctAccPos[e])));
    std::array<CValue, 2> o = inverseChain(z);
    if (fourStep) {
      syncWarp();
      for (int64_t e = 0; e < 2; ++e)
        storePair(ctSlot(p0, ctAccPos[e]), o[e]);
      return;
    }
    // 2-D: (p0, p1) is tile point (c0, c1); lanes g run along the grid's
    // rows in runs of 8.
    for (int64_t e = 0; e < 2; ++e)
      ctStoreValid({p0, ctAccPos[e]}, o[e]);
  });
}

void FftKernelBuilder::cooleyTukeyPath() {
  // The per-lane constants and positions.
  ctFrag.clear();
  for (int64_t v = 0; v < 6; ++v)
    ctFrag.push_back(loadComplexCoefficient(
        addConst(mulConst(lane, 4), layout.ctFragmentWord + v * 32 * 4)));
  for (int64_t c = 0; c < 2; ++c) {
    ctLoadPos[c] = add(addConst(mulConst(threadInGroup, 8), 32 * c), groupId);
    ctAccPos[c] = add(addConst(mulConst(threadInGroup, 16), 8 * c), groupId);
  }

  ctLoadTile();
  gpu::BarrierOp::create(*b);
  ctForwardRows();
  gpu::BarrierOp::create(*b);
  ctColumns();
  gpu::BarrierOp::create(*b);
  ctInverseRows();
  if (rank != 1)
    return;
  gpu::BarrierOp::create(*b);
  // 1-D: the valid points n = nL + 64 nH from (nL, nH), coalesced.
  forEachThread(validSize[0], [&](Value v) {
    Value n = addConst(v, margin[0]);
    Value nH = divConst(n, 64);
    Value nL = remConst(n, 64);
    CValue value = loadPair(ctSlot(nL, nH));
    ctStoreValid({n}, value);
  });
}
