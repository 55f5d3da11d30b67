//===- CheckLowered.cpp - Check that a pipeline lowered everything --------===//
//
// Implements `--stencil-check-lowered`, the contract check every pipeline
// ends with (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "stencil/Dialect/Stencil/Transforms/Passes.h"

#include "llvm/ADT/StringSet.h"

namespace mlir {
namespace stencil {
#define GEN_PASS_DEF_STENCILCHECKLOWERED
#include "stencil/Dialect/Stencil/Transforms/Passes.h.inc"
} // namespace stencil
} // namespace mlir

using namespace mlir;
using namespace mlir::stencil;

namespace {
struct StencilCheckLoweredPass
    : public stencil::impl::StencilCheckLoweredBase<StencilCheckLoweredPass> {
  using StencilCheckLoweredBase::StencilCheckLoweredBase;

  void runOnOperation() override {
    llvm::StringSet<> allowedSet;
    allowedSet.insert("builtin");
    for (const std::string &name : allowed)
      allowedSet.insert(name);

    WalkResult result = getOperation()->walk([&](Operation *op) {
      StringRef dialect = op->getName().getDialectNamespace();
      if (allowedSet.contains(dialect) ||
          allowedSet.contains(op->getName().getStringRef()))
        return WalkResult::advance();
      InFlightDiagnostic diag = op->emitError()
                                << "'" << op->getName()
                                << "' was not lowered";
      if (!pipeline.empty())
        diag << " by the '" << pipeline.getValue() << "' pipeline";
      diag << " (allowed:";
      for (const std::string &name : allowed)
        diag << " " << name;
      diag << ")";
      return WalkResult::interrupt();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
