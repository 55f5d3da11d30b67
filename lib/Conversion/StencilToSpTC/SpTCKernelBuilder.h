//===- SpTCKernelBuilder.h - Builder of the row-form kernel -----*- C++ -*-===//
//
// Private to lib/Conversion/StencilToSpTC: the builder of the f16/bf16
// row-form kernel (SpTCKernel.h). Its stages are split by file:
// SpTCKernel.cpp (outline, A operand), SpTCStaging.cpp (input tile into
// shared memory: synchronous, cp.async, 3-D plane stream), SpTCCompute.cpp
// (B operand addresses and the MMAs), SpTCStores.cpp (outputs).
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_LIB_CONVERSION_STENCILTOSPTC_SPTCKERNELBUILDER_H
#define STENCIL_LIB_CONVERSION_STENCILTOSPTC_SPTCKERNELBUILDER_H

#include "MmaKernelBuilder.h"
#include "stencil/Dialect/Stencil/IR/StencilDialect.h"
#include "stencil/Support/SpTCPacking.h"
#include "stencil/Support/SpTCTiling.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

#include <optional>

namespace mlir {
namespace stencil {

/// Builds the gpu.func of one row form.
class SpTCKernelBuilder : MmaKernelBuilder {
public:
  using BOperandPlan = SpTCBOperandPlan;

  /// A banded form reads B as `plan` says; a gathered form (SparStencil)
  /// as `gather` says.
  SpTCKernelBuilder(RowFormOpInterface op, const SpTCGeometry &geometry,
                    const BOperandPlan *plan, const SpTCGather *gather,
                    bool orderedMetadata)
      : op(op), geo(geometry), plan(plan), gather(gather),
        orderedMetadata(orderedMetadata),
        elemType(cast<MemRefType>(op.getInput().getType()).getElementType()) {}

  gpu::GPUFuncOp build(OpBuilder &moduleBuilder, StringRef name);

private:
  /// Where vector `e` of a tile comes from: the global x of its first
  /// element, whether its row lies in the grid, and the row's linear index
  /// (in rows of N_x elements).
  struct VectorSource {
    Value gx, rowInside, rowLinear;
  };
  VectorSource locateVector(Value e, ArrayRef<Value> tileOrigin);
  Value loadVector(Value e, ArrayRef<Value> tileOrigin);
  /// The first `count` vectors of a tile (all of them by default) from
  /// `tileOrigin`: loadTile into registers, stageTile into shared memory.
  SmallVector<Value> loadTile(ArrayRef<Value> tileOrigin, int64_t count = 0);
  /// The registers of the sub-tile after `sub`: loadTile of the origin
  /// `originOf(sub + 1)` gives, zeros past the block's last sub-tile.
  SmallVector<Value>
  loadNextTile(Value sub, function_ref<SmallVector<Value>(Value)> originOf,
               int64_t count = 0);
  void storeTile(ArrayRef<Value> vectors, int64_t count = 0,
                 Value base = Value());
  void storeVector(Value vector, Value e, Value base = Value());
  void stageTile(ArrayRef<Value> tileOrigin, int64_t count = 0);
  /// Calls `body(k, e)` for the thread's vectors e = tid + k * threads of
  /// the first `count` vectors of a tile, under an `e < count` guard where
  /// some threads have none.
  void forEachThreadVector(int64_t count,
                           function_ref<void(int64_t k, Value e)> body);
  /// The 3-D plane stream (SpTCGeometry::streamsPlanes).
  void buildPlaneStream(ArrayRef<Value> blockOrigin);
  /// The B addresses of input plane `dz` (3-D) from the lane's offsets:
  /// the lane parts and the constant part for n-tile shift `shift`.
  std::pair<SmallVector<Value>, int64_t>
  getPlaneAddresses(ArrayRef<Value> laneOffsets, int64_t dz, int64_t shift);
  Value copyTileAsync(ArrayRef<Value> tileOrigin, Value bufferBase,
                      Value valid);
  void buildAsyncPipeline(function_ref<SmallVector<Value>(Value)> subOrigin);
  int64_t numVectors() const { return geo.smemSize / SpTCGeometry::kVector; }
  int64_t vectorsPerThread(int64_t count) const {
    return (count + geo.threads() - 1) / geo.threads();
  }
  /// SpTCBOperandPlan::swizzle of a shared-memory column.
  Value swizzleColumn(Value column);
  /// Whether the halves of vector `e` of a tile trade places in shared
  /// memory (the swizzle; null when there is none).
  Value swapsHalves(Value e);

  void loadCoefficients();
  SmallVector<Value> getLaneOffsets();
  SmallVector<Value> getGatherLaneOffsets();
  SmallVector<Value, 4> loadBOperand(ArrayRef<Value> laneOffsets,
                                     int64_t offset);
  SmallVector<Value, 4> mmaM16N8K16(ArrayRef<Value> a, ArrayRef<Value> bRegs,
                                    ArrayRef<Value> c);
  SmallVector<Value, 4> mmaDenseRow(ArrayRef<Value> aRow, ArrayRef<Value> bRegs,
                                    ArrayRef<Value> c);
  void computeAndStore();
  void computeGatheredAndStore();
  void computeLowRankAndStore();
  /// acc += the product of kernel row `o` (its A registers) and `bRegs`.
  void multiplyRow(int64_t o, ArrayRef<Value> bRegs,
                   SmallVectorImpl<Value> &acc);
  /// The grid coordinates of output `m` of column `n` of n-tile `j` (rank
  /// >= 2).
  SmallVector<Value> getOutputCoords(Value m, Value n, int64_t j);
  void storeOutputs(ArrayRef<SmallVector<Value, 4>> acc);
  void storeTransposed(ArrayRef<SmallVector<Value, 4>> acc);
  void storeScalar(ArrayRef<SmallVector<Value, 4>> acc);

  RowFormOpInterface op;
  const SpTCGeometry &geo;
  const BOperandPlan *plan;
  const SpTCGather *gather;
  bool orderedMetadata;
  /// The grid's and the MMA operands' type: f16, or bf16 (dense form).
  Type elemType;

  /// Where the current tile starts in shared memory (double buffering).
  Value smemBase;
  /// With streamed planes: entry r_z + dz is where the plane at dz from the
  /// current output plane starts in shared memory (empty otherwise).
  SmallVector<Value> planeBases;
  // A operand registers (4, or 8 for the dense form, x vector<2xf16>) and
  // metadata of every row.
  SmallVector<SmallVector<Value, 4>> aRegs;
  SmallVector<Value> metadata;
};

} // namespace stencil
} // namespace mlir

#endif // STENCIL_LIB_CONVERSION_STENCILTOSPTC_SPTCKERNELBUILDER_H
