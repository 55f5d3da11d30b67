//===- CudaCoreTiling.h - Tiling of the CUDA-core kernels -------*- C++ -*-===//
//
// IR-free geometry of the kernels of `--convert-stencil-to-cuda-core`: the
// outputs of a thread block, its shared-memory tile with the halo, and, with
// temporal blocking (`fused-steps` t > 1), the region of the tile each fused
// step computes and how the block's threads split that region into work
// units. The kernel builder emits exactly this schedule; the unit tests run
// it on the CPU against step-by-step launches.
//
// Coordinates are outermost first. "Local" positions index one shared-memory
// buffer: local 0 is grid point `blockOrigin - halo`.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_SUPPORT_CUDACORETILING_H
#define STENCIL_SUPPORT_CUDACORETILING_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MathExtras.h"

#include <cstdint>

namespace mlir {
namespace stencil {

/// The tiling of one CUDA-core kernel computing `steps` time steps per launch
/// (pass description of `--convert-stencil-to-cuda-core`).
///
/// Step s (1-based) reads shared buffer `(s - 1) mod 2` and writes buffer
/// `s mod 2` over its region: the tile grown by `(steps - s) r_d` per side,
/// local positions `[s r_d, s r_d + T_d + 2 (steps - s) r_d)`. Every point of
/// that region only reads points of the region of step s - 1 (the staged
/// tile for s = 1), so the last step computes the tile from the input tile
/// with a halo of `steps r_d` (overlapped, or trapezoid, tiling).
///
/// In 3-D a block computes `planes` consecutive z planes of outputs, so that
/// the `2 halo_z` staged halo planes are shared by `planes` output planes
/// (loads per output `(planes + 2 halo_z) / planes` along z instead of
/// `1 + 2 halo_z`).
///
/// Streaming (`stream`, 3-D only; AN5D's plane sweep): the block marches
/// along z over its `planes` output planes and keeps only a ring of
/// ringSlots() (y, x) planes per level in shared memory, level
/// 0 holding input planes and level s (1 <= s < steps) the planes of fused
/// step s. "Local" z positions then index the virtual tile of `planes + 2
/// halo_z` planes, and local plane z of level s lives in slot `z mod
/// ringSlots()` (ringOffset). Iteration i (0 <= i < streamIterations())
/// stages input plane i; then step s = 1 .. steps, from iteration 2 s r_z
/// on, computes its plane i - s r_z from planes i - (s + 1) r_z .. i -
/// (s - 1) r_z of level s - 1 (the last step stores its plane, an output
/// plane), with a barrier after the staging and after each intermediate
/// step. The ring of level s must keep the 2 r_z + 1 planes stage s + 1
/// reads; when stage s overwrites the oldest of them at iteration i + 1, its
/// last reader (stage s + 1 at iteration i) must lie a barrier before. It
/// does when steps >= 2: a barrier follows every stage but the last, and
/// the last step's level (steps - 1 >= 1) is written after the barrier of
/// the next iteration's staging. So fused kernels keep 2 r_z + 1 planes per
/// ring; a one-step kernel, whose staging follows its last step with no
/// barrier between, keeps 2 r_z + 2 (the plane it overwrites was last read
/// an iteration before). Each input plane is staged once per block, the
/// halo planes twice per chunk boundary.
///
/// Row streaming (`stream` in 2-D, linear stencils; rowStream()): AN5D's
/// register streaming. The block is one row of threads() threads, each
/// owning `outputs` local columns (rowWidth() columns in all; thread c the
/// columns c + j threads(), 0 <= j < outputs) of a virtual tile of `planes`
/// (C) rows of outputs and T_x = rowWidth() - 2 steps r_x columns, grown by
/// the halo steps r_d per side. The block sweeps along y: iteration i (0 <= i <
/// rowStreamIterations()) stages local input row i (level 0), and level s
/// (1 <= s <= steps) receives the row level s - 1 completed in iteration
/// i - 1, adds it to the 2 r_y + 1 partial sums of the outputs it feeds
/// (rowStreamSlots(); the neighbours along x from level s - 1's row in
/// shared memory, the rest in registers), and completes local row
/// streamRow(s, i) = i - s (r_y + 1). Shared memory holds, per parity of i,
/// one row of rowLength() elements per level 0 .. steps - 1 (rowSlot), so
/// one barrier per iteration separates every write from its readers. Each
/// thread loads its input rowStreamUnroll() rows ahead.
///
/// Row groups (rowGroups(): row streaming with `rowPhases` N >= 1): the
/// block sweeps groups of G = rowGroupRows() = 2 r_y + 1 rows. Group g
/// (local input rows q0 = g G .. q0 + G - 1, staged together in buffer g
/// mod 2) passes through the levels in turn, a barrier before each: level s
/// reads level s - 1's G rows of the group (local rows q0 - (s - 1) r_y +
/// j), applies the x offsets in N contiguous ranges (rowPhaseRange, the
/// phases), each to all G rows before the next, into the partial sums of
/// the rows they feed (rowGroupSlots() = 2 G per level, slot = row mod 2
/// G, static with two groups unrolled), and completes rows q0 - s r_y + j
/// (0 <= j < G), stored in its level's buffer (s < steps) or `out`. Within
/// a phase only its weights are in use, so few enough for the uniform
/// registers; each x neighbour is read in one phase. Shared memory holds
/// the two input buffers and one buffer per level 1 .. steps - 1, each of
/// G rows of rowLength() (rowGroupRow); rowGroupCount() groups (an even
/// number) cover the block's rows. Only interior blocks sweep in groups: the
/// others take the per-row sweep above (in the same shared memory).
///
/// Plane sums (`planeSums`: a streamed 3-D linear stencil with one step per
/// launch; AN5D's register streaming in 3-D, sections 3.1-3.3): the block
/// sweeps along z as above, but its ring holds only the input plane being
/// read and the one being staged (ringSlots() = 2), and each thread keeps
/// planeSumSlots() = 2 r_z + 1 partial sums per output in registers.
/// Iteration i (0 <= i < planeSumIterations(planes), the loop unrolled by
/// planeSumUnroll() so that the slots are static within a group) stages
/// input plane i in
/// slot i mod 2, and after the barrier adds sum_(dy, dx) w(dz, dy, dx)
/// v_i[y + dy][x + dx] into the partial sum of local output plane i - dz,
/// for each dz; plane i - r_z is then complete (its last contribution came
/// from dz = r_z) and is stored if it is one of the block's planes. Each
/// output thus sums its points dz-major, then by dx and dy as the staged
/// register tiling does (column by column), so the results equal the
/// ring's bit for bit; each in-plane value is read from shared memory once
/// for all 2 r_z + 1 planes it feeds instead of once per plane.
///
/// Vector columns (`vectorWidth` W > 1, plane sums only): each thread owns
/// W adjacent columns, thread x the local columns halo_x + W x + c (0 <= c
/// < W), so the tile is W threadsX wide, and the halo along x is r_x rounded
/// up to a multiple of W. Every row of a plane then starts, and every
/// thread's columns lie, on a multiple of W elements, and a plane is staged
/// as whole W-element vectors (one wide load and store each), the thread
/// reading its columns and their neighbours as the aligned vectors that
/// cover them. The rounded-up halo stages up to W - 1 unread columns per
/// side. The sums run row by row: for each input row iy ascending, the
/// row's vectors once, then every output it feeds, dx ascending, so each
/// output sums its points dz-major, then by dy, then dx (the rounding
/// differs from the ring's dz, dx, dy order).
struct CudaCoreTiling {
  CudaCoreTiling(llvm::ArrayRef<int64_t> radii, int64_t threadsX,
                 int64_t threadsY, int64_t outputs, int64_t steps,
                 int64_t planes = 1, bool stream = false,
                 bool planeSums = false, int64_t vectorWidth = 1,
                 int64_t rowPhases = 0);

  int64_t rank = 0;
  int64_t threadsX = 0, threadsY = 0, outputs = 0;
  /// Output planes along z per block (3-D; 1 otherwise).
  int64_t planes = 1;
  /// Whether the block sweeps along the outermost dimension: through rings
  /// of planes (3-D), or with a register window of rows (2-D, rowStream()).
  bool stream = false;
  bool rowStream() const { return stream && rank == 2; }
  /// Whether a streamed 3-D block of one step accumulates partial sums of
  /// its output planes (the caller asks for it for linear stencils only).
  bool planeSums = false;
  /// Plane sums: the adjacent columns per thread, moved as one vector (1
  /// otherwise).
  int64_t vectorWidth = 1;
  /// Row streaming: the phases of the x offsets of the row groups
  /// (rowGroups()); 0: one row per iteration.
  int64_t rowPhases = 0;
  bool rowGroups() const { return rowStream() && rowPhases > 0; }
  /// Time steps per launch.
  int64_t steps = 1;
  /// Radius r_d of the stencil along each dimension.
  llvm::SmallVector<int64_t> radii;
  /// Outputs per block along each dimension (T_d).
  llvm::SmallVector<int64_t> tile;
  /// Halo of the staged input tile along each dimension: steps * r_d.
  llvm::SmallVector<int64_t> halo;
  /// One shared-memory buffer (T_d + 2 halo_d) and its row-major strides.
  llvm::SmallVector<int64_t> smemShape, smemStrides;
  /// Elements of one buffer (streaming: of the virtual tile, never
  /// allocated).
  int64_t smemSize = 1;

  int64_t threads() const { return threadsX * threadsY; }
  /// Outputs of one thread in the last step: `outputs` consecutive points
  /// along y in each of the `planes` planes.
  int64_t outputsPerThread() const { return outputs * planes; }
  /// One buffer for a single step, two (ping-pong) for fused steps.
  int64_t numBuffers() const { return steps > 1 ? 2 : 1; }
  /// Elements of the kernel's workgroup memory: the buffers, or (streaming)
  /// `steps` rings of ringSlots() planes.
  int64_t sharedElements() const {
    if (rowGroups()) // the groups' buffers, or the per-row sweep's rows
      return std::max(2 * steps, (steps + 1) * rowGroupRows()) * rowLength();
    if (rowStream())
      return 2 * steps * rowLength();
    return stream ? steps * ringSlots() * planeSize() : numBuffers() * smemSize;
  }

  /// Row streaming: a shared row (the block's columns and r_x on each side),
  /// the first element of the row of `level` (< steps) for `parity` (i mod
  /// 2), the partial sums per level (2 r_y + 1, also the unrolling of the
  /// sweep), the local row `level` completes in iteration `i`, and the
  /// iterations of a block of `rows` output rows (whole unrolled groups).
  int64_t rowLength() const { return rowWidth() + 2 * radii[rank - 1]; }
  /// Row streaming: the columns of the block's row, `outputs` per thread.
  int64_t rowWidth() const { return threads() * outputs; }
  int64_t rowSlot(int64_t parity, int64_t level) const {
    return (parity * steps + level) * rowLength();
  }
  int64_t rowStreamSlots() const { return 2 * radii[0] + 1; }
  /// Row streaming: the sweep's unrolling, a multiple of the partial sums'
  /// slots of at least 4 iterations, which is also how many rows ahead each
  /// thread loads its input (a register per row): one row ahead left the
  /// global load's latency uncovered by the iteration before it.
  int64_t rowStreamUnroll() const {
    return (4 + rowStreamSlots() - 1) / rowStreamSlots() * rowStreamSlots();
  }
  int64_t streamRow(int64_t level, int64_t i) const {
    return i - level * (radii[0] + 1);
  }
  int64_t rowStreamIterations(int64_t rows) const {
    int64_t n = rows + 2 * halo[0] + steps;
    return (n + rowStreamUnroll() - 1) / rowStreamUnroll() * rowStreamUnroll();
  }
  /// Row groups: rows per group (G = 2 r_y + 1), partial sums per level (2
  /// G), the first element of row j of a group's buffer of `level` (0: the
  /// input rows of group parity `parity`; s >= 1: level s's completed rows),
  /// the groups covering a block of `rows` output rows (even: level `steps`
  /// completes local rows up to q0 - steps r_y + 2 r_y in the group of q0,
  /// and the block's last is t r_y + rows - 1), and phase p's x offsets
  /// [lo, hi] (the 2 r_x + 1 offsets in rowPhases contiguous ranges, the
  /// first ones one longer when they do not divide evenly).
  int64_t rowGroupRows() const { return 2 * radii[0] + 1; }
  int64_t rowGroupSlots() const { return 2 * rowGroupRows(); }
  int64_t rowGroupRow(int64_t level, int64_t parity, int64_t j) const {
    int64_t buffer = level == 0 ? parity : level + 1;
    return (buffer * rowGroupRows() + j) * rowLength();
  }
  int64_t rowGroupCount(int64_t rows) const {
    int64_t last = halo[0] + rows - 1 + (steps - 2) * radii[0];
    int64_t groups =
        llvm::divideCeil(std::max<int64_t>(last, 0), rowGroupRows()) + 1;
    return llvm::alignTo(groups, 2);
  }
  std::pair<int64_t, int64_t> rowPhaseRange(int64_t p) const {
    int64_t offsets = 2 * radii[1] + 1, base = offsets / rowPhases,
            extra = offsets % rowPhases;
    int64_t lo = -radii[1] + p * base + std::min(p, extra);
    return {lo, lo + base + (p < extra ? 1 : 0) - 1};
  }

  /// Streaming: elements of one (y, x) plane of a ring, the planes of a
  /// ring, the iterations of the sweep, and the first element of the slot
  /// of local plane `localZ` of `level` (0: input; s: fused step s).
  int64_t planeSize() const { return smemStrides[0]; }
  int64_t ringSlots() const {
    if (planeSums)
      return 2;
    return 2 * radii[0] + (steps >= 2 ? 1 : 2);
  }
  /// Plane sums: the partial sums per output (2 r_z + 1), the sweep's
  /// unrolling, and the iterations of a block of `planes` output planes
  /// (whole unrolled groups; the planes past the block's last are staged
  /// and summed but not stored).
  ///
  /// The unrolling is planeSumSlots(), so that the slot (i - dz) mod P of
  /// every sum is the same in every group, unless limitPlaneSumUnroll()
  /// shortened the group: a group of U < P iterations moves each output
  /// plane's sum from slot s to slot (s - U) mod P at the loop's back edge
  /// (P - 1 register moves per sum and group), so that the slots stay
  /// static within the group.
  int64_t planeSumSlots() const { return 2 * radii[0] + 1; }
  int64_t planeSumUnroll() const {
    return planeSumGroup > 0 ? planeSumGroup : planeSumSlots();
  }
  /// The FMAs of an unrolled group of plane sums at most: P iterations of
  /// points x outputs x vectorWidth FMAs each where that fits (Box-3D27P:
  /// 648 with four columns of two outputs, 1296 with eight; a star of
  /// radius 4 with four outputs, 900), fewer iterations per group above, so
  /// that the kernel's size, and its compile time, stays linear in the
  /// pattern (unrolled by P, a star of radius 8 has 3332 FMAs and compiled
  /// in 6.6 s on 2 cores, one of radius 12 7300).
  static constexpr int64_t kMaxUnrolledPlaneSumTerms = 1536;
  /// Shortens the plane sums' groups for a stencil of `points` points per
  /// plane sweep (above kMaxUnrolledPlaneSumTerms unrolled, as many
  /// iterations as fit, at least one).
  void limitPlaneSumUnroll(int64_t points);
  /// The iterations of one unrolled group of plane sums (0: planeSumSlots()).
  int64_t planeSumGroup = 0;
  int64_t planeSumIterations(int64_t n) const {
    return llvm::divideCeil(n + 2 * radii[0], planeSumUnroll()) *
           planeSumUnroll();
  }
  int64_t streamIterations() const { return planes + 2 * halo[0]; }
  int64_t ringOffset(int64_t level, int64_t localZ) const {
    return (level * ringSlots() + localZ % ringSlots()) * planeSize();
  }
  /// Streaming: the work units of one plane of an intermediate step (those
  /// of numUnits with z = regionLo(step)[0]; unitOrigin gives their y, x).
  int64_t planeUnits(int64_t step) const;

  /// First element of the buffer step `step` reads, and of the one it writes.
  int64_t sourceOffset(int64_t step) const {
    return ((step - 1) % 2) * smemSize;
  }
  int64_t destOffset(int64_t step) const { return (step % 2) * smemSize; }

  /// The region step `step` computes: first local position and extent.
  llvm::SmallVector<int64_t> regionLo(int64_t step) const;
  llvm::SmallVector<int64_t> regionShape(int64_t step) const;

  /// The work units of an intermediate step (`step < steps`), which the
  /// threads take round-robin (unit u: thread u mod threads). In 1-D a unit
  /// is one point. Otherwise a unit is `outputs` consecutive points along y
  /// (register tiling); units run along x fastest, then over the groups of
  /// `outputs` rows, then along z, and the last group of a column starts at
  /// `extent_y - outputs` so that it stays in the region (it recomputes rows
  /// of the group before it).
  int64_t unitPoints() const { return rank == 1 ? 1 : outputs; }
  int64_t numRowGroups(int64_t step) const;
  int64_t numUnits(int64_t step) const;
  /// The local position of the first point of unit `unit`; its points follow
  /// along y (dimension rank - 2).
  llvm::SmallVector<int64_t> unitOrigin(int64_t step, int64_t unit) const;

  /// The local position of output `k` (< outputsPerThread()) of thread
  /// `thread` in the last step: `halo + (thread + k threads)` in 1-D,
  /// `halo + ((thread / threadsX) outputs + k, thread mod threadsX)` in 2-D,
  /// `halo + (k / outputs, (thread / threadsX) outputs + k mod outputs,
  /// (thread mod threadsX) vectorWidth + column)` in 3-D (`column` <
  /// vectorWidth).
  llvm::SmallVector<int64_t> outputPosition(int64_t thread, int64_t k,
                                            int64_t column = 0) const;

  /// Points the block computes per output and time step: 1 for one step;
  /// with fused steps, the intermediate regions (work units included, the
  /// overlap of the last row group too) and the tile, over `steps` tiles.
  double computedPointsPerOutput() const;

  /// The row-major index of a local position in one buffer.
  int64_t linearize(llvm::ArrayRef<int64_t> local) const;
};

} // namespace stencil
} // namespace mlir

#endif // STENCIL_SUPPORT_CUDACORETILING_H
