//===- LowerToCpu.cpp - The CPU reference pipeline ------------------------===//
//
// `--lower-to-cpu`: the stencil ops become scf loops
// (`--convert-stencil-to-scf`), then upstream passes take everything to the
// LLVM dialect, and `--stencil-check-lowered` proves nothing else is left.
//
//===----------------------------------------------------------------------===//

#include "stencil/Conversion/StencilToSCF/StencilToSCF.h"
#include "stencil/Dialect/Stencil/Transforms/Passes.h"
#include "stencil/Pipelines/Pipelines.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::stencil;

void mlir::stencil::buildLowerToCpuPipeline(OpPassManager &pm,
                                            const LowerToCpuOptions &options) {
  if (options.linearize)
    pm.addPass(createStencilLinearize());
  pm.addPass(createConvertStencilToSCF());
  pm.addPass(createCanonicalizerPass());
  // bf16 has no arithmetic or f64 conversion on x86: compute in f32 and
  // expand the f32 <-> bf16 conversions inline.
  pm.addPass(createStencilSplitBF16Casts());
  arith::ArithEmulateUnsupportedFloatsOptions emulate;
  emulate.sourceTypeStrs = {"bf16"};
  emulate.targetTypeStr = "f32";
  pm.addPass(arith::createArithEmulateUnsupportedFloats(emulate));
  arith::ArithExpandOpsPassOptions expand;
  expand.includeBf16 = true;
  pm.addPass(arith::createArithExpandOpsPass(expand));
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  StencilCheckLoweredOptions check;
  check.allowed = {"llvm"};
  check.pipeline = "lower-to-cpu";
  pm.addPass(createStencilCheckLowered(check));
}
