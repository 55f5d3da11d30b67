//===- KernelResources.h - ptxas's registers and shared memory --*- C++ -*-===//
//
// The resources a compiled kernel holds per thread and per block decide how
// many of its warps an SM keeps resident, which the cost model needs
// (CostModel.h, the occupancy o). Only the assembler knows them: the PTX the
// pipelines emit has virtual registers. `--stencil-select-pipeline` lowers
// each candidate to PTX, runs `ptxas -v` on it when it can find ptxas, and
// reads the figures ptxas prints per entry function.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_PIPELINES_KERNELRESOURCES_H
#define STENCIL_PIPELINES_KERNELRESOURCES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringMap.h"

#include <optional>
#include <string>

namespace mlir {
namespace stencil {

/// What `ptxas -v` reports for one entry function.
struct KernelResources {
  int64_t registers = 0;
  /// Static shared memory per block, bytes (dynamic shared memory is the
  /// launch's).
  int64_t staticSharedBytes = 0;
  int64_t spillStoreBytes = 0;
};

/// The ptxas to run for `setting`: "none" gives none; "auto" (or empty) the
/// ptxas of the CUDA toolkit CMake found when the compiler was built
/// (getBuildPtxas), none when that is not there: never one found through
/// PATH, so that `--lower-to-auto`'s choice does not depend on the
/// environment; anything else is the path of the executable itself (none
/// when it is not an executable).
std::optional<std::string> findPtxas(StringRef setting);

/// The path of the ptxas found when the compiler was built (empty: none).
StringRef getBuildPtxas();

/// Parses the `ptxas info` lines of `ptxas -v` into figures per entry
/// function ("Compiling entry function 'k'", then "Used N registers, ...,
/// M bytes smem" and "S bytes spill stores").
llvm::StringMap<KernelResources> parsePtxasInfo(StringRef log);

/// Assembles the PTX of every gpu.binary in `module` (format isa, as the
/// pipelines emit it) with `ptxas -arch=<chip> -v` and returns the figures
/// per entry function; on failure, `error` says why.
FailureOr<llvm::StringMap<KernelResources>>
getKernelResources(ModuleOp module, StringRef ptxas, StringRef chip,
                   std::string &error);

/// A lower bound, without assembling, on the 32-bit registers each kernel
/// (`gpu.func` with the kernel attribute) of `module` needs: the most, over
/// its loops, of the values defined before a loop and used in it, which
/// are all live at the loop's head. Constants and the kernel's parameters
/// (a constant bank) are left out, as are predicates (i1) and values that
/// are not integers, floats or vectors of them; an index counts 32 bits, a
/// vector its elements' bits. Used to reject, before the expensive PTX
/// emission, kernels that cannot hold their loop's values without spilling
/// (SparStencil's 3-D gathered boxes of radius 5 and more: 664 and more
/// such values).
llvm::StringMap<int64_t> getLoopLiveInRegisters(ModuleOp module);

} // namespace stencil
} // namespace mlir

#endif // STENCIL_PIPELINES_KERNELRESOURCES_H
