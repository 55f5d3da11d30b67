//===- CudaCoreStreaming.cpp - The streaming CUDA-core kernel -------------===//
//
// The ring schedule of a streamed 3-D CUDA-core kernel (StreamedRingKernel;
// `stream` without plane sums; the schedule and its ring are
// CudaCoreTiling's, Support/CudaCoreTiling.h, and the unit tests run it on
// the CPU; the block split and the staging it shares with the plane sums
// are CudaCorePlaneSweep.cpp). AN5D (Matsumura et al., CGO 2020, sections
// 3-4) and the temporally fused CUDA-core kernels of "Do We Need Tensor
// Cores?" (section 3.2.2) stream the outermost dimension: a block owns a (y, x)
// tile and `planes` z planes of outputs, and marches along z, so that each
// input plane is read from global memory once per block instead of once per
// plane of the staged tile and its halo planes, and the shared memory holds S =
// 2 r_z + 1 planes per level (2 r_z + 2 for t = 1; CudaCoreTiling::ringSlots
// says why) instead of the whole tile:
//
//   for i in 0 .. min(planes, N_z - z0) + 2 t r_z:       (uniform)
//     stage input plane z0 - t r_z + i into ring 0, slot i mod S (with
//     prefetch-planes and t = 1, its values loaded in iteration i - d,
//     d = prefetch-distance)
//     barrier
//     for s in 1 .. t - 1, if i >= 2 s r_z:
//       plane i - s r_z of step s <- step s - 1's planes around it
//       barrier
//     if i >= 2 t r_z: output plane z0 + i - 2 t r_z <- step t - 1's planes
//
// Each plane of a step is computed exactly as the staged kernel computes
// that plane of its region (the same work units, register tiling, rounding,
// and the same rule for the points the boundary keeps), so a streamed
// launch gives bit for bit the staged launch's result.
//
//===----------------------------------------------------------------------===//

#include "CudaCoreStreaming.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::stencil;
using namespace mlir::stencil::detail;

void StreamedRingKernel::buildSweep() {
  int64_t haloZ = geo.halo[0], rz = geo.radii[0];
  // The block's planes: `planes`, fewer in the last block along z.
  Value left = arith::SubIOp::create(*b, sizes[0], origin[0]);
  Value iterations =
      addConst(arith::MinUIOp::create(*b, left, cst(geo.planes)), 2 * haloZ);
  // The staging of input plane i: with `prefetch-planes`, one step per
  // launch and few positions per thread, their values are loaded
  // `prefetch-distance` (d) iterations ahead into registers (the loop's
  // iter_args: the values of planes i .. i + d - 1), so that the loads of
  // plane i + d are in flight while planes i .. i + d - 1 are computed, and
  // iteration i only stores plane i's; else loaded and stored in iteration
  // i. (Fused steps hold more registers already: there it was slower, f16
  // Heat-3D 390 against 407 GStencil/s with 2 steps on an H100.)
  bool prefetch = prefetchedValuesPerThread() > 0;
  SmallVector<Value> initArgs =
      prefetch ? prefetchFirstPlanes() : SmallVector<Value>();
  OpBuilder::InsertionGuard guard(*b);
  auto loop = beginCountedLoop(iterations, initArgs);
  Value i = loop.getInductionVar();

  SmallVector<Value> pending(loop.getRegionIterArgs());
  if (prefetch)
    stagePrefetched(i, [&] { return ringBase(/*level=*/0, i); }, pending);
  else
    stagePlane(i, ringBase(/*level=*/0, i));
  gpu::BarrierOp::create(*b);
  // Step s (1 .. steps) runs from iteration 2 s r_z on, on its plane
  // i - s r_z; the condition is the same for every thread of the block, and
  // the barriers stay outside it.
  auto ifStarted = [&](int64_t step, function_ref<void(Value)> body) {
    Value localZ = addConst(i, -step * rz);
    if (step * rz == 0) {
      body(localZ);
      return;
    }
    Value started = arith::CmpIOp::create(*b, arith::CmpIPredicate::uge, i,
                                          cst(2 * step * rz));
    auto ifOp = scf::IfOp::create(*b, started, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard inIf(*b);
    b->setInsertionPointToStart(ifOp.thenBlock());
    body(localZ);
  };
  for (int64_t step = 1; step < geo.steps; ++step) {
    ifStarted(step,
              [&](Value localZ) { streamIntermediateStep(step, localZ); });
    gpu::BarrierOp::create(*b);
  }
  ifStarted(geo.steps, [&](Value localZ) { streamLastStep(localZ); });
  if (prefetch)
    scf::YieldOp::create(*b, pending);
}

Value StreamedRingKernel::ringIndex(
    int64_t level, Value localZ, Value yxBase, int64_t k,
    ArrayRef<int64_t> offset,
    SmallVectorImpl<std::pair<int64_t, Value>> &rowBases) {
  // One add per plane of the ring (memoized by dz), then constants that the
  // shared-memory load takes as its immediate offset.
  int64_t dz = offset[0];
  Value rowBase;
  for (auto &[cachedDz, value] : rowBases)
    if (cachedDz == dz)
      rowBase = value;
  if (!rowBase) {
    rowBase = add(ringBase(level, addConst(localZ, dz)), yxBase);
    rowBases.push_back({dz, rowBase});
  }
  int64_t strideY = geo.smemStrides[1];
  return addConst(rowBase, (k + offset[1]) * strideY + offset[2]);
}

Value StreamedRingKernel::ringLoopIndex(int64_t level, Value localZ,
                                        Value yxBase, int64_t k,
                                        ArrayRef<Value> offset) {
  // localZ + dz >= 0: a step's plane localZ is at least its radius r_z into
  // the ring's planes.
  int64_t strideY = geo.smemStrides[1];
  Value rowBase = add(ringBase(level, add(localZ, offset[0])), yxBase);
  Value inPlane = add(mul(offset[1], cst(strideY)), offset[2]);
  return add(addConst(rowBase, k * strideY), inPlane);
}

/// One plane of intermediate step `step`: the (y, x) part of the staged
/// kernel's work units (CudaCoreTiling::planeUnits, unitOrigin), read from
/// ring `step - 1` and written to ring `step`.
void StreamedRingKernel::streamIntermediateStep(int64_t step, Value localZ) {
  int64_t strideY = geo.smemStrides[1];
  Value destBase = ringBase(step, localZ);
  OpBuilder::InsertionGuard guard(*b);
  SmallVector<Value> local = beginUnitLoop(step, geo.planeUnits(step));
  local[0] = localZ;
  Value yxBase = add(mul(local[1], cst(strideY)), local[2]);
  SmallVector<std::pair<int64_t, Value>> rowBases;
  SmallVector<Value> values = compute(
      geo.outputs,
      [&](int64_t k, ArrayRef<int64_t> offset) {
        return ringIndex(step - 1, localZ, yxBase, k, offset, rowBases);
      },
      [&](int64_t k, ArrayRef<Value> offset) {
        return ringLoopIndex(step - 1, localZ, yxBase, k, offset);
      });
  SmallVector<int64_t> center(3, 0);
  for (auto [k, value] : llvm::enumerate(values)) {
    SmallVector<Value> pointLocal(local);
    pointLocal[1] = addConst(local[1], k);
    Value next = nextStepValue(value, pointLocal, [&] {
      return ringIndex(step - 1, localZ, yxBase, k, center, rowBases);
    });
    Value point = addConst(add(destBase, yxBase), k * strideY);
    memref::StoreOp::create(*b, next, smem, ValueRange{point});
  }
}

/// The last step on output plane `localZ` (grid z = origin_z + localZ -
/// halo_z): the thread's `outputs` points along y, as in the staged kernel
/// (CudaCoreTiling::outputPosition), stored where isStored.
void StreamedRingKernel::streamLastStep(Value localZ) {
  int64_t strideY = geo.smemStrides[1];
  Value yxBase = add(mul(ty, cst(geo.outputs * strideY)), tx);
  yxBase = addConst(yxBase, geo.halo[1] * strideY + geo.halo[2]);
  SmallVector<std::pair<int64_t, Value>> rowBases;
  SmallVector<Value> values = compute(
      geo.outputs,
      [&](int64_t k, ArrayRef<int64_t> offset) {
        return ringIndex(geo.steps - 1, localZ, yxBase, k, offset, rowBases);
      },
      [&](int64_t k, ArrayRef<Value> offset) {
        return ringLoopIndex(geo.steps - 1, localZ, yxBase, k, offset);
      });
  storeOutputs(/*first=*/0, values,
               addConst(add(origin[0], localZ), -geo.halo[0]));
}
