//===- CudaCoreStagedTile.cpp - The staged CUDA-core kernel ---------------===//
//
// The staged schedule of `--convert-stencil-to-cuda-core` (StagedTileKernel):
// the whole tile and its halo in shared memory, steps 1-4 of the kernel
// outline in CudaCoreKernel.cpp (the temporal blocking of the fused
// CUDA-core kernels of "Do We Need Tensor Cores?", section 3.2.2). The
// streamed schedules are CudaCorePlaneSweep.cpp (3-D) and
// CudaCoreRowStream.cpp (2-D).
//
//===----------------------------------------------------------------------===//

#include "CudaCoreStagedTile.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::stencil;
using namespace mlir::stencil::detail;

void StagedTileKernel::buildBody() {
  stageTile();
  gpu::BarrierOp::create(*b);
  for (int64_t step = 1; step < geo.steps; ++step) {
    computeIntermediateStep(step);
    gpu::BarrierOp::create(*b);
  }
  // The last step, plane by plane (one plane but in 3-D).
  for (int64_t plane = 0; plane < geo.planes; ++plane) {
    int64_t first = plane * geo.outputs;
    storeOutputs(first,
                 compute(geo.outputs, [&](int64_t k, ArrayRef<int64_t> offset) {
                   return smemIndex(first + k, offset);
                 }));
  }
}

/// Step 2 (fused steps only): the region of `step` in work units taken
/// round-robin by the threads, from one shared buffer into the other. As in
/// a one-step launch, the points the boundary computes get the stencil's
/// value rounded to the element type and every other point keeps its value
/// (halo: the halo keeps the input's, and points outside the grid are never
/// read by an interior point; Dirichlet: points outside the grid keep the
/// boundary value).
void StagedTileKernel::computeIntermediateStep(int64_t step) {
  int64_t rank = geo.rank;
  OpBuilder::InsertionGuard guard(*b);
  SmallVector<Value> local = beginUnitLoop(step, geo.numUnits(step));
  Value base;
  for (int64_t d = 0; d < rank; ++d) {
    Value term = geo.smemStrides[d] == 1
                     ? local[d]
                     : mul(local[d], cst(geo.smemStrides[d]));
    base = base ? add(base, term) : term;
  }
  // Points of a unit follow along y (one point in 1-D).
  int64_t pointStride = rank == 1 ? 0 : geo.smemStrides[rank - 2];
  int64_t source = geo.sourceOffset(step), dest = geo.destOffset(step);
  SmallVector<Value> values =
      compute(geo.unitPoints(), [&](int64_t k, ArrayRef<int64_t> offset) {
        int64_t constant = source + k * pointStride;
        for (int64_t d = 0; d < rank; ++d)
          constant += offset[d] * geo.smemStrides[d];
        return addConst(base, constant);
      });
  for (auto [k, value] : llvm::enumerate(values)) {
    SmallVector<Value> pointLocal(local);
    if (rank > 1)
      pointLocal[rank - 2] = addConst(local[rank - 2], k);
    Value point = addConst(base, k * pointStride);
    Value next = nextStepValue(value, pointLocal,
                               [&] { return addConst(point, source); });
    memref::StoreOp::create(*b, next, smem, ValueRange{addConst(point, dest)});
  }
}

Value StagedTileKernel::smemIndex(int64_t k, ArrayRef<int64_t> offset) {
  // Local position of output k: (ty * outputs + k, tx) in 2-D, (k / outputs,
  // ty * outputs + k mod outputs, tx) in 3-D, tid + k * threads in 1-D; plus
  // the halo and the offset (CudaCoreTiling::outputPosition), in the buffer
  // of the last step.
  int64_t rank = geo.rank;
  int64_t constant = geo.sourceOffset(geo.steps);
  for (int64_t d = 0; d < rank; ++d)
    constant += (geo.halo[d] + offset[d]) * geo.smemStrides[d];
  Value thread;
  if (rank == 1) {
    thread = tid;
    constant += k * geo.threads();
  } else {
    thread = add(mul(ty, cst(geo.outputs * geo.smemStrides[rank - 2])), tx);
    constant += (k % geo.outputs) * geo.smemStrides[rank - 2];
    if (rank == 3)
      constant += (k / geo.outputs) * geo.smemStrides[0];
  }
  return addConst(thread, constant);
}
