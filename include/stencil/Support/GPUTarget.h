//===- GPUTarget.h - The chip names the GPU pipelines take ------*- C++ -*-===//
//
// The GPU pipelines, the cost model's profile lookup and the kernels' shape
// choices read the `chip` option (`sm_80`, `sm_90`, the architecture-
// specific `sm_90a`, ...) through these, one parser for all of them.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_SUPPORT_GPUTARGET_H
#define STENCIL_SUPPORT_GPUTARGET_H

#include "llvm/ADT/StringRef.h"

#include <optional>

namespace mlir {
namespace stencil {

/// The compute capability of a chip name, `sm_<digits>` with an optional
/// `a` (architecture-specific: its features run on that architecture only)
/// or `f` suffix: 90 for `sm_90` and `sm_90a`; std::nullopt for anything
/// else.
std::optional<unsigned> getSMVersion(llvm::StringRef chip);

/// Whether `chip` is an architecture-specific target (`sm_90a`), the only
/// kind on which `wgmma` and `setmaxnreg` assemble.
bool isArchSpecificChip(llvm::StringRef chip);

/// Whether `chip` has the warpgroup MMAs of Hopper (`wgmma.mma_async`, dense
/// and sparse): `sm_90a` only.
bool hasWarpgroupMma(llvm::StringRef chip);

} // namespace stencil
} // namespace mlir

#endif // STENCIL_SUPPORT_GPUTARGET_H
