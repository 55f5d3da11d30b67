//===- LaunchDescription.h - PTX and launch descriptions --------*- C++ -*-===//
//
// What the GPU runner needs from a lowered module: the PTX of its
// `gpu.binary` and, per kernel, the launch description
// (docs/LaunchDescription.md) built from the module attribute
// `stencil.launches` that the GPU conversions record.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_TARGET_LAUNCHDESCRIPTION_H
#define STENCIL_TARGET_LAUNCHDESCRIPTION_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace mlir {
namespace stencil {

/// Writes the PTX (`format = isa` objects) of every `gpu.binary` in
/// `module`. Fails with a diagnostic when there is none.
LogicalResult emitPTX(Operation *module, raw_ostream &os);

/// Options of `emitLaunchDescription`.
struct LaunchDescriptionOptions {
  /// The kernel to describe; empty: the only one.
  std::string kernel;
  /// The `ptx = ` entry; empty: `<kernel>.ptx`.
  std::string ptxFile;
};

/// Writes the launch description (version 1) of one kernel recorded in the
/// `stencil.launches` attribute of `module`.
LogicalResult emitLaunchDescription(Operation *module, raw_ostream &os,
                                    const LaunchDescriptionOptions &options);

} // namespace stencil
} // namespace mlir

#endif // STENCIL_TARGET_LAUNCHDESCRIPTION_H
