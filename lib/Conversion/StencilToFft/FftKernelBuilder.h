//===- FftKernelBuilder.h - The FFT kernel builder (private) ----*- C++ -*-===//
//
// The builder behind buildFftKernel (FftKernel.h), shared by FftKernel.cpp
// (PFA tiles, edge tiles) and FftCooleyTukey.cpp (Cooley-Tukey tiles).
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_LIB_CONVERSION_STENCILTOFFT_FFTKERNELBUILDER_H
#define STENCIL_LIB_CONVERSION_STENCILTOFFT_FFTKERNELBUILDER_H

#include "FftKernel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

#include <array>
#include <optional>

namespace mlir {
namespace stencil {
namespace fft_detail {

/// Complex values as (re, im) pairs of f64 SSA values.
struct CValue {
  Value re, im;
};

class FftKernelBuilder {
public:
  FftKernelBuilder(const FftKernelConfig &config,
                   const FftCoefficientLayout &layout)
      : cfg(config), plan(config.plan), layout(layout) {
    rank = plan.getRank();
    factors = plan.getAxisFactors();
    axisDims = plan.getAxisDims();
    extents = plan.getAxisExtents();
    numAxes = factors.size();
    strides.assign(numAxes, 1);
    for (int64_t j = numAxes - 2; j >= 0; --j)
      strides[j] = strides[j + 1] * extents[j + 1];
    elements = plan.getNumArrayElements();
    for (int64_t d = 0; d < rank; ++d) {
      tileSize.push_back(plan.getTileSize(d));
      validSize.push_back(plan.getValidSize(d));
      margin.push_back(plan.fusedSteps * plan.radii[d]);
    }
  }

  gpu::GPUFuncOp build(OpBuilder &moduleBuilder, Location loc, StringRef name);

private:
  // Index arithmetic.
  Value cst(int64_t v) { return arith::ConstantIndexOp::create(*b, v); }
  Value f64(double v) {
    return arith::ConstantFloatOp::create(*b, b->getF64Type(),
                                          llvm::APFloat(v));
  }
  Value add(Value x, Value y) { return arith::AddIOp::create(*b, x, y); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(*b, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(*b, x, y); }
  Value addConst(Value x, int64_t c) { return c ? add(x, cst(c)) : x; }
  Value mulConst(Value x, int64_t c) { return c == 1 ? x : mul(x, cst(c)); }
  Value divConst(Value x, int64_t c) {
    return c == 1 ? x : arith::DivUIOp::create(*b, x, cst(c)).getResult();
  }
  Value remConst(Value x, int64_t c) {
    return arith::RemUIOp::create(*b, x, cst(c));
  }
  Value cmp(arith::CmpIPredicate p, Value x, Value y) {
    return arith::CmpIOp::create(*b, p, x, y);
  }
  Value andI(Value x, Value y) { return arith::AndIOp::create(*b, x, y); }
  Value orI(Value x, Value y) { return arith::OrIOp::create(*b, x, y); }
  Value select(Value c, Value x, Value y) {
    return arith::SelectOp::create(*b, c, x, y);
  }
  // f64 arithmetic.
  Value fadd(Value x, Value y) { return arith::AddFOp::create(*b, x, y); }
  Value fsub(Value x, Value y) { return arith::SubFOp::create(*b, x, y); }
  Value fmul(Value x, Value y) { return arith::MulFOp::create(*b, x, y); }

  /// `for (i = tid; i < count; i += threads) body(i)`.
  void forEachThread(int64_t count, function_ref<void(Value)> body);
  /// The row-major digits of `linear` over `sizes` (outermost first).
  SmallVector<Value> digits(Value linear, ArrayRef<int64_t> sizes);
  /// The shared-memory slot of the array element at tile coordinates `c`:
  /// its CRT index, swizzled.
  Value crtIndex(ArrayRef<Value> c);
  /// F(v) = 5 v mod 8: what axis digit v adds (XOR) to the low three bits of
  /// an element's slot.
  Value swizzleOf(Value digit);
  /// The grid coordinate along `d` of tile coordinate `c` of tile `layer`
  /// (the input a tile reads: periodic tiles start T r early and wrap).
  Value loadCoord(int64_t d, int64_t layer, Value c);
  /// The grid coordinate along `d` of the valid tile coordinate `c` of tile
  /// `layer` (unwrapped: it may pass the grid's edge).
  Value storeCoord(int64_t d, int64_t layer, Value c);
  /// Row-major linear index of grid coordinates.
  Value gridIndex(ArrayRef<Value> x);
  /// The complex value at coefficient word `word` (4 words).
  CValue loadComplexCoefficient(Value word);
  Value loadGrid(Value index);
  void storeGrid(Value index, Value value);

  void fftPath();
  void directPath();

  // Cooley-Tukey tiles (FftCooleyTukey.cpp).
  /// The three passes of a Cooley-Tukey tile (see FftTiling.h).
  void cooleyTukeyPath();
  /// The shared-memory element of array position (p0, p1), getFftCtSlot.
  Value ctSlot(Value p0, Value p1);
  /// The 16-byte pair (re, im) at element `slot`.
  CValue loadPair(Value slot);
  void storePair(Value slot, CValue v);
  /// acc[0..1] += a0 B, acc[2..3] += a1 B (one m16n8k4 or two m8n8k4).
  void mmaPair(Value a0, Value a1, Value bValue, SmallVector<Value> &acc);
  /// One radix-8 stage, the data as B (`frag` as A) or as A (`frag` as B).
  std::array<CValue, 2> stageDataAsB(ArrayRef<CValue> frag, ArrayRef<CValue> x,
                                     bool inverse);
  std::array<CValue, 2> stageDataAsA(ArrayRef<CValue> frag, ArrayRef<CValue> y,
                                     bool inverse);
  /// The 64-point chains: load layout to accumulator layout (forward), and
  /// accumulator layout to accumulator layout (inverse).
  std::array<CValue, 2> forwardChain(ArrayRef<CValue> x);
  std::array<CValue, 2> inverseChain(ArrayRef<CValue> z);
  CValue cmul(CValue x, CValue y);
  CValue cmulConj(CValue x, CValue y);
  /// Per-lane constants (packFftCtFragments), loaded once.
  SmallVector<CValue> ctFrag;
  /// DFT stage along `axis` with the fragments of stage `table`; with
  /// `inverseTable` >= 0, the product by S and the swizzled inverse stage of
  /// the same axis follow in registers.
  void emitStage(int64_t axis, int64_t table, int64_t inverseTable);

  const FftKernelConfig &cfg;
  const FftTilePlan &plan;
  const FftCoefficientLayout &layout;
  int64_t rank, numAxes, elements;
  SmallVector<int64_t> factors, axisDims, extents, strides;
  SmallVector<int64_t> tileSize, validSize, margin;

  std::optional<ImplicitLocOpBuilder> b;
  Value in, out, coef, smem;
  SmallVector<Value> sizes;
  Value tid, lane, warp, groupId, threadInGroup;
  /// Tile index per dimension of layer 0 (the innermost is 2 blockIdx.x),
  /// and the tile counts J_d.
  SmallVector<Value> tileIndex, tileCount;
};

} // namespace fft_detail
} // namespace stencil
} // namespace mlir

#endif // STENCIL_LIB_CONVERSION_STENCILTOFFT_FFTKERNELBUILDER_H
