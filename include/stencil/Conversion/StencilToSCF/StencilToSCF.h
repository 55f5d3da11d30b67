//===- StencilToSCF.h - Lower stencil ops to scf loops ----------*- C++ -*-===//

#ifndef STENCIL_CONVERSION_STENCILTOSCF_STENCILTOSCF_H
#define STENCIL_CONVERSION_STENCILTOSCF_STENCILTOSCF_H

#include "mlir/Pass/Pass.h"
#include "stencil/Support/OptionEnums.h"

namespace mlir {
class RewritePatternSet;

namespace stencil {

#define GEN_PASS_DECL_CONVERTSTENCILTOSCF
#include "stencil/Conversion/Passes.h.inc"

/// Adds the patterns lowering `stencil.linear` and `stencil.apply` to scf
/// loops over memrefs (see the `convert-stencil-to-scf` description).
void populateStencilToSCFConversionPatterns(RewritePatternSet &patterns);

} // namespace stencil
} // namespace mlir

#endif // STENCIL_CONVERSION_STENCILTOSCF_STENCILTOSCF_H
