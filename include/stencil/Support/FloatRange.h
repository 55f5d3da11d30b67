//===- FloatRange.h - Whether a value fits a floating-point type -*- C++ -*-===//
//
// The passes that round f64 values to a narrower type (weights to the Tensor
// Core operands, a Dirichlet value to the grid's type) refuse a finite value
// that would become an infinity there, through this one test.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_SUPPORT_FLOATRANGE_H
#define STENCIL_SUPPORT_FLOATRANGE_H

#include "llvm/ADT/APFloat.h"

#include <cmath>

namespace mlir {
namespace stencil {

/// Whether the finite `value`, rounded to nearest (ties to even) in the
/// format `semantics`, becomes an infinity.
inline bool overflowsFloatFormat(double value,
                                 const llvm::fltSemantics &semantics) {
  if (!std::isfinite(value))
    return false;
  llvm::APFloat rounded(value);
  bool losesInfo;
  rounded.convert(semantics, llvm::APFloat::rmNearestTiesToEven, &losesInfo);
  return rounded.isInfinity();
}

} // namespace stencil
} // namespace mlir

#endif // STENCIL_SUPPORT_FLOATRANGE_H
