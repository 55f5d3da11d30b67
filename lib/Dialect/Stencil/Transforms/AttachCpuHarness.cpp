//===- AttachCpuHarness.cpp - A runnable main for a stencil function ------===//
//
// Implements `--stencil-attach-cpu-harness`: the input formula and the output
// format are in the pass description (Passes.td) and are what
// `utils/stencil-ref.py` reproduces independently.
//
//===----------------------------------------------------------------------===//

#include "stencil/Dialect/Stencil/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir {
namespace stencil {
#define GEN_PASS_DEF_STENCILATTACHCPUHARNESS
#include "stencil/Dialect/Stencil/Transforms/Passes.h.inc"
} // namespace stencil
} // namespace mlir

using namespace mlir;
using namespace mlir::stencil;

namespace {

/// Declares `func.func private @name(argTypes)` in `module` if absent.
static func::FuncOp declareRuntimeFunction(ModuleOp module, StringRef name,
                                           TypeRange argTypes) {
  if (auto existing = module.lookupSymbol<func::FuncOp>(name))
    return existing;
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  auto decl = func::FuncOp::create(b, module.getLoc(), name,
                                   b.getFunctionType(argTypes, {}));
  decl.setPrivate();
  return decl;
}

/// Emits a loop nest over every index of a grid of static `shape`.
static void buildGridLoops(ImplicitLocOpBuilder &b, ArrayRef<int64_t> shape,
                           function_ref<void(ImplicitLocOpBuilder &,
                                             ValueRange)> body) {
  SmallVector<Value> lbs, ubs, steps;
  for (int64_t size : shape) {
    lbs.push_back(arith::ConstantIndexOp::create(b, 0));
    ubs.push_back(arith::ConstantIndexOp::create(b, size));
    steps.push_back(arith::ConstantIndexOp::create(b, 1));
  }
  scf::buildLoopNest(b, b.getLoc(), lbs, ubs, steps,
                     [&](OpBuilder &nested, Location loc, ValueRange ivs) {
                       ImplicitLocOpBuilder ib(loc, nested);
                       body(ib, ivs);
                     });
}

/// Row-major linear index of `ivs` in a grid of static `shape`.
static Value linearIndex(ImplicitLocOpBuilder &b, ValueRange ivs,
                         ArrayRef<int64_t> shape) {
  Value n = arith::ConstantIndexOp::create(b, 0);
  for (auto [iv, size] : llvm::zip(ivs, shape)) {
    n = arith::MulIOp::create(b, n, arith::ConstantIndexOp::create(b, size));
    n = arith::AddIOp::create(b, n, iv);
  }
  return n;
}

/// The harness formula: (h - 128) / 256 with h a hash of (n, argIndex).
static Value initialValue(ImplicitLocOpBuilder &b, Value n, int64_t argIndex,
                          Type elementType) {
  auto cst = [&](int64_t v) {
    return arith::ConstantIntOp::create(b, b.getI64Type(), v).getResult();
  };
  Value h = arith::IndexCastOp::create(b, b.getI64Type(), n);
  h = arith::MulIOp::create(b, h, cst(1103515245));
  h = arith::AddIOp::create(b, h, cst(12345 + argIndex * 7919));
  h = arith::AndIOp::create(b, h, cst(0x7fffffff));
  h = arith::ShRUIOp::create(b, h, cst(16));
  h = arith::AndIOp::create(b, h, cst(255));
  h = arith::SubIOp::create(b, h, cst(128));
  Value v = arith::SIToFPOp::create(b, b.getF64Type(), h);
  v = arith::DivFOp::create(
      b, v, arith::ConstantOp::create(b, b.getF64FloatAttr(256.0)));
  if (elementType != b.getF64Type())
    v = arith::TruncFOp::create(b, elementType, v);
  return v;
}

struct StencilAttachCpuHarnessPass
    : public stencil::impl::StencilAttachCpuHarnessBase<
          StencilAttachCpuHarnessPass> {
  using StencilAttachCpuHarnessBase::StencilAttachCpuHarnessBase;

  void runOnOperation() override;

private:
  /// The function to run: `func`, or the only public function with a body.
  func::FuncOp findTarget(ModuleOp module);
  /// The static shape of argument `type`, dynamic sizes taken from `grid`.
  FailureOr<SmallVector<int64_t>> getShape(func::FuncOp target,
                                           MemRefType type);
};
} // namespace

func::FuncOp StencilAttachCpuHarnessPass::findTarget(ModuleOp module) {
  if (!funcName.empty()) {
    auto target = module.lookupSymbol<func::FuncOp>(funcName);
    if (!target || target.isExternal())
      module.emitError() << "no function named '" << funcName
                         << "' with a body to attach a harness to";
    return target && !target.isExternal() ? target : func::FuncOp();
  }
  func::FuncOp target;
  for (auto fn : module.getOps<func::FuncOp>()) {
    if (fn.isExternal() || fn.isPrivate())
      continue;
    if (target) {
      module.emitError("several public functions: choose one with 'func='");
      return {};
    }
    target = fn;
  }
  if (!target)
    module.emitError("no public function to attach a harness to");
  return target;
}

FailureOr<SmallVector<int64_t>>
StencilAttachCpuHarnessPass::getShape(func::FuncOp target, MemRefType type) {
  SmallVector<int64_t> shape(type.getShape());
  if (type.hasStaticShape() && gridSizes.empty())
    return shape;
  if (gridSizes.size() != shape.size())
    return target.emitError("'grid=' gives ")
           << gridSizes.size() << " sizes but the argument type " << type
           << " has rank " << shape.size();
  for (auto [d, size] : llvm::enumerate(shape)) {
    if (gridSizes[d] <= 0)
      return target.emitError("'grid=' sizes must be positive");
    if (!ShapedType::isDynamic(size) && size != gridSizes[d])
      return target.emitError("'grid=' size ")
             << gridSizes[d] << " contradicts the static size " << size
             << " of dimension " << d << " of " << type;
    shape[d] = gridSizes[d];
  }
  return shape;
}

void StencilAttachCpuHarnessPass::runOnOperation() {
  ModuleOp module = getOperation();
  if (module.lookupSymbol("main")) {
    module.emitError("the module already has a symbol named 'main'");
    return signalPassFailure();
  }

  // 1. Find the function and check its signature.
  func::FuncOp target = findTarget(module);
  if (!target)
    return signalPassFailure();
  FunctionType fnType = target.getFunctionType();
  if (fnType.getNumResults() != 0 || fnType.getNumInputs() == 0) {
    target.emitError("the harness needs a function with memref arguments "
                     "and no results");
    return signalPassFailure();
  }
  SmallVector<SmallVector<int64_t>> shapes;
  for (Type argType : fnType.getInputs()) {
    auto memrefType = dyn_cast<MemRefType>(argType);
    if (!memrefType || !memrefType.getLayout().isIdentity() ||
        !isa<Float16Type, BFloat16Type, Float32Type, Float64Type>(
            memrefType.getElementType())) {
      target.emitError("the harness supports only identity-layout memrefs "
                       "of f16, bf16, f32 or f64, got ")
          << argType;
      return signalPassFailure();
    }
    FailureOr<SmallVector<int64_t>> shape = getShape(target, memrefType);
    if (failed(shape))
      return signalPassFailure();
    shapes.push_back(*shape);
  }

  // 2. Build @main: allocate and fill every argument.
  Location loc = target.getLoc();
  OpBuilder moduleBuilder = OpBuilder::atBlockEnd(module.getBody());
  auto main = func::FuncOp::create(moduleBuilder, loc, "main",
                                   moduleBuilder.getFunctionType({}, {}));
  auto b = ImplicitLocOpBuilder::atBlockEnd(loc, main.addEntryBlock());
  Type i64 = b.getI64Type();
  func::FuncOp printI64 = declareRuntimeFunction(module, "printI64", {i64});
  func::FuncOp printNewline = declareRuntimeFunction(module, "printNewline", {});

  SmallVector<Value> args, allocs;
  for (auto [argIndex, argType] : llvm::enumerate(fnType.getInputs())) {
    auto type = cast<MemRefType>(argType);
    auto staticType = MemRefType::get(shapes[argIndex], type.getElementType());
    Value alloc = memref::AllocOp::create(b, staticType);
    allocs.push_back(alloc);
    buildGridLoops(b, staticType.getShape(),
                   [&](ImplicitLocOpBuilder &ib, ValueRange ivs) {
                     Value n = linearIndex(ib, ivs, staticType.getShape());
                     Value v = initialValue(ib, n, argIndex,
                                            type.getElementType());
                     memref::StoreOp::create(ib, v, alloc, ivs);
                   });
    args.push_back(type == staticType
                       ? alloc
                       : memref::CastOp::create(b, type, alloc).getResult());
  }

  // 3. Call the function.
  func::CallOp::create(b, target, args);

  // 4. Print the output (the last argument): rank, sizes, element bits.
  auto print = [&](OpBuilder &builder, Location l, Value v) {
    func::CallOp::create(builder, l, printI64, ValueRange{v});
    func::CallOp::create(builder, l, printNewline, ValueRange{});
  };
  Value output = allocs.back();
  auto outputType = cast<MemRefType>(output.getType());
  print(b, loc, arith::ConstantIntOp::create(b, i64, outputType.getRank()));
  for (int64_t size : outputType.getShape())
    print(b, loc, arith::ConstantIntOp::create(b, i64, size));
  Type elementType = outputType.getElementType();
  Type bitsType = b.getIntegerType(elementType.getIntOrFloatBitWidth());
  buildGridLoops(b, outputType.getShape(),
                 [&](ImplicitLocOpBuilder &ib, ValueRange ivs) {
                   Value v = memref::LoadOp::create(ib, output, ivs);
                   Value bits = arith::BitcastOp::create(ib, bitsType, v);
                   if (bitsType != i64)
                     bits = arith::ExtUIOp::create(ib, i64, bits);
                   print(ib, ib.getLoc(), bits);
                 });

  for (Value alloc : allocs)
    memref::DeallocOp::create(b, alloc);
  func::ReturnOp::create(b);
}
