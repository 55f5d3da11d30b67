//===- TCF64Kernel.h - The f64 mma.sync row-form kernel ---------*- C++ -*-===//
//
// Private to lib/Conversion/StencilToSpTC: the kernel `--convert-stencil-to-
// sptc` builds for a `stencil.row_gemm` on f64 grids (`--lower-to-tc`).
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_LIB_CONVERSION_STENCILTOSPTC_TCF64KERNEL_H
#define STENCIL_LIB_CONVERSION_STENCILTOSPTC_TCF64KERNEL_H

#include "RowForm.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir {
namespace stencil {

/// The tiling of the f64 kernel (`--stencil-sptc-tile`, f64 form): a warp
/// computes `mTiles` m-tiles of 8 rows by `nTiles` n-tiles of 8 outputs
/// along x, a block `warps` warps side by side along x. In 1-D the rows of
/// the MMAs are segments of `warps x 8 nTiles` consecutive outputs.
struct TCF64Geometry {
  int64_t rank = 0;
  int64_t warps = 0, nTiles = 0, mTiles = 0;
  /// Radius along each dimension, outermost first.
  SmallVector<int64_t> radii;
  /// K-chunks of 4 inputs per n-tile (TCF64CoefficientLayout).
  int64_t chunks = 0;
  /// 1-D: outputs per segment (MMA row); 0 otherwise.
  int64_t segment = 0;
  /// Outputs per block, outermost first.
  SmallVector<int64_t> tile;
  /// The shared-memory tile: `planes` x `rows` x `pitch` doubles; row
  /// `rho` column `col` holds the input at (y_0 - r_y + rho, x_0 - r_x +
  /// col) (plane p at z_0 - r_z + p), in 1-D at x_0 - r + rho * segment +
  /// col.
  int64_t planes = 1, rows = 0, pitch = 0;
  /// Pairs of m-tiles share one `mma.sync.m16n8k4` f64 (sm_90).
  bool pairMTiles = false;

  TCF64Geometry(int64_t rank, int64_t warps, int64_t nTiles, int64_t mTiles,
                ArrayRef<int64_t> radii);
  int64_t threads() const { return 32 * warps; }
  int64_t smemElements() const { return planes * rows * pitch; }
  /// The chunks a warp reads per m-tile and kernel row: chunk q feeds
  /// n-tile j with relative chunk q - 2 j.
  int64_t chunksPerWarp() const { return 2 * (nTiles - 1) + chunks; }
};

/// Builds the kernel of the f64 row form `op` at the end of
/// `moduleBuilder`'s block.
gpu::GPUFuncOp buildTCF64Kernel(OpBuilder &moduleBuilder, RowForm op,
                                const TCF64Geometry &geometry, StringRef name);

} // namespace stencil
} // namespace mlir

#endif // STENCIL_LIB_CONVERSION_STENCILTOSPTC_TCF64KERNEL_H
