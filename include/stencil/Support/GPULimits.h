//===- GPULimits.h - The hardware limits the kernels are sized to -*- C++
//-*-===//
//
// The per-block, per-SM and per-thread limits of the NVIDIA GPUs the
// pipelines target (sm_80 to sm_120, CUDA C Programming Guide, "Technical
// Specifications per Compute Capability"), in one place: the tilings and
// the conversions size their kernels against them, and a kernel that would
// exceed one is a located error.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_SUPPORT_GPULIMITS_H
#define STENCIL_SUPPORT_GPULIMITS_H

#include <cstdint>

namespace mlir {
namespace stencil {

/// Threads of a block.
constexpr int64_t kMaxThreadsPerBlock = 1024;
/// Resident threads of an SM (sm_80 and sm_90; min-blocks-per-sm).
constexpr int64_t kMaxThreadsPerSM = 2048;
/// Resident blocks of an SM (sm_80 to sm_120).
constexpr int64_t kMaxBlocksPerSM = 32;
/// The shared memory a block may use without opting in to more (the static
/// limit of every chip since sm_70).
constexpr int64_t kMaxStaticSharedBytes = 48 * 1024;
/// The dynamic shared memory a block may opt in to (sm_80 and sm_90:
/// 227 KiB; sm_86 and sm_89 have 99 KiB, sm_120 99 KiB).
constexpr int64_t kMaxOptInSharedBytes = 227 * 1024;
/// The `.const` bank of user constants of a module.
constexpr int64_t kMaxConstantBytes = 64 * 1024;
/// Registers of a thread.
constexpr int64_t kMaxThreadRegisters = 255;

} // namespace stencil
} // namespace mlir

#endif // STENCIL_SUPPORT_GPULIMITS_H
