//===- Repack.h - Repacking recipes of the row-form kernels ----*- C++ -*-===//
//
// Private to lib/Conversion/StencilToSpTC: the RepackRecipe
// (Support/CoefficientPacking.h) of a row form's packed coefficients, which
// the launch description carries so that libStencilRuntime can pack new
// weights of the same pattern.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_LIB_CONVERSION_STENCILTOSPTC_REPACK_H
#define STENCIL_LIB_CONVERSION_STENCILTOSPTC_REPACK_H

#include "stencil/Dialect/Stencil/IR/StencilDialect.h"

#include "stencil/Support/CoefficientPacking.h"

#include <optional>
#include <string>

namespace mlir {
namespace stencil {

/// The recipe that rebuilds `words` (the op's packed coefficients) from the
/// weights of the op's source stencil (`stencil.source`: the `offsets` and
/// `weights` of the launch description), or std::nullopt with the reason in
/// `reason`. See Repack.cpp.
std::optional<RepackRecipe> getRepackRecipe(RowFormOpInterface op,
                                            ArrayRef<int32_t> words,
                                            std::string &reason);

} // namespace stencil
} // namespace mlir

#endif // STENCIL_LIB_CONVERSION_STENCILTOSPTC_REPACK_H
