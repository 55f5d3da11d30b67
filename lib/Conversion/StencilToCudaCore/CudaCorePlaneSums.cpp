//===- CudaCorePlaneSums.cpp - Partial sums of streamed 3-D planes --------===//
//
// The plane sweep of a streamed 3-D linear stencil with one step per launch
// (`plane-sums=true`, CudaCoreTiling::planeSums; CudaCoreTilingTest's
// PlaneSums3D runs the schedule on the CPU). AN5D (Matsumura et al., CGO 2020, sections
// 3.1-3.3) streams the outermost dimension with the values along it in
// registers: here each thread keeps, for each of its `outputs` outputs
// along y, P = 2 r_z + 1 partial sums, one per output plane that the input
// plane in shared memory feeds. With weights w(dz, dy, dx), iteration i
// (input plane i of the block's virtual tile, local output planes
// p = i - dz):
//
//   stage input plane i in slot i mod 2 (with prefetch-planes, its values
//   loaded in iteration i - d, d = prefetch-distance); barrier
//   for dx ascending, for input rows iy ascending (relative to the thread's
//   first output row), v = plane_i[y0 + iy][x + dx] (one shared load):
//     acc[k][(i - dz) mod P] += w(dz, iy - k, dx) v      for every k, dz
//   output plane i - r_z is complete: stored if it is one of the block's
//   planes, and its sums restart at 0.
//
// Each in-plane value is read from shared memory once for the 2 r_z + 1
// output planes it feeds, where the ring (CudaCoreStreaming.cpp) reads it
// once per output plane: Box-3D27P with 4 outputs per thread loads 18
// values per plane instead of 54. Each output's sum runs over its points
// dz-major (the planes arrive in order), then dx, then dy, one FMA each
// from 0: the order of the staged and the ring kernels' register tiling
// (column by column), so the results are the same bit for bit. The loop is
// unrolled by a multiple of P, so that the slots (i - dz) mod P are static,
// and runs whole unrolled groups: the planes past the block's last are
// staged (predicated at the grid's edge) and summed but never stored. The
// two staging slots need one barrier per plane: slot i mod 2 was last read
// in iteration i - 2, a barrier before.
//
// With prefetch-planes the staging values of plane i are loaded in
// iteration i - d (d = prefetch-distance) and carried in the loop's
// iter_args after the sums, as in the ring's sweep.
//
// Off by default: on an H100 the sums' registers cost more occupancy than
// the saved shared loads give back for f32 and f64 grids; with the
// prefetch they are the fastest f16 Box-3D27P kernel and tie the ring on
// f16 Heat-3D (bench/NOTES.md, "Plane sums", "Prefetch distance").
//
//===----------------------------------------------------------------------===//

#include "CudaCoreKernelBuilder.h"
#include "stencil/Conversion/StencilGPUCommon/KernelABI.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <map>

using namespace mlir;
using namespace mlir::stencil;
using namespace mlir::stencil::detail;

namespace {
/// A point's plane offset and summed weight (index -1 where duplicate
/// offsets were summed).
struct PlaneUse {
  int64_t dz;
  double weight;
  int64_t index;
};
} // namespace

void CudaCoreKernelBuilder::buildPlaneSumSweep() {
  assert(linear && geo.planeSums && "plane sums of a linear 3-D stencil");
  int64_t rz = geo.radii[0], haloZ = geo.halo[0];
  int64_t slots = geo.planeSumSlots(), unroll = geo.planeSumUnroll();
  int64_t outputs = geo.outputs, strideY = geo.smemStrides[1];

  // The points by column dx, then row dy: the plane offsets dz with their
  // weights, dz ascending.
  std::map<int64_t, std::map<int64_t, SmallVector<PlaneUse>>> columns;
  for (const auto &[offset, weight] : summedPoints())
    columns[offset[2]][offset[1]].push_back(
        {offset[0], weight.first, weight.second});

  Value zeroAcc = arith::ConstantOp::create(*b, b->getZeroAttr(accType));
  // The block's planes: `planes`, fewer in the last block along z; whole
  // unrolled groups of iterations.
  Value rows = arith::MinUIOp::create(
      *b, arith::SubIOp::create(*b, sizes[0], origin[0]), cst(geo.planes));
  Value groups = arith::DivUIOp::create(
      *b, addConst(rows, 2 * haloZ + unroll - 1), cst(unroll));
  // The thread's first output (y, x) in a plane of the ring.
  Value yxBase = add(mul(ty, cst(outputs * strideY)), tx);
  yxBase = addConst(yxBase, geo.halo[1] * strideY + geo.halo[2]);

  // With prefetch-planes, the staging values of planes i .. i + d - 1 (d =
  // prefetch-distance) ride in the loop's iter_args after the sums, as in
  // the ring's sweep (CudaCoreStreaming.cpp); the unrolled iterations pass
  // them on statically.
  bool prefetch = prefetchedValuesPerThread() > 0;
  SmallVector<Value> initial(outputs * slots, zeroAcc);
  if (prefetch)
    llvm::append_range(initial, prefetchFirstPlanes());
  auto loop = scf::ForOp::create(*b, cst(0), groups, cst(1), initial);
  OpBuilder::InsertionGuard guard(*b);
  b->setInsertionPointToStart(loop.getBody());
  ValueRange carried = loop.getRegionIterArgs();
  SmallVector<Value> acc(carried.begin(), carried.begin() + outputs * slots);
  SmallVector<Value> pending(carried.begin() + outputs * slots,
                             carried.end());
  auto accAt = [&](int64_t k, int64_t slot) -> Value & {
    return acc[k * slots + ((slot % slots) + slots) % slots];
  };
  // The induction variable through an opaque move, so that the addresses
  // derived from it are recomputed from one base (as in the row sweep)
  // instead of each carried in a register by loop strength reduction.
  Value groupFirst =
      mul(hideFromOptimizer(*b, loop.getInductionVar()), cst(unroll));

  for (int64_t u = 0; u < unroll; ++u) {
    Value i = addConst(groupFirst, u);
    Value slotBase = ringBase(/*level=*/0, i);
    if (prefetch)
      stagePrefetched(i, [&] { return slotBase; }, pending);
    else
      stageTile(i, slotBase);
    gpu::BarrierOp::create(*b);

    Value base = add(slotBase, yxBase);
    for (const auto &[dx, rowsOfColumn] : columns) {
      forEachColumnRow(
          rowsOfColumn, outputs,
          [&](int64_t iy,
              ArrayRef<std::pair<int64_t, const SmallVector<PlaneUse> *>>
                  uses) {
            Value v = memref::LoadOp::create(
                *b, smem, ValueRange{addConst(base, iy * strideY + dx)});
            if (v.getType() != accType)
              v = arith::ExtFOp::create(*b, accType, v);
            for (auto [k, planeUses] : uses)
              for (const PlaneUse &use : *planeUses) {
                Value &sum = accAt(k, u - use.dz);
                sum = LLVM::FMAOp::create(
                    *b, weightValue(use.index, use.weight), v, sum);
              }
          });
      // The column's loads and FMAs before the next column's
      // (emitOrderingFence, as in the staged kernel's register tiling).
      emitOrderingFence(acc);
    }

    // Local output plane i - r_z is complete; it is one of the block's
    // planes where haloZ <= i - r_z < haloZ + rows (a uniform condition).
    SmallVector<Value> values;
    for (int64_t k = 0; k < outputs; ++k) {
      Value &done = accAt(k, u - rz);
      values.push_back(done);
      done = zeroAcc;
    }
    Value localZ = addConst(i, -rz);
    Value own = arith::AndIOp::create(
        *b,
        arith::CmpIOp::create(*b, arith::CmpIPredicate::uge, localZ,
                              cst(haloZ)),
        arith::CmpIOp::create(*b, arith::CmpIPredicate::ult, localZ,
                              addConst(rows, haloZ)));
    auto ifOwn = scf::IfOp::create(*b, own, /*withElseRegion=*/false);
    b->setInsertionPointToStart(ifOwn.thenBlock());
    storeOutputs(/*first=*/0, values,
                 addConst(add(origin[0], localZ), -haloZ));
    b->setInsertionPointAfter(ifOwn);
  }
  SmallVector<Value> yielded(acc);
  llvm::append_range(yielded, pending);
  scf::YieldOp::create(*b, yielded);
}
