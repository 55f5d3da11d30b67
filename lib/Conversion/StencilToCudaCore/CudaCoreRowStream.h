//===- CudaCoreRowStream.h - Register streaming of 2-D stencils -*- C++ -*-===//
//
// Private to lib/Conversion/StencilToCudaCore: the builder of the row sweep
// of 2-D linear stencils (CudaCoreTiling::rowStream(); AN5D's register
// streaming), CudaCoreRowStream.cpp, and the base of its row groups
// (CudaCoreRowGroups.h).
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_LIB_CONVERSION_STENCILTOCUDACORE_CUDACOREROWSTREAM_H
#define STENCIL_LIB_CONVERSION_STENCILTOCUDACORE_CUDACOREROWSTREAM_H

#include "CudaCoreKernelBuilder.h"

namespace mlir {
namespace stencil {
namespace detail {

/// A point of a 2-D linear stencil with its summed weight (point index -1
/// where duplicate offsets were summed), for the row sweeps.
struct RowPoint {
  int64_t dy, dx;
  double weight;
  int64_t index;
};

/// The row sweep: one row of threads sweeps the block's rows, each fused
/// step's partial sums in registers; twice, for interior blocks (no
/// boundary checks) and for the others.
class RowSweepKernel : public CudaCoreKernelBuilder {
public:
  using CudaCoreKernelBuilder::CudaCoreKernelBuilder;

protected:
  void buildBody() override;
  /// Row streaming: column j of the thread (local column tid + j threads):
  /// its staging coordinate (wrapped under periodic) and whether it is in the
  /// grid, the raw grid x, whether it is in the grid, whether the boundary
  /// computes its points (null: always), whether it is one of the block's
  /// own columns (local [t r_x, t r_x + T_x)), whether its outputs are
  /// stored, and its element in a shared row.
  struct RowColumn {
    Value insideX, stageX, gridX, inGrid, written, own, stored, slot;
  };
  RowColumn rowColumn(int64_t j);
  /// The per-row sweep of one block: the interior one (no boundary checks)
  /// or the general one, which any block may take (the row groups' edge
  /// blocks do).
  void buildRowStreamSweep(bool interior);
  /// Row streaming: shared memory set to zero (the first iterations read
  /// rows no level has written yet, and the r_x pads of each row), then a
  /// barrier.
  void zeroRowSharedMemory();
  /// Row streaming: grid y of local row `local`.
  Value rowGridY(Value local);
  /// Row streaming: stores the last level's `value` of local row `local` in
  /// `out` if it is one of the block's `rows` own rows and the column's.
  void storeRowOutput(Value value, Value local, Value rows, Value rowWritten,
                      const RowColumn &col, bool interior);

private:
  /// The per-row sweep's state: its points in (dy, dx) order, the thread's
  /// `columns` columns, the block's rows, and what its loop carries: the
  /// parity's shared offsets (written, read) and, per column, the rows
  /// loaded ahead (row i in slot i mod unroll), the partial sums
  /// (level-major, sum of row o at slot o mod `slots`) and each level's
  /// value of the previous iteration (levels 0 .. t - 1; the centre of the
  /// next level's row).
  struct RowSweep {
    bool interior;
    int64_t steps, slots, columns, unroll;
    SmallVector<RowPoint> points;
    SmallVector<RowColumn> cols;
    Value zeroAcc, rows;
    Value writeOffset, readOffset;
    SmallVector<Value> ahead, acc, previous;
    int64_t aheadIndex(int64_t j, int64_t u) const { return j * unroll + u; }
    int64_t accIndex(int64_t j, int64_t level, int64_t slot) const {
      return (j * steps + level - 1) * slots + slot;
    }
    int64_t previousIndex(int64_t j, int64_t level) const {
      return j * steps + level;
    }
    int64_t slotOf(int64_t x) const { return ((x % slots) + slots) % slots; }
  };
  /// The per-row sweep's rows (C, fewer in the last block along y) in
  /// `s.rows`; returns its number of unrolled groups of iterations.
  Value rowSweepGroups(RowSweep &s);
  /// The level-0 value of local row `local` in column `col`.
  Value loadSweepRow(const RowSweep &s, Value local, const RowColumn &col);
  /// Iteration `u` of an unrolled group (local input row `i`): row i into
  /// shared memory, row i + unroll loaded ahead, then every level.
  void rowSweepIteration(RowSweep &s, int64_t u, Value i);
  /// Level `level` of iteration `u` adds the row q = u - 1 - (level - 1)
  /// (r_y + 1) it receives to its sums (the thread's columns one point
  /// after the other).
  void addRowSweepPoints(RowSweep &s, int64_t u, int64_t level);
  /// Level `level` of iteration `u` (input row `i`): output row q - r_y is
  /// complete; stored in the level's buffer (`values`: its value for the
  /// next iteration) or, for the last level, in `out`; its slot restarts
  /// at zero.
  void completeRowSweepRow(RowSweep &s, int64_t u, int64_t level, Value i,
                           SmallVectorImpl<Value> &values);
  /// Row streaming: whether the boundary computes the points of local row
  /// `local` (null: every one; an interior sweep's rows all are).
  Value rowWrittenY(Value local, bool interior);
  /// Row streaming: a completed point's value in the element type: `sum`
  /// where the boundary computes it (`rowWritten` and the column's), else
  /// the kept value (Dirichlet: the boundary value; halo: the input's,
  /// loaded where in the grid).
  Value completedRowValue(Value sum, Value local, Value rowWritten,
                          const RowColumn &col, bool interior);
};

} // namespace detail
} // namespace stencil
} // namespace mlir

#endif // STENCIL_LIB_CONVERSION_STENCILTOCUDACORE_CUDACOREROWSTREAM_H
