//===- StencilFuzzing.h - What the MLIR fuzz targets share ------*- C++ -*-===//
//
// A context for the fuzz targets that is reused across inputs (and replaced
// every so often, so uniqued attributes do not pile up), a parse that keeps
// diagnostics out of the fuzzer's output while counting errors, and the
// abort the targets use to report a broken guarantee to libFuzzer.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_TOOLS_STENCIL_FUZZERS_STENCILFUZZING_H
#define STENCIL_TOOLS_STENCIL_FUZZERS_STENCILFUZZING_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <functional>
#include <memory>
#include <string>

namespace stencil_fuzz {

/// Owns an MLIRContext built by `make` and rebuilds it every `period` uses.
class ContextPool {
public:
  ContextPool(std::function<std::unique_ptr<mlir::MLIRContext>()> make,
              unsigned period)
      : make(std::move(make)), period(period) {}

  mlir::MLIRContext &get() {
    if (!context || ++uses > period) {
      context.reset(); // Free the old one before building the next.
      context = make();
      context->disableMultithreading();
      uses = 1;
    }
    return *context;
  }

private:
  std::function<std::unique_ptr<mlir::MLIRContext>()> make;
  unsigned period;
  unsigned uses = 0;
  std::unique_ptr<mlir::MLIRContext> context;
};

/// Counts the error diagnostics emitted while it lives and drops every
/// diagnostic (the fuzzer's output stays readable).
class ErrorCounter {
public:
  explicit ErrorCounter(mlir::MLIRContext &context)
      : handler(&context, [this](mlir::Diagnostic &diag) {
          if (diag.getSeverity() == mlir::DiagnosticSeverity::Error)
            ++errors;
          return mlir::success();
        }) {}
  unsigned errors = 0;

private:
  mlir::ScopedDiagnosticHandler handler;
};

/// Parses (and verifies) `text` as a module; null on failure. MLIR's lexer
/// expects a NUL after the buffer (as every file read through a
/// MemoryBuffer has), which libFuzzer's exactly sized inputs lack: parse a
/// NUL-terminated copy.
inline mlir::OwningOpRef<mlir::ModuleOp> parse(mlir::MLIRContext &context,
                                               llvm::StringRef text) {
  std::string terminated = text.str();
  return mlir::parseSourceString<mlir::ModuleOp>(terminated, &context);
}

/// Prints `module` (generic form if `generic`).
inline std::string print(mlir::ModuleOp module, bool generic = false) {
  std::string text;
  llvm::raw_string_ostream os(text);
  mlir::OpPrintingFlags flags;
  if (generic)
    flags.printGenericOpForm();
  module->print(os, flags);
  return text;
}

/// A broken guarantee: say which, show the input that broke it, and abort so
/// that libFuzzer keeps the input as a crash.
[[noreturn]] inline void fail(llvm::StringRef what, llvm::StringRef detail) {
  llvm::errs() << "stencil fuzz target: " << what << "\n" << detail << "\n";
  std::abort();
}

} // namespace stencil_fuzz

#endif // STENCIL_TOOLS_STENCIL_FUZZERS_STENCILFUZZING_H
