//===- InterfacesTest.cpp - The stencil dialect's op interfaces -----------===//
//
// StencilComputeOpInterface and RowFormOpInterface (StencilInterfaces.td)
// on parsed ops and on the row forms the passes build: which ops implement
// them, and that each method gives what the op's own attributes say (the
// derived ones too: the folded input offsets, the gather, the fused steps
// and their step stencil, the reach).
//
//===----------------------------------------------------------------------===//

#include "stencil/Dialect/Stencil/IR/StencilDialect.h"
#include "stencil/InitAll.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::stencil;

namespace {

class Interfaces : public ::testing::Test {
protected:
  static void SetUpTestSuite() { registerAllStencilPasses(); }

  Interfaces() {
    DialectRegistry registry;
    registerAllDialects(registry);
    registerAllExtensions(registry);
    registerAllStencilDialects(registry);
    context = std::make_unique<MLIRContext>(registry);
    context->disableMultithreading();
  }

  /// `text` parsed, then run through `pipeline` (none when empty).
  OwningOpRef<ModuleOp> build(StringRef text, StringRef pipeline = "") {
    OwningOpRef<ModuleOp> module =
        parseSourceString<ModuleOp>(text, context.get());
    EXPECT_TRUE(module) << text.str();
    if (!module || pipeline.empty())
      return module;
    PassManager pm(context.get());
    EXPECT_TRUE(succeeded(parsePassPipeline(pipeline, pm))) << pipeline.str();
    EXPECT_TRUE(succeeded(pm.run(*module))) << pipeline.str();
    return module;
  }

  /// The ops of `module` that implement `OpTy`, in order.
  template <typename OpTy> static SmallVector<OpTy> collect(ModuleOp module) {
    SmallVector<OpTy> ops;
    module.walk([&](OpTy op) { ops.push_back(op); });
    return ops;
  }

  std::unique_ptr<MLIRContext> context;
};

using Radii = SmallVector<int64_t>;

/// Every op that applies a stencil has its grids, steps, boundary and
/// reach through StencilComputeOpInterface; the row forms alone are
/// RowFormOpInterface; the ops of a body are neither.
TEST_F(Interfaces, ComputeOps) {
  OwningOpRef<ModuleOp> module = build(R"mlir(
    func.func @f(%in: memref<?x?xf16>, %out: memref<?x?xf16>,
                 %in32: memref<?x?xf32>, %out32: memref<?x?xf32>,
                 %in64: memref<?x?xf64>, %out64: memref<?x?xf64>,
                 %in3: memref<?x?x?xf16>, %out3: memref<?x?x?xf16>) {
      stencil.linear %in3 -> %out3 pattern <star, rank = 3, radius = 2>
          weights [1., 2., 3., 4., 5., 6., 7., 8., 9., 10., 11., 12., 13.]
          steps 7 boundary periodic : memref<?x?x?xf16>
      stencil.apply %in32 -> %out32 steps 2 boundary dirichlet(0.5)
          : memref<?x?xf32> {
        %c = stencil.access [0, 0] : f32
        %e = stencil.access [-3, 1] : f32
        %m = arith.maximumf %c, %e : f32
        stencil.yield %m : f32
      }
      stencil.low_rank %in32 -> %out32 radius 1
          u dense<[[1.0, 2.0, 1.0]]> : tensor<1x3xf64>
          v dense<[[0.1, 0.2, 0.1]]> : tensor<1x3xf64>
          steps 2 boundary periodic : memref<?x?xf32>
      stencil.fft_apply %in64 -> %out64 pattern <star, rank = 2, radius = 1>
          weights [0.1, 0.2, 0.4, 0.2, 0.1] steps 9 fused_steps 4
          factors [array<i64: 8, 7>, array<i64: 8, 7>] boundary dirichlet(0.25)
          : memref<?x?xf64>
      stencil.row_gemm %in -> %out radius 0 rows_per_block 2
          row_offsets [-1, 1]
          kernels dense<[[[1., 0., 0., 0.], [0., 1., 0., 0.]],
                         [[2., 0., 0., 0.], [0., 2., 0., 0.]]]>
          : tensor<2x2x4xf64> steps 3 : memref<?x?xf16>
      stencil.sparse_row_gemm %in -> %out radius 0 rows_per_block 2
          row_offsets [0] column_permutation [0, 1, 2, 3]
          values dense<[[[1., 0.], [1., 0.]]]> : tensor<1x2x2xf16>
          indices dense<[[[0, 1], [1, 2]]]> : tensor<1x2x2xi8>
          : memref<?x?xf16>
      return
    }
  )mlir");
  ASSERT_TRUE(module);

  struct Expected {
    StringRef name;
    int64_t steps;
    BoundaryKind boundary;
    std::optional<double> boundaryValue;
    Radii radii;
    Type elementType;
    bool rowForm;
  };
  Builder b(context.get());
  const Expected expected[] = {
      {"stencil.linear",
       7,
       BoundaryKind::periodic,
       std::nullopt,
       {2, 2, 2},
       b.getF16Type(),
       false},
      {"stencil.apply",
       2,
       BoundaryKind::dirichlet,
       0.5,
       {3, 1},
       b.getF32Type(),
       false},
      {"stencil.low_rank",
       2,
       BoundaryKind::periodic,
       std::nullopt,
       {1, 1},
       b.getF32Type(),
       false},
      {"stencil.fft_apply",
       9,
       BoundaryKind::dirichlet,
       0.25,
       {1, 1},
       b.getF64Type(),
       false},
      {"stencil.row_gemm",
       3,
       BoundaryKind::halo,
       std::nullopt,
       {1, 0},
       b.getF16Type(),
       true},
      {"stencil.sparse_row_gemm",
       1,
       BoundaryKind::halo,
       std::nullopt,
       {0, 0},
       b.getF16Type(),
       true},
  };

  SmallVector<StencilComputeOpInterface> ops =
      collect<StencilComputeOpInterface>(*module);
  ASSERT_EQ(ops.size(), std::size(expected));
  for (auto [op, want] : llvm::zip(ops, expected)) {
    SCOPED_TRACE(want.name.str());
    EXPECT_EQ(op->getName().getStringRef(), want.name);
    EXPECT_EQ(op.getInput(), op->getOperand(0));
    EXPECT_EQ(op.getOutput(), op->getOperand(1));
    EXPECT_EQ(op.getGridType(), op->getOperand(0).getType());
    EXPECT_EQ(op.getGridElementType(), want.elementType);
    EXPECT_EQ(op.getGridRank(), int64_t(want.radii.size()));
    EXPECT_EQ(op.getSteps(), want.steps);
    EXPECT_EQ(op.getBoundary(), want.boundary);
    std::optional<APFloat> value = op.getBoundaryValue();
    ASSERT_EQ(value.has_value(), want.boundaryValue.has_value());
    if (value) {
      EXPECT_EQ(value->convertToDouble(), *want.boundaryValue);
    }
    EXPECT_EQ(op.getRadii(), want.radii);
    EXPECT_EQ(isa<RowFormOpInterface>(op.getOperation()), want.rowForm);
  }

  // The ops of a body are not stencils of their own.
  module->walk([&](Operation *op) {
    if (isa<AccessOp, YieldOp>(op)) {
      EXPECT_FALSE(isa<StencilComputeOpInterface>(op));
    }
  });
}

/// The banded row forms: geometry, the input side before and after
/// --stencil-fold-row-swap (the offsets getFoldedInputOffsets predicts are
/// the ones the pass records), and the GPU kernel attributes set through
/// the interface.
TEST_F(Interfaces, BandedRowForms) {
  const char *text = R"mlir(
    func.func @f(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
      stencil.row_gemm %in -> %out radius 1 rows_per_block 2 column_shift 1
          row_offsets [0] column_permutation [1, 0, 3, 2]
          kernels dense<[[[0., 1., 2., 0.], [0., 0., 1., 2.]]]>
          : tensor<1x2x4xf64> : memref<?x?xf16>
      stencil.sparse_row_gemm %in -> %out radius 0 rows_per_block 2
          row_offsets [2]
          input_offsets [0, 1, 2, 3]
          values dense<[[[1., 0.], [1., 0.]]]> : tensor<1x2x2xf16>
          indices dense<[[[0, 1], [1, 2]]]> : tensor<1x2x2xi8>
          : memref<?x?xf16>
      return
    }
  )mlir";
  OwningOpRef<ModuleOp> module = build(text);
  ASSERT_TRUE(module);
  SmallVector<RowFormOpInterface> forms = collect<RowFormOpInterface>(*module);
  ASSERT_EQ(forms.size(), 2u);
  RowFormOpInterface dense = forms[0], sparse = forms[1];

  EXPECT_TRUE(dense.isDense());
  EXPECT_TRUE(isa<RowGemmOp>(dense.getOperation()));
  EXPECT_FALSE(sparse.isDense());
  EXPECT_TRUE(isa<SparseRowGemmOp>(sparse.getOperation()));
  for (RowFormOpInterface form : forms) {
    EXPECT_EQ(form.getNumRows(), 1);
    EXPECT_EQ(form.getRowsPerBlock(), 2);
    EXPECT_EQ(form.getColumnRadius(), 0);
    EXPECT_EQ(form.getNumFusedSteps(), 1);
    EXPECT_FALSE(form.getStepStencil());
    EXPECT_FALSE(form.isGathered());
    EXPECT_FALSE(form.getGather());
    EXPECT_FALSE(form.getGatherOffsets());
    EXPECT_FALSE(form.getLayout());
    EXPECT_FALSE(form.getTilingAttr());
    EXPECT_FALSE(form.getPackedCoefficients());
  }
  EXPECT_EQ(dense.getRadius(), 1);
  EXPECT_EQ(dense.getColumnShift(), 1);
  EXPECT_EQ(dense.getRowOffsets(), ArrayRef<int64_t>({0}));
  EXPECT_EQ(sparse.getRowOffsets(), ArrayRef<int64_t>({2}));
  EXPECT_EQ(dense.getRadii(), Radii({0, 1}));
  EXPECT_EQ(sparse.getRadii(), Radii({2, 0}));
  EXPECT_EQ(
      dense.getKernelNonZeros(),
      SmallVector<bool>({false, true, true, false, false, false, true, true}));
  // Row m keeps group 0's entries at positions indices[m] (values 1, 0).
  EXPECT_EQ(sparse.getKernelNonZeros(),
            SmallVector<bool>(
                {true, false, false, false, false, true, false, false}));

  // perm[c] - radius - column_shift, before the fold; the offsets as they
  // are after it.
  EXPECT_EQ(dense.getColumnPermutation(), ArrayRef<int64_t>({1, 0, 3, 2}));
  EXPECT_FALSE(dense.getInputOffsets());
  EXPECT_EQ(dense.getFoldedInputOffsets(), Radii({-1, -2, 1, 0}));
  EXPECT_EQ(sparse.getFoldedInputOffsets(), Radii({0, 1, 2, 3}));

  OwningOpRef<ModuleOp> folded = build(text, "stencil-fold-row-swap");
  ASSERT_TRUE(folded);
  SmallVector<RowFormOpInterface> after = collect<RowFormOpInterface>(*folded);
  ASSERT_EQ(after.size(), 2u);
  EXPECT_FALSE(after[0].getColumnPermutation());
  EXPECT_EQ(after[0].getInputOffsets(), ArrayRef<int64_t>({-1, -2, 1, 0}));
  EXPECT_EQ(after[1].getInputOffsets(), ArrayRef<int64_t>({0, 1, 2, 3}));

  // The setters write the ops' own attributes.
  dense.setInputOffsets({5, 6, 7, 8});
  EXPECT_TRUE(dense.removeColumnPermutationAttr());
  EXPECT_FALSE(cast<RowGemmOp>(dense.getOperation()).getColumnPermutation());
  EXPECT_EQ(cast<RowGemmOp>(dense.getOperation()).getInputOffsets(),
            ArrayRef<int64_t>({5, 6, 7, 8}));
  EXPECT_FALSE(dense.removeColumnPermutationAttr());
  auto tiling = TilingAttr::get(context.get(), /*warps=*/4, /*nTiles=*/2,
                                /*subTiles=*/1, /*asyncCopy=*/true,
                                /*mTiles=*/0, /*wgmmaN=*/0, /*wgmmaStages=*/0,
                                /*wgmmaStrips=*/0);
  sparse.setTilingAttr(tiling);
  sparse.setPackedCoefficients({1, -2, 3});
  auto op = cast<SparseRowGemmOp>(sparse.getOperation());
  EXPECT_EQ(op.getTilingAttr(), tiling);
  EXPECT_EQ(op.getPackedCoefficients(), ArrayRef<int32_t>({1, -2, 3}));
  EXPECT_EQ(sparse.getTilingAttr(), tiling);
}

/// The gathered forms (SparStencil) of both row forms, as --stencil-flatten
/// and --stencil-sptc-match build them, and after --stencil-encode-2to4:
/// the gather, and the reach of the weights (the star's radii).
TEST_F(Interfaces, GatheredRowForms) {
  const char *text = R"mlir(
    func.func @f(%in: memref<?x?x?xf16>, %out: memref<?x?x?xf16>) {
      stencil.linear %in -> %out pattern <star, rank = 3, radius = 2>
          weights [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1,
                   1.2, 1.3] steps 3 : memref<?x?x?xf16>
      return
    }
  )mlir";
  for (StringRef pipeline :
       {"stencil-flatten,stencil-sptc-match",
        "stencil-flatten,stencil-sptc-match,stencil-encode-2to4"}) {
    SCOPED_TRACE(pipeline.str());
    OwningOpRef<ModuleOp> module = build(text, pipeline);
    ASSERT_TRUE(module);
    SmallVector<RowFormOpInterface> forms =
        collect<RowFormOpInterface>(*module);
    ASSERT_EQ(forms.size(), 1u);
    RowFormOpInterface form = forms[0];
    EXPECT_EQ(form.isDense(), !pipeline.ends_with("2to4"));
    EXPECT_TRUE(form.isGathered());
    EXPECT_EQ(form.getRowsPerBlock(), 16);
    EXPECT_TRUE(form.getRowOffsets().empty());
    EXPECT_EQ(form.getSteps(), 3);
    std::optional<SpTCGather> gather = form.getGather();
    ASSERT_TRUE(gather);
    EXPECT_EQ(gather->numRows(), form.getNumRows());
    EXPECT_EQ(gather->r1 * gather->r2, 16);
    EXPECT_EQ(ArrayRef<int64_t>({gather->r1, gather->r2}), *form.getLayout());
    EXPECT_EQ(form.getRadii(), Radii({2, 2, 2}));
  }
}

/// A low-rank chain with fused steps (--stencil-decompose): the column
/// radius, the fused steps and their step stencil, and the reach of the
/// composed kernels.
TEST_F(Interfaces, FusedLowRankChain) {
  OwningOpRef<ModuleOp> module = build(R"mlir(
    func.func @f(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
      stencil.linear %in -> %out pattern <box, rank = 2, radius = 1>
          weights [0.01, 0.02, 0.01, 0.02, 0.04, 0.02, 0.01, 0.02, 0.01]
          steps 6 : memref<?x?xf16>
      return
    }
  )mlir",
                                       "stencil-decompose{fused-steps=2 "
                                       "low-rank=true}");
  ASSERT_TRUE(module);
  SmallVector<RowFormOpInterface> forms = collect<RowFormOpInterface>(*module);
  ASSERT_EQ(forms.size(), 1u);
  RowFormOpInterface form = forms[0];
  EXPECT_TRUE(form.isDense());
  EXPECT_EQ(form.getColumnRadius(), 2);
  EXPECT_EQ(form.getRadius(), 2);
  EXPECT_EQ(form.getNumFusedSteps(), 2);
  EXPECT_EQ(form.getSteps(), 6);
  EXPECT_EQ(form.getRadii(), Radii({2, 2}));
  std::optional<LinearStencil> step = form.getStepStencil();
  ASSERT_TRUE(step);
  EXPECT_EQ(step->rank, 2);
  EXPECT_EQ(step->getNumPoints(), 9u);
  EXPECT_EQ(step->getRadii(), Radii({1, 1}));
  EXPECT_EQ(step->weights[4], 0.04);
}

} // namespace
