//===- LaunchDescription.h - PTX and launch descriptions --------*- C++ -*-===//
//
// What the GPU runner needs from a lowered module: the PTX of its
// `gpu.binary` and, per kernel, the launch description
// (docs/LaunchDescription.md) built from the module attribute
// `stencil.launches` that the GPU conversions record; and the check of a
// description or program written by hand.
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

/// Reads `text`, a launch description or a launch program (the file `path`,
/// which messages name), and writes it back as the codec writes it (the
/// canonical form; comments aside, a written file comes back byte for
/// byte). Warnings and the error, `path:line: ` and a message, go to
/// `diagnostics`.
LogicalResult checkLaunchDescription(StringRef text, StringRef path,
                                     raw_ostream &os, raw_ostream &diagnostics);

} // namespace stencil
} // namespace mlir

#endif // STENCIL_TARGET_LAUNCHDESCRIPTION_H
