//===- stencil-opt.cpp - The stencil compiler's optimizer driver ----------===//
//
// `mlir-opt` with the stencil dialect, its passes and pipelines, and the
// upstream dialects, passes and target interfaces the pipelines rely on
// (the NVVM target and the LLVM IR translations for `gpu-module-to-binary`,
// the ConvertToLLVM interfaces for `convert-gpu-to-nvvm`).
//
//===----------------------------------------------------------------------===//

#include "stencil/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::stencil::registerAllStencilPasses();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllToLLVMIRTranslations(registry);
  mlir::NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  mlir::stencil::registerAllStencilDialects(registry);

  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv,
      "Stencil compiler driver: lowers the stencil dialect to CPU loops and "
      "(Sparse) Tensor Core GPU kernels\n",
      registry));
}
