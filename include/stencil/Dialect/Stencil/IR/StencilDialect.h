//===- StencilDialect.h - Stencil dialect -----------------------*- C++ -*-===//
//
// The `stencil` dialect: its attributes, interfaces and operations.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_DIALECT_STENCIL_IR_STENCILDIALECT_H
#define STENCIL_DIALECT_STENCIL_IR_STENCILDIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "stencil/Support/FftTiling.h"
#include "stencil/Support/SpTCTiling.h"
#include "stencil/Support/StepComposition.h"

#include "stencil/Dialect/Stencil/IR/StencilDialect.h.inc"
#include "stencil/Dialect/Stencil/IR/StencilEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "stencil/Dialect/Stencil/IR/StencilAttrs.h.inc"

namespace mlir {
namespace stencil {
/// The discardable attribute that carries the source stencil (`pattern` and
/// `weights`) through the matrix forms, for the launch description.
inline constexpr llvm::StringLiteral kSourceAttrName = "stencil.source";

/// The value of `kSourceAttrName` for a stencil: `{pattern, weights}`.
DictionaryAttr getSourceAttr(PatternAttr pattern, DenseF64ArrayAttr weights);

/// The linear stencil of `pattern` and `weights` (one per point), for the
/// IR-free models of Support (StepComposition.h).
LinearStencil getLinearStencil(PatternAttr pattern, ArrayRef<double> weights);

/// The unit roundoff 2^-p of a grid element type (f16 2^-11, bf16 2^-8, f32
/// 2^-24, f64 2^-53): the bound the low-rank truncations take.
double getUnitRoundoff(Type elementType);
} // namespace stencil
} // namespace mlir

// StencilComputeOpInterface, RowFormOpInterface (after the attributes and
// getLinearStencil, which their methods use).
#include "stencil/Dialect/Stencil/IR/StencilInterfaces.h.inc"

#define GET_OP_CLASSES
#include "stencil/Dialect/Stencil/IR/StencilOps.h.inc"

#endif // STENCIL_DIALECT_STENCIL_IR_STENCILDIALECT_H
