//===- SpTCTiling.h - Tile geometry of the row-form kernels -----*- C++ -*-===//
//
// The tile shapes of the kernels `--convert-stencil-to-sptc` builds for the
// row forms (`stencil.sparse_row_gemm`, `stencil.row_gemm`): the outputs a
// block computes and the shared memory it stages them from. The kernel
// builders and `--stencil-sptc-tile` (which picks default tilings that fit
// the shared memory of a block) read the same numbers from here.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_SUPPORT_SPTCTILING_H
#define STENCIL_SUPPORT_SPTCTILING_H

#include "stencil/Support/MmaSpModel.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include "stencil/Support/GPULimits.h"
#include <array>

#include <cstdint>
#include <optional>

namespace mlir {
namespace stencil {

/// Output planes a 3-D block of the row-form kernel streams along z by
/// default (`--stencil-sptc-tile`; SpTCGeometry::streamsPlanes).
constexpr int64_t kSpTCStreamPlanes = 32;

/// The radius along each dimension, outermost first, of a row form with
/// innermost radius `radius`, kernel rows at `rowOffsets` (rank - 1
/// components each) and, for a low-rank chain, outer radius `columnRadius`.
llvm::SmallVector<int64_t> getRowFormRadii(int64_t rank, int64_t radius,
                                           llvm::ArrayRef<int64_t> rowOffsets,
                                           int64_t columnRadius = 0);

/// The B operand of a gathered form (SparStencil; `layout`,
/// `gather_offsets`) as its kernel reads it.
struct SpTCGather {
  /// Outputs of an MMA column: r2 rows along y by r1 along x.
  int64_t r1 = 16, r2 = 1;
  /// Per kernel row q and slot s (entry 16 q + s): the offset (dz, dy, dx)
  /// of the slot's input pair from the MMA column's origin. A slot whose two
  /// A columns are zero in every row reads (0, 0, 0) instead: what it reads
  /// is multiplied by zeros, and the origin is always in the staged tile.
  llvm::SmallVector<std::array<int64_t, 3>> slots;
  int64_t numRows() const { return int64_t(slots.size()) / 16; }
};

/// The gather of a form with `layout` [r1, r2], `gather` (#rows x 16 x (dz,
/// dy, dx)) and `nonZeros` (#rows x 16 x 32: whether column c of row m of
/// kernel matrix q holds a non-zero weight).
SpTCGather getSpTCGather(llvm::ArrayRef<int64_t> layout,
                         llvm::ArrayRef<int64_t> gather,
                         llvm::ArrayRef<bool> nonZeros);

/// The radius along each dimension, outermost first, of a gathered form:
/// what its non-zero weights reach from the output they feed (an entry of
/// row m = u r1 + v in unit (dz, dy, dx), column 2s + e, is the stencil
/// point (dz, dy - u, dx + e - v)).
llvm::SmallVector<int64_t> getGatheredRadii(int64_t rank,
                                            llvm::ArrayRef<int64_t> layout,
                                            llvm::ArrayRef<int64_t> gather,
                                            llvm::ArrayRef<bool> nonZeros);

/// The tiling of the f16/bf16 row-form kernel (`--convert-stencil-to-sptc`,
/// "Tiling" in its description).
///
/// An MMA's 8 columns each compute an r2 x r1 block of outputs (16 x 1
/// for the banded row forms): in 2-D and 3-D one above the other along y
/// when r1 = 16, side by side along x otherwise (`columnsAlongX`), so that
/// an MMA covers 8 r2 x r1 or r2 x 8 r1 outputs; n-tiles follow each other
/// along y, warps along x. In 1-D the columns are 16 apart along x.
struct SpTCGeometry {
  int64_t rank = 0;
  int64_t warps = 0;
  int64_t nTiles = 0;
  int64_t rowsPerBlock = 0;
  int64_t r1 = kMmaSpM, r2 = 1;
  bool columnsAlongX = false;
  /// Radius along each dimension, outermost first.
  llvm::SmallVector<int64_t> radii;
  /// Outputs of one sub-tile along each dimension, outermost first; a block
  /// computes `subTiles` of them one after the other along the outermost
  /// dimension (`subDim`: x in 1-D, y in 2-D, z in 3-D), loading the next
  /// one while it computes the current one. A 3-D sub-tile is one plane of
  /// outputs; its 2 r_z + 1 input planes are a ring in shared memory, so the
  /// block streams one new plane per output plane (`streamsPlanes`).
  llvm::SmallVector<int64_t> tile;
  int64_t subTiles = 1;
  int64_t subDim = 0;
  /// Outputs per block: `tile` times `subTiles` along `subDim`.
  llvm::SmallVector<int64_t> blockTile;
  /// The shared-memory tile (tile plus halo) and its row-major strides.
  /// Along the innermost dimension a row starts `pad` elements before the
  /// block's first output and holds `pitch` elements, both multiples of 8 so
  /// that rows are staged with 16-byte loads; together they cover every
  /// input offset any B operand reads (zero-weight columns included).
  llvm::SmallVector<int64_t> smemShape, smemStrides;
  int64_t smemSize = 1;
  int64_t pad = 0;
  /// The row swizzle of the B-operand plan (SpTCBOperandPlan::swizzle).
  int64_t swizzleBit = 0;
  /// Elements per vector of the staging loads (16 bytes of f16).
  static constexpr int64_t kVector = 8;

  int64_t threads() const { return 32 * warps; }

  /// Whether the block streams input planes (3-D, several sub-tiles): shared
  /// memory holds a ring of `smemShape[0]` = 2 r_z + 1 planes; input plane
  /// z_0 - r_z + p (z_0 the block's first output plane) lives in slot
  /// p mod (2 r_z + 1), and the plane at dz from output plane z_0 + k in
  /// slot (k + r_z + dz) mod (2 r_z + 1).
  bool streamsPlanes() const { return rank == 3 && subTiles > 1; }
  /// Elements of one plane of the shared-memory tile (3-D).
  int64_t planeElements() const { return smemStrides[0]; }

  /// With asynchronous copies the tile is double-buffered; each buffer is
  /// padded to a whole number of vectors per thread, so that every thread
  /// issues the same copies (the extra ones read nothing).
  bool asyncCopy = false;
  int64_t bufferStride() const {
    int64_t vectors = smemSize / kVector;
    return (vectors + threads() - 1) / threads() * threads() * kVector;
  }
  int64_t allocatedElements() const {
    return asyncCopy ? 2 * bufferStride() : smemSize;
  }

  /// Outputs per block along the innermost dimension, for MMA columns r1
  /// outputs wide.
  static int64_t innermostTile(int64_t rank, int64_t warps, int64_t nTiles,
                               int64_t r1 = kMmaSpM) {
    if (rank == 1)
      return kMmaSpM * kMmaSpN * nTiles * warps;
    return r1 < kMmaSpM ? kMmaSpN * r1 * warps : r1 * warps;
  }

  /// `extraRows` rows follow the halo along y (the low-rank chain's last
  /// T-tile reaches 8 - 2h rows past it); `layout` is a gathered form's
  /// [r1, r2] (empty: [16, 1]).
  SpTCGeometry(int64_t rank, int64_t warps, int64_t nTiles, int64_t subTiles,
               int64_t rowsPerBlock, llvm::ArrayRef<int64_t> radii, int64_t pad,
               int64_t pitch, int64_t extraRows = 0,
               llvm::ArrayRef<int64_t> layout = {})
      : rank(rank), warps(warps), nTiles(nTiles), rowsPerBlock(rowsPerBlock),
        radii(radii), subTiles(subTiles), subDim(0), pad(pad) {
    if (layout.size() == 2) {
      r1 = layout[0];
      r2 = layout[1];
    }
    columnsAlongX = rank > 1 && r1 < kMmaSpM;
    tile.assign(rank, 1);
    if (rank == 1) {
      tile[0] = kMmaSpM * kMmaSpN * nTiles * warps;
    } else {
      tile[rank - 1] = innermostTile(rank, warps, nTiles, r1);
      tile[rank - 2] = columnsAlongX ? r2 * nTiles : kMmaSpN * r2 * nTiles;
    }
    blockTile = tile;
    blockTile[subDim] *= subTiles;
    for (int64_t d = 0; d + 1 < rank; ++d)
      smemShape.push_back(tile[d] + 2 * radii[d]);
    if (rank >= 2)
      smemShape[rank - 2] += extraRows;
    smemShape.push_back(pitch);
    smemStrides.assign(rank, 1);
    for (int64_t d = rank - 2; d >= 0; --d)
      smemStrides[d] = smemStrides[d + 1] * smemShape[d + 1];
    smemSize = smemStrides[0] * smemShape[0];
  }

  /// The constant part of the shared-memory index of a B operand element
  /// (the lane's part holds its column in the row): in 2-D and 3-D, the
  /// MMA column's `y` is `y0 + shift` (shift = 8 j + dy for n-tile j and a
  /// kernel row at dy) and its `z` is `z0 + dz`; in 1-D the column's first
  /// output is `x0 + 16 shift` (shift = 8 j), in the same row.
  int64_t constantOffset(int64_t dz, int64_t shift) const {
    if (rank == 1)
      return kMmaSpM * shift;
    int64_t offset = (radii[rank - 2] + shift) * smemStrides[rank - 2];
    if (rank == 3)
      offset += (radii[0] + dz) * smemStrides[0];
    return offset;
  }

  /// A gathered form's B addresses (SpTCGather): lane (g, t) of warp w
  /// reads slot (dz, dy, dx) of its MMA column n = g at
  ///   groupStride() g + warpStride() w + slotOffset(dz, dy, dx)
  ///     + constantOffset(0, nTileShift(j))
  /// for n-tile j: the column's origin in the tile, then the slot's offset
  /// from it.
  int64_t groupStride() const {
    if (rank == 1)
      return kMmaSpM;
    return columnsAlongX ? r1 : r2 * smemStrides[rank - 2];
  }
  int64_t warpStride() const {
    if (rank == 1)
      return kMmaSpM * kMmaSpN * nTiles;
    return columnsAlongX ? kMmaSpN * r1 : r1;
  }
  int64_t slotOffset(int64_t dz, int64_t dy, int64_t dx) const {
    int64_t offset = pad + dx;
    if (rank >= 2)
      offset += dy * smemStrides[rank - 2];
    if (rank == 3)
      offset += dz * smemStrides[0];
    return offset;
  }

  /// The `shift` of n-tile j's columns: how far along y their origins lie
  /// from the block's (in 1-D, in units of 16 along x).
  int64_t nTileShift(int64_t j) const {
    if (rank == 1)
      return kMmaSpN * j;
    return columnsAlongX ? r2 * j : kMmaSpN * r2 * j;
  }
};

/// Where the shared-memory rows of a gathered form's kernel start and how
/// long they are (SpTCGeometry::pad and the pitch): they cover every dx the
/// slots read from every MMA column of the block; in 2-D and 3-D the pitch
/// (among the first eight candidates) makes the fewest bank conflicts on
/// the B loads.
struct SpTCGatherRows {
  int64_t pad = 0, pitch = 0;
};
SpTCGatherRows planSpTCGatherRows(const SpTCGather &gather, int64_t rank,
                                  int64_t warps, int64_t nTiles,
                                  llvm::ArrayRef<int64_t> radii);

/// The bank-conflict degree (4-byte banks, 32 of them) summed over the B
/// loads of the first two warps of a block of the gathered form's kernel
/// with rows of `pitch` elements.
int64_t countSpTCGatherBankConflicts(const SpTCGather &gather, int64_t rank,
                                     int64_t nTiles,
                                     llvm::ArrayRef<int64_t> radii, int64_t pad,
                                     int64_t pitch);

/// The tiling of the f64 kernel (`--stencil-sptc-tile`, f64 form): a warp
/// computes `mTiles` m-tiles of 8 rows by `nTiles` n-tiles of 8 outputs
/// along x, a block `warps` warps side by side along x. In 1-D the rows of
/// the MMAs are segments of `warps x 8 nTiles` consecutive outputs.
struct TCF64Geometry {
  int64_t rank = 0;
  int64_t warps = 0, nTiles = 0, mTiles = 0;
  /// Radius along each dimension, outermost first.
  llvm::SmallVector<int64_t> radii;
  /// K-chunks of 4 inputs per n-tile (TCF64CoefficientLayout).
  int64_t chunks = 0;
  /// 1-D: outputs per segment (MMA row); 0 otherwise.
  int64_t segment = 0;
  /// Outputs per block, outermost first.
  llvm::SmallVector<int64_t> tile;
  /// The shared-memory tile: `planes` x `rows` x `pitch` doubles; row
  /// `rho` column `col` holds the input at (y_0 - r_y + rho, x_0 - r_x +
  /// col) (plane p at z_0 - r_z + p), in 1-D at x_0 - r + rho * segment +
  /// col.
  int64_t planes = 1, rows = 0, pitch = 0;
  /// Pairs of m-tiles share one `mma.sync.m16n8k4` f64 (sm_90).
  bool pairMTiles = false;

  TCF64Geometry(int64_t rank, int64_t warps, int64_t nTiles, int64_t mTiles,
                llvm::ArrayRef<int64_t> radii);
  int64_t threads() const { return 32 * warps; }
  int64_t smemElements() const { return planes * rows * pitch; }
  /// The chunks a warp reads per m-tile and kernel row: chunk q feeds
  /// n-tile j with relative chunk q - 2 j.
  int64_t chunksPerWarp() const { return 2 * (nTiles - 1) + chunks; }
};

/// A tiling of a row form, as `--stencil-sptc-tile` records it.
struct RowFormTiling {
  int64_t warps = 0, nTiles = 0, subTiles = 1, mTiles = 0;
  bool asyncCopy = false;
};

/// The shared-memory bytes a block of the f16/bf16 kernel stages with
/// `tiling`, for a row form of `rank` with the given radii, L and
/// `inputOffsets` (the pitch comes from planSpTCBOperand) and low-rank outer
/// radius `columnRadius`.
int64_t getSpTCSharedBytes(int64_t rank, const RowFormTiling &tiling,
                           llvm::ArrayRef<int64_t> radii, int64_t rowsPerBlock,
                           llvm::ArrayRef<int64_t> inputOffsets,
                           int64_t columnRadius = 0);

/// The same for a gathered form.
int64_t getSpTCGatherSharedBytes(int64_t rank, const RowFormTiling &tiling,
                                 llvm::ArrayRef<int64_t> radii,
                                 const SpTCGather &gather);

/// The kernel geometry of a gathered form with `tiling` (its rows planned
/// by planSpTCGatherRows).
SpTCGeometry getSpTCGatherGeometry(int64_t rank, const RowFormTiling &tiling,
                                   llvm::ArrayRef<int64_t> radii,
                                   const SpTCGather &gather);

/// The preferred default tiling of the f16/bf16 row-form kernel of `rank`
/// (`--stencil-sptc-tile` with no options; bench/NOTES.md): 4 warps; 4
/// n-tiles x 8 sub-tiles with cp.async in 2-D; 8 n-tiles x
/// kSpTCStreamPlanes streamed planes in 3-D; 8 n-tiles, one sub-tile in
/// 1-D.
RowFormTiling getPreferredSpTCTiling(int64_t rank);

/// The tilings `--stencil-sptc-tile` tries, best first, when some options
/// are left to their defaults: `preferred`, then n-tiles halved, then warps
/// halved, then (f64) m-tiles halved, each only where its `auto*` flag is
/// set, then synchronous staging where `autoAsync` is. The first whose
/// staged tile fits kMaxStaticSharedBytes is taken.
llvm::SmallVector<RowFormTiling>
getDefaultSpTCTilings(RowFormTiling preferred, bool autoWarps, bool autoTiles,
                      bool autoMTiles, bool autoAsync);

/// What the kernel of a gathered form stages with its default tiling: the
/// tiling, its shared memory, and the input elements loaded into shared
/// memory per output point (the tile and its halo over the tile's outputs;
/// with streamed planes K + 2 r_z planes for K output planes).
struct SpTCStaging {
  RowFormTiling tiling;
  int64_t sharedBytes = 0;
  double elementsPerPoint = 0;
};
std::optional<SpTCStaging>
getDefaultSpTCGatherStaging(int64_t rank, llvm::ArrayRef<int64_t> radii,
                            const SpTCGather &gather);

/// The shared-memory bytes of the f64 kernel with `tiling`.
int64_t getTCF64SharedBytes(int64_t rank, const RowFormTiling &tiling,
                            llvm::ArrayRef<int64_t> radii);

} // namespace stencil
} // namespace mlir

#endif // STENCIL_SUPPORT_SPTCTILING_H
