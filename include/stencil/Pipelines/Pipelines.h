//===- Pipelines.h - The stencil compiler's pass pipelines ------*- C++ -*-===//
//
// Each pipeline is a builder function with a typed options struct, so other
// MLIR compilers can add it to their own pass managers, and a
// `PassPipelineRegistration` for `stencil-opt --lower-to-...`.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_PIPELINES_PIPELINES_H
#define STENCIL_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "stencil/Support/GPUTarget.h"
#include "stencil/Support/OptionEnums.h"

namespace mlir {
namespace stencil {

/// Options of `--lower-to-cpu`.
struct LowerToCpuOptions : public PassPipelineOptions<LowerToCpuOptions> {
  PassOptions::Option<bool> linearize{
      *this, "linearize",
      llvm::cl::desc("Run --stencil-linearize first, so linear general-form "
                     "bodies are evaluated like stencil.linear (f64 "
                     "accumulation)"),
      llvm::cl::init(false)};
};

/// `--lower-to-cpu`: stencil -> scf loops -> LLVM dialect, runnable with
/// `mlir-runner`. This is the reference every other pipeline is checked
/// against; see docs/Pipelines.md.
void buildLowerToCpuPipeline(OpPassManager &pm,
                             const LowerToCpuOptions &options);

/// The GPU target options every GPU pipeline takes, declared once: `chip`,
/// `features` (default empty: the newest of the PTX ISA versions the chip
/// and the pipeline's instructions need, Support/GPUTarget.h; the help of
/// each pipeline's, `Derived::kFeaturesHelp`, says what its instructions
/// need) and `opt-level`. `Derived::getGPUInstructions()` lists the
/// instruction families its kernels issue (GPUInstructions), which the
/// pipeline's first pass, `--stencil-check-target`, checks the chip and
/// `features` against.
template <typename Derived>
struct GPUTargetOptions : public PassPipelineOptions<Derived> {
  mlir::detail::PassOptions::Option<std::string> chip{
      *this, "chip",
      llvm::cl::desc("Target GPU: sm_80, sm_86, sm_89, sm_90, sm_90a, "
                     "sm_100a, sm_120, ... (a chip LLVM's NVPTX backend "
                     "knows that has the pipeline's instructions)"),
      llvm::cl::init(kDefaultChip)};
  mlir::detail::PassOptions::Option<std::string> features{
      *this, "features", llvm::cl::desc(Derived::kFeaturesHelp),
      llvm::cl::init("")};
  mlir::detail::PassOptions::Option<int> optLevel{
      *this, "opt-level",
      llvm::cl::desc("LLVM's optimization level before ptxas: 0 to 3, or -1 "
                     "(default): by kernel, 3 but where the kernel's "
                     "conversion asks for less (the gathered 2-D SpTC form "
                     "of more than 32 kernel rows: 0, which ptxas spills "
                     "far less)"),
      llvm::cl::init(kOptLevelByKernel)};

  /// The `features` the PTX is emitted with: `features`, or when empty the
  /// `+ptxNN` the chip and getGPUInstructions() need.
  std::string getEmittedFeatures() const {
    return getPTXFeatures(
        chip, features,
        static_cast<const Derived *>(this)->getGPUInstructions());
  }
};

/// Adds `--stencil-check-target` for `pipeline` (its flag, without the
/// dashes: "lower-to-sptc") with the target options of `options`: the first
/// pass of every GPU pipeline.
void addGPUTargetCheck(OpPassManager &pm, StringRef pipeline, StringRef chip,
                       StringRef features, int optLevel,
                       ArrayRef<GPUInstructions> instructions);

template <typename Derived>
void addGPUTargetCheck(OpPassManager &pm, StringRef pipeline,
                       const GPUTargetOptions<Derived> &options) {
  addGPUTargetCheck(pm, pipeline, options.chip, options.features,
                    options.optLevel,
                    static_cast<const Derived &>(options).getGPUInstructions());
}

/// How `--lower-to-sptc` makes a stencil 2:4 sparse.
enum class SpTCLayout {
  /// Per stencil, the one of the two below that issues fewer mma.sp.
  Auto,
  /// SPIDER: kernel rows, strided swap.
  StridedSwap,
  /// SparStencil: flatten-and-crush, conflict-graph matching.
  Matching,
};

/// The options of the row-form kernel both Tensor Core pipelines share
/// (`--stencil-sptc-tile`'s tiling and the warpgroup kernel's), declared
/// once; `Derived` words the help of those that name its MMA
/// (`kNTilesHelp`, `kMmaHelp`, `kWgmmaNHelp`).
template <typename Derived>
struct RowFormKernelOptions : public GPUTargetOptions<Derived> {
  mlir::detail::PassOptions::Option<int64_t> warps{
      *this, "warps",
      llvm::cl::desc("Warps per thread block (0: 4, fewer where the tile "
                     "would exceed 48 KiB of shared memory)"),
      llvm::cl::init(0)};
  mlir::detail::PassOptions::Option<int64_t> nTiles{
      *this, "n-tiles", llvm::cl::desc(Derived::kNTilesHelp),
      llvm::cl::init(0)};
  mlir::detail::PassOptions::Option<int64_t> subTiles{
      *this, "sub-tiles",
      llvm::cl::desc("Pipelined sub-tiles per thread block (0: by rank; in 3-D "
                     "output planes streamed along z)"),
      llvm::cl::init(0)};
  mlir::detail::PassOptions::Option<AsyncCopy> asyncCopy{
      *this, "async-copy", llvm::cl::desc("How the kernel stages its input"),
      llvm::cl::init(AsyncCopy::Auto), getAsyncCopyValues()};
  mlir::detail::PassOptions::Option<MmaKind> mma{
      *this, "mma", llvm::cl::desc(Derived::kMmaHelp),
      llvm::cl::init(MmaKind::Auto), getMmaKindValues()};
  mlir::detail::PassOptions::Option<int64_t> fusedSteps{
      *this, "fused-steps",
      llvm::cl::desc(
          "Time steps per launch by kernel composition (LoRAStencil): "
          "one Tensor Core step of the t-fold composed weights "
          "(computed in f64) where it is exact, t direct steps on CUDA cores "
          "in the band within t r of the grid's edge, a one-step CUDA-core "
          "tail kernel for the steps left over; 1 to 64 (1: none; halo boundary; the "
          "composed innermost radius t r_x must be at most 7; not with the "
          "gathered form; with --lower-to-tc low-rank=true, the low-rank "
          "chain of the composed weights)"),
      llvm::cl::init(1)};
  mlir::detail::PassOptions::Option<int64_t> wgmmaN{
      *this, "wgmma-n", llvm::cl::desc(Derived::kWgmmaNHelp),
      llvm::cl::init(0)};
  mlir::detail::PassOptions::Option<int64_t> wgmmaStages{
      *this, "wgmma-stages",
      llvm::cl::desc("Warpgroup kernel: sub-tiles staged ahead, the buffers "
                     "of the cp.async ring, 2 to 8 (0: 2)"),
      llvm::cl::init(0)};
  mlir::detail::PassOptions::Option<int64_t> wgmmaStrips{
      *this, "wgmma-strips",
      llvm::cl::desc("Warpgroup kernel: strips of 16 outputs along x per "
                     "block, a power of two up to 8 (0: 2 in 2-D, 1 in "
                     "3-D)"),
      llvm::cl::init(0)};
};

/// Options of `--lower-to-sptc`.
struct LowerToSpTCOptions : public RowFormKernelOptions<LowerToSpTCOptions> {
  static constexpr const char *kFeaturesHelp =
      "PTX ISA version, +ptxNN (default: the newest of what the chip needs, "
      "+ptx86 for sm_100a, +ptx87 for sm_120, and what mma.sp needs, +ptx85 "
      "with ordered-metadata, +ptx71 without)";
  static constexpr const char *kNTilesHelp =
      "mma.sp column tiles per warp (0: by rank, fewer where the tile would "
      "exceed 48 KiB of shared memory)";
  static constexpr const char *kMmaHelp =
      "Sparse MMA of the banded 2-D and 3-D kernels: warp (mma.sp), "
      "warpgroup (wgmma.mma_async.sp, needs chip=sm_90a; layout=auto then "
      "means strided-swap) or auto (default: warpgroup where it was measured "
      "faster, banded 2-D forms with r_y >= 5 on chip=sm_90a; warp "
      "otherwise, bench/NOTES.md)";
  static constexpr const char *kWgmmaNHelp =
      "Warpgroup kernel: N of every wgmma (0: 24 in 2-D, 16 where r_y <= 1, "
      "24 in 3-D; less where the staged tiles would exceed 100 KiB of shared "
      "memory)";

  PassOptions::Option<SpTCLayout> layout{
      *this, "layout",
      llvm::cl::desc("How stencils become 2:4 sparse (see docs/Pipelines.md)"),
      llvm::cl::init(SpTCLayout::Auto),
      llvm::cl::values(
          clEnumValN(SpTCLayout::Auto, "auto",
                     "per stencil, strided swap or matching, whichever "
                     "issues fewer mma.sp per output (ties: strided swap)"),
          clEnumValN(SpTCLayout::StridedSwap, "strided-swap",
                     "SPIDER's kernel rows and strided swap"),
          clEnumValN(SpTCLayout::Matching, "matching",
                     "SparStencil's flatten-and-crush and conflict-graph "
                     "matching, layout explored per stencil"))};
  PassOptions::Option<bool> orderedMetadata{
      *this, "ordered-metadata",
      llvm::cl::desc("Emit mma.sp::ordered_metadata (PTX 8.5)"),
      llvm::cl::init(true)};

  /// mma.sp (::ordered_metadata unless ordered-metadata=false) and cp.async;
  /// wgmma with mma=warpgroup is --stencil-sptc-tile's located error on a
  /// chip other than sm_90a.
  SmallVector<GPUInstructions, 3> getGPUInstructions() const {
    SmallVector<GPUInstructions, 3> instructions = {GPUInstructions::MmaSp};
    if (orderedMetadata)
      instructions.push_back(GPUInstructions::MmaSpOrderedMetadata);
    instructions.push_back(GPUInstructions::CpAsync);
    return instructions;
  }
};

/// `--lower-to-sptc`: SPIDER on the 2:4 Sparse Tensor Cores. Linear
/// stencils are decomposed, strided-swapped, 2:4 encoded, the row swap folded
/// into load offsets, lowered to an mma.sp kernel and host launches, then
/// upstream's NVVM pipeline emits the PTX (gpu.binary, format isa).
void buildLowerToSpTCPipeline(OpPassManager &pm,
                              const LowerToSpTCOptions &options);

/// The stencil part of `--lower-to-sptc`: everything up to the `gpu.module`
/// with the mma.sp kernel and the host launches, before the shared emission
/// (buildStencilGPUEmissionPipeline). For compilers that emit the kernel
/// their own way, and for the pipeline fuzzer.
void buildSpTCKernelPipeline(OpPassManager &pm,
                             const LowerToSpTCOptions &options);

/// Options of `--lower-to-tc`.
struct LowerToTCOptions : public RowFormKernelOptions<LowerToTCOptions> {
  static constexpr const char *kFeaturesHelp =
      "PTX ISA version, +ptxNN (default: the newest of what the chip needs, "
      "+ptx86 for sm_100a, +ptx87 for sm_120, and what mma.sync and "
      "cp.async need, +ptx70)";
  static constexpr const char *kNTilesHelp =
      "mma column tiles per warp (0: by rank, fewer where the tile would "
      "exceed 48 KiB of shared memory)";
  static constexpr const char *kMmaHelp =
      "MMA of the f16 2-D and 3-D kernels: warp (mma.sync), warpgroup "
      "(experimental: the dense wgmma.mma_async m64nNk16, needs "
      "chip=sm_90a; measured slower than warp, 0.69-0.77x in 2-D on an "
      "H100, bench/NOTES.md) or auto (default: warp until the warpgroup "
      "kernel is measured faster)";
  static constexpr const char *kWgmmaNHelp =
      "Warpgroup kernel: N of every wgmma (0: as --lower-to-sptc)";

  PassOptions::Option<int64_t> mTiles{
      *this, "m-tiles",
      llvm::cl::desc("f64 kernel: m-tiles of 8 rows per warp (0: 2)"),
      llvm::cl::init(0)};
  PassOptions::Option<bool> lowRank{
      *this, "low-rank",
      llvm::cl::desc("Take 2-D stencils of low rank through the low-rank "
                     "chain Sum_k U_k X V_k (LoRAStencil; --stencil-low-rank "
                     "decides per stencil and warns when the rank is too "
                     "high; radius <= 4, f16); with fused-steps, the chain of "
                     "the composed weights, their SVD truncated within the "
                     "element type's rounding (--stencil-decompose low-rank)"),
      llvm::cl::init(false)};

  /// mma.sync (f16, bf16, f64) and cp.async.
  SmallVector<GPUInstructions, 3> getGPUInstructions() const {
    return {GPUInstructions::Mma, GPUInstructions::CpAsync};
  }
};

/// `--lower-to-tc`: SPIDER's "w. TC" configuration (section 4.4) on the
/// dense Tensor Cores. The same decomposition, row-swap folding, tiling,
/// packing and kernel as `--lower-to-sptc`, without the strided swap and
/// the 2:4 encoding: on f16 grids each kernel row is two
/// `mma.sync.m16n8k16` (f32 accumulation) fed with the B registers of the
/// sparse kernel; on f64 grids each kernel row is one `mma.sync.m8n8k4`
/// f64 per K-chunk of 4 inputs (TCF64CoefficientLayout).
void buildLowerToTCPipeline(OpPassManager &pm, const LowerToTCOptions &options);

/// The stencil part of `--lower-to-tc` (see buildSpTCKernelPipeline).
void buildTCKernelPipeline(OpPassManager &pm, const LowerToTCOptions &options);

/// Options of `--lower-to-fft`.
struct LowerToFftOptions : public GPUTargetOptions<LowerToFftOptions> {
  static constexpr const char *kFeaturesHelp =
      "PTX ISA version, +ptxNN (default: the newest of what the chip needs, "
      "+ptx86 for sm_100a, +ptx87 for sm_120, and what the f64 mma.sync "
      "needs, +ptx70)";

  /// The f64 mma.sync of the DFT stages.
  SmallVector<GPUInstructions, 3> getGPUInstructions() const {
    return {GPUInstructions::Mma};
  }

  PassOptions::Option<int64_t> fusedSteps{
      *this, "fused-steps",
      llvm::cl::desc("Time steps per launch (T), fused by the spectrum to "
                     "the T; 0 chooses T by the tailoring cost"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> maxTileElements{
      *this, "max-tile-elements",
      llvm::cl::desc("Largest complex tile array (16 bytes of shared memory "
                     "per element)"),
      llvm::cl::init(4096)};
  PassOptions::Option<bool> cooleyTukey{
      *this, "cooley-tukey",
      llvm::cl::desc("Consider the radix-8 Cooley-Tukey tile (1-D 4096, 2-D "
                     "64 x 64) besides the PFA tiles"),
      llvm::cl::init(true)};
  PassOptions::Option<int64_t> warps{*this, "warps",
                                     llvm::cl::desc("Warps per thread block"),
                                     llvm::cl::init(8)};
};

/// `--lower-to-fft`: linear f64 / f32 stencils to FFT kernels on the f64
/// Tensor Cores (FlashFFTStencil) and PTX.
void buildLowerToFftPipeline(OpPassManager &pm,
                             const LowerToFftOptions &options);

/// The stencil part of `--lower-to-fft` (up to the kernels and launches).
void buildFftKernelPipeline(OpPassManager &pm,
                            const LowerToFftOptions &options);

/// Options of `--lower-to-cuda-core`.
struct LowerToCudaCoreOptions
    : public GPUTargetOptions<LowerToCudaCoreOptions> {
  static constexpr const char *kFeaturesHelp =
      "PTX ISA version, +ptxNN (default: the newest of what the chip needs, "
      "+ptx70 for sm_80, +ptx86 for sm_100a, +ptx87 for sm_120, and what the "
      "kernels need: +ptx60, +ptx70 for row-phases' cp.async)";

  PassOptions::Option<bool> replaceableWeights{
      *this, "replaceable-weights",
      llvm::cl::desc("Read a linear stencil's weights from a .const array "
                     "the runtime can overwrite (stencil_kernel_set_weights) "
                     "instead of instruction immediates"),
      llvm::cl::init(true)};

  PassOptions::Option<bool> linearize{
      *this, "linearize",
      llvm::cl::desc("Rewrite linear stencil.apply bodies to stencil.linear "
                     "first (register-tiled FMA kernels)"),
      llvm::cl::init(true)};
  PassOptions::Option<int64_t> threadsX{
      *this, "threads-x", llvm::cl::desc("Threads of a block along x"),
      llvm::cl::init(32)};
  PassOptions::Option<int64_t> threadsY{
      *this, "threads-y", llvm::cl::desc("Threads of a block along y"),
      llvm::cl::init(8)};
  PassOptions::Option<int64_t> outputsPerThread{
      *this, "outputs-per-thread",
      llvm::cl::desc("Outputs per thread (consecutive along y; 0: the most "
                     "of 4, 2, 1 whose tile fits in shared memory)"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> fusedSteps{
      *this, "fused-steps",
      llvm::cl::desc("Time steps computed per launch (temporal blocking)"),
      llvm::cl::init(1)};
  PassOptions::Option<int64_t> planes{
      *this, "planes",
      llvm::cl::desc("Output z planes per block of a 3-D stencil (0: the "
                     "most of 8, 4, 2, 1 that fits in shared memory; "
                     "streamed: 32), or output rows of a streamed 2-D block "
                     "(0: 128)"),
      llvm::cl::init(0)};
  PassOptions::Option<StreamMode> stream{
      *this, "stream",
      llvm::cl::desc("3-D: sweep each block's planes along z through rings "
                     "of 2 r_z + 1 planes per fused step (AN5D), loading "
                     "each input plane once; 2-D linear stencils: sweep "
                     "rows with 2 r_y + 1 partial sums per step in "
                     "registers (AN5D's register streaming). auto: 3-D "
                     "stencils whose rings fit in shared memory, 2-D linear "
                     "stencils with fused-steps >= 2 whose rows fit; the "
                     "others staged"),
      llvm::cl::init(StreamMode::Auto), getStreamModeValues()};
  PassOptions::Option<bool> planeSums{
      *this, "plane-sums",
      llvm::cl::desc("Streamed 3-D linear stencils with one step per launch: "
                     "2 r_z + 1 partial sums per output in registers and two "
                     "planes in shared memory, each in-plane value read "
                     "once for every output plane it feeds (AN5D's register "
                     "streaming); false (default): the ring of "
                     "2 r_z + 2 planes"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> prefetchPlanes{
      *this, "prefetch-planes",
      llvm::cl::desc("Streamed 3-D kernels of one step per launch (ring or "
                     "plane sums) load an input plane's staging values into "
                     "registers prefetch-distance iterations ahead, "
                     "overlapping the loads with the computation of the "
                     "planes before it (fused steps never; false: loaded "
                     "and stored in the same iteration)"),
      llvm::cl::init(true)};
  PassOptions::Option<int64_t> prefetchDistance{
      *this, "prefetch-distance",
      llvm::cl::desc("With prefetch-planes: how many planes ahead a "
                     "streamed sweep loads, 1 to 4 (each plane ahead holds "
                     "its staging values in registers)"),
      llvm::cl::init(1)};
  PassOptions::Option<int64_t> vectorWidth{
      *this, "vector-width",
      llvm::cl::desc("With plane-sums: adjacent columns per thread, staged, "
                     "read and stored as one vector of 1, 2, 4 or 8 "
                     "elements (at most 16 bytes); grids whose rows are not "
                     "a multiple of it take the element-wise path"),
      llvm::cl::init(1)};
  PassOptions::Option<int64_t> rowPhases{
      *this, "row-phases",
      llvm::cl::desc("With the 2-D row sweep (stream=on): 0 sweeps one row "
                     "per barrier; N >= 1 sweeps groups of 2 r_y + 1 rows "
                     "and applies the x offsets in N phases, each to the "
                     "whole group, so that a phase's weights stay in "
                     "uniform registers (at most 2 r_x + 1; one column per "
                     "thread)"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> minBlocksPerSM{
      *this, "min-blocks-per-sm",
      llvm::cl::desc("Experimental (no effect measured on the committed "
                     "kernels, bench/NOTES.md): 0 (default): ptxas chooses "
                     "the registers per thread; "
                     "N >= 1: the kernel asks for N resident blocks per SM "
                     "(PTX .minnctapersm), so ptxas schedules within the "
                     "registers that leave room for N blocks (N x threads "
                     "per block at most 2048)"),
      llvm::cl::init(0)};

  /// Plain FMA kernels; the 2-D row groups (row-phases) stage by cp.async.
  SmallVector<GPUInstructions, 3> getGPUInstructions() const {
    SmallVector<GPUInstructions, 3> instructions = {GPUInstructions::Fma};
    if (rowPhases > 0)
      instructions.push_back(GPUInstructions::CpAsync);
    return instructions;
  }
};

/// `--lower-to-cuda-core`: plain FMA kernels for every element type and
/// general stencil bodies (shared-memory tiles with the halo, register
/// tiling), then the same NVVM emission as `--lower-to-sptc`.
void buildLowerToCudaCorePipeline(OpPassManager &pm,
                                  const LowerToCudaCoreOptions &options);

/// The stencil part of `--lower-to-cuda-core` (see buildSpTCKernelPipeline).
void buildCudaCoreKernelPipeline(OpPassManager &pm,
                                 const LowerToCudaCoreOptions &options);

/// The tail every GPU pipeline shares: canonicalization and CSE of the
/// kernels and host code, asynchronous host GPU calls,
/// upstream's GPU-to-NVVM pipeline (PTX in a `gpu.binary`, format isa) and
/// the contract check of `pipeline` (LLVM host code, the binary, launches).
void buildStencilGPUEmissionPipeline(OpPassManager &pm, StringRef chip,
                                     StringRef features, int optLevel,
                                     StringRef pipeline);

/// The emission of `pipeline` (its flag without the dashes) for the target
/// of `options`: its chip, emitted features and LLVM level.
template <typename Derived>
void buildStencilGPUEmissionPipeline(OpPassManager &pm, StringRef pipeline,
                                     const GPUTargetOptions<Derived> &options) {
  buildStencilGPUEmissionPipeline(pm, options.chip,
                                  options.getEmittedFeatures(),
                                  options.optLevel, pipeline);
}

/// Options of `--lower-to-auto`.
struct LowerToAutoOptions : public PassPipelineOptions<LowerToAutoOptions> {
  PassOptions::Option<std::string> chip{
      *this, "chip",
      llvm::cl::desc("Target GPU: sm_80, sm_86, sm_89, sm_90, sm_90a, "
                     "sm_100a, sm_120, ... (each candidate pipeline that "
                     "does not take it is rejected)"),
      llvm::cl::init(kDefaultChip)};
  PassOptions::Option<std::string> features{
      *this, "features",
      llvm::cl::desc("PTX ISA version, +ptxNN, of every candidate (default: "
                     "each pipeline's own, the newest of what the chip and "
                     "its instructions need)"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> deviceProfile{
      *this, "device-profile",
      llvm::cl::desc("The device the model predicts for: h100, h200, a100, "
                     "b200, rtx-pro-6000 (built in; a100, b200 and "
                     "rtx-pro-6000 from published figures, not calibrated) "
                     "or a file of stencil-run --roofline --profile-out; "
                     "empty: by chip (sm_80..sm_89: a100, sm_90: h100, "
                     "sm_100: b200, sm_120: rtx-pro-6000)"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> fusedSteps{
      *this, "fused-steps",
      llvm::cl::desc("Time steps a launch may fuse: N (1..N) or max (1..4); "
                     "never more than the op's steps"),
      llvm::cl::init("max")};
  PassOptions::Option<int> optLevel{
      *this, "opt-level",
      llvm::cl::desc("LLVM's optimization level of every candidate: 0 to 3, "
                     "or -1 (default): by kernel, as the pipelines' "
                     "opt-level"),
      llvm::cl::init(kOptLevelByKernel)};
  PassOptions::Option<ExplainLevel> explain{
      *this, "explain",
      llvm::cl::desc("Print the ranked table of candidates as a remark"),
      llvm::cl::init(ExplainLevel::None), getExplainLevelValues()};
  PassOptions::Option<std::string> ptxas{
      *this, "ptxas",
      llvm::cl::desc("The assembler that gives each candidate's registers "
                     "(the occupancy): auto (the ptxas of the CUDA toolkit "
                     "found when the compiler was built; never one from "
                     "PATH), none, or a path"),
      llvm::cl::init("auto")};
  PassOptions::ListOption<int64_t> grid{
      *this, "grid",
      llvm::cl::desc("The grid's extents, outermost first, the prediction is "
                     "for; default: the op's static shape, else 10240000 "
                     "(1-D), 10240 x 10240 (2-D), 512^3 (3-D)")};
};

/// `--lower-to-auto`: the performance model of "Do We Need Tensor Cores for
/// Stencil Computations?" chooses the pipeline
/// (`--stencil-select-pipeline`: every candidate's stencil part runs on a
/// copy, the launch records give each kernel's unit and work, the device
/// profile the peaks), then the chosen pipeline runs
/// (`--stencil-lower-selected`).
void buildLowerToAutoPipeline(OpPassManager &pm,
                              const LowerToAutoOptions &options);

/// Registers every pipeline with the command line (`--lower-to-...`).
void registerStencilPipelines();

} // namespace stencil
} // namespace mlir

#endif // STENCIL_PIPELINES_PIPELINES_H
