//===- HostLaunch.cpp - Host side of the stencil GPU kernels --------------===//

#include "stencil/Conversion/StencilGPUCommon/HostLaunch.h"
#include "stencil/Conversion/StencilGPUCommon/KernelABI.h"
#include "stencil/Dialect/Stencil/IR/StencilDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Format.h"

using namespace mlir;
using namespace mlir::stencil;

gpu::GPUModuleOp mlir::stencil::getOrCreateGpuModule(ModuleOp module,
                                                     SymbolTable &symbols,
                                                     StringRef name) {
  module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                  UnitAttr::get(module.getContext()));
  if (auto gpuModule = symbols.lookup<gpu::GPUModuleOp>(name))
    return gpuModule;
  OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
  auto gpuModule = gpu::GPUModuleOp::create(builder, module.getLoc(), name);
  symbols.insert(gpuModule);
  return gpuModule;
}

std::string mlir::stencil::getUniqueKernelName(Operation *op, StringRef suffix,
                                               gpu::GPUModuleOp gpuModule) {
  auto parent = op->getParentOfType<FunctionOpInterface>();
  std::string base =
      (parent ? parent.getName().str() : std::string("stencil")) + "_" +
      suffix.str();
  // Every name in use that a kernel's derived names could meet.
  llvm::StringSet<> used;
  auto addSymbols = [&](Operation *table) {
    if (!table || table->getNumRegions() == 0 || table->getRegion(0).empty())
      return;
    for (Operation &symbol : table->getRegion(0).front())
      if (auto name = symbol.getAttrOfType<StringAttr>(
              SymbolTable::getSymbolAttrName()))
        used.insert(name.getValue());
  };
  addSymbols(gpuModule);
  ModuleOp module = op->getParentOfType<ModuleOp>();
  addSymbols(module);
  if (module)
    if (auto launches = module->getAttrOfType<ArrayAttr>(kLaunchesAttrName))
      for (Attribute record : launches)
        if (auto dict = dyn_cast<DictionaryAttr>(record))
          if (auto kernel = dict.getAs<StringAttr>("kernel"))
            used.insert(kernel.getValue());
  // A name is free when no name in use is it or starts with it and `_`.
  auto isFree = [&](StringRef name) {
    return llvm::none_of(used, [&](const auto &entry) {
      StringRef other = entry.getKey();
      return other == name ||
             (other.starts_with(name) && other[name.size()] == '_');
    });
  };
  if (isFree(base))
    return base;
  for (int64_t k = 1;; ++k)
    if (std::string name = base + "_" + std::to_string(k); isFree(name))
      return name;
}

static StringRef getTypeName(Type type) {
  if (type.isF16())
    return "f16";
  if (type.isBF16())
    return "bf16";
  if (type.isF32())
    return "f32";
  return "f64";
}

/// `halo`, `periodic` or `dirichlet(v)`, as a launch description spells it.
static std::string getBoundaryName(const StencilKernelLaunch &launch) {
  if (launch.boundary != BoundaryKind::dirichlet)
    return stringifyBoundaryKind(launch.boundary).str();
  std::string name;
  llvm::raw_string_ostream(name)
      << "dirichlet(" << llvm::format("%.17g", launch.boundaryValue) << ")";
  return name;
}

namespace {
/// The tail kernel's tile (outermost first), threads per block and dynamic
/// shared memory: its own tiling, or the kernel's.
struct TailShape {
  ArrayRef<int64_t> tile;
  int64_t threads;
  int64_t sharedBytes;
};

TailShape getTailShape(const StencilKernelLaunch &launch) {
  if (!launch.tailBlockTile.empty())
    return {launch.tailBlockTile, launch.tailThreads, 0};
  return {launch.blockTile, launch.threads, launch.sharedBytes};
}

/// The host code of one stencil op's launches (emitHostLaunches), built at
/// the op: the coefficients' upload, the flat buffers and the grid sizes
/// every launch takes, and the launches of the kernel, its band kernel and
/// its tail.
class HostLaunchBuilder {
public:
  HostLaunchBuilder(Operation *op, Value in, const StencilKernelLaunch &launch)
      : b(op->getLoc(), op), op(op), in(in), launch(launch),
        rank(cast<MemRefType>(in.getType()).getRank()) {}

  /// The coefficients as a constant global of the host module, copied to a
  /// device buffer (freed at the end of emitSteps).
  void uploadCoefficients(SymbolTable &symbols);
  /// `grid` as a flat buffer.
  Value flatten(Value grid);
  /// The launches of `steps` steps from `inFlat` into `outFlat`, ping-
  /// ponging, and the final copy where the result is in `inFlat`.
  void emitSteps(int64_t steps, Value inFlat, Value outFlat);

private:
  Value ceilDiv(Value n, int64_t t);
  /// The grid of blocks of `tile` (outermost first) over the grid.
  gpu::KernelDim3 gridOf(ArrayRef<int64_t> tile);
  gpu::KernelDim3 blockOf(int64_t threads);
  /// One launch reading buffers[0] and writing buffers[1].
  void emitLaunch(OpBuilder &lb, Location l, gpu::GPUFuncOp func,
                  gpu::KernelDim3 grid, gpu::KernelDim3 block,
                  int64_t dynamicShared, ValueRange buffers);
  /// The band kernel's grid: BandTiling::getNumTiles() of the sizes,
  /// prod n_d - prod (hi_d - lo_d) (Support/StepComposition.h).
  gpu::KernelDim3 getBandGrid();
  /// `numLaunches` launches of `emitOne(builder, loc, buffers)`, each
  /// swapping the buffers: a loop, but for a single launch without
  /// `loopForOne`.
  void
  emitLaunchLoop(int64_t numLaunches, SmallVectorImpl<Value> &buffers,
                 function_ref<void(OpBuilder &, Location, ValueRange)> emitOne,
                 bool loopForOne);

  ImplicitLocOpBuilder b;
  Operation *op;
  Value in;
  const StencilKernelLaunch &launch;
  int64_t rank;
  Value deviceCoef, coefArg;
  SmallVector<Value> dims;
  Value one;
};
} // namespace

void HostLaunchBuilder::uploadCoefficients(SymbolTable &symbols) {
  MLIRContext *ctx = op->getContext();
  SmallVector<int32_t> words(launch.coefficients);
  if (words.empty())
    words.push_back(0);
  auto module = op->getParentOfType<ModuleOp>();
  OpBuilder globalBuilder = OpBuilder::atBlockBegin(module.getBody());
  auto coefType = MemRefType::get({static_cast<int64_t>(words.size())},
                                  IntegerType::get(ctx, 32));
  auto global = memref::GlobalOp::create(
      globalBuilder, op->getLoc(),
      gpu::GPUFuncOp(launch.kernel).getName().str() + "_coefficients",
      globalBuilder.getStringAttr("private"), coefType,
      DenseElementsAttr::get(
          RankedTensorType::get(coefType.getShape(), coefType.getElementType()),
          ArrayRef<int32_t>(words)),
      /*constant=*/true, /*alignment=*/IntegerAttr());
  symbols.insert(global);

  Value hostCoef = memref::GetGlobalOp::create(b, coefType, global.getName());
  deviceCoef = gpu::AllocOp::create(b, coefType, Type(), ValueRange{},
                                    ValueRange{}, ValueRange{})
                   .getMemref();
  gpu::MemcpyOp::create(b, Type(), ValueRange{}, deviceCoef, hostCoef);
  coefArg = memref::CastOp::create(
      b, MemRefType::get({ShapedType::kDynamic}, coefType.getElementType()),
      deviceCoef);
}

Value HostLaunchBuilder::flatten(Value grid) {
  auto flatType = MemRefType::get(
      {ShapedType::kDynamic}, cast<MemRefType>(in.getType()).getElementType());
  if (rank > 1) {
    SmallVector<ReassociationIndices> all = {
        llvm::to_vector(llvm::seq<int64_t>(0, rank))};
    grid = memref::CollapseShapeOp::create(b, grid, all);
  }
  return grid.getType() == flatType
             ? grid
             : memref::CastOp::create(b, flatType, grid).getResult();
}

Value HostLaunchBuilder::ceilDiv(Value n, int64_t t) {
  if (t == 1)
    return n;
  return arith::CeilDivUIOp::create(b, n, arith::ConstantIndexOp::create(b, t));
}

gpu::KernelDim3 HostLaunchBuilder::gridOf(ArrayRef<int64_t> tile) {
  return gpu::KernelDim3{ceilDiv(dims[rank - 1], tile[rank - 1]),
                         rank >= 2 ? ceilDiv(dims[rank - 2], tile[rank - 2])
                                   : one,
                         rank == 3 ? ceilDiv(dims[0], tile[0]) : one};
}

gpu::KernelDim3 HostLaunchBuilder::blockOf(int64_t threads) {
  return gpu::KernelDim3{arith::ConstantIndexOp::create(b, threads), one, one};
}

void HostLaunchBuilder::emitLaunch(OpBuilder &lb, Location l,
                                   gpu::GPUFuncOp func, gpu::KernelDim3 grid,
                                   gpu::KernelDim3 block, int64_t dynamicShared,
                                   ValueRange buffers) {
  SmallVector<Value> args = {buffers[0], buffers[1], coefArg};
  args.append(dims);
  Value sharedBytes;
  if (dynamicShared > 0)
    sharedBytes = arith::ConstantIntOp::create(lb, l, dynamicShared,
                                               /*width=*/32);
  gpu::LaunchFuncOp::create(lb, l, func, grid, block, sharedBytes, args);
}

gpu::KernelDim3 HostLaunchBuilder::getBandGrid() {
  gpu::KernelDim3 bandGrid = {one, one, one};
  BandTilingValues band =
      getBandTiling(b, dims, launch.bandTile, launch.bandMargins);
  Value all = one, inner = one;
  for (int64_t d = 0; d < rank; ++d) {
    all = arith::MulIOp::create(b, all, band.counts[d]);
    inner = arith::MulIOp::create(
        b, inner, arith::SubIOp::create(b, band.hi[d], band.lo[d]));
  }
  bandGrid.x = arith::SubIOp::create(b, all, inner);
  return bandGrid;
}

void HostLaunchBuilder::emitLaunchLoop(
    int64_t numLaunches, SmallVectorImpl<Value> &buffers,
    function_ref<void(OpBuilder &, Location, ValueRange)> emitOne,
    bool loopForOne) {
  if (numLaunches == 1 && !loopForOne) {
    emitOne(b, b.getLoc(), buffers);
    std::swap(buffers[0], buffers[1]);
    return;
  }
  Value zero = arith::ConstantIndexOp::create(b, 0);
  auto loop = scf::ForOp::create(
      b, zero, arith::ConstantIndexOp::create(b, numLaunches), one, buffers,
      [&](OpBuilder &lb, Location l, Value, ValueRange iterArgs) {
        emitOne(lb, l, iterArgs);
        scf::YieldOp::create(lb, l, ValueRange{iterArgs[1], iterArgs[0]});
      });
  buffers.assign(loop.getResults().begin(), loop.getResults().end());
}

void HostLaunchBuilder::emitSteps(int64_t steps, Value inFlat, Value outFlat) {
  for (int64_t d = 0; d < rank; ++d)
    dims.push_back(memref::DimOp::create(b, in, d));
  gpu::MemcpyOp::create(b, Type(), ValueRange{}, outFlat, inFlat);
  one = arith::ConstantIndexOp::create(b, 1);

  // The kernel (and its band kernel after it), F = stepsPerLaunch steps a
  // launch.
  gpu::KernelDim3 grid = gridOf(launch.blockTile);
  gpu::KernelDim3 block = blockOf(launch.threads);
  gpu::KernelDim3 bandGrid = {one, one, one}, bandBlock = bandGrid;
  if (launch.bandKernel) {
    bandBlock = blockOf(launch.bandThreads);
    bandGrid = getBandGrid();
  }
  int64_t numLaunches = steps / launch.stepsPerLaunch;
  SmallVector<Value> buffers = {inFlat, outFlat};
  // The main loop is a loop even for one launch.
  if (numLaunches > 0)
    emitLaunchLoop(
        numLaunches, buffers,
        [&](OpBuilder &lb, Location l, ValueRange buffers) {
          emitLaunch(lb, l, launch.kernel, grid, block, launch.sharedBytes,
                     buffers);
          if (launch.bandKernel)
            emitLaunch(lb, l, launch.bandKernel, bandGrid, bandBlock, 0,
                       buffers);
        },
        /*loopForOne=*/true);

  // The steps left over, by launches of the tail kernel (one step each as
  // the pipelines build it), ping-ponging on.
  int64_t leftOver = steps % launch.stepsPerLaunch;
  assert((!leftOver || launch.tailKernel) && "steps left over need a tail");
  int64_t numTailLaunches =
      launch.tailKernel ? leftOver / launch.tailSteps : 0;
  assert(numTailLaunches * launch.tailSteps == leftOver &&
         "the tail's steps must divide the steps left over");
  if (numTailLaunches > 0) {
    TailShape tail = getTailShape(launch);
    gpu::KernelDim3 tailGrid = gridOf(tail.tile);
    gpu::KernelDim3 tailBlock = blockOf(tail.threads);
    emitLaunchLoop(
        numTailLaunches, buffers,
        [&](OpBuilder &lb, Location l, ValueRange buffers) {
          emitLaunch(lb, l, launch.tailKernel, tailGrid, tailBlock,
                     tail.sharedBytes, buffers);
        },
        /*loopForOne=*/false);
    numLaunches += numTailLaunches;
  }
  if (numLaunches % 2 == 0)
    gpu::MemcpyOp::create(b, Type(), ValueRange{}, outFlat, inFlat);
  gpu::DeallocOp::create(b, Type(), ValueRange{}, deviceCoef);
}

/// The launch record of `launch` (LaunchRecord.h) for a stencil op on
/// grids of `gridType` running `steps` steps.
static DictionaryAttr buildLaunchRecord(Operation *op, MemRefType gridType,
                                        int64_t steps,
                                        const StencilKernelLaunch &launch) {
  Builder b(op->getContext());
  int64_t rank = gridType.getRank();
  auto reversed = [&](ArrayRef<int64_t> outermostFirst) {
    return b.getDenseI64ArrayAttr(
        llvm::to_vector(llvm::reverse(outermostFirst)));
  };
  SmallVector<NamedAttribute> record = {
      b.getNamedAttr("kernel",
                     b.getStringAttr(gpu::GPUFuncOp(launch.kernel).getName())),
      b.getNamedAttr("rank", b.getI64IntegerAttr(rank)),
      b.getNamedAttr("element_type",
                     b.getStringAttr(getTypeName(gridType.getElementType()))),
      b.getNamedAttr("accumulator", b.getStringAttr(launch.accumulator)),
      b.getNamedAttr("boundary", b.getStringAttr(getBoundaryName(launch))),
      b.getNamedAttr("steps", b.getI64IntegerAttr(steps)),
      b.getNamedAttr("tile", reversed(launch.blockTile)),
      b.getNamedAttr("block", b.getDenseI64ArrayAttr({launch.threads, 1, 1})),
      b.getNamedAttr("shared_bytes", b.getI64IntegerAttr(launch.sharedBytes))};
  auto add = [&](StringRef key, Attribute value) {
    record.push_back(b.getNamedAttr(key, value));
  };
  if (!launch.unit.empty()) {
    add("unit", b.getStringAttr(launch.unit));
    add("unit_flops_per_point", b.getF64FloatAttr(launch.unitFlopsPerPoint));
  }
  if (!launch.schedule.empty())
    add("schedule", b.getStringAttr(launch.schedule));
  if (launch.vectorWidth > 1)
    add("vector_width", b.getI64IntegerAttr(launch.vectorWidth));
  if (launch.fftErrorBound > 0)
    add("fft_error_bound", b.getF64FloatAttr(launch.fftErrorBound));
  if (launch.edgeFlopsPerPoint > 0) {
    add("edge_unit", b.getStringAttr(launch.edgeUnit));
    add("edge_flops_per_point", b.getF64FloatAttr(launch.edgeFlopsPerPoint));
  }
  if (launch.chainAbsSum > 0)
    add("chain_abs_sum", b.getF64FloatAttr(launch.chainAbsSum));
  if (!launch.coefficients.empty())
    add("coefficients", b.getDenseI32ArrayAttr(launch.coefficients));
  if (auto source = op->getAttrOfType<DictionaryAttr>(kSourceAttrName))
    add("source", source);
  if (launch.repack) {
    const RepackRecipe &recipe = *launch.repack;
    SmallVector<NamedAttribute> repack = {
        b.getNamedAttr("kind", b.getStringAttr(getRepackKindName(recipe.kind))),
        b.getNamedAttr("type",
                       b.getStringAttr(getOperandTypeName(recipe.type))),
        b.getNamedAttr("rows", b.getI64IntegerAttr(recipe.numRows)),
        b.getNamedAttr("rows_per_block",
                       b.getI64IntegerAttr(recipe.rowsPerBlock)),
        b.getNamedAttr("radius", b.getI64IntegerAttr(recipe.radius)),
        b.getNamedAttr("map", b.getDenseI64ArrayAttr(recipe.map))};
    if (!recipe.indices.empty()) {
      SmallVector<int8_t> indices(recipe.indices.begin(), recipe.indices.end());
      repack.push_back(
          b.getNamedAttr("indices", b.getDenseI8ArrayAttr(indices)));
    }
    add("repack", b.getDictionaryAttr(repack));
  } else if (!launch.weightsGlobal.empty()) {
    add("weights_global", b.getStringAttr(launch.weightsGlobal));
  } else if (!launch.repackUnsupported.empty()) {
    add("repack_unsupported", b.getStringAttr(launch.repackUnsupported));
  }
  if (launch.stepsPerLaunch != 1)
    add("steps_per_launch", b.getI64IntegerAttr(launch.stepsPerLaunch));
  if (launch.bandKernel) {
    add("band_kernel",
        b.getStringAttr(gpu::GPUFuncOp(launch.bandKernel).getName()));
    add("band_tile", reversed(launch.bandTile));
    add("band_block", b.getDenseI64ArrayAttr({launch.bandThreads, 1, 1}));
    add("band_margins", reversed(launch.bandMargins));
  }
  if (launch.tailKernel) {
    TailShape tail = getTailShape(launch);
    add("tail_kernel",
        b.getStringAttr(gpu::GPUFuncOp(launch.tailKernel).getName()));
    add("tail_steps", b.getI64IntegerAttr(launch.tailSteps));
    add("tail_tile", reversed(tail.tile));
    add("tail_block", b.getDenseI64ArrayAttr({tail.threads, 1, 1}));
    add("tail_shared_bytes", b.getI64IntegerAttr(tail.sharedBytes));
  }
  if (launch.composedPoints > 0) {
    add("composed_abs_sum", b.getF64FloatAttr(launch.composedAbsSum));
    add("composed_points", b.getI64IntegerAttr(launch.composedPoints));
  }
  return b.getDictionaryAttr(record);
}

void mlir::stencil::emitHostLaunches(Operation *op, Value in, Value out,
                                     int64_t steps,
                                     const StencilKernelLaunch &launch,
                                     SymbolTable &symbols,
                                     SmallVectorImpl<Attribute> &launches) {
  // Upload, halo copy, time loop of launches, final copy; the record.
  HostLaunchBuilder builder(op, in, launch);
  builder.uploadCoefficients(symbols);
  Value inFlat = builder.flatten(in);
  Value outFlat = builder.flatten(out);
  builder.emitSteps(steps, inFlat, outFlat);
  launches.push_back(
      buildLaunchRecord(op, cast<MemRefType>(in.getType()), steps, launch));
}

void mlir::stencil::appendLaunchRecords(ModuleOp module,
                                        ArrayRef<Attribute> launches) {
  SmallVector<Attribute> all;
  if (auto existing = module->getAttrOfType<ArrayAttr>(kLaunchesAttrName))
    all.append(existing.begin(), existing.end());
  all.append(launches.begin(), launches.end());
  module->setAttr(kLaunchesAttrName,
                  ArrayAttr::get(module.getContext(), all));
}

namespace {
/// Prints a body value as an expression; see printBodyExpression.
class BodyExpressionPrinter {
public:
  BodyExpressionPrinter(ApplyOp apply, raw_ostream &os)
      : apply(apply), os(os) {}

  /// Prints `value`; false at the first op without a spelling (`unsupported`)
  /// or when the text grows past the limits.
  bool print(Value value) {
    // Bounded recursion: a chain of thousands of ops would overflow the
    // stack, and the runner's parser takes no deeper expression anyway.
    if (depth >= kMaxNesting)
      return false;
    ++depth;
    bool printed = printDefinition(value);
    --depth;
    return printed;
  }

  Operation *unsupported = nullptr;
  static constexpr size_t kMaxLength = 64 * 1024;
  /// The runner's limit on nested sub-expressions (BodyExpr::kMaxNesting in
  /// runtime/lib/BodyExpr.h).
  static constexpr size_t kMaxNesting = 256;

private:
  bool printDefinition(Value value) {
    Operation *op = value.getDefiningOp();
    // From outside the region only constants have a spelling.
    if (!op)
      return fail(apply.getOperation());
    if (!apply->isProperAncestor(op) && !isa<arith::ConstantOp>(op))
      return fail(op);
    if (auto access = dyn_cast<AccessOp>(op)) {
      std::string text = "a(";
      llvm::raw_string_ostream textStream(text);
      llvm::interleave(access.getOffset(), textStream, ",");
      return write(text + ")");
    }
    if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      auto attr = dyn_cast<FloatAttr>(constant.getValue());
      if (!attr || !attr.getValue().isFinite())
        return fail(op);
      std::string text;
      llvm::raw_string_ostream(text)
          << llvm::format("%.17g", attr.getValueAsDouble());
      // A negative literal in parentheses: the grammar has unary minus.
      return write(text[0] == '-' ? "(" + text + ")" : text);
    }
    if (auto neg = dyn_cast<arith::NegFOp>(op))
      return write("(-") && print(neg.getOperand()) && write(")");
    if (auto abs = dyn_cast<math::AbsFOp>(op))
      return call("abs", abs->getOperands());
    // Widening is exact; narrowing rounds (to the element type: a body
    // takes and yields the grid's type).
    if (auto ext = dyn_cast<arith::ExtFOp>(op))
      return print(ext.getIn());
    if (auto trunc = dyn_cast<arith::TruncFOp>(op)) {
      // A rounding coarser than the element type's is not one `rnd`
      // describes.
      auto precision = [](Type type) {
        return llvm::APFloat::semanticsPrecision(
            cast<FloatType>(type).getFloatSemantics());
      };
      if (precision(trunc.getType()) <
          precision(
              cast<MemRefType>(apply.getInput().getType()).getElementType()))
        return fail(op);
      return call("rnd", trunc->getOperands());
    }
    if (auto fma = dyn_cast<math::FmaOp>(op))
      return call("fma", fma->getOperands());
    if (isa<arith::MaximumFOp, arith::MaxNumFOp>(op))
      return call("max", op->getOperands());
    if (isa<arith::MinimumFOp, arith::MinNumFOp>(op))
      return call("min", op->getOperands());
    StringRef symbol = llvm::TypeSwitch<Operation *, StringRef>(op)
                           .Case([](arith::AddFOp) { return " + "; })
                           .Case([](arith::SubFOp) { return " - "; })
                           .Case([](arith::MulFOp) { return " * "; })
                           .Case([](arith::DivFOp) { return " / "; })
                           .Default([](Operation *) { return ""; });
    if (symbol.empty())
      return fail(op);
    return write("(") && print(op->getOperand(0)) && write(symbol) &&
           print(op->getOperand(1)) && write(")");
  }

  bool fail(Operation *op) {
    unsupported = op;
    return false;
  }
  bool write(const Twine &text) {
    std::string s = text.str();
    written += s.size();
    if (written > kMaxLength)
      return false;
    os << s;
    return true;
  }
  bool call(StringRef name, ValueRange operands) {
    if (!write(name + "("))
      return false;
    for (auto [i, operand] : llvm::enumerate(operands))
      if ((i && !write(", ")) || !print(operand))
        return false;
    return write(")");
  }

  ApplyOp apply;
  raw_ostream &os;
  size_t written = 0;
  size_t depth = 0;
};
} // namespace

FailureOr<Operation *> mlir::stencil::printBodyExpression(ApplyOp apply,
                                                          raw_ostream &os) {
  auto yield = cast<YieldOp>(apply.getBody().front().getTerminator());
  BodyExpressionPrinter printer(apply, os);
  if (printer.print(yield.getValue()))
    return static_cast<Operation *>(nullptr);
  if (printer.unsupported)
    return printer.unsupported;
  return failure();
}
