//===- StencilToSCF.cpp - Lower stencil ops to scf loops ------------------===//
//
// Implements `--convert-stencil-to-scf`, the CPU reference lowering. The
// loop structure and boundary handling are spelled out in the pass
// description (Conversion/Passes.td); this file follows it step by step.
//
//===----------------------------------------------------------------------===//

#include "stencil/Conversion/StencilToSCF/StencilToSCF.h"
#include "stencil/Dialect/Stencil/IR/StencilDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir {
namespace stencil {
#define GEN_PASS_DEF_CONVERTSTENCILTOSCF
#include "stencil/Conversion/Passes.h.inc"
} // namespace stencil
} // namespace mlir

using namespace mlir;
using namespace mlir::stencil;

namespace {

/// What every neighbour load needs to know about the grid and boundary.
struct GridInfo {
  SmallVector<Value> sizes; // N_d, as index values.
  BoundaryKind boundary;
  Value boundaryValue; // In the element type; only for dirichlet.
};

/// Loads `src[ivs + offset]` following the boundary rule (pass description,
/// "Neighbour loads"); an offset is a constant or an index value.
static Value loadNeighbour(ImplicitLocOpBuilder &b, const GridInfo &grid,
                           Value src, ValueRange ivs,
                           ArrayRef<OpFoldResult> offset) {
  SmallVector<Value> indices;
  Value inside; // i1: the neighbour lies in the grid (dirichlet only).
  for (auto [iv, o, size] : llvm::zip(ivs, offset, grid.sizes)) {
    if (isConstantIntValue(o, 0)) {
      indices.push_back(iv);
      continue;
    }
    Value raw = arith::AddIOp::create(
        b, iv, getValueOrCreateConstantIndexOp(b, b.getLoc(), o));
    switch (grid.boundary) {
    case BoundaryKind::halo:
      indices.push_back(raw);
      break;
    case BoundaryKind::periodic:
      indices.push_back(arith::RemSIOp::create(
          b, arith::AddIOp::create(b, raw, size), size));
      break;
    case BoundaryKind::dirichlet: {
      Value zero = arith::ConstantIndexOp::create(b, 0);
      Value last = arith::SubIOp::create(
          b, size, arith::ConstantIndexOp::create(b, 1));
      indices.push_back(arith::MaxSIOp::create(
          b, zero, arith::MinSIOp::create(b, raw, last)));
      Value belowEnd =
          arith::CmpIOp::create(b, arith::CmpIPredicate::slt, raw, size);
      Value aboveStart =
          arith::CmpIOp::create(b, arith::CmpIPredicate::sge, raw, zero);
      Value inDim = arith::AndIOp::create(b, aboveStart, belowEnd);
      inside = inside ? arith::AndIOp::create(b, inside, inDim) : inDim;
      break;
    }
    }
  }
  Value value = memref::LoadOp::create(b, src, indices);
  if (inside)
    value = arith::SelectOp::create(b, inside, value, grid.boundaryValue);
  return value;
}

static Value loadNeighbour(ImplicitLocOpBuilder &b, const GridInfo &grid,
                           Value src, ValueRange ivs,
                           ArrayRef<int64_t> offset) {
  return loadNeighbour(b, grid, src, ivs,
                       getAsIndexOpFoldResult(b.getContext(), offset));
}

/// Computes the value stored at one point, reading neighbours from `src`.
using PointFn = function_ref<Value(ImplicitLocOpBuilder &, const GridInfo &,
                                   Value src, ValueRange ivs)>;

/// Emits steps 1, 2, 3 and 5 of the pass description around `computePoint`.
static void buildStencilLoops(ImplicitLocOpBuilder &b, Value input,
                              Value output, ArrayRef<int64_t> radii,
                              int64_t steps, BoundaryKind boundary,
                              FloatAttr boundaryValue,
                              PointFn computePoint) {
  auto type = cast<MemRefType>(input.getType());
  GridInfo grid;
  grid.boundary = boundary;
  if (boundary == BoundaryKind::dirichlet)
    grid.boundaryValue = arith::ConstantOp::create(
        b, b.getFloatAttr(type.getElementType(),
                          boundaryValue.getValueAsDouble()));

  SmallVector<Value> lbs, ubs, unitSteps;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    Value size = memref::DimOp::create(b, input, d);
    grid.sizes.push_back(size);
    unitSteps.push_back(arith::ConstantIndexOp::create(b, 1));
    if (boundary != BoundaryKind::halo) {
      lbs.push_back(arith::ConstantIndexOp::create(b, 0));
      ubs.push_back(size);
      continue;
    }
    Value radius = arith::ConstantIndexOp::create(b, radii[d]);
    lbs.push_back(radius);
    ubs.push_back(arith::SubIOp::create(b, size, radius));
  }

  // 1. The halo of the output is the input's.
  if (boundary == BoundaryKind::halo)
    memref::CopyOp::create(b, input, output);

  // 2. The time loop, ping-ponging (src, dst).
  Value zero = arith::ConstantIndexOp::create(b, 0);
  Value one = arith::ConstantIndexOp::create(b, 1);
  Value numSteps = arith::ConstantIndexOp::create(b, steps);
  scf::ForOp::create(
      b, zero, numSteps, one, ValueRange{input, output},
      [&](OpBuilder &tb, Location loc, Value, ValueRange buffers) {
        Value src = buffers[0], dst = buffers[1];
        // 3. The loop nest over the computed points; 4. one point.
        scf::buildLoopNest(
            tb, loc, lbs, ubs, unitSteps,
            [&](OpBuilder &nb, Location nloc, ValueRange ivs) {
              ImplicitLocOpBuilder pb(nloc, nb);
              Value value = computePoint(pb, grid, src, ivs);
              memref::StoreOp::create(pb, value, dst, ivs);
            });
        scf::YieldOp::create(tb, loc, ValueRange{dst, src});
      });

  // 5. An even number of steps leaves the result in `input`.
  if (steps % 2 == 0)
    memref::CopyOp::create(b, input, output);
}

/// Replaces `op` (a stencil op from its input grid to its output grid, with
/// its steps and boundary) by the loops of buildStencilLoops around
/// `computePoint`.
template <typename OpTy>
static LogicalResult
replaceByLoops(OpTy op, typename OpTy::Adaptor adaptor, ArrayRef<int64_t> radii,
               ConversionPatternRewriter &rewriter, ImplicitLocOpBuilder &b,
               PointFn computePoint) {
  buildStencilLoops(b, adaptor.getInput(), adaptor.getOutput(), radii,
                    op.getSteps(), op.getBoundary(), op.getBoundaryValueAttr(),
                    computePoint);
  rewriter.eraseOp(op);
  return success();
}

/// A neighbour (`loadNeighbour`) widened to f64, the accumulation type of
/// the reference lowering.
static Value loadNeighbourF64(ImplicitLocOpBuilder &b, const GridInfo &grid,
                              Value src, ValueRange ivs,
                              ArrayRef<int64_t> offset) {
  Value v = loadNeighbour(b, grid, src, ivs, offset);
  if (!v.getType().isF64())
    v = arith::ExtFOp::create(b, b.getF64Type(), v);
  return v;
}

/// acc + w * x in f64 (w * x when there is no acc yet).
static Value addWeighted(ImplicitLocOpBuilder &b, Value acc, double w,
                         Value x) {
  Value weight = arith::ConstantOp::create(b, b.getF64FloatAttr(w));
  Value term = arith::MulFOp::create(b, weight, x);
  return acc ? arith::AddFOp::create(b, acc, term).getResult() : term;
}

/// The symbol name `<prefix><k>`, for the smallest k that `table` does not
/// define yet.
static std::string getFreeSymbolName(Operation *table, StringRef prefix) {
  for (int64_t k = 0;; ++k) {
    std::string name = (prefix + Twine(k)).str();
    if (!SymbolTable::lookupSymbolIn(table, name))
      return name;
  }
}

/// A private constant `memref.global` of `values` (shape `shape`) in the
/// symbol table `table`, and a `memref.get_global` of it at `b`.
static Value getConstantTable(OpBuilder &rewriter, ImplicitLocOpBuilder &b,
                              Operation *table, StringRef prefix,
                              ArrayRef<int64_t> shape,
                              DenseElementsAttr values) {
  auto type = MemRefType::get(shape, values.getElementType());
  std::string name = getFreeSymbolName(table, prefix);
  {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(&table->getRegion(0).front());
    memref::GlobalOp::create(rewriter, b.getLoc(), name,
                             rewriter.getStringAttr("private"), type, values,
                             /*constant=*/true, /*alignment=*/IntegerAttr());
  }
  return memref::GetGlobalOp::create(b, type, name);
}

/// stencil.linear -> loops; f64 accumulation in pattern order.
///
/// Up to kMaxUnrolledPoints points the sum is unrolled, one load and one FMA
/// per point; above, it is an `scf.for` over the points reading each point's
/// offset and weight from constant tables (memref.global), so that the IR,
/// and the time to compile it, grow with the grid's rank, not with the
/// pattern (a 2-D box of radius 63 has 16129 points). Both forms add the
/// same products in the same order (the loop's sum starts from +0.0).
struct LinearOpLowering : OpConversionPattern<LinearOp> {
  using OpConversionPattern::OpConversionPattern;

  static constexpr unsigned kMaxUnrolledPoints = 64;

  LogicalResult
  matchAndRewrite(LinearOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    PatternAttr pattern = op.getPattern();
    ArrayRef<double> weights = op.getWeights();
    Type elementType =
        cast<MemRefType>(op.getInput().getType()).getElementType();
    Type f64 = b.getF64Type();
    unsigned numPoints = pattern.getNumPoints(), rank = pattern.getRank();

    // The tables of the loop form, outside the loops.
    Value offsetTable, weightTable;
    if (numPoints > kMaxUnrolledPoints) {
      Operation *table = op->getParentWithTrait<OpTrait::SymbolTable>();
      if (!table)
        return rewriter.notifyMatchFailure(
            op, "the loop form of a large pattern needs a symbol table "
                "(a module) around the op for its constant tables");
      offsetTable = getConstantTable(
          rewriter, b, table, "__stencil_offsets_", {numPoints, rank},
          DenseElementsAttr::get(
              RankedTensorType::get({numPoints, rank}, b.getI64Type()),
              pattern.getOffsets()));
      weightTable = getConstantTable(
          rewriter, b, table, "__stencil_weights_", {numPoints},
          DenseElementsAttr::get(RankedTensorType::get({numPoints}, f64),
                                 weights));
    }

    auto computePoint = [&](ImplicitLocOpBuilder &pb, const GridInfo &grid,
                            Value src, ValueRange ivs) -> Value {
      Value acc;
      if (!offsetTable) {
        for (unsigned i = 0; i < numPoints; ++i)
          acc = addWeighted(
              pb, acc, weights[i],
              loadNeighbourF64(pb, grid, src, ivs, pattern.getPoint(i)));
      } else {
        Value zero = arith::ConstantIndexOp::create(pb, 0);
        Value one = arith::ConstantIndexOp::create(pb, 1);
        Value count = arith::ConstantIndexOp::create(pb, numPoints);
        Value init = arith::ConstantOp::create(pb, pb.getF64FloatAttr(0.0));
        auto loop = scf::ForOp::create(
            pb, zero, count, one, ValueRange{init},
            [&](OpBuilder &lb, Location loc, Value p, ValueRange sum) {
              ImplicitLocOpBuilder ib(loc, lb);
              SmallVector<OpFoldResult> offset;
              for (unsigned d = 0; d < rank; ++d) {
                Value o = memref::LoadOp::create(
                    ib, offsetTable,
                    ValueRange{p, arith::ConstantIndexOp::create(ib, d)});
                offset.push_back(
                    arith::IndexCastOp::create(ib, ib.getIndexType(), o)
                        .getResult());
              }
              Value x = loadNeighbour(ib, grid, src, ivs, offset);
              if (!x.getType().isF64())
                x = arith::ExtFOp::create(ib, ib.getF64Type(), x);
              Value w = memref::LoadOp::create(ib, weightTable, ValueRange{p});
              Value term = arith::MulFOp::create(ib, w, x);
              scf::YieldOp::create(
                  ib, ValueRange{arith::AddFOp::create(ib, sum[0], term)});
            });
        acc = loop.getResult(0);
      }
      if (elementType != f64)
        acc = arith::TruncFOp::create(pb, elementType, acc);
      return acc;
    };
    return replaceByLoops(op, adaptor, pattern.getRadii(), rewriter, b,
                          computePoint);
  }
};

/// stencil.low_rank -> loops; f64 accumulation: for each term k, the row
/// sums s_i = sum_j v[k][j] in[y+i-h][x+j-h], then sum_i u[k][i] s_i.
struct LowRankOpLowering : OpConversionPattern<LowRankOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(LowRankOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    int64_t h = op.getRadius(), n = 2 * h + 1, terms = op.getRank();
    SmallVector<double> u(op.getU().getValues<double>());
    SmallVector<double> v(op.getV().getValues<double>());
    Type elementType =
        cast<MemRefType>(op.getInput().getType()).getElementType();
    Type f64 = b.getF64Type();

    auto computePoint = [&](ImplicitLocOpBuilder &pb, const GridInfo &grid,
                            Value src, ValueRange ivs) -> Value {
      // Every neighbour once, widened to f64.
      SmallVector<Value> x(n * n);
      auto neighbour = [&](int64_t i, int64_t j) -> Value {
        Value &slot = x[i * n + j];
        if (!slot)
          slot = loadNeighbourF64(pb, grid, src, ivs, {i - h, j - h});
        return slot;
      };
      Value acc;
      for (int64_t k = 0; k < terms; ++k)
        for (int64_t i = 0; i < n; ++i) {
          if (u[k * n + i] == 0.0)
            continue;
          Value row;
          for (int64_t j = 0; j < n; ++j)
            if (v[k * n + j] != 0.0)
              row = addWeighted(pb, row, v[k * n + j], neighbour(i, j));
          if (row)
            acc = addWeighted(pb, acc, u[k * n + i], row);
        }
      if (!acc)
        acc = arith::ConstantOp::create(pb, pb.getF64FloatAttr(0.0));
      if (elementType != f64)
        acc = arith::TruncFOp::create(pb, elementType, acc);
      return acc;
    };
    return replaceByLoops(op, adaptor, {h, h}, rewriter, b, computePoint);
  }
};

/// stencil.apply -> loops; the body cloned at every point.
struct ApplyOpLowering : OpConversionPattern<ApplyOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ApplyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    Block &body = op.getBody().front();

    auto computePoint = [&](ImplicitLocOpBuilder &pb, const GridInfo &grid,
                            Value src, ValueRange ivs) -> Value {
      IRMapping mapping;
      for (Operation &inner : body) {
        if (auto access = dyn_cast<AccessOp>(inner)) {
          mapping.map(access.getResult(),
                      loadNeighbour(pb, grid, src, ivs, access.getOffset()));
          continue;
        }
        if (auto yield = dyn_cast<YieldOp>(inner))
          return mapping.lookup(yield.getValue());
        pb.clone(inner, mapping);
      }
      llvm_unreachable("the verifier ensures the body ends with a yield");
    };
    return replaceByLoops(op, adaptor, op.getRadii(), rewriter, b,
                          computePoint);
  }
};

struct ConvertStencilToSCFPass
    : public stencil::impl::ConvertStencilToSCFBase<ConvertStencilToSCFPass> {
  void runOnOperation() override {
    // 1. Grids the loads can address: the memref lowering takes strided
    // layouts (the identity, strided<...>), not general affine maps.
    WalkResult result = getOperation()->walk([](Operation *op) {
      if (!isa<StencilDialect>(op->getDialect()) || op->getNumOperands() < 2)
        return WalkResult::advance();
      auto type = dyn_cast<MemRefType>(op->getOperand(0).getType());
      if (type && !type.isStrided()) {
        op->emitOpError("needs grids with a strided layout (the identity or "
                        "strided<...>), not ")
            << type.getLayout()
            << "; normalize the map first (--normalize-memrefs)";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      return signalPassFailure();

    // 2. The stencil ops become loops.
    ConversionTarget target(getContext());
    target.addIllegalDialect<StencilDialect>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    RewritePatternSet patterns(&getContext());
    populateStencilToSCFConversionPatterns(patterns);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace

void mlir::stencil::populateStencilToSCFConversionPatterns(
    RewritePatternSet &patterns) {
  patterns.add<LinearOpLowering, LowRankOpLowering, ApplyOpLowering>(
      patterns.getContext());
}
