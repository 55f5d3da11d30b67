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
#include <string>
#include <utility>

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

  /// `for (i = begin; i < end; i += step) body(i)`; a null `begin` is a
  /// constant 0, built after the bounds.
  void stridedLoop(Value begin, int64_t end, int64_t step,
                   function_ref<void(Value)> body);
  /// `for (i = tid; i < count; i += threads) body(i)`.
  void forEachThread(int64_t count, function_ref<void(Value)> body);
  /// A __syncwarp of the whole warp.
  void syncWarp();
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

  // PFA tiles: the DFT stages (FftKernel.cpp).
  /// The fragment tables of the stages.
  using Fragments = SmallVector<SmallVector<CValue>>;
  /// One stage's shape along `axis` of extent p: `fibers` fibers of p
  /// elements, in groups of `perGroup` (8 per row of the MMA, `rows` rows:
  /// fibers g and g + 8 with m16n8k4), p / 8 k-tiles, p / 4 chunks, `accs`
  /// accumulators per k-tile.
  struct StageShape {
    int64_t axis, fibers, rows, perGroup, groups, kTiles, chunks, accs;
  };
  /// The fibers of a warp's group, one per row: the array index of their
  /// element 0, whether they exist, and the XOR of F of their other axis
  /// digits (the low three bits' swizzle).
  struct StageFibers {
    SmallVector<Value> base, valid, swizzle;
  };
  /// The lane's B fragments of stage table `t` (k-tiles x chunks).
  Fragments loadStageTable(const StageShape &s, int64_t t);
  /// The group's fibers (StageFibers) for group index `group`.
  StageFibers stageFibers(const StageShape &s, Value group);
  /// The logical (row-major) index of element n of fiber row r.
  Value stageElementIndex(const StageShape &s, const StageFibers &f, int64_t r,
                          Value n);
  /// The shared-memory slot of element n of fiber row r: the logical index
  /// with its low three bits XOR-ed with F of every other axis digit.
  Value stageElementSlot(const StageShape &s, const StageFibers &f, int64_t r,
                         Value n);
  /// The A fragments of the group (chunk c, row r: element 4c + t of fiber
  /// r), `zero` for fibers that do not exist.
  Fragments loadStageOperands(const StageShape &s, const StageFibers &f,
                              Value zero);
  /// Re += Ar Br + Ai (-Bi), Im += Ar Bi + Ai Br: four real MMAs.
  void complexMma(ArrayRef<CValue> aFrag, CValue bFrag,
                  SmallVector<Value> &accRe, SmallVector<Value> &accIm);
  /// The column (DFT index) of accumulator i of k-tile kt: C[g + 8 (i / 2)]
  /// [8 kt + 2t + i % 2].
  Value stageAccColumn(int64_t kt, int64_t i);
  /// The accumulators times S at their array positions.
  void multiplyBySpectrum(const StageShape &s, const StageFibers &f,
                          SmallVector<SmallVector<Value>> &accRe,
                          SmallVector<SmallVector<Value>> &accIm);
  /// The swizzled inverse stage fed by the accumulators as A.
  void swizzledInverseStage(const StageShape &s, const Fragments &inverse,
                            Value zero, SmallVector<SmallVector<Value>> &accRe,
                            SmallVector<SmallVector<Value>> &accIm);
  /// The accumulators back in place (those of existing fibers).
  void storeStageResults(const StageShape &s, const StageFibers &f,
                         ArrayRef<SmallVector<Value>> accRe,
                         ArrayRef<SmallVector<Value>> accIm);
  /// One group of fibers of a stage: loads, MMAs, (S and the inverse
  /// stage,) __syncwarp, stores.
  void emitStageGroup(const StageShape &s, const Fragments &forward,
                      const Fragments *inverse, Value group);

  // Edge tiles: the direct path (FftKernel.cpp).
  /// One tile of the direct path: what both tiles share (its points, their
  /// row-major strides, the value outside the grid, the names of the
  /// tables of the points' offsets and weights above kMaxUnrolledPoints),
  /// and the tile's own first grid point and tile index per dimension.
  struct DirectTile {
    int64_t points;
    SmallVector<int64_t> strides;
    Value ghost;
    std::optional<std::pair<std::string, std::string>> pointTables;
    SmallVector<Value> start, j;
  };
  /// A point of a direct step: its tile and grid coordinates, its index q
  /// in the tile and the first element of the buffer the step reads.
  struct DirectPoint {
    SmallVector<Value> c, x;
    Value q, src;
  };
  void directPath();
  /// The direct path's shared part of DirectTile.
  DirectTile directTileConstants();
  /// The constant tables of the points' offsets (i32) and weights (f64):
  /// their names.
  std::pair<std::string, std::string> directPointTables();
  /// The grid coordinates `x` of tile point q (tile coordinates `c`), and
  /// whether they are in the grid.
  Value directLocate(const DirectTile &t, Value q, SmallVector<Value> &c,
                     SmallVector<Value> &x);
  /// Loads the tile: the grid's values, the boundary value outside it.
  void directLoad(const DirectTile &t);
  /// The T steps, from one buffer into the other.
  void directSteps(const DirectTile &t);
  /// One step's new value of tile point q.
  void directStep(const DirectTile &t, Value src, Value dst, Value q);
  /// The stencil's sum at a point (unrolled, or a loop over the tables).
  Value directPointSum(const DirectTile &t, const DirectPoint &p);
  /// sum + w v for one point: `plus(v, d)` is v + o_d, `shift(q)` is q +
  /// sum_d o_d stride_d (constants when unrolled, index values in the loop
  /// form).
  Value directAddPoint(const DirectTile &t, const DirectPoint &p, Value sum,
                       function_ref<Value(Value, int64_t)> plus,
                       function_ref<Value(Value)> shift, Value w);
  /// Stores the tile's exact points.
  void directStoreExact(const DirectTile &t);

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
  /// One radix-8 stage: A = [Re; Im] of `a`, P and Q its products by the
  /// Re and Im of `bOperand`; the data as B (`a` the constant fragments) or
  /// as A (`dataAsA`, `bOperand` the constants), which differ in how the
  /// inverse combines P and Q (the CPU model's stageDataAsB and
  /// stageDataAsA, Support/FftTileModel.cpp).
  std::array<CValue, 2> radix8Stage(ArrayRef<CValue> a,
                                    ArrayRef<CValue> bOperand, bool inverse,
                                    bool dataAsA);
  /// The 64-point chains: load layout to accumulator layout (forward), and
  /// accumulator layout to accumulator layout (inverse).
  std::array<CValue, 2> forwardChain(ArrayRef<CValue> x);
  std::array<CValue, 2> inverseChain(ArrayRef<CValue> z);
  CValue cmul(CValue x, CValue y);
  CValue cmulConj(CValue x, CValue y);
  /// Per-lane constants (packFftCtFragments), loaded once.
  SmallVector<CValue> ctFrag;
  /// The lane's unit positions: load layout 8 (4c + t) + g, accumulator
  /// layout 8 (2t + e) + g.
  Value ctLoadPos[2], ctAccPos[2];
  /// Step 0: both layers into the array as (re, im) pairs.
  void ctLoadTile();
  /// A loop of the warps over the 64 units of a pass.
  void ctForEachUnit(function_ref<void(Value)> body);
  /// Pass 1: forward along axis 1, one unit per row p0.
  void ctForwardRows();
  /// Pass 2: along axis 0, one unit per column p1: forward, S, inverse.
  void ctColumns();
  /// Pass 3: inverse along axis 1, one unit per row p0.
  void ctInverseRows();
  /// The coefficient word of value v of `unit` in a per-lane table at
  /// `base`: ((unit * perUnit + v) * 32 + lane) * 4.
  Value ctPackedWord(int64_t base, Value unit, int64_t perUnit, int64_t v);
  /// Stores tile point c of both layers, if valid and in the grid.
  void ctStoreValid(ArrayRef<Value> c, CValue v);
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
