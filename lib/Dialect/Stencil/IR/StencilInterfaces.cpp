//===- StencilInterfaces.cpp - Stencil op interfaces ----------------------===//
//
// The definitions of StencilComputeOpInterface and RowFormOpInterface
// (StencilInterfaces.td).
//
//===----------------------------------------------------------------------===//

#include "stencil/Dialect/Stencil/IR/StencilDialect.h"

using namespace mlir;
using namespace mlir::stencil;

#include "stencil/Dialect/Stencil/IR/StencilInterfaces.cpp.inc"
