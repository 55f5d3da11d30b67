//===- CHeader.h - Ahead-of-time C++ headers of stencil kernels -*- C++ -*-===//
//
// `stencil-translate --to-c-header`: one header that embeds a kernel's PTX
// and launch description and defines a typed C++ entry point over
// libStencilRuntime (docs/Runtime.md), so an application compiles the
// kernel in and ships no side files.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_TARGET_CHEADER_H
#define STENCIL_TARGET_CHEADER_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace mlir {
namespace stencil {

/// Options of `emitCHeader`.
struct CHeaderOptions {
  /// The kernel (empty: the only one of the module).
  std::string kernel;
  /// The entry point's name, a C identifier (empty: the kernel's name).
  std::string function;
};

/// Writes the header of one kernel of a module lowered by a GPU pipeline:
/// the PTX and the description as string literals in namespace
/// `stencil_kernels::<function>_detail`, and
///
///   stencil_status stencil_kernels::<function>(
///       T *in, T *out, int64_t n0[, int64_t n1[, int64_t n2]],
///       int64_t steps, CUstream stream = nullptr, T **result = nullptr,
///       unsigned flags = 0);
///
/// with T the element type (__half, __nv_bfloat16, float, double) and the
/// sizes outermost first; it loads the kernel at its first call (thread
/// safe) and runs it like stencil_kernel_run. Fails with a diagnostic for
/// what emitLaunchDescription and emitPTX reject and for a function name
/// that is not a C identifier.
LogicalResult emitCHeader(Operation *module, raw_ostream &os,
                          const CHeaderOptions &options);

} // namespace stencil
} // namespace mlir

#endif // STENCIL_TARGET_CHEADER_H
