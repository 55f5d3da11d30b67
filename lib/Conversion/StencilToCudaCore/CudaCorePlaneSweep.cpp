//===- CudaCorePlaneSweep.cpp - The z sweep of streamed 3-D blocks --------===//
//
// What the streamed 3-D schedules share (StreamedPlanesKernel; AN5D,
// Matsumura et al., CGO 2020, sections 3-4, and the temporally fused
// CUDA-core kernels of "Do We Need Tensor Cores?", section 3.2.2, stream
// the outermost dimension): a block owns a (y, x) tile and `planes` z
// planes of outputs and marches along z, staging one input plane per
// iteration into a ring slot of shared memory (CudaCoreTiling::ringOffset).
// The sweep itself is the schedule's: the ring of CudaCoreStreaming.cpp or
// the plane sums of CudaCorePlaneSums.cpp. Here: the split of the blocks
// into those away from the grid's y and x edges, whose sweep has no bounds
// checks (interiorYX), and the others; the staging of a plane, in its
// iteration or (prefetch-planes) loaded prefetch-distance iterations ahead
// into registers; the ring slots.
//
//===----------------------------------------------------------------------===//

#include "CudaCorePlaneSweep.h"
#include "stencil/Conversion/StencilGPUCommon/KernelABI.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::stencil;
using namespace mlir::stencil::detail;

void StreamedPlanesKernel::buildBody() {
  // Blocks away from the grid's y and x edges skip the bounds checks of
  // their loads, steps and stores (a uniform branch): origin_d >= h_d and
  // origin_d + T_d + h_d <= N_d for d = y, x.
  Value interior;
  for (int64_t d = 1; d < 3; ++d) {
    Value inDim =
        isWithin(*b, addConst(origin[d], -geo.halo[d]), sizes[d],
                 /*margin=*/0, /*extent=*/geo.tile[d] + 2 * geo.halo[d]);
    interior = interior ? arith::AndIOp::create(*b, interior, inDim) : inDim;
  }
  // Vector columns (plane sums): vectors start on multiples of the width in
  // the grid only where the rows are a multiple of it; there every block
  // stages and stores whole vectors (CudaCorePlaneSums.cpp), the interior
  // ones without the checks. Other grids stage element by element.
  Value aligned;
  if (int64_t width = geo.vectorWidth; width > 1) {
    Value zero = cst(0);
    Value widthCst = cst(width);
    Value rem = arith::RemUIOp::create(*b, sizes[2], widthCst);
    aligned = arith::CmpIOp::create(*b, arith::CmpIPredicate::eq, rem, zero);
    interior = arith::AndIOp::create(*b, interior, aligned);
  }
  auto ifOp = scf::IfOp::create(*b, interior, /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(*b);
  b->setInsertionPointToStart(ifOp.thenBlock());
  interiorYX = true;
  vectorStaging = bool(aligned);
  buildSweep();
  interiorYX = false;
  b->setInsertionPointToStart(ifOp.elseBlock());
  if (aligned) {
    auto ifAligned = scf::IfOp::create(*b, aligned, /*withElseRegion=*/true);
    b->setInsertionPointToStart(ifAligned.thenBlock());
    buildSweep();
    b->setInsertionPointToStart(ifAligned.elseBlock());
    vectorStaging = false;
  }
  buildSweep();
}

void StreamedPlanesKernel::stagePlane(Value planeZ, Value destBase) {
  stageTile(planeZ, destBase);
}

int64_t StreamedPlanesKernel::prefetchedValuesPerThread() const {
  int64_t perThread = llvm::divideCeil(geo.planeSize(), geo.threads());
  bool prefetch = spec.prefetchPlanes && geo.steps == 1 &&
                  perThread <= kMaxPrefetchedStagingValues;
  return prefetch ? perThread : 0;
}

StagingValues StreamedPlanesKernel::prefetchLoads(Value planeZ) {
  int64_t perThread = prefetchedValuesPerThread();
  bool overshoot = perThread * geo.threads() > geo.planeSize();
  return stagingLoads(tid, perThread, overshoot, planeZ);
}

SmallVector<Value> StreamedPlanesKernel::prefetchFirstPlanes() {
  SmallVector<Value> values;
  for (int64_t k = 0; k < spec.prefetchDistance; ++k)
    llvm::append_range(values, prefetchLoads(cst(k)).values);
  return values;
}

void StreamedPlanesKernel::stagePrefetched(Value i,
                                           function_ref<Value()> destBase,
                                           SmallVectorImpl<Value> &pending) {
  // Plane i + d's loads first; the positions and their guards are the same
  // for every plane.
  int64_t perThread = prefetchedValuesPerThread();
  StagingValues next = prefetchLoads(addConst(i, spec.prefetchDistance));
  StagingValues current = next;
  current.values.assign(pending.begin(), pending.begin() + perThread);
  stagingStores(current, destBase());
  pending.erase(pending.begin(), pending.begin() + perThread);
  llvm::append_range(pending, next.values);
}

Value StreamedPlanesKernel::ringBase(int64_t level, Value localZ) {
  Value slot = arith::RemUIOp::create(*b, localZ, cst(geo.ringSlots()));
  Value planeSize = cst(geo.planeSize());
  Value slotBase = addConst(slot, level * geo.ringSlots());
  return mul(slotBase, planeSize);
}
