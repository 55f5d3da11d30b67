//===- DescriptionBuilder.h - A kernel's record as the runtime's struct -*- C++ -*-===//
//
// Private to lib/Target: the step both translations share. A kernel's
// `stencil.launches` record becomes the runtime codec's LaunchDescription
// (runtime/lib/LaunchDescription.h), which `--to-launch` writes and
// `--to-c-header` embeds and reads its entry point's types from.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_LIB_TARGET_DESCRIPTIONBUILDER_H
#define STENCIL_LIB_TARGET_DESCRIPTIONBUILDER_H

#include "stencil/Target/LaunchDescription.h"

#include "LaunchDescription.h" // the runtime's codec (runtime/lib)

#include <string>

namespace mlir {
namespace stencil {

/// The description of the kernel `options.kernel` names (or the only one)
/// from the module's `stencil.launches` records, and the notes written
/// beside it as comments. Fails with a located diagnostic for a module
/// without records, with several kernels and none chosen, or whose records
/// do not verify.
LogicalResult buildLaunchDescription(Operation *module,
                                     const LaunchDescriptionOptions &options,
                                     stencil_run::LaunchDescription &desc,
                                     stencil_run::LaunchDescriptionNotes &notes);

/// The text of `desc` as the runtime's codec writes it.
std::string
writeLaunchDescription(const stencil_run::LaunchDescription &desc,
                       const stencil_run::LaunchDescriptionNotes &notes);

} // namespace stencil
} // namespace mlir

#endif // STENCIL_LIB_TARGET_DESCRIPTIONBUILDER_H
