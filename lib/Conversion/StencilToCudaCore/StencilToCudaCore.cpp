//===- StencilToCudaCore.cpp - Lower stencils to CUDA-core kernels --------===//
//
// Implements `--convert-stencil-to-cuda-core`; the tiling is described in
// the pass description (Conversion/Passes.td).
//
// Kernel outline (one time step), for a block whose first output is
// (z0, y0, x0):
//   1. the block stages in[z0 - r_z .., y0 - r_y .., x0 - r_x ..] (tile plus
//      halo) into shared memory, zero outside the grid;
//   2. each thread computes its outputs from shared memory: register tiling
//      along y for stencil.linear, the cloned body for stencil.apply;
//   3. every output that is an interior point is stored.
//
//===----------------------------------------------------------------------===//

#include "stencil/Conversion/StencilToCudaCore/StencilToCudaCore.h"
#include "stencil/Conversion/StencilGPUCommon/KernelABI.h"
#include "stencil/Dialect/Stencil/IR/StencilDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

#include <map>

namespace mlir {
namespace stencil {
#define GEN_PASS_DEF_CONVERTSTENCILTOCUDACORE
#include "stencil/Conversion/Passes.h.inc"
} // namespace stencil
} // namespace mlir

using namespace mlir;
using namespace mlir::stencil;

/// The shared memory a block may use without opting in to more.
static constexpr int64_t kMaxSharedBytes = 48 * 1024;
static constexpr StringLiteral kGpuModuleName = "stencil_cuda_core";

namespace {

/// The tiling of one kernel (pass description, "Tiling").
struct CudaCoreGeometry {
  int64_t rank = 0;
  int64_t threadsX = 0, threadsY = 0, outputs = 0;
  /// Halo width along each dimension, outermost first.
  SmallVector<int64_t> radii;
  /// Outputs per block along each dimension, outermost first.
  SmallVector<int64_t> tile;
  /// The shared-memory tile (tile plus halo) and its row-major strides.
  SmallVector<int64_t> smemShape, smemStrides;
  int64_t smemSize = 1;

  int64_t threads() const { return threadsX * threadsY; }

  CudaCoreGeometry(int64_t rank, ArrayRef<int64_t> radii, int64_t threadsX,
                   int64_t threadsY, int64_t outputs)
      : rank(rank), threadsX(threadsX), threadsY(threadsY), outputs(outputs),
        radii(radii) {
    tile.assign(rank, 1);
    if (rank == 1) {
      tile[0] = threads() * outputs;
    } else {
      tile[rank - 1] = threadsX;
      tile[rank - 2] = threadsY * outputs;
    }
    for (int64_t d = 0; d < rank; ++d)
      smemShape.push_back(tile[d] + 2 * radii[d]);
    smemStrides.assign(rank, 1);
    for (int64_t d = rank - 2; d >= 0; --d)
      smemStrides[d] = smemStrides[d + 1] * smemShape[d + 1];
    smemSize = smemStrides[0] * smemShape[0];
  }
};

/// Builds the gpu.func of one stencil op.
class CudaCoreKernelBuilder {
public:
  CudaCoreKernelBuilder(Operation *op, const CudaCoreGeometry &geometry,
                        Type elementType)
      : op(op), geo(geometry), elementType(elementType),
        accType(elementType.isF64() ? Type(Float64Type::get(op->getContext()))
                                    : Type(Float32Type::get(op->getContext()))) {}

  gpu::GPUFuncOp build(OpBuilder &moduleBuilder, StringRef name);

private:
  Value cst(int64_t v) { return arith::ConstantIndexOp::create(*b, v); }
  Value add(Value x, Value y) { return arith::AddIOp::create(*b, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(*b, x, y); }
  Value addConst(Value x, int64_t c) { return c ? add(x, cst(c)) : x; }

  void stageTile();
  /// The shared-memory index of the thread's output `k` plus `offset`.
  Value smemIndex(int64_t k, ArrayRef<int64_t> offset);
  /// The grid coordinates of the thread's output `k`, outermost first.
  SmallVector<Value> outputCoords(int64_t k);
  SmallVector<Value> computeLinear(LinearOp linear);
  SmallVector<Value> computeApply(ApplyOp apply);
  void storeOutputs(ArrayRef<Value> values);

  Operation *op;
  const CudaCoreGeometry &geo;
  Type elementType, accType;

  std::optional<ImplicitLocOpBuilder> b;
  Value in, out, smem;
  SmallVector<Value> sizes;  // N_d, outermost first
  SmallVector<Value> origin; // first output of the block, outermost first
  Value tid, tx, ty;
};
} // namespace

gpu::GPUFuncOp CudaCoreKernelBuilder::build(OpBuilder &moduleBuilder,
                                            StringRef name) {
  Location loc = op->getLoc();
  StencilKernel kernel =
      createStencilKernel(moduleBuilder, loc, name, elementType, geo.rank,
                          geo.smemSize, geo.threads());
  b.emplace(
      ImplicitLocOpBuilder::atBlockBegin(loc, &kernel.func.getBody().front()));
  in = kernel.in;
  out = kernel.out;
  sizes = kernel.sizes;
  smem = kernel.smem;

  tid = gpu::ThreadIdOp::create(*b, gpu::Dimension::x);
  tx = arith::RemUIOp::create(*b, tid, cst(geo.threadsX));
  ty = arith::DivUIOp::create(*b, tid, cst(geo.threadsX));
  origin = getBlockOrigin(*b, geo.tile);

  stageTile();
  gpu::BarrierOp::create(*b);
  SmallVector<Value> values;
  if (auto linear = dyn_cast<LinearOp>(op))
    values = computeLinear(linear);
  else
    values = computeApply(cast<ApplyOp>(op));
  storeOutputs(values);
  gpu::ReturnOp::create(*b);
  return kernel.func;
}

/// Step 1: element e = tid, tid + threads, ... of the shared-memory tile is
/// in[origin - r + local(e)], zero outside the grid.
void CudaCoreKernelBuilder::stageTile() {
  auto loop = scf::ForOp::create(*b, tid, cst(geo.smemSize),
                                 cst(geo.threads()));
  OpBuilder::InsertionGuard guard(*b);
  b->setInsertionPointToStart(loop.getBody());
  Value e = loop.getInductionVar();
  Value inside = arith::ConstantIntOp::create(*b, b->getI1Type(), 1);
  SmallVector<Value> coords;
  for (int64_t d = 0; d < geo.rank; ++d) {
    Value local = e;
    if (d > 0)
      local = arith::RemUIOp::create(*b, local, cst(geo.smemStrides[d - 1]));
    if (geo.smemStrides[d] != 1)
      local = arith::DivUIOp::create(*b, local, cst(geo.smemStrides[d]));
    coords.push_back(arith::SubIOp::create(*b, add(origin[d], local),
                                           cst(geo.radii[d])));
    inside = arith::AndIOp::create(
        *b, inside, isWithin(*b, coords.back(), sizes[d], /*margin=*/0));
  }
  Value linear = getLinearIndex(*b, coords, sizes);
  auto ifOp = scf::IfOp::create(
      *b, inside,
      [&](OpBuilder &then, Location loc) {
        Value v = memref::LoadOp::create(then, loc, in, ValueRange{linear});
        scf::YieldOp::create(then, loc, v);
      },
      [&](OpBuilder &otherwise, Location loc) {
        Value zero = arith::ConstantOp::create(
            otherwise, loc, otherwise.getZeroAttr(elementType));
        scf::YieldOp::create(otherwise, loc, zero);
      });
  memref::StoreOp::create(*b, ifOp.getResult(0), smem, ValueRange{e});
}

SmallVector<Value> CudaCoreKernelBuilder::outputCoords(int64_t k) {
  SmallVector<Value> coords(origin);
  int64_t rank = geo.rank;
  if (rank == 1) {
    coords[0] = add(origin[0], addConst(tid, k * geo.threads()));
  } else {
    coords[rank - 1] = add(origin[rank - 1], tx);
    coords[rank - 2] =
        add(origin[rank - 2], addConst(mul(ty, cst(geo.outputs)), k));
  }
  return coords;
}

Value CudaCoreKernelBuilder::smemIndex(int64_t k, ArrayRef<int64_t> offset) {
  // Local position of output k: (0, ty * outputs + k, tx) in 2-D and 3-D,
  // tid + k * threads in 1-D; plus the halo and the offset.
  int64_t rank = geo.rank;
  int64_t constant = 0;
  for (int64_t d = 0; d < rank; ++d)
    constant += (geo.radii[d] + offset[d]) * geo.smemStrides[d];
  Value thread;
  if (rank == 1) {
    thread = tid;
    constant += k * geo.threads();
  } else {
    thread = add(mul(ty, cst(geo.outputs * geo.smemStrides[rank - 2])), tx);
    constant += k * geo.smemStrides[rank - 2];
  }
  return addConst(thread, constant);
}

/// Step 2, stencil.linear: register tiling along y (pass description).
SmallVector<Value> CudaCoreKernelBuilder::computeLinear(LinearOp linear) {
  PatternAttr pattern = linear.getPattern();
  ArrayRef<double> weights = linear.getWeights();
  int64_t rank = geo.rank;
  Value zero = arith::ConstantOp::create(*b, b->getZeroAttr(accType));
  SmallVector<Value> acc(geo.outputs, zero);
  auto extend = [&](Value v) -> Value {
    return v.getType() == accType ? v
                                  : arith::ExtFOp::create(*b, accType, v);
  };
  auto fma = [&](double w, Value v, Value a) -> Value {
    Value weight =
        arith::ConstantOp::create(*b, b->getFloatAttr(accType, w));
    // llvm.intr.fma: fma.rn in PTX, without libdevice (math.fma becomes a
    // call to __nv_fmaf).
    return LLVM::FMAOp::create(*b, weight, extend(v), a);
  };
  if (rank == 1) {
    for (int64_t k = 0; k < geo.outputs; ++k)
      for (unsigned i = 0; i < pattern.getNumPoints(); ++i) {
        Value v = memref::LoadOp::create(
            *b, smem, ValueRange{smemIndex(k, pattern.getPoint(i))});
        acc[k] = fma(weights[i], v, acc[k]);
      }
    return acc;
  }
  // Columns: the offset without its y, mapped to (dy -> weight).
  std::map<SmallVector<int64_t>, std::map<int64_t, double>> columns;
  for (unsigned i = 0; i < pattern.getNumPoints(); ++i) {
    SmallVector<int64_t> column(pattern.getPoint(i));
    int64_t dy = column[rank - 2];
    column[rank - 2] = 0;
    columns[column][dy] += weights[i];
  }
  for (const auto &[column, rows] : columns) {
    int64_t dyMin = rows.begin()->first, dyMax = rows.rbegin()->first;
    // Input row iy (relative to the thread's first output) feeds output k
    // through dy = iy - k.
    for (int64_t iy = dyMin; iy < geo.outputs + dyMax; ++iy) {
      SmallVector<std::pair<int64_t, double>> uses;
      for (int64_t k = 0; k < geo.outputs; ++k) {
        auto it = rows.find(iy - k);
        if (it != rows.end())
          uses.push_back({k, it->second});
      }
      if (uses.empty())
        continue;
      SmallVector<int64_t> offset(column);
      offset[rank - 2] = iy;
      Value v = memref::LoadOp::create(*b, smem,
                                       ValueRange{smemIndex(0, offset)});
      for (auto [k, w] : uses)
        acc[k] = fma(w, v, acc[k]);
    }
  }
  return acc;
}

/// Step 2, stencil.apply: the body, once per output, reading shared memory.
SmallVector<Value> CudaCoreKernelBuilder::computeApply(ApplyOp apply) {
  SmallVector<Value> values;
  for (int64_t k = 0; k < geo.outputs; ++k) {
    IRMapping mapping;
    for (Operation &bodyOp : apply.getBody().front()) {
      if (auto access = dyn_cast<AccessOp>(bodyOp)) {
        mapping.map(access.getResult(),
                    memref::LoadOp::create(
                        *b, smem,
                        ValueRange{smemIndex(k, access.getOffset())})
                        .getResult());
        continue;
      }
      if (auto yield = dyn_cast<YieldOp>(bodyOp)) {
        values.push_back(mapping.lookup(yield.getValue()));
        continue;
      }
      b->clone(bodyOp, mapping);
    }
  }
  return values;
}

/// Step 3: the interior outputs, r_d <= coord_d < N_d - r_d.
void CudaCoreKernelBuilder::storeOutputs(ArrayRef<Value> values) {
  for (auto [k, value] : llvm::enumerate(values)) {
    SmallVector<Value> coords = outputCoords(k);
    // Interior: r_d <= coord_d < N_d - r_d.
    Value interior;
    for (int64_t d = 0; d < geo.rank; ++d) {
      Value inDim = isWithin(*b, coords[d], sizes[d], geo.radii[d]);
      interior = interior ? arith::AndIOp::create(*b, interior, inDim) : inDim;
    }
    Value linear = getLinearIndex(*b, coords, sizes);
    Value stored = value.getType() == elementType
                       ? value
                       : arith::TruncFOp::create(*b, elementType, value);
    scf::IfOp::create(*b, interior, [&](OpBuilder &then, Location loc) {
      memref::StoreOp::create(then, loc, stored, out, ValueRange{linear});
      scf::YieldOp::create(then, loc);
    });
  }
}

namespace {
struct ConvertStencilToCudaCorePass
    : public stencil::impl::ConvertStencilToCudaCoreBase<
          ConvertStencilToCudaCorePass> {
  using ConvertStencilToCudaCoreBase::ConvertStencilToCudaCoreBase;

  void runOnOperation() override;

private:
  LogicalResult convert(Operation *op, gpu::GPUModuleOp gpuModule,
                        SymbolTable &symbols,
                        SmallVectorImpl<Attribute> &launches);
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

LogicalResult ConvertStencilToCudaCorePass::convert(
    Operation *op, gpu::GPUModuleOp gpuModule, SymbolTable &symbols,
    SmallVectorImpl<Attribute> &launches) {
  // 1. Checks and geometry.
  Value input = op->getOperand(0), output = op->getOperand(1);
  auto gridType = cast<MemRefType>(input.getType());
  int64_t rank = gridType.getRank();
  BoundaryKind boundary;
  int64_t steps;
  SmallVector<int64_t> radii(rank, 0);
  if (auto linear = dyn_cast<LinearOp>(op)) {
    boundary = linear.getBoundary();
    steps = linear.getSteps();
    PatternAttr pattern = linear.getPattern();
    for (unsigned i = 0; i < pattern.getNumPoints(); ++i)
      for (int64_t d = 0; d < rank; ++d)
        radii[d] = std::max<int64_t>(radii[d], std::abs(pattern.getPoint(i)[d]));
  } else {
    auto apply = cast<ApplyOp>(op);
    boundary = apply.getBoundary();
    steps = apply.getSteps();
    radii = apply.getRadii();
  }
  if (boundary != BoundaryKind::halo)
    return op->emitOpError("has boundary '")
           << stringifyBoundaryKind(boundary)
           << "', but the CUDA-core kernel supports only the 'halo' boundary "
              "(use --lower-to-cpu for the others)";
  if (!gridType.getLayout().isIdentity())
    return op->emitOpError("needs grids with the identity layout");
  if (threadsX < 1 || threadsY < 1 || outputsPerThread < 1 ||
      threadsX * threadsY > 1024)
    return op->emitOpError("needs threads-x, threads-y and "
                           "outputs-per-thread >= 1 and at most 1024 threads "
                           "per block");
  CudaCoreGeometry geo(rank, radii, threadsX, threadsY, outputsPerThread);
  Type elementType = gridType.getElementType();
  int64_t bytes = geo.smemSize * elementType.getIntOrFloatBitWidth() / 8;
  if (bytes > kMaxSharedBytes)
    return op->emitOpError("needs ")
           << bytes << " bytes of shared memory for its tile, more than "
           << kMaxSharedBytes
           << ": use fewer threads or outputs-per-thread";

  // 2. The kernel.
  auto parent = op->getParentOfType<FunctionOpInterface>();
  std::string name =
      (parent ? parent.getName().str() : "stencil") + "_cuda_core";
  OpBuilder moduleBuilder = OpBuilder::atBlockEnd(gpuModule.getBody());
  CudaCoreKernelBuilder kernelBuilder(op, geo, elementType);
  gpu::GPUFuncOp kernel = kernelBuilder.build(moduleBuilder, name);
  SymbolTable(gpuModule).insert(kernel);

  // 3. Host code and launch record; a linear stencil is its own source.
  if (auto linear = dyn_cast<LinearOp>(op)) {
    Builder builder(op->getContext());
    op->setAttr(kSourceAttrName,
                builder.getDictionaryAttr(
                    {builder.getNamedAttr("pattern", linear.getPatternAttr()),
                     builder.getNamedAttr("weights",
                                          linear.getWeightsAttr())}));
  }
  StencilKernelLaunch launch;
  launch.kernel = kernel;
  launch.blockTile = geo.tile;
  launch.threads = geo.threads();
  launch.accumulator = elementType.isF64() ? "f64" : "f32";
  if (isa<ApplyOp>(op))
    launch.accumulator = elementType.isF64()   ? "f64"
                         : elementType.isF32() ? "f32"
                         : elementType.isBF16() ? "bf16"
                                                : "f16";
  launch.unit = elementType.isF64() ? "fma.f64" : "fma.f32";
  launch.unitFlopsPerPoint = countFlopsPerPoint(op);
  emitHostLaunches(op, input, output, steps, launch, symbols, launches);
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
