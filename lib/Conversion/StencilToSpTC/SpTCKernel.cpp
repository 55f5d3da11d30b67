//===- SpTCKernel.cpp - Outline of the row-form kernel --------------------===//
//
// The f16/bf16 row-form kernel of `--convert-stencil-to-sptc`
// (SpTCKernel.h). The tiling, packing and row-swap scheme is described in
// the pass description (Conversion/Passes.td); the operand layouts of
// m16n8k32 `mma.sp` are in docs/MmaSparseLayout.md and Support/MmaSpModel.h,
// the coefficient layout in Support/SpTCPacking.h.
//
// Kernel outline (one time step), for a block at (z0, y0, x0):
//   1. each lane loads the A values and metadata of every kernel row
//      (here);
//   2. the block stages its input tile plus halo into shared memory
//      (SpTCStaging.cpp);
//   3. for every kernel row o and n-tile j: shared-memory loads build the
//      B operand at base(lane) + const(o, j, i), then one mma.sp
//      (SpTCCompute.cpp);
//   4. every accumulator that is an interior point is rounded to f16 and
//      stored (SpTCStores.cpp).
//
//===----------------------------------------------------------------------===//

#include "SpTCKernel.h"
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

gpu::GPUFuncOp SpTCKernelBuilder::build(OpBuilder &moduleBuilder,
                                        StringRef name) {
  gpu::GPUFuncOp func =
      beginKernel(moduleBuilder, op.getLoc(), name, elemType, geo.rank,
                  geo.allocatedElements(), geo.threads(), geo.blockTile);
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
  Value step = cst(1);
  Value upper = cst(geo.subTiles);
  Value lower = cst(0);
  auto loop = scf::ForOp::create(*b, lower, upper, step, first);
  {
    OpBuilder::InsertionGuard guard(*b);
    b->setInsertionPointToStart(loop.getBody());
    Value sub = loop.getInductionVar();
    storeTile(llvm::to_vector_of<Value>(loop.getRegionIterArgs()));
    gpu::BarrierOp::create(*b);
    SmallVector<Value> next = loadNextTile(sub, subOrigin);
    origin = subOrigin(sub);
    computeAndStore();
    gpu::BarrierOp::create(*b);
    scf::YieldOp::create(*b, next);
  }
  gpu::ReturnOp::create(*b);
  return func;
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
      int64_t first = op.isDense() ? TCCoefficientLayout::word(o, 0, part, 0)
                                   : SpTCCoefficientLayout::valueWord(o, 0, 0);
      Value words =
          vector::LoadOp::create(*b, VectorType::get({4}, i32), coef,
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

/// The most kernel rows of a gathered 2-D form that LLVM's O3 keeps
/// without raising the register pressure into ptxas's spills. Above, the
/// kernel asks for LLVM's O0 (kLLVMOptLevelAttrName) and ptxas schedules
/// the straight-line MMAs alone: on an H200 (bench/NOTES.md, "LLVM's
/// optimization level"), boxes of radius 11, 13 and 15 (35, 48 and 62
/// rows) ran 1.57x, 2.27x and 2.77x faster at O0 (spills of 1796, 3284 and
/// 6056 bytes per thread at O3, 0 to 360 at O0), radius 9 (24 rows) the
/// same, and the examples' smaller forms and the 3-D gathered boxes (28
/// and 51 rows) 4% to 17% slower: O3 stays theirs.
static constexpr int64_t kMaxO3GatheredRows = 32;

gpu::GPUFuncOp mlir::stencil::buildSpTCKernel(
    OpBuilder &moduleBuilder, RowFormOpInterface op,
    const SpTCGeometry &geometry, const SpTCBOperandPlan *plan,
    const SpTCGather *gather, bool orderedMetadata, StringRef name) {
  gpu::GPUFuncOp func =
      SpTCKernelBuilder(op, geometry, plan, gather, orderedMetadata)
          .build(moduleBuilder, name);
  if (gather && geometry.rank == 2 && gather->numRows() > kMaxO3GatheredRows)
    func->setAttr(kLLVMOptLevelAttrName, moduleBuilder.getI32IntegerAttr(0));
  return func;
}
