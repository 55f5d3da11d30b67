//===- LaunchDescription.h - stencil launch description v1 ------*- C++ -*-===//
//
// The one codec of the text launch description that sits next to the PTX of
// a compiled stencil: the struct, its reader (stencil-run, libStencilRuntime)
// and its writer (stencil-translate --stencil-to-launch, which fills the
// struct from the module's launch records). Format:
// docs/LaunchDescription.md. A program of several kernels and buffers
// (version 2) holds one such struct per kernel: LaunchProgram.h. Plain
// C++17: stencil-run must build without LLVM/MLIR.
//
//===----------------------------------------------------------------------===//
#ifndef STENCIL_RUN_LAUNCHDESCRIPTION_H
#define STENCIL_RUN_LAUNCHDESCRIPTION_H

#include "HostUtil.h"

#include "stencil/Support/CoefficientPacking.h"

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace stencil_run {

struct LaunchDescription {
  std::string path; ///< the description file
  /// 1, or 2 for a kernel of a launch program (LaunchProgram.h).
  int version = 0;
  std::string kernel;  ///< PTX entry name
  std::string ptx;     ///< the PTX file as written (`ptx`)
  std::string ptxPath; ///< resolved (relative to the description's folder)
  int rank = 0;
  ElemType elementType = ElemType::F16;
  ElemType accumulator = ElemType::F32;
  /// Stencil points, `rank` coordinates each, outermost dimension first.
  std::vector<std::vector<int64_t>> offsets;
  std::vector<double> weights; ///< one per offset (linear stencils)
  /// A general (non-linear) stencil's per-point expression (BodyExpr); then
  /// `offsets` are its accesses and `weights` is empty.
  bool hasBody = false;
  BodyExpr body;
  std::string bodyText; ///< the body as written
  Boundary boundary = Boundary::Halo;
  double dirichletValue = 0; ///< as written (not rounded)
  std::vector<int64_t> tile; ///< output points per block, innermost first
  /// The unit doing the arithmetic (`unit`, e.g. fma.f64, mma.sp.f16);
  /// empty when absent.
  std::string unit;
  /// What the benchmark scripts read (bench/table.py, bench/calibrate.py),
  /// not the runner: the unit's flops per output point, the CUDA-core
  /// schedule and vector width, the unit of the edge blocks and its flops.
  /// Empty / 0 when absent.
  std::optional<double> unitFlopsPerPoint;
  std::string schedule;
  int vectorWidth = 0;
  std::string edgeUnit;
  std::optional<double> edgeFlopsPerPoint;
  unsigned block[3] = {1, 1, 1};
  unsigned sharedBytes = 0;
  /// Time steps one launch computes (temporal blocking); default 1.
  int stepsPerLaunch = 1;
  /// Sum_k |u_k|_1 |v_k|_1 of a kernel that rounds an intermediate product
  /// to the element type (the low-rank chain); 0 when it does not.
  double chainAbsSum = 0;
  /// A bound on one launch's error relative to the largest |value| of its
  /// input, for kernels of transforms (the FFT pipeline); 0 when absent.
  double fftErrorBound = 0;
  /// Fused steps by kernel composition (the Tensor Core pipelines'
  /// `fused-steps`): the kernel of the band's direct steps, launched after
  /// `kernel` on the same buffers with one block per band tile
  /// (countBandTiles) of `bandBlock` threads; empty when absent. Its tile
  /// and the exact region's margins, innermost first.
  std::string bandKernel;
  std::vector<int64_t> bandTile, bandMargins;
  unsigned bandBlock[3] = {1, 1, 1};
  /// The tail kernel of a kernel that fuses steps (steps_per_launch F > 1):
  /// `tailSteps` (< F) steps per launch, on the same buffers and arguments
  /// as `kernel`; a run of S steps is floor(S / F) launches of `kernel` then
  /// (S mod F) / tailSteps launches of it (stencil_runtime::planLaunches).
  /// Empty when absent (then S must be a multiple of F). Its tile
  /// (innermost first, like `tile`), threads per block and dynamic shared
  /// memory.
  std::string tailKernel;
  int tailSteps = 0;
  std::vector<int64_t> tailTile;
  unsigned tailBlock[3] = {1, 1, 1};
  unsigned tailSharedBytes = 0;
  /// Sum |W| and number of the composed weights W of such a kernel (the
  /// tolerance of its launches); 0 when absent.
  double composedAbsSum = 0;
  int64_t composedPoints = 0;
  bool hasCoefficients = false;
  std::vector<uint32_t> coefficients;
  /// How `coefficients` follow from `weights` (the `repack*` keys), so that
  /// new weights of the same pattern can be packed (libStencilRuntime's
  /// stencil_kernel_set_weights); absent when the kernel has none, and then
  /// `repackUnsupported` may say why.
  std::optional<mlir::stencil::RepackRecipe> repack;
  std::string repackUnsupported;
  /// A CUDA-core kernel's `.const` array of the weights (one per offset, in
  /// the `accumulator` type), which new weights overwrite; empty when none.
  std::string weightsGlobal;
  /// Argument order: each of "in", "out", "coeffs", "sizes".
  std::vector<std::string> args;
};

/// Limits of a description (beyond them it is rejected with an error):
/// the text's size, an offset component's magnitude (also of a body's
/// accesses; the halo is that wide, and the reference's index arithmetic
/// stays far from overflow), and a tile size.
constexpr size_t kMaxLaunchDescriptionBytes = size_t(16) << 20;
constexpr int64_t kMaxOffset = 65536;
constexpr int64_t kMaxTile = 0x7fffffff;

/// Parses and validates `path`. On failure returns false and sets `error`
/// (with file:line where it applies). Unknown keys are collected in
/// `warnings` (ignored, for forward compatibility within version 1).
/// Reads the file (at most kMaxLaunchDescriptionBytes) and calls
/// parseLaunchDescriptionText.
bool parseLaunchDescription(const std::string &path, LaunchDescription &desc,
                            std::string &error,
                            std::vector<std::string> &warnings);

/// The same on a description already in memory (a launch program, version
/// 2, is an error here: parseLaunchProgramText reads it): `text` is the file's
/// contents and `path` its name, used in messages, as `desc.path`, and to
/// resolve a relative `ptx`. Any `text` is safe: a malformed or hostile one
/// (garbage, overflowing numbers, out-of-range sizes, embedded NULs, a body
/// nested too deep) gives false and a message, never a crash or a huge
/// allocation. On success `desc` satisfies what stencil-run relies on: rank
/// 1 to 3; at least one offset, each of `rank` components within
/// +-kMaxOffset; as many weights as offsets (linear) or a parsed body whose
/// accesses are the offsets; `rank` tile sizes in 1..kMaxTile; block sizes
/// in 1..1024; steps_per_launch in 1..1024; shared_bytes in 0..2^30; args a
/// permutation holding in, out, sizes (and coeffs with coefficients);
/// band_kernel, band_tile (`rank` sizes in 1..kMaxTile), band_block and
/// band_margins (`rank` values in 0..kMaxTile) all present or all absent;
/// tail_kernel, tail_steps (1..steps_per_launch - 1, with steps_per_launch
/// > 1), tail_tile (`rank` sizes in 1..kMaxTile) and tail_block all present
/// or all absent, tail_shared_bytes (0..2^30) only with them;
/// composed_abs_sum (finite, >= 0) and composed_points (1..2^31 - 1)
/// likewise; repack, repack_type, repack_rows, repack_rows_per_block,
/// repack_radius and repack_map all present or all absent (repack_indices
/// with them for sptc), forming a recipe that RepackRecipe::verify accepts
/// for the description's weights, which must give `coefficients` back.
bool parseLaunchDescriptionText(const std::string &text,
                                const std::string &path,
                                LaunchDescription &desc, std::string &error,
                                std::vector<std::string> &warnings);

/// A description's `boundary`: halo, periodic or dirichlet(v) with a finite
/// v (spaces around v allowed); false for anything else. The reader and the
/// compiler's translation (which fills the struct from a record) share it.
bool parseBoundary(const std::string &text, Boundary &boundary,
                   double &dirichletValue);
/// A boundary's keyword: `halo`, `periodic`, `dirichlet` (whose value the
/// writer adds in parentheses).
const char *getBoundaryKeyword(Boundary boundary);

/// What a written description says in comments (the reader skips them).
struct LaunchDescriptionNotes {
  std::string writer = "stencil-translate"; ///< in the first line
  int64_t sourceSteps = 0;                  ///< the time steps of the source op
  std::string pipeline;      ///< the pipeline that built the kernel, if known
  std::string deviceProfile; ///< the profile --lower-to-auto assumed, if any
};

/// Writes `desc` in the format parseLaunchDescriptionText reads: every field
/// a kernel has, the optional ones only when present (a zero error bound or
/// chain sum is absent: the reader takes the two alike), numbers exactly
/// (`%.17g`). Reading the text back gives `desc` again (the resolved
/// `ptxPath` aside). `desc` must satisfy what the reader checks.
void writeLaunchDescription(const LaunchDescription &desc, std::ostream &os,
                            const LaunchDescriptionNotes &notes = {});

} // namespace stencil_run

#endif
