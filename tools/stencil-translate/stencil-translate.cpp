//===- stencil-translate.cpp - From lowered modules to runner inputs ------===//
//
// `mlir-translate` with two translations out of a module lowered by a stencil
// GPU pipeline:
//   --to-ptx     the PTX of its gpu.binary
//   --to-launch  the launch description of one kernel
//                (docs/LaunchDescription.md), which stencil-run reads
//   --to-c-header  a C++ header embedding both, with a typed entry point
//                over libStencilRuntime (docs/Runtime.md)
// and one of a launch description or launch program (no MLIR):
//   --check-launch  reads it, reports its errors at their lines, and writes
//                it back in the codec's form
//
//===----------------------------------------------------------------------===//

#include "stencil/InitAll.h"
#include "stencil/Target/CHeader.h"
#include "stencil/Target/LaunchDescription.h"

#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;

static llvm::cl::opt<std::string>
    kernelName("kernel",
               llvm::cl::desc("--to-launch, --to-c-header: the kernel "
                              "(default: the only one)"),
               llvm::cl::init(""));
static llvm::cl::opt<std::string>
    ptxFile("ptx-file",
            llvm::cl::desc("--to-launch: the PTX file the description names "
                           "(default: <kernel>.ptx)"),
            llvm::cl::init(""));

static llvm::cl::opt<std::string> headerFunction(
    "header-function",
    llvm::cl::desc("--to-c-header: the entry point's name, a C identifier "
                   "(default: the kernel's name)"),
    llvm::cl::init(""));

int main(int argc, char **argv) {
  auto registerDialects = [](DialectRegistry &registry) {
    registerAllDialects(registry);
    registerAllExtensions(registry);
    stencil::registerAllStencilDialects(registry);
  };
  TranslateFromMLIRRegistration toPTX(
      "to-ptx", "Write the PTX of the module's gpu.binary",
      [](Operation *op, raw_ostream &os) { return stencil::emitPTX(op, os); },
      registerDialects);
  TranslateFromMLIRRegistration toLaunch(
      "to-launch", "Write the launch description of a stencil GPU kernel",
      [](Operation *op, raw_ostream &os) {
        stencil::LaunchDescriptionOptions options;
        options.kernel = kernelName;
        options.ptxFile = ptxFile;
        return stencil::emitLaunchDescription(op, os, options);
      },
      registerDialects);
  TranslateFromMLIRRegistration toCHeader(
      "to-c-header",
      "Write a C++ header embedding a stencil GPU kernel's PTX and launch "
      "description, with a typed entry point over libStencilRuntime",
      [](Operation *op, raw_ostream &os) {
        stencil::CHeaderOptions options;
        options.kernel = kernelName;
        options.function = headerFunction;
        return stencil::emitCHeader(op, os, options);
      },
      registerDialects);
  TranslateRegistration checkLaunch(
      "check-launch",
      "Read a launch description or launch program "
      "(docs/LaunchDescription.md), report its errors and write it back in "
      "the form stencil-translate writes",
      [](const std::shared_ptr<llvm::SourceMgr> &sourceMgr, raw_ostream &os,
         MLIRContext *) {
        const llvm::MemoryBuffer *file =
            sourceMgr->getMemoryBuffer(sourceMgr->getMainFileID());
        return stencil::checkLaunchDescription(
            file->getBuffer(), file->getBufferIdentifier(), os, llvm::errs());
      });
  return failed(mlirTranslateMain(
      argc, argv, "Stencil compiler translations (PTX, launch descriptions)"));
}
