//===- GPUTarget.h - The chip names the GPU pipelines take ------*- C++ -*-===//
//
// The GPU pipelines, the cost model's profile lookup and the kernels' shape
// choices read the `chip` option (`sm_80`, `sm_90`, the architecture-
// specific `sm_90a`, ...) and the `features` option (`+ptx85`) through
// these: one parser and one table of rules for all of them.
//
// The rules, in one place:
//  - the chips are those of LLVM 22's NVPTX backend (`llc -march=nvptx64
//    -mcpu=help`), each with the oldest PTX ISA version whose `.target`
//    takes it there (sm_80: PTX 7.0, sm_90a: 8.0, sm_100a: 8.6, sm_120:
//    8.7, sm_121: 8.8, ...; getMinPTXVersion);
//  - the PTX ISA versions are those LLVM 22 emits, +ptx32 to +ptx90
//    (CUDA 13.0's ptxas reads up to 9.0);
//  - each family of instructions the kernels issue (GPUInstructions) needs
//    a compute capability and a PTX ISA version (mma.sp: sm_80, PTX 7.1;
//    mma.sp::ordered_metadata: PTX 8.5; wgmma: sm_90a only);
//  - a pipeline's default `features` is the newest of what its
//    instructions need and what the chip needs (getPTXFeatures), and an
//    explicit one older than either is an error (checkGPUTarget).
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_SUPPORT_GPUTARGET_H
#define STENCIL_SUPPORT_GPUTARGET_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace mlir {
namespace stencil {

/// The chip the GPU pipelines and passes target when `chip` is not given
/// (their options are declared with it: Pipelines.h, Pipelines/Passes.td).
inline constexpr const char *kDefaultChip = "sm_90";

/// `opt-level=-1`, the default: LLVM's level by kernel (3, or the level a
/// kernel's conversion asks for; `--stencil-attach-target`).
inline constexpr int kOptLevelByKernel = -1;

/// The compute capability of a chip name, `sm_<digits>` with an optional
/// `a` (architecture-specific: its features run on that architecture only)
/// or `f` suffix (family-specific): 90 for `sm_90` and `sm_90a`;
/// std::nullopt for anything else. Says nothing of whether the chip exists
/// (isKnownChip).
std::optional<unsigned> getSMVersion(llvm::StringRef chip);

/// Whether `chip` is an architecture-specific target (`sm_90a`), the only
/// kind on which `wgmma` and `setmaxnreg` assemble.
bool isArchSpecificChip(llvm::StringRef chip);

/// Whether `chip` has the warpgroup MMAs of Hopper (`wgmma.mma_async`, dense
/// and sparse): `sm_90a` only (Blackwell's sm_100a has tcgen05 instead).
bool hasWarpgroupMma(llvm::StringRef chip);

/// Whether `chip` has the f64 MMAs of shape m16n8k4 (and k8, k16), which run
/// at twice the rate of m8n8k4 on Hopper: sm_90 and later.
bool hasMmaF64M16N8K4(llvm::StringRef chip);

/// The chips LLVM 22's NVPTX backend knows, oldest first.
llvm::ArrayRef<llvm::StringRef> getKnownChips();

/// Whether `chip` is one of getKnownChips().
bool isKnownChip(llvm::StringRef chip);

/// The oldest PTX ISA version, as major * 10 + minor (85 for PTX 8.5), whose
/// `.target` LLVM 22 emits for `chip`; std::nullopt for an unknown chip.
std::optional<unsigned> getMinPTXVersion(llvm::StringRef chip);

/// The newest PTX ISA version LLVM 22 emits (9.0, which CUDA 13.0's ptxas
/// reads).
constexpr unsigned kMaxPTXVersion = 90;

/// Whether `version` (major * 10 + minor) is a PTX ISA version LLVM 22 has a
/// `+ptxNN` feature for.
bool isKnownPTXVersion(unsigned version);

/// "8.5" for 85.
std::string formatPTXVersion(unsigned version);

/// "+ptx85" for 85.
std::string getPTXFeature(unsigned version);

/// The PTX ISA version of a `features` option: exactly one `+ptxNN` that
/// LLVM 22 knows; std::nullopt for anything else (`error` says why).
std::optional<unsigned> parsePTXFeatures(llvm::StringRef features,
                                         std::string &error);

/// The families of instructions the GPU pipelines' kernels issue, each with
/// the chips and the PTX ISA version it needs (getInstructionNeeds).
enum class GPUInstructions {
  /// Plain loads, stores and FMAs (the CUDA-core kernels): sm_70, PTX 6.0.
  Fma,
  /// cp.async (staging): sm_80, PTX 7.0.
  CpAsync,
  /// The dense Tensor Cores' mma.sync (f16/bf16 m16n8k16, f64 m8n8k4):
  /// sm_80, PTX 7.0.
  Mma,
  /// The sparse Tensor Cores' mma.sp (f16 m16n8k32): sm_80, PTX 7.1.
  MmaSp,
  /// mma.sp::ordered_metadata: sm_80, PTX 8.5.
  MmaSpOrderedMetadata,
  /// Hopper's warpgroup wgmma.mma_async (dense and sparse): sm_90a only,
  /// PTX 8.0.
  Wgmma,
};

/// What one family of instructions needs of the target.
struct GPUInstructionNeeds {
  /// How diagnostics name it: "the sparse Tensor Cores' mma.sp".
  llvm::StringRef description;
  /// The oldest compute capability that has it.
  unsigned minSM;
  /// The oldest PTX ISA version that has it (major * 10 + minor).
  unsigned minPTX;
  /// Only on the architecture-specific chip of `minSM` (wgmma: sm_90a).
  bool archSpecificOnly;
};

/// The needs of `instructions`.
const GPUInstructionNeeds &getInstructionNeeds(GPUInstructions instructions);

/// The name of `instructions` in the `instructions` option of
/// `--stencil-check-target` ("fma", "cp.async", "mma", "mma.sp",
/// "mma.sp.ordered", "wgmma"), and back (std::nullopt for an unknown name).
llvm::StringRef getInstructionsName(GPUInstructions instructions);
std::optional<GPUInstructions> parseInstructionsName(llvm::StringRef name);

/// Whether the known chip `chip` has `instructions`.
bool chipHasInstructions(llvm::StringRef chip, GPUInstructions instructions);

/// The chips that have `instructions`, as diagnostics list them: "sm_80 or
/// later: sm_80, sm_86, sm_89, sm_90, sm_90a, sm_100a, sm_120, ..." (or
/// "sm_90a only").
std::string describeChipsWith(GPUInstructions instructions);

/// The PTX ISA version `instructions` and `chip` need together: the newest
/// of their minima (the chip's when it is unknown: then only the
/// instructions').
unsigned getRequiredPTXVersion(llvm::StringRef chip,
                               llvm::ArrayRef<GPUInstructions> instructions);

/// The `features` a GPU pipeline emits with: `features` as given, or, when
/// empty, the `+ptxNN` of getRequiredPTXVersion. Never fails: a bad chip or
/// `features` is checkGPUTarget's error, which runs first.
std::string getPTXFeatures(llvm::StringRef chip, llvm::StringRef features,
                           llvm::ArrayRef<GPUInstructions> instructions);

/// Checks the target of the GPU pipeline `pipeline` (as the user wrote its
/// flag: "--lower-to-sptc") whose kernels issue `instructions`: `chip` is a
/// chip LLVM knows and has every one of `instructions`, and `features`,
/// when not empty, is one `+ptxNN` no older than what the chip and the
/// instructions need. Returns the error message (naming the pipeline, what
/// was given and what it takes), or an empty string.
std::string checkGPUTarget(llvm::StringRef pipeline, llvm::StringRef chip,
                           llvm::StringRef features,
                           llvm::ArrayRef<GPUInstructions> instructions);

/// Checks a GPU pipeline's `opt-level`, LLVM's optimization level before
/// ptxas: 0 to 3, or -1 (by kernel: 3, or the level the kernel's
/// conversion asks, `--stencil-attach-target`). Returns the error message,
/// or an empty string.
std::string checkLLVMOptLevel(int optLevel);

/// The part of checkGPUTarget that needs no instructions: `chip` is a chip
/// LLVM knows (not empty, not an option string with commas). Returns the
/// error message or an empty string.
std::string checkGPUChip(llvm::StringRef pipeline, llvm::StringRef chip);

} // namespace stencil
} // namespace mlir

#endif // STENCIL_SUPPORT_GPUTARGET_H
