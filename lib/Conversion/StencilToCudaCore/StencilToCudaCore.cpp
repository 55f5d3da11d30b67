//===- StencilToCudaCore.cpp - Lower stencils to CUDA-core kernels --------===//
//
// Implements `--convert-stencil-to-cuda-core` (its checks, the kernels'
// tiling, the host code and the launch record; the kernel builder is
// CudaCoreKernel.cpp) and buildCudaCoreStepKernel, which the Tensor Core
// pipelines call for the direct steps of their fused kernels.
//
//===----------------------------------------------------------------------===//

#include "stencil/Conversion/StencilToCudaCore/StencilToCudaCore.h"
#include "CudaCoreKernel.h"
#include "stencil/Dialect/Stencil/IR/StencilDialect.h"
#include "stencil/Support/CudaCoreTiling.h"
#include "stencil/Support/GPULimits.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir {
namespace stencil {
#define GEN_PASS_DEF_CONVERTSTENCILTOCUDACORE
#include "stencil/Conversion/Passes.h.inc"
} // namespace stencil
} // namespace mlir

using namespace mlir;
using namespace mlir::stencil;

/// The most time steps one kernel fuses (each is unrolled in the kernel).
static constexpr int64_t kMaxFusedSteps = 64;
/// The most planes a prefetching streamed sweep loads ahead.
static constexpr int64_t kMaxPrefetchDistance = 4;
static constexpr StringLiteral kGpuModuleName = "stencil_cuda_core";

FailureOr<CudaCoreStepKernel> mlir::stencil::buildCudaCoreStepKernel(
    gpu::GPUModuleOp gpuModule, Location loc, const LinearStencil &step,
    Type elementType, int64_t steps, ArrayRef<int64_t> bandMargins,
    StringRef name) {
  // The pass's default tiling (Conversion/Passes.td), or fewer threads where
  // its tile of `steps` steps does not fit (3-D, f64, wide halos): the
  // direct steps are a small part of a fused launch's work.
  SmallVector<int64_t> radii = step.getRadii();
  if (std::optional<unsigned> d =
          findTooWideDimension(radii, steps, elementType))
    return emitError(loc, "the direct steps of the fused kernel (")
           << steps << " steps of radius " << radii[*d] << " along dimension "
           << *d << ") need a tile of at least " << 2 * steps * radii[*d] + 1
           << " points along it, more than fits in " << kMaxCudaCoreSharedBytes
           << " bytes of shared memory";
  std::optional<CudaCoreTiling> tiling;
  int64_t bytes = 0;
  for (auto [threadsX, threadsY] :
       {std::pair<int64_t, int64_t>{32, 8}, {32, 4}, {16, 4}, {8, 4}}) {
    tiling = chooseCudaCoreTiling(radii, threadsX, threadsY,
                                  /*outputsPerThread=*/0, steps,
                                  /*planes=*/0, elementType);
    bytes = getCudaCoreSharedBytes(*tiling, elementType);
    if (bytes <= kMaxCudaCoreSharedBytes)
      break;
  }
  if (bytes > kMaxCudaCoreSharedBytes)
    return emitError(loc, "the direct steps of the fused kernel (")
           << steps << " steps) need " << bytes
           << " bytes of shared memory for their tile even with 8 x 4 "
              "threads, more than "
           << kMaxCudaCoreSharedBytes << ": use fewer fused steps";
  CudaCoreKernelSpec spec(loc);
  spec.linear = step;
  spec.elementType = elementType;
  spec.boundary = BoundaryKind::halo;
  spec.bandMargins.assign(bandMargins.begin(), bandMargins.end());
  OpBuilder moduleBuilder = OpBuilder::atBlockEnd(gpuModule.getBody());
  CudaCoreStepKernel result;
  result.kernel = buildCudaCoreKernel(moduleBuilder, spec, *tiling, name);
  SymbolTable(gpuModule).insert(result.kernel);
  result.tile = tiling->tile;
  result.threads = tiling->threads();
  result.flopsPerPoint =
      2.0 * step.getNumPoints() * tiling->computedPointsPerOutput();
  return result;
}

namespace {
struct ConvertStencilToCudaCorePass
    : public stencil::impl::ConvertStencilToCudaCoreBase<
          ConvertStencilToCudaCorePass> {
  using ConvertStencilToCudaCoreBase::ConvertStencilToCudaCoreBase;

  void runOnOperation() override;

private:
  /// Which sweep the options and the op ask for (before the tiling).
  struct ScheduleChoice {
    int64_t numPoints = 0;  ///< of a linear stencil; 0 for a general body
    bool autoRows = false;  ///< stream=auto takes the 2-D row sweep
    bool rowStream = false; ///< the 2-D row sweep
  };

  LogicalResult convert(Operation *op, gpu::GPUModuleOp gpuModule,
                        SymbolTable &symbols,
                        SmallVectorImpl<Attribute> &launches);
  /// The options, and what the kernel cannot take of the op.
  LogicalResult checkOptions(Operation *op, MemRefType gridType);
  FailureOr<ScheduleChoice> chooseSchedule(Operation *op, int64_t rank,
                                           ArrayRef<int64_t> radii);
  /// The tiling of the schedule, the staged one where a streamed one asked
  /// for by stream=auto does not fit.
  FailureOr<CudaCoreTiling> chooseTiling(Operation *op, ArrayRef<int64_t> radii,
                                         Type elementType,
                                         const ScheduleChoice &choice);
  /// The options that need a schedule, and the tile's shared memory.
  LogicalResult checkTiling(Operation *op, const CudaCoreTiling &tiling,
                            ArrayRef<int64_t> radii, Type elementType);
};
} // namespace

/// The flops of one output: an FMA per point of a linear stencil; for a
/// general body, one per floating-point operation of the body (two for an
/// FMA). Scalar f16/bf16 arithmetic runs at the f32 rate on sm_80/sm_90, so
/// the launch record counts it against `fma.f32`.
static double countFlopsPerPoint(Operation *op) {
  if (auto linear = dyn_cast<LinearOp>(op))
    return 2.0 * linear.getPattern().getNumPoints();
  double flops = 0;
  op->walk([&](Operation *inner) {
    if (isa<math::FmaOp>(inner))
      flops += 2;
    else if (isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::DivFOp,
                 arith::MaximumFOp, arith::MinimumFOp, arith::NegFOp>(inner))
      flops += 1;
  });
  return flops;
}

/// Builds the kernel of `op` computing `tiling.steps` steps per launch and
/// adds it to `gpuModule`.
static gpu::GPUFuncOp buildKernel(Operation *op, const CudaCoreTiling &tiling,
                                  Type elementType, BoundaryKind boundary,
                                  double boundaryValue,
                                  gpu::GPUModuleOp gpuModule, StringRef name,
                                  StringRef weightsGlobal, bool prefetchPlanes,
                                  int64_t prefetchDistance) {
  CudaCoreKernelSpec spec(op->getLoc());
  if (auto linearOp = dyn_cast<LinearOp>(op))
    spec.linear =
        getLinearStencil(linearOp.getPattern(), linearOp.getWeights());
  else
    spec.apply = cast<ApplyOp>(op);
  spec.elementType = elementType;
  spec.boundary = boundary;
  spec.boundaryValue = boundaryValue;
  spec.weightsGlobal = weightsGlobal.str();
  spec.prefetchPlanes = prefetchPlanes;
  spec.prefetchDistance = prefetchDistance;
  OpBuilder moduleBuilder = OpBuilder::atBlockEnd(gpuModule.getBody());
  gpu::GPUFuncOp kernel =
      buildCudaCoreKernel(moduleBuilder, spec, tiling, name);
  SymbolTable(gpuModule).insert(kernel);
  return kernel;
}

namespace {
/// What an op's kernels are built from: its grids, boundary, steps and
/// radii.
struct StencilOpInfo {
  Value input, output;
  MemRefType gridType;
  int64_t rank = 0;
  BoundaryKind boundary = BoundaryKind::halo;
  double boundaryValue = 0.0; // dirichlet(v) only
  int64_t steps = 0;
  SmallVector<int64_t> radii;
};
} // namespace

static StencilOpInfo getStencilOpInfo(StencilComputeOpInterface op) {
  StencilOpInfo info;
  info.input = op.getInput();
  info.output = op.getOutput();
  info.gridType = op.getGridType();
  info.rank = info.gridType.getRank();
  info.boundary = op.getBoundary();
  if (std::optional<APFloat> value = op.getBoundaryValue())
    info.boundaryValue = value->convertToDouble();
  info.steps = op.getSteps();
  info.radii = op.getRadii();
  return info;
}

LogicalResult ConvertStencilToCudaCorePass::checkOptions(Operation *op,
                                                         MemRefType gridType) {
  int64_t rank = gridType.getRank();
  if (!gridType.getLayout().isIdentity())
    return op->emitOpError("needs grids with the identity layout");
  if (auto apply = dyn_cast<ApplyOp>(op)) {
    SetVector<Value> fromAbove;
    getUsedValuesDefinedAbove(apply.getBody(), fromAbove);
    for (Value value : fromAbove)
      if (!matchPattern(value, m_Constant()))
        return op->emitOpError("has a body that uses a value defined "
                               "outside it, which is not a constant: the "
                               "kernel cannot take it (use --lower-to-cpu, "
                               "or compute it in the body)")
                   .attachNote(value.getLoc())
               << "the value is defined here";
  }
  if (threadsX < 1 || threadsY < 1 || outputsPerThread < 0 ||
      threadsX * threadsY > 1024)
    return op->emitOpError("needs threads-x, threads-y >= 1, "
                           "outputs-per-thread >= 0 (0: automatic) and at "
                           "most 1024 threads per block");
  if (fusedSteps < 1 || fusedSteps > kMaxFusedSteps)
    return op->emitOpError("needs 1 <= fused-steps <= ")
           << kMaxFusedSteps << " (each fused step is unrolled in the kernel)";
  if (prefetchDistance < 1 || prefetchDistance > kMaxPrefetchDistance)
    return op->emitOpError("needs 1 <= prefetch-distance <= ")
           << kMaxPrefetchDistance
           << " (each plane ahead holds its staging values in registers)";
  if (!llvm::is_contained({1, 2, 4, 8}, vectorWidth.getValue()))
    return op->emitOpError("needs vector-width 1, 2, 4 or 8, not ")
           << vectorWidth.getValue();
  if (int64_t bytes = vectorWidth * gridType.getElementTypeBitWidth() / 8;
      bytes > 16)
    return op->emitOpError("cannot move ")
           << vectorWidth.getValue() << " " << gridType.getElementType()
           << " elements as one vector (" << bytes
           << " bytes; the widest load and store move 16): use a "
              "vector-width of at most "
           << 128 / gridType.getElementTypeBitWidth();
  // Bounded before the product, which a huge N would overflow.
  if (minBlocksPerSM < 0 || minBlocksPerSM > kMaxBlocksPerSM ||
      minBlocksPerSM * threadsX * threadsY > kMaxThreadsPerSM)
    return op->emitOpError("needs 0 <= min-blocks-per-sm <= ")
           << kMaxBlocksPerSM << " and at most " << kMaxThreadsPerSM
           << " threads per SM, not " << minBlocksPerSM.getValue()
           << " blocks of " << threadsX * threadsY << " threads";
  if (stream == StreamMode::On && rank == 1)
    return op->emitOpError("cannot stream a 1-D stencil: stream sweeps the "
                           "outermost dimension of a 2-D or 3-D grid");
  if (stream == StreamMode::On && rank == 2 && !isa<LinearOp>(op))
    return op->emitOpError("cannot stream a 2-D stencil.apply: the row "
                           "sweep keeps partial sums of a linear stencil's "
                           "weighted rows (use stencil.linear, or "
                           "stream=off)");
  return success();
}

FailureOr<ConvertStencilToCudaCorePass::ScheduleChoice>
ConvertStencilToCudaCorePass::chooseSchedule(Operation *op, int64_t rank,
                                             ArrayRef<int64_t> radii) {
  // A 2-D sweep's planes are its output rows. stream=auto sweeps the rows of
  // a linear 2-D stencil that fuses steps (with one step the staged kernel
  // is faster; bench/NOTES.md, "the interior sweep"), of r_y <= 3 (the
  // 2 r_y + 1 partial sums per step are registers: ptxas spills the 15 of
  // a 15 x 15 box), unless outputs-per-thread asks for the staged tiling;
  // where the sweep does not fit it falls back to that tiling, unless
  // `planes` asks for the sweep.
  // The row sweep, its row groups and the plane sums unroll every point of
  // a linear stencil (with the sums' slots); a larger one takes the staged
  // or ring kernel, whose sums loop over the points (kMaxUnrolledPoints).
  auto linearOp = dyn_cast<LinearOp>(op);
  int64_t numPoints = linearOp ? linearOp.getPattern().getNumPoints() : 0;
  bool unrollable = numPoints <= kMaxUnrolledPoints;
  auto tooManyPoints = [&](StringRef schedule) {
    return op->emitOpError("has ")
           << numPoints << " points, more than the " << kMaxUnrolledPoints
           << " that " << schedule
           << " takes: it unrolls the sum over the points (the staged and "
              "streamed kernels loop over more)";
  };
  if (!unrollable && stream == StreamMode::On && rank == 2)
    return tooManyPoints("the 2-D row sweep (stream=on)");
  if (!unrollable && rowPhases > 0)
    return tooManyPoints("the row sweep's row groups (row-phases)");
  if (!unrollable && planeSums && rank == 3)
    return tooManyPoints("the 3-D plane sums sweep (plane-sums=true)");
  ScheduleChoice choice;
  choice.numPoints = numPoints;
  choice.autoRows = stream == StreamMode::Auto && rank == 2 &&
                    isa<LinearOp>(op) && fusedSteps > 1 &&
                    outputsPerThread == 0 && radii[0] <= 3 && unrollable;
  choice.rowStream = (stream == StreamMode::On && rank == 2) || choice.autoRows;
  if (planes < 0 || (planes > 1 && rank != 3 && !choice.rowStream))
    return op->emitOpError("needs planes >= 0 (0: automatic), and 1 or 0 "
                           "for a ")
           << rank
           << "-D stencil (planes are z planes of a 3-D tile, or the rows "
              "of a streamed 2-D block)";
  return choice;
}

FailureOr<CudaCoreTiling> ConvertStencilToCudaCorePass::chooseTiling(
    Operation *op, ArrayRef<int64_t> radii, Type elementType,
    const ScheduleChoice &choice) {
  int64_t rank = radii.size();
  // Bound the radius before any tile arithmetic (which would overflow for a
  // radius near 2^31): along each dimension the staged tile spans at least
  // 2 * fused-steps * r + 1 points. r <= 2^31 - 1 (kMaxOffset) and
  // fused-steps <= kMaxFusedSteps, so this product itself cannot overflow.
  if (std::optional<unsigned> d =
          findTooWideDimension(radii, fusedSteps, elementType))
    return (op->emitOpError("radius ")
            << radii[*d] << " along dimension " << *d
            << " needs a tile of at least " << 2 * fusedSteps * radii[*d] + 1
            << " points along it"
            << (fusedSteps > 1 ? " (fused steps widen the halo)" : "")
            << ", more than fits in " << kMaxCudaCoreSharedBytes
            << " bytes of shared memory"),
           failure();
  // stream=auto: the streamed tiling where it fits (a 3-D stencil's rings,
  // a 2-D sweep's rows unless `planes` asks for the sweep), else the staged
  // one.
  // With plane-sums, a streamed linear 3-D kernel of one step (the tail of
  // fused ones too) keeps partial sums of its planes (CudaCorePlaneSums.cpp).
  bool linearPlaneSums = planeSums && isa<LinearOp>(op);
  // A general body is cloned once per output of a thread. With more than
  // kMaxUnrolledPoints accesses the automatic choice takes one output per
  // thread: the clones of several outputs read many of the same shared
  // elements, and CSE, merging each such load with its twin one clone
  // earlier, scans every op in between for side effects, which grows with
  // the square of the body (5000 accesses: minutes).
  int64_t outputs = outputsPerThread;
  if (auto apply = dyn_cast<ApplyOp>(op); apply && outputs == 0) {
    int64_t accesses = 0;
    apply.getBody().walk([&](AccessOp) { ++accesses; });
    if (accesses > kMaxUnrolledPoints)
      outputs = 1;
  }
  CudaCoreTiling tiling = chooseCudaCoreTiling(
      radii, threadsX, threadsY, outputs, fusedSteps, planes, elementType,
      /*stream=*/(stream != StreamMode::Off && rank == 3) || choice.rowStream,
      linearPlaneSums, vectorWidth, rowPhases);
  bool streamFits =
      (!tiling.rowStream() || tiling.tile[1] >= 1) &&
      getCudaCoreSharedBytes(tiling, elementType) <= kMaxCudaCoreSharedBytes;
  if (stream == StreamMode::Auto && tiling.stream &&
      !(choice.autoRows && planes > 1) && !streamFits)
    tiling = chooseCudaCoreTiling(radii, threadsX, threadsY, outputs,
                                  fusedSteps, planes, elementType);
  // The plane sums' unrolled groups: as many iterations as keep the kernel
  // linear in the pattern.
  tiling.limitPlaneSumUnroll(choice.numPoints);
  return tiling;
}

LogicalResult ConvertStencilToCudaCorePass::checkTiling(
    Operation *op, const CudaCoreTiling &tiling, ArrayRef<int64_t> radii,
    Type elementType) {
  if (vectorWidth > 1 && !tiling.planeSums)
    return op->emitOpError("needs the plane sums for vector-width=")
           << vectorWidth.getValue()
           << ": plane-sums=true on a 3-D stencil.linear, streamed (stream=on, "
              "or auto where its planes fit) with fused-steps=1";
  if (rowPhases < 0)
    return op->emitOpError("needs row-phases >= 0, not ")
           << rowPhases.getValue();
  if (rowPhases > 0 && !tiling.rowStream())
    return op->emitOpError("needs the 2-D row sweep for row-phases=")
           << rowPhases.getValue()
           << " (stream=on on a 2-D stencil.linear; this kernel is "
           << (tiling.stream ? "streamed along z" : "staged") << ")";
  if (rowPhases > 0 && rowPhases > 2 * radii[1] + 1)
    return op->emitOpError("cannot split ")
           << 2 * radii[1] + 1 << " x offset(s) (radius " << radii[1]
           << " along x) into row-phases=" << rowPhases.getValue()
           << " phases: use at most " << 2 * radii[1] + 1;
  if (rowPhases > 0 && tiling.outputs > 1)
    return op->emitOpError("row-phases sweeps one column per thread, not "
                           "outputs-per-thread=")
           << outputsPerThread.getValue();
  if (tiling.rowStream() && tiling.tile[1] < 1)
    return op->emitOpError("cannot stream with ")
           << tiling.rowWidth() << " columns per block: a row of the block "
           << "keeps " << 2 * tiling.halo[1] << " columns for the halo of "
           << fusedSteps.getValue() << " fused step(s) of radius " << radii[1]
           << " along x and needs at least one column of outputs (use more "
              "threads-x * threads-y * outputs-per-thread, or fewer "
              "fused-steps)";
  int64_t bytes = getCudaCoreSharedBytes(tiling, elementType);
  if (bytes > kMaxCudaCoreSharedBytes && tiling.rowGroups())
    return op->emitOpError("needs ")
           << bytes << " bytes of shared memory for its row groups ("
           << fusedSteps.getValue() + 1 << " buffers of "
           << tiling.rowGroupRows() << " rows of " << tiling.rowLength()
           << " elements), more than " << kMaxCudaCoreSharedBytes
           << ": use a smaller fused-steps, or fewer threads, or row-phases=0";
  if (bytes > kMaxCudaCoreSharedBytes && tiling.rowStream())
    return op->emitOpError("needs ")
           << bytes << " bytes of shared memory for its row sweep (two rows "
           << "of " << tiling.rowLength() << " elements for each of "
           << fusedSteps.getValue() << " fused step(s)), more than "
           << kMaxCudaCoreSharedBytes
           << ": use a smaller fused-steps, or fewer threads";
  if (bytes > kMaxCudaCoreSharedBytes && tiling.stream)
    return op->emitOpError("needs ")
           << bytes << " bytes of shared memory for its streamed tile ("
           << fusedSteps.getValue() << " ring(s) of " << tiling.ringSlots()
           << " planes of " << tiling.smemShape[1] << " x "
           << tiling.smemShape[2] << "), more than " << kMaxCudaCoreSharedBytes
           << ": use a smaller fused-steps, or fewer threads or "
              "outputs-per-thread";
  if (bytes > kMaxCudaCoreSharedBytes && fusedSteps == 1)
    return op->emitOpError("needs ")
           << bytes << " bytes of shared memory for its tile, more than "
           << kMaxCudaCoreSharedBytes
           << ": use fewer threads, outputs-per-thread or planes";
  if (bytes > kMaxCudaCoreSharedBytes)
    return op->emitOpError("needs ")
           << bytes << " bytes of shared memory for fused-steps="
           << fusedSteps.getValue()
           << " (two buffers of the tile with a halo of "
           << fusedSteps.getValue() << " x the radius per side), more than "
           << kMaxCudaCoreSharedBytes
           << ": use a smaller fused-steps, or fewer threads, "
              "outputs-per-thread or planes";

  return success();
}

/// The record's source, what the runner checks against: a linear stencil's
/// pattern and weights, a general body's expression (without one, the
/// kernel can only be timed).
static void setSourceAttr(Operation *op) {
  Builder builder(op->getContext());
  if (auto linear = dyn_cast<LinearOp>(op)) {
    op->setAttr(kSourceAttrName, getSourceAttr(linear.getPatternAttr(),
                                               linear.getWeightsAttr()));
  } else {
    std::string body;
    llvm::raw_string_ostream os(body);
    FailureOr<Operation *> unsupported =
        printBodyExpression(cast<ApplyOp>(op), os);
    if (succeeded(unsupported) && !*unsupported)
      op->setAttr(kSourceAttrName,
                  builder.getDictionaryAttr({builder.getNamedAttr(
                      "body", builder.getStringAttr(body))}));
    else if (succeeded(unsupported))
      op->emitWarning("the launch record has no body expression for the "
                      "runner's reference ('")
          << (*unsupported)->getName()
          << "' has none): stencil-run can time this kernel but not check "
             "it";
    else
      op->emitWarning("the launch record has no body expression for the "
                      "runner's reference (the expression is larger than 64 "
                      "KiB or nests more than 256 sub-expressions): "
                      "stencil-run can time this kernel but not check it");
  }
}

LogicalResult
ConvertStencilToCudaCorePass::convert(Operation *op, gpu::GPUModuleOp gpuModule,
                                      SymbolTable &symbols,
                                      SmallVectorImpl<Attribute> &launches) {
  // 1. Checks, schedule and tiling.
  StencilOpInfo info = getStencilOpInfo(cast<StencilComputeOpInterface>(op));
  ArrayRef<int64_t> radii = info.radii;
  BoundaryKind boundary = info.boundary;
  double boundaryValue = info.boundaryValue;
  if (failed(checkOptions(op, info.gridType)))
    return failure();
  FailureOr<ScheduleChoice> choice = chooseSchedule(op, info.rank, radii);
  if (failed(choice))
    return failure();
  Type elementType = info.gridType.getElementType();
  FailureOr<CudaCoreTiling> chosen =
      chooseTiling(op, radii, elementType, *choice);
  if (failed(chosen) || failed(checkTiling(op, *chosen, radii, elementType)))
    return failure();
  const CudaCoreTiling &tiling = *chosen;
  bool linearPlaneSums = planeSums && isa<LinearOp>(op);
  int64_t numPoints = choice->numPoints;

  // 2. The kernel of `fused-steps` steps and, when it fuses more than one,
  // the tail kernel of one step, launched for the steps left over (S mod t
  // of the op's S here, of any run's steps in libStencilRuntime).
  std::string name = getUniqueKernelName(op, "cuda_core", gpuModule);
  // The weights of a linear stencil, in a global the runtime can overwrite
  // (replaceable-weights).
  std::string weightsGlobal;
  Type accType = elementType.isF64() ? Type(Float64Type::get(op->getContext()))
                                     : Type(Float32Type::get(op->getContext()));
  if (auto linear = dyn_cast<LinearOp>(op); linear && replaceableWeights) {
    // `.const` holds 64 KiB per module: 16384 f32 or 8192 f64 weights.
    int64_t weightBytes =
        int64_t(linear.getWeights().size()) * accType.getIntOrFloatBitWidth() /
        8;
    if (weightBytes > kMaxConstantBytes)
      return op->emitOpError("has ")
             << linear.getWeights().size() << " weights of "
             << accType.getIntOrFloatBitWidth() / 8 << " bytes ("
             << weightBytes << " bytes), more than the " << kMaxConstantBytes
             << " bytes of .const that hold replaceable weights: use "
                "replaceable-weights=false (the weights are then part of the "
                "kernel)";
    weightsGlobal = name + "_weights";
    createCudaCoreWeightsGlobal(gpuModule, op->getLoc(), weightsGlobal,
                                linear.getWeights(), accType);
  }
  gpu::GPUFuncOp kernel =
      buildKernel(op, tiling, elementType, boundary, boundaryValue, gpuModule,
                  name, weightsGlobal, prefetchPlanes, prefetchDistance);
  gpu::GPUFuncOp tailKernel;
  std::optional<CudaCoreTiling> tailTiling;
  if (fusedSteps > 1) {
    tailTiling.emplace(radii, threadsX, threadsY, tiling.outputs,
                       /*fusedSteps=*/1, tiling.planes, tiling.stream,
                       linearPlaneSums, vectorWidth, tiling.rowPhases);
    tailTiling->limitPlaneSumUnroll(numPoints);
    tailKernel = buildKernel(op, *tailTiling, elementType, boundary,
                             boundaryValue, gpuModule, name + "_tail",
                             weightsGlobal, prefetchPlanes, prefetchDistance);
  }
  // min-blocks-per-sm: `.minnctapersm` beside the `.maxntid` of the block
  // size, through the NVVM attribute that the GPU-to-NVVM lowering keeps.
  if (minBlocksPerSM > 0)
    for (gpu::GPUFuncOp func : {kernel, tailKernel})
      if (func)
        func->setAttr(
            NVVM::NVVMDialect::getMinctasmAttrName(),
            Builder(op->getContext()).getI32IntegerAttr(minBlocksPerSM));

  // 3. Host code and launch record.
  setSourceAttr(op);
  StencilKernelLaunch launch;
  launch.boundary = boundary;
  launch.boundaryValue = boundaryValue;
  launch.kernel = kernel;
  launch.blockTile = tiling.tile;
  launch.threads = tiling.threads();
  launch.stepsPerLaunch = fusedSteps;
  launch.tailKernel = tailKernel;
  if (tailTiling && (tailTiling->tile != tiling.tile ||
                     tailTiling->threads() != tiling.threads())) {
    // A tile of one step has a narrower halo: the row sweep's blocks then
    // hold more output columns (its own launch grid).
    launch.tailBlockTile = tailTiling->tile;
    launch.tailThreads = tailTiling->threads();
  }
  launch.weightsGlobal = weightsGlobal;
  launch.accumulator = elementType.isF64() ? "f64" : "f32";
  if (isa<ApplyOp>(op))
    launch.accumulator = elementType.isF64()    ? "f64"
                         : elementType.isF32()  ? "f32"
                         : elementType.isBF16() ? "bf16"
                                                : "f16";
  launch.unit = elementType.isF64() ? "fma.f64" : "fma.f32";
  launch.schedule = tiling.rowStream() ? "rows"
                    : tiling.planeSums ? "plane-sums"
                    : tiling.stream    ? "streamed"
                                       : "staged";
  launch.vectorWidth = tiling.vectorWidth;
  // Per output and time step, the fused steps' recomputed halo included.
  launch.unitFlopsPerPoint =
      countFlopsPerPoint(op) * tiling.computedPointsPerOutput();
  emitHostLaunches(op, info.input, info.output, info.steps, launch, symbols,
                   launches);
  op->erase();
  return success();
}

void ConvertStencilToCudaCorePass::runOnOperation() {
  ModuleOp module = getOperation();
  SmallVector<Operation *> ops;
  module.walk([&](Operation *op) {
    if (isa<LinearOp, ApplyOp>(op))
      ops.push_back(op);
  });
  if (ops.empty())
    return;
  SymbolTable symbols(module);
  gpu::GPUModuleOp gpuModule =
      getOrCreateGpuModule(module, symbols, kGpuModuleName);
  SmallVector<Attribute> launches;
  for (Operation *op : ops)
    if (failed(convert(op, gpuModule, symbols, launches)))
      return signalPassFailure();
  appendLaunchRecords(module, launches);
}
