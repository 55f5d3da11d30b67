//===- CudaCoreRowGroups.h - Row streaming in groups of rows ----*- C++ -*-===//
//
// Private to lib/Conversion/StencilToCudaCore: the builder of the row sweep
// of 2-D linear stencils in groups of rows, the x offsets in phases
// (CudaCoreTiling::rowGroups()), CudaCoreRowGroups.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_LIB_CONVERSION_STENCILTOCUDACORE_CUDACOREROWGROUPS_H
#define STENCIL_LIB_CONVERSION_STENCILTOCUDACORE_CUDACOREROWGROUPS_H

#include "CudaCoreRowStream.h"

namespace mlir {
namespace stencil {
namespace detail {

/// The grouped sweep in interior blocks; the other blocks take the row
/// sweep's general form (RowSweepKernel::buildRowStreamSweep).
class RowGroupsKernel final : public RowSweepKernel {
public:
  using RowSweepKernel::RowSweepKernel;

private:
  void buildBody() override;
  /// The grouped sweep's state: the points by dx phase, each phase's in
  /// (dy, dx) order, and the offsets dx each phase reads; the thread's
  /// column and `base`, its slot through an opaque move once per group
  /// (see rowGroupElement); what the loop carries: the pending copies'
  /// token (`async`), the partial sums (level-major, `slots` per level).
  struct RowGroupSweep {
    SmallVector<SmallVector<RowPoint>> phasePoints;
    SmallVector<SmallVector<int64_t>> phaseOffsets;
    RowColumn col;
    Value zeroAcc, base, rows, token;
    bool async;
    int64_t slots;
    SmallVector<Value> acc;
    int64_t accIndex(int64_t level, int64_t slot) const {
      return (level - 1) * slots + slot;
    }
    int64_t slotOf(int64_t x) const { return ((x % slots) + slots) % slots; }
  };
  /// The points and offsets of each phase (RowGroupSweep).
  void rowGroupPhases(RowGroupSweep &s);
  /// The shared element of column dx of row j of a group buffer.
  Value rowGroupElement(const RowGroupSweep &s, int64_t level, int64_t parity,
                        int64_t j, int64_t dx);
  /// The cp.async copies of group `g`'s rows into input buffer `parity`
  /// (none read where `valid` is false); returns the group's token.
  Value copyRowGroup(const RowGroupSweep &s, Value g, int64_t parity,
                     Value valid);
  /// The grouped sweep of an interior block: C rows, every load in the
  /// grid, every point computed.
  void buildRowGroupSweep(RowGroupSweep &s);
  /// Level 0 of group `g` (first local row `q0`): its rows in buffer `h`.
  void stageRowGroup(RowGroupSweep &s, int64_t h, Value g, Value q0);
  /// Phase `p` of level `level` on the group in buffer `h`: the phase's
  /// weights, then each row's FMAs.
  void addRowGroupPhase(RowGroupSweep &s, int64_t h, int64_t level, int64_t p);
  /// Rows q0 - level r_y + j of level `level` are complete: stored, their
  /// slots restarted at 0.
  void completeRowGroupRows(RowGroupSweep &s, int64_t h, int64_t level,
                            Value q0);
};

} // namespace detail
} // namespace stencil
} // namespace mlir

#endif // STENCIL_LIB_CONVERSION_STENCILTOCUDACORE_CUDACOREROWGROUPS_H
