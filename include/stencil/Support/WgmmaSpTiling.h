//===- WgmmaSpTiling.h - The warpgroup form of the SpTC kernel --*- C++ -*-===//
//
// The tile of the banded SpTC kernel on `wgmma.mma_async.sp` (sm_90a,
// WgmmaSpModel.h): which outputs a warpgroup computes, how the input tile
// lies in shared memory so that the B operand of every MMA is one matrix
// descriptor, and which kernel row each warp multiplies in each MMA. The
// kernel builder (lib/Conversion/StencilToSpTC/WgmmaSpKernel.cpp) and the
// CPU check of the whole tile (unittests/Support/WgmmaSpTilingTest.cpp) read
// the same numbers from here.
//
// The B operand of a wgmma is shared by the four warps and comes from shared
// memory, so its K rows are fixed by the layout: row k of every B is the
// input at innermost offset getStackedInputOffset(k) (the row swap of SPIDER
// 3.2 and the diagonal stacking of small radii, as in the warp-level
// kernel), staged in that order. Its N columns must be rows of the grid for
// any row shift to be a descriptor offset. A warp's 16 rows of A are the
// banded kernel matrix of one kernel row (16 consecutive outputs along x);
// to give the four warps different outputs, each takes the rows y of one
// residue mod 4 (the y-phase split):
//
//   * shared memory holds the input rows of each phase apart: entry j of
//     phase p is input row Y_0 + 4 j + p, j in [-H, n + H), H = ceil(r_y / 4);
//   * warp w computes the outputs (x_0 + i, Y_0 + 4 c + w), i < 16, c < n:
//     D row 16 w + i, column c;
//   * MMA number S, the shift, for S in [-r_y, r_y + 3], reads B from phase
//     S mod 4 starting at entry floor(S / 4), i.e. column c holds input row
//     Y_0 + 4 c + S, and warp w multiplies it by kernel row dy = S - w (zero
//     A where no such row exists):
//
//     D[16 w + i][c] = Sum_S Sum_k A_{S-w}[i][k] in(Y_0 + 4 c + S, x_0 +
//     off(k))
//                    = Sum_dy Sum_k A_dy[i][k] in(Y_0 + 4 c + w + dy, ...).
//
// That is 2 r_y + 4 MMAs of m64nNk32 for 64 n outputs, against 2 r_y + 1 of
// m16n8k32 per 128 outputs on the warp-level path: (2 r_y + 4) / (2 r_y + 1)
// as many Tensor Core cycles per output (1.2x at r_y = 7), for a B operand
// that is read by the Tensor Cores from shared memory once per four warps
// instead of loaded by every lane. In 3-D every kernel row (dz, dy) has its
// plane: the MMAs are (dz, S) for each staged plane.
//
// The dense row form (`stencil.row_gemm` of --lower-to-tc, natural input
// order) stages the same tile: its stacked 16 x 32 kernel row (the
// m16n8k16 A words of TCCoefficientLayout) is the A of two dense
// `wgmma.mma_async` m64nNk16 per (plane, shift), the second reading B from
// row 16 (getDescriptor's firstK), checked by the unit tests on the CPU
// model; no kernel issues it yet.
//
// Wider blocks (strips): a block computes `strips` such tiles side by side
// along x, 16 outputs each. Strip s multiplies the same A by the inputs at
// x_0 + 16 s + off(k), staged as B rows 32 s .. 32 s + 31 (K-chunks
// 4 s .. 4 s + 3), so its descriptors start 4 s chunks further. One staged
// input row of 16 strips + 2 r inputs then serves 16 strips outputs: fewer
// sectors read from L2 per output, and the block's rows are stored in runs
// of 32 strips bytes.
//
// Shared memory, without swizzling (WgmmaSpModel.h): for plane q, K-chunk
// kc = k / 8 (8 inputs of a B row, kc < 4 strips), phase p and entry j, the
// 16 bytes of B rows 8 kc .. 8 kc + 7 lie at
//     (q * 4 strips + kc) * C + (p * J + j + H) * 16,   J = n + 2 H,
// so a descriptor starts at entry floor(S / 4) of phase S mod 4 (and chunk
// 4 s) with LBO = C (the next K-chunk) and SBO = 128 (the next 8 columns).
// The chunk stride C = 64 J + 32 is 32 bytes more than the chunk (J is
// even, so 64 J is a multiple of 128): the staging writes two entries of
// four chunks of a row in one warp instruction, 32 bytes per chunk, and the
// padding puts the chunks on different banks. There are `stages` such
// tiles, a ring: the block stages its next sub-tiles into the others while
// the Tensor Cores read one.
//
// The outputs leave through shared memory: after the MMAs each warp writes
// its accumulators with `stmatrix .trans` (the D fragment of an n-tile is
// two 8 x 8 matrices, x by grid row; transposed, a matrix row is 8 outputs
// of one grid row) into rows of P = 32 strips + 16 bytes, row c of warp w
// at outputBase + (w n + c) P (P / 16 is odd: the 8 rows of a matrix land on
// 8 distinct 16-byte bank groups), and reads them back as 16-byte vectors
// that it stores to the grid: whole rows of 32 strips bytes instead of one
// f16 per accumulator.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_SUPPORT_WGMMASPTILING_H
#define STENCIL_SUPPORT_WGMMASPTILING_H

#include "stencil/Support/GPULimits.h"
#include "stencil/Support/WgmmaSpModel.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>

namespace mlir {
namespace stencil {

struct WgmmaSpGeometry {
  /// The four warps of a warpgroup, one y-phase each.
  static constexpr int64_t kPhases = 4;
  /// Outputs along x of a strip (the 16 rows of a warp's A).
  static constexpr int64_t kOutputsX = 16;

  int64_t rank = 2;
  /// N of every wgmma: the outputs of a warp along y per tile.
  int64_t n = 64;
  /// Radii of the kernel rows along y and (3-D) z.
  int64_t radiusY = 0, radiusZ = 0;
  /// Tiles of kPhases * n output rows a block computes one after the other.
  int64_t subTiles = 1;
  /// Staging buffers, a ring: sub-tile t computes from buffer t mod
  /// `stages` while the copies of sub-tiles t + 1 .. t + stages - 1 are in
  /// flight into the others.
  int64_t stages = 2;
  /// Strips of kOutputsX outputs side by side along x.
  int64_t strips = 1;

  /// H: entries of halo before and after the n of each phase.
  int64_t haloEntries() const { return (radiusY + 3) / 4; }
  /// J: entries per phase.
  int64_t phaseEntries() const { return n + 2 * haloEntries(); }
  /// Input planes staged (2 r_z + 1 in 3-D).
  int64_t planes() const { return rank == 3 ? 2 * radiusZ + 1 : 1; }
  /// B rows staged per plane (32 per strip).
  int64_t stagedK() const { return kWgmmaSpK * strips; }
  /// LBO: bytes between the K-chunks of one plane (C above).
  int64_t chunkBytes() const { return kPhases * phaseEntries() * 16 + 32; }
  int64_t planeBytes() const { return 4 * strips * chunkBytes(); }
  /// One staged tile (all planes); buffer b starts at b * tileBytes().
  int64_t tileBytes() const { return planes() * planeBytes(); }
  /// Outputs along x of a block.
  int64_t blockWidth() const { return kOutputsX * strips; }
  /// P: bytes of an output row in the store staging (above).
  int64_t outputPitch() const { return 2 * blockWidth() + 16; }
  /// Where the store staging starts, after the ring.
  int64_t outputBase() const { return stages * tileBytes(); }
  /// The byte of output (x, grid row y_0 + 4 c + w) in the store staging,
  /// x relative to the block.
  int64_t outputByteOffset(int64_t warp, int64_t c, int64_t x) const {
    return outputBase() + (warp * n + c) * outputPitch() + 2 * x;
  }
  int64_t smemBytes() const {
    return outputBase() + kPhases * n * outputPitch();
  }
  /// The MMAs of a plane: shifts -r_y .. r_y + 3.
  int64_t firstShift() const { return -radiusY; }
  int64_t numShifts() const { return 2 * radiusY + 4; }
  /// Output rows along y of one tile.
  int64_t tileRows() const { return kPhases * n; }
  /// Outputs of a block, outermost first ({1, rows, 16} in 3-D).
  llvm::SmallVector<int64_t> blockTile() const;

  /// The byte offset of the 2 bytes of B row k (0 .. 32 strips - 1: row
  /// k % 32 of strip k / 32), plane q (dz + r_z), phase p, entry j (in
  /// [-H, n + H)).
  int64_t byteOffset(int64_t plane, int64_t k, int64_t phase,
                     int64_t entry) const;
  /// The B descriptor of shift S on plane q for strip s of a tile staged at
  /// byte `base` of shared memory (16-byte aligned), from B row `firstK` of
  /// the strip on (a multiple of 8: 16 for the second k16 half of a dense
  /// m64nNk16 pair).
  WgmmaDescriptor getDescriptor(int64_t plane, int64_t shift, int64_t base,
                                int64_t strip = 0, int64_t firstK = 0) const;
  /// The phase and entry of shift S: (S mod 4, floor(S / 4)).
  static std::pair<int64_t, int64_t> splitShift(int64_t shift);
};

/// The shared memory a warpgroup tile may take (dynamic shared memory, the
/// opt-in limit of a block on sm_90).
constexpr int64_t kMaxWgmmaSharedBytes = kMaxOptInSharedBytes;
/// The strips a tiling may ask for: powers of two up to kMaxWgmmaStrips
/// (a warp's 32 lanes then store whole rows of the store staging, or
/// several).
constexpr int64_t kMaxWgmmaStrips = 8;
inline bool isValidWgmmaStrips(int64_t strips) {
  return strips >= 1 && strips <= kMaxWgmmaStrips &&
         (strips & (strips - 1)) == 0;
}

/// Defaults of the tiling (--stencil-sptc-tile), measured on an H100
/// (bench/NOTES.md): sub-tiles per block (the A registers are loaded once
/// for them, and the copies of the next one run under each), two stages
/// (three and four were 1-3% slower in 2-D); in 2-D two strips and N at
/// most 24 (16 where r_y <= 1): of N 8-32 by 1, 2 or 4 strips, the fastest
/// for Box-2D9P (N 16), Box-2D49P and Box-2D225P (N 24); four strips of N 32
/// ran the larger radii out of registers (255, spills). In 3-D one strip
/// (two spill in Box-3D27P) of N at most 32 (Heat-3D: 177 GStencil/s, 152
/// at N = 24), 24 for tiles of more than 16 MMAs (Box-3D27P's 18 spill at
/// N = 32; 162 at 24, 149 at 16).
constexpr int64_t kDefaultWgmmaSubTiles = 8;
constexpr int64_t kDefaultWgmmaStages = 2;
constexpr int64_t kDefaultWgmmaStrips2D = 2, kDefaultWgmmaStrips3D = 1;
constexpr int64_t kDefaultWgmmaMaxN2D = 24, kDefaultWgmmaMaxN2DRadius1 = 16,
                  kDefaultWgmmaMaxN3D = 32, kDefaultWgmmaMaxN3DManyMmas = 24,
                  kDefaultWgmmaManyMmas3D = 16;

/// Whether `mma=auto` takes the warpgroup kernel for a form it can take:
/// 2-D forms whose kernel rows reach r_y >= 5. Measured on an H100 in one
/// run (bench/results/2026-11-24-h100-hopper-final.txt, GStencil/s,
/// warpgroup / sm_90 mma.sp): 2-D boxes r = 1 471 / 630, r = 3 449 / 545,
/// r = 4 355 / 437, r = 5 387 / 282, r = 6 391 / 245, r = 7 398 / 322; 3-D
/// 162-176 / 336-406.
/// The dense form's warpgroup kernel (dense m64nNk16) is not taken by
/// `mma=auto` until it is measured faster.
constexpr int64_t kWgmmaAutoMinRadiusY = 5;
inline bool preferWarpgroupKernel(int64_t rank, int64_t radiusY,
                                  bool dense = false) {
  return !dense && rank == 2 && radiusY >= kWgmmaAutoMinRadiusY;
}
/// The blocks per SM the warpgroup kernel asks ptxas for (`.minnctapersm`;
/// 0: none): 3 for 2-D tiles of at least 14 MMAs (r_y >= 5). Measured on
/// an H100 (bench/NOTES.md, "Registers"): Box-2D225P 370 -> 400 GStencil/s,
/// an 11 x 11 box 356 -> 388; Box-2D49P (10 MMAs, 142 registers) lost with
/// it (450 -> 361: spills), so smaller tiles keep every register.
constexpr int64_t kWgmmaMinMmasForBlockCap = 14;
inline int64_t getWgmmaMinBlocksPerSM(int64_t rank, int64_t mmas) {
  return rank == 2 && mmas >= kWgmmaMinMmasForBlockCap ? 3 : 0;
}

/// The shared memory a default N may take (two blocks per SM).
constexpr int64_t kDefaultWgmmaSharedBytes = 100 * 1024;

/// The stages a tiling may ask for.
constexpr int64_t kMinWgmmaStages = 2, kMaxWgmmaStages = 8;

/// The index of the kernel row at outer offset (dz, dy) among `rowOffsets`
/// (#rows x (rank - 1), outermost first; dz ignored in 2-D), or -1.
int64_t findKernelRow(llvm::ArrayRef<int64_t> rowOffsets, int64_t rank,
                      int64_t dz, int64_t dy);

/// The lane of the coefficient buffer (SpTCCoefficientLayout) whose
/// metadata word `lane` loads for kernel row `row` so that the wgmma reads
/// it with sparsity selector 0: the buffer keeps odd rows in the lane pair
/// of selector 1 (lanes 4g + 2, 4g + 3), and a warpgroup MMA has one
/// selector for the four warps, whose rows differ in parity.
inline unsigned getSelectorZeroSourceLane(int64_t row, unsigned lane) {
  return (lane & ~2u) | (unsigned(row & 1) << 1);
}

/// The MMAs of a tile: the (plane, shift) pairs for which some warp has a
/// kernel row (the kernel issues no MMA for the others).
int64_t countWgmmaSpMmas(const WgmmaSpGeometry &geo,
                         llvm::ArrayRef<int64_t> rowOffsets);

/// The largest N (a multiple of 8, at most `maxN`) whose `stages` staged
/// tiles of `strips` strips and store staging fit `maxBytes`, or 0 if none
/// does.
int64_t chooseWgmmaN(int64_t rank, int64_t radiusY, int64_t radiusZ,
                     int64_t maxN, int64_t maxBytes, int64_t stages,
                     int64_t strips);

} // namespace stencil
} // namespace mlir

#endif // STENCIL_SUPPORT_WGMMASPTILING_H
