//===- StencilToSpTC.cpp - Lower the sparse form to mma.sp kernels --------===//
//
// Implements `--convert-stencil-to-sptc`: checks each row form, sizes its
// kernel (SpTCGeometry), builds it (SpTCKernel.h for f16/bf16,
// TCF64Kernel.h for f64) and replaces the op with the host launches. The
// tiling, packing and row-swap scheme is described in the pass description
// (Conversion/Passes.td).
//
//===----------------------------------------------------------------------===//

#include "stencil/Conversion/StencilToSpTC/StencilToSpTC.h"
#include "stencil/Conversion/StencilGPUCommon/HostLaunch.h"
#include "stencil/Conversion/StencilGPUCommon/KernelABI.h"
#include "stencil/Conversion/StencilToCudaCore/StencilToCudaCore.h"
#include "stencil/Dialect/Stencil/IR/StencilDialect.h"
#include "stencil/Support/SpTCPacking.h"
#include "stencil/Support/SpTCTiling.h"

#include "Repack.h"
#include "SpTCKernel.h"
#include "TCF64Kernel.h"
#include "WgmmaSpKernel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/SymbolTable.h"

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
struct ConvertStencilToSpTCPass
    : public stencil::impl::ConvertStencilToSpTCBase<ConvertStencilToSpTCPass> {
  using ConvertStencilToSpTCBase::ConvertStencilToSpTCBase;

  void runOnOperation() override;

private:
  LogicalResult convert(RowFormOpInterface op, gpu::GPUModuleOp gpuModule,
                        SymbolTable &symbols,
                        SmallVectorImpl<Attribute> &launches);
  /// The f16 kernel (mma.sp, or two mma.sync m16n8k16 per kernel row).
  LogicalResult buildF16Kernel(RowFormOpInterface op, int64_t rank,
                               int64_t warps, int64_t tilesPerWarp,
                               int64_t subTilesPerBlock, bool useAsyncCopy,
                               ArrayRef<int64_t> radii,
                               const SpTCGather *gather,
                               OpBuilder &moduleBuilder, StringRef name,
                               StencilKernelLaunch &launch);
};
} // namespace

/// Checks what the kernel supports; emits a located error otherwise.
static LogicalResult checkSupported(RowFormOpInterface op) {
  MemRefType type = op.getGridType();
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

/// Fused steps by composition (Support/StepComposition.h): `launch.kernel`
/// computes t steps as one step of the composed weights, exact on [t r_d,
/// N_d - t r_d); the band kernel then computes the rest of the interior by
/// t direct steps of the step stencil, and a tail kernel (full grid) one
/// direct step, launched for the steps left over (S mod t of the op's S,
/// or of any run's); both are CUDA-core kernels of the same gpu.module
/// (buildCudaCoreStepKernel). Called before the main kernel is built (so
/// that their diagnostics come first); the caller divides the main kernel's
/// flops per point by t.
static LogicalResult addFusedStepKernels(RowFormOpInterface op,
                                         gpu::GPUModuleOp gpuModule,
                                         StringRef name,
                                         StencilKernelLaunch &launch) {
  int64_t t = op.getNumFusedSteps();
  if (t == 1)
    return success();
  LinearStencil step = *op.getStepStencil();
  Type elementType = op.getGridElementType();
  std::optional<LinearStencil> composed = composeSteps(step, t);
  if (!composed)
    return op.emitOpError("has a step stencil whose ")
           << t << "-fold composition has too many points";
  launch.stepsPerLaunch = t;
  for (double w : composed->weights)
    launch.composedAbsSum += std::abs(w);
  launch.composedPoints = composed->getNumPoints();
  SmallVector<int64_t> margins = getComposedMargins(step, t);
  if (llvm::any_of(margins, [](int64_t m) { return m > 0; })) {
    FailureOr<CudaCoreStepKernel> band =
        buildCudaCoreStepKernel(gpuModule, op.getLoc(), step, elementType, t,
                                margins, (name + "_band").str());
    if (failed(band))
      return failure();
    launch.bandKernel = band->kernel;
    launch.bandTile = band->tile;
    launch.bandThreads = band->threads;
    launch.bandMargins = margins;
  }
  {
    FailureOr<CudaCoreStepKernel> tail = buildCudaCoreStepKernel(
        gpuModule, op.getLoc(), step, elementType, /*steps=*/1,
        /*bandMargins=*/{}, (name + "_tail").str());
    if (failed(tail))
      return failure();
    launch.tailKernel = tail->kernel;
    launch.tailBlockTile = tail->tile;
    launch.tailThreads = tail->threads;
  }
  return success();
}

LogicalResult ConvertStencilToSpTCPass::convert(
    RowFormOpInterface op, gpu::GPUModuleOp gpuModule, SymbolTable &symbols,
    SmallVectorImpl<Attribute> &launches) {
  // 1. Checks and geometry.
  if (failed(checkSupported(op)))
    return failure();
  MemRefType gridType = op.getGridType();
  int64_t rank = gridType.getRank();
  // The tiling of --stencil-sptc-tile (checked by the op's verifier).
  TilingAttr tiling = op.getTilingAttr();
  int64_t warps = tiling.getWarps();
  int64_t tilesPerWarp = tiling.getNTiles();
  int64_t subTilesPerBlock = tiling.getSubTiles();
  bool useAsyncCopy = tiling.getAsyncCopy();
  SmallVector<int64_t> radii = op.getRadii();
  std::optional<SpTCGather> gather = op.getGather();
  std::string name = getUniqueKernelName(
      op.getOperation(), op.isDense() ? "tc" : "sptc", gpuModule);
  OpBuilder moduleBuilder = OpBuilder::atBlockEnd(gpuModule.getBody());
  StencilKernelLaunch launch;
  launch.threads = 32 * warps;
  launch.coefficients = *op.getPackedCoefficients();
  // How new weights of the same pattern are packed, or why not.
  launch.repack =
      getRepackRecipe(op, launch.coefficients, launch.repackUnsupported);
  if (failed(addFusedStepKernels(op, gpuModule, name, launch)))
    return failure();

  if (tiling.isWarpgroup()) {
    // The sm_90a warpgroup kernel (WgmmaSpKernel.h), for the banded sparse
    // forms --stencil-sptc-tile sends there.
    if (gather || rank < 2 || op.getColumnRadius() > 0 ||
        !gridType.getElementType().isF16())
      return op.emitOpError("has a warpgroup tiling (wgmmaN) but is not a "
                            "banded f16 form of rank 2 or 3");
    WgmmaSpGeometry geo;
    geo.rank = rank;
    geo.n = tiling.getWgmmaN();
    geo.radiusY = radii[rank - 2];
    geo.radiusZ = rank == 3 ? radii[0] : 0;
    geo.subTiles = subTilesPerBlock;
    if (tiling.getWgmmaStages())
      geo.stages = tiling.getWgmmaStages();
    if (tiling.getWgmmaStrips())
      geo.strips = tiling.getWgmmaStrips();
    if (geo.stages < kMinWgmmaStages || geo.stages > kMaxWgmmaStages)
      return op.emitOpError("wgmma_stages must be in [")
             << kMinWgmmaStages << ", " << kMaxWgmmaStages << "], got "
             << geo.stages;
    if (!isValidWgmmaStrips(geo.strips))
      return op.emitOpError("wgmma_strips must be a power of two in [1, ")
             << kMaxWgmmaStrips << "], got " << geo.strips;
    if (geo.smemBytes() > kMaxWgmmaSharedBytes)
      return op.emitOpError("needs ")
             << geo.smemBytes() << " bytes of shared memory for its tile, "
             << "more than " << kMaxWgmmaSharedBytes
             << ": use a smaller wgmma-n, fewer wgmma-stages or fewer "
                "wgmma-strips";
    launch.kernel = buildWgmmaSpKernel(moduleBuilder, op, geo, name);
    launch.sharedBytes = geo.smemBytes();
    launch.threads = kWarpgroupSize;
    launch.blockTile = geo.blockTile();
    launch.accumulator = "f32";
    // Per tile of 64 N outputs, one m64nNk32 of 2 * 64 * N * 32
    // dense-equivalent flops per (plane, shift) MMA (dense: two m64nNk16,
    // as many flops).
    launch.unit = op.isDense() ? "wgmma.f16" : "wgmma.sp.f16";
    launch.unitFlopsPerPoint =
        double(countWgmmaSpMmas(geo, op.getRowOffsets())) * 2 * kWgmmaSpK;
  } else if (gridType.getElementType().isF64()) {
    // The f64 kernel (TCF64Kernel.h).
    TCF64Geometry geo(rank, warps, tilesPerWarp,
                      tiling.getMTiles() ? tiling.getMTiles() : 1, radii);
    geo.pairMTiles = f64Shape == F64Shape::M16N8K4;
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
  // The record counts the flops per time step.
  launch.unitFlopsPerPoint /= double(op.getNumFusedSteps());
  emitHostLaunches(op.getOperation(), op.getInput(), op.getOutput(),
                   op.getSteps(), launch, symbols, launches);
  op.getOperation()->erase();
  return success();
}

LogicalResult ConvertStencilToSpTCPass::buildF16Kernel(
    RowFormOpInterface op, int64_t rank, int64_t warps, int64_t tilesPerWarp,
    int64_t subTilesPerBlock, bool useAsyncCopy, ArrayRef<int64_t> radii,
    const SpTCGather *gather, OpBuilder &moduleBuilder, StringRef name,
    StencilKernelLaunch &launch) {
  // The B operand: the banded form's plan (row swap, swizzle), or the
  // gathered form's rows (no swizzle: the slots' offsets are arbitrary).
  std::optional<SpTCBOperandPlan> plan;
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
  launch.kernel =
      buildSpTCKernel(moduleBuilder, op, geo, plan ? &*plan : nullptr, gather,
                      orderedMetadata, name);
  launch.blockTile = geo.blockTile;
  launch.accumulator = "f32";
  // Per kernel row, one m16n8k32 mma.sp (or two m16n8k16 mma.sync) of
  // 2 * 16 * 8 * 32 dense-equivalent flops for 16 x 8 outputs.
  bool bf16 = op.getGridElementType().isBF16();
  launch.unit = !op.isDense() ? "mma.sp.f16" : bf16 ? "mma.bf16" : "mma.f16";
  launch.unitFlopsPerPoint =
      double(op.getNumRows()) * 2 * kMmaSpK * kMmaSpM * kMmaSpN /
      (kMmaSpM * kMmaSpN);
  if (h > 0) {
    // The chain rounds T_k = X V_k to f16: Sum_k |u_k|_1 |v_k|_1 bounds it
    // (row 0 of kernel matrix k holds every weight of v_k once). Only a
    // row_gemm is a chain: its column weights and dense kernels.
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
  SmallVector<RowFormOpInterface> ops;
  module.walk([&](RowFormOpInterface op) { ops.push_back(op); });
  if (ops.empty())
    return;

  // One kernel per op, in the gpu.module of its form.
  SymbolTable symbols(module);
  SmallVector<Attribute> launches;
  for (RowFormOpInterface op : ops) {
    gpu::GPUModuleOp gpuModule = getOrCreateGpuModule(
        module, symbols,
        op.isDense() ? kDenseGpuModuleName : kSparseGpuModuleName);
    if (failed(convert(op, gpuModule, symbols, launches)))
      return signalPassFailure();
  }
  appendLaunchRecords(module, launches);
}
