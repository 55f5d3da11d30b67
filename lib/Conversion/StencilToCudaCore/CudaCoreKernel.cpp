//===- CudaCoreKernel.cpp - The CUDA-core kernel builder ------------------===//
//
// The staged kernel of `--convert-stencil-to-cuda-core` (the whole tile in
// shared memory; the streamed 3-D sweep is CudaCoreStreaming.cpp) and the
// choice of the tiling; the tiling is described in the pass description
// (Conversion/Passes.td) and its arithmetic lives in
// Support/CudaCoreTiling.h.
//
// Kernel outline, for a block whose first output is (z0, y0, x0) and t =
// `fused-steps` time steps per launch (halo h_d = t r_d):
//   1. the block stages in[z0 - h_z .., y0 - h_y .., x0 - h_x ..] (tile plus
//      halo) into shared memory; outside the grid it stages zero (halo
//      boundary: never read by a computed point), the wrapped point
//      (periodic) or the boundary value (Dirichlet);
//   2. with t > 1, steps 1 .. t - 1 each compute their (shrinking) region of
//      the tile from one shared buffer into the other, rounded to the
//      element type; points the boundary does not compute keep their value
//      (the halo: the input's; outside the grid under Dirichlet: the
//      boundary value; periodic computes every position, each being the
//      value of its wrapped grid point) (a barrier after each step);
//   3. each thread computes its outputs of the last step from shared memory:
//      register tiling along y for stencil.linear, the cloned body for
//      stencil.apply;
//   4. every output the boundary computes is stored: the interior
//      r_d <= i_d < N_d - r_d (halo), every grid point (the others).
//
// Band mode (CudaCoreKernelSpec::bandMargins m_d; the band kernel of a
// Tensor Core kernel of t composed steps, Support/StepComposition.h): the
// grid is one-dimensional, block b takes the tile BandTiling::decode(b)
// names (the same arithmetic in IR, bandBlockOrigin), and step 4 stores only
// the interior points outside the exact region [m_d, N_d - m_d), which the
// composed kernel has computed. Steps 1-3 are unchanged: a band point's t
// direct steps read the same tile and halo as in a full-grid launch.
//
//===----------------------------------------------------------------------===//

#include "CudaCoreKernelBuilder.h"
#include "stencil/Conversion/StencilGPUCommon/KernelABI.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/Transforms/RegionUtils.h"

#include <map>

using namespace mlir;
using namespace mlir::stencil;
using namespace mlir::stencil::detail;

/// NVPTX's constant address space (`.const`): loads from a fixed address
/// there become constant-bank operands of the FMAs, like immediates.
static constexpr unsigned kConstantAddressSpace = 4;

gpu::GPUFuncOp CudaCoreKernelBuilder::build(OpBuilder &moduleBuilder,
                                            StringRef name) {
  Location loc = spec.loc;
  StencilKernel kernel =
      createStencilKernel(moduleBuilder, loc, name, elementType, geo.rank,
                          geo.sharedElements(), geo.threads());
  b.emplace(
      ImplicitLocOpBuilder::atBlockBegin(loc, &kernel.func.getBody().front()));
  kernelName = name.str();
  in = kernel.in;
  out = kernel.out;
  sizes = kernel.sizes;
  smem = kernel.smem;

  tid = gpu::ThreadIdOp::create(*b, gpu::Dimension::x);
  tx = arith::RemUIOp::create(*b, tid, cst(geo.threadsX));
  ty = arith::DivUIOp::create(*b, tid, cst(geo.threadsX));
  origin = spec.bandMargins.empty() ? getBlockOrigin(*b, geo.tile)
                                    : bandBlockOrigin();
  if (geo.rowGroups()) {
    buildRowGroups();
    gpu::ReturnOp::create(*b);
    return kernel.func;
  }
  if (geo.rowStream()) {
    buildRowStream();
    gpu::ReturnOp::create(*b);
    return kernel.func;
  }
  if (geo.stream) {
    buildStream();
    gpu::ReturnOp::create(*b);
    return kernel.func;
  }

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
  gpu::ReturnOp::create(*b);
  return kernel.func;
}

/// BandTiling (Support/StepComposition.h) in IR, for block b = blockIdx.x:
/// n_d, lo_d, hi_d (getBandTiling), then the decode, dimension by
/// dimension, with selects in place of its early return: at dimension d, b <
/// e_d (the edge slabs' tiles) decodes the rest row-major, else b - e_d
/// continues in the inner slabs.
SmallVector<Value> CudaCoreKernelBuilder::bandBlockOrigin() {
  int64_t rank = geo.rank;
  BandTilingValues band = getBandTiling(*b, sizes, geo.tile, spec.bandMargins);
  ArrayRef<Value> n = band.counts, lo = band.lo, hi = band.hi;
  auto sub = [&](Value x, Value y) -> Value {
    return arith::SubIOp::create(*b, x, y);
  };
  auto select = [&](Value c, Value x, Value y) -> Value {
    return arith::SelectOp::create(*b, c, x, y);
  };
  Value rem = gpu::BlockIdOp::create(*b, gpu::Dimension::x);
  Value found = arith::ConstantIntOp::create(*b, b->getI1Type(), 0);
  SmallVector<Value> j(rank);
  for (int64_t d = 0; d < rank; ++d) {
    // The sub-grid of the dimensions after d: all its tiles, its inner ones.
    Value fullSub = cst(1), innerSub = cst(1);
    for (int64_t k = d + 1; k < rank; ++k) {
      fullSub = mul(fullSub, n[k]);
      innerSub = mul(innerSub, sub(hi[k], lo[k]));
    }
    Value edge = mul(sub(n[d], sub(hi[d], lo[d])), fullSub);
    // b in an edge slab: its slab i (below lo_d, or from hi_d on), then the
    // sub-grid's tiles row-major.
    Value inEdge =
        arith::CmpIOp::create(*b, arith::CmpIPredicate::ult, rem, edge);
    Value notFound = logicalNot(found);
    Value takeEdge = arith::AndIOp::create(*b, notFound, inEdge);
    Value i = arith::DivUIOp::create(*b, rem, fullSub);
    Value below =
        arith::CmpIOp::create(*b, arith::CmpIPredicate::ult, i, lo[d]);
    SmallVector<Value> edgeJ(rank);
    edgeJ[d] = select(below, i, add(sub(i, lo[d]), hi[d]));
    Value r = arith::RemUIOp::create(*b, rem, fullSub);
    for (int64_t k = rank - 1; k > d; --k) {
      edgeJ[k] = arith::RemUIOp::create(*b, r, n[k]);
      r = arith::DivUIOp::create(*b, r, n[k]);
    }
    for (int64_t k = d; k < rank; ++k)
      j[k] = j[k] ? select(takeEdge, edgeJ[k], j[k]) : edgeJ[k];
    found = arith::OrIOp::create(*b, found, takeEdge);
    if (d == rank - 1)
      break;
    // Else an inner slab of bandSub band tiles each (the divisor is kept
    // non-zero where no inner slab has any: there every band tile is in an
    // edge slab, and this path is never taken).
    Value inner = sub(rem, edge);
    Value one = cst(1);
    Value bandTiles = sub(fullSub, innerSub);
    Value bandSub = arith::MaxUIOp::create(*b, bandTiles, one);
    j[d] = select(found, j[d],
                  add(lo[d], arith::DivUIOp::create(*b, inner, bandSub)));
    rem = select(found, rem, arith::RemUIOp::create(*b, inner, bandSub));
  }
  SmallVector<Value> blockOrigin;
  for (int64_t d = 0; d < rank; ++d)
    blockOrigin.push_back(geo.tile[d] == 1 ? j[d]
                                           : mul(j[d], cst(geo.tile[d])));
  return blockOrigin;
}

/// Step 1: local position p of the shared-memory tile gets
/// in[origin - halo + p]; outside the grid: zero (halo), the boundary value
/// (Dirichlet), or in at the coordinates wrapped modulo N_d (periodic; a
/// fused kernel's halo may wrap more than once).
///
/// Thread `tid` stages the row-major positions e = tid + j * threads (evenly
/// spread, coalesced), in groups of kStagingLoadsInFlight: a group's loads
/// are all issued before its stores, so that a thread waits for one global
/// load latency per group instead of one per element (a loop with one load
/// and one store per iteration serialized them; on Heat-2D f16 the staging
/// then dominated the kernel). Within a group, the positions' row and column
/// follow from the group's first one by constants and one carry, so a
/// position costs no division.
void CudaCoreKernelBuilder::stageTile(Value planeZ, Value destBase) {
  if (vectorStaging) {
    stagingStores(vectorStagingLoads(planeZ), destBase);
    return;
  }
  int64_t total = planeZ ? geo.planeSize() : geo.smemSize;
  int64_t threads = geo.threads();
  int64_t perThread = llvm::divideCeil(total, threads);
  // As few groups as the limit allows, balanced (9 positions: 5 + 4, not
  // 8 + 1), so that few positions past the tile cost address arithmetic.
  int64_t groups = llvm::divideCeil(perThread, kStagingLoadsInFlight);
  int64_t group = llvm::divideCeil(perThread, groups);
  // Positions past the tile exist only when the groups overshoot it.
  bool guard = groups * group * threads > total;
  auto stageGroup = [&](Value first) {
    stagingStores(stagingLoads(first, group, guard, planeZ), destBase);
  };
  if (groups == 1) {
    stageGroup(tid);
    return;
  }
  Value one = cst(1);
  Value groupCount = cst(groups);
  Value zero = cst(0);
  auto loop = scf::ForOp::create(*b, zero, groupCount, one);
  OpBuilder::InsertionGuard insertion(*b);
  b->setInsertionPointToStart(loop.getBody());
  stageGroup(add(tid, mul(loop.getInductionVar(), cst(group * threads))));
}

StagingValues CudaCoreKernelBuilder::stagingLoads(Value first, int64_t count,
                                                  bool guard, Value planeZ) {
  int64_t rank = geo.rank;
  int64_t total = planeZ ? geo.planeSize() : geo.smemSize;
  int64_t threads = geo.threads();
  int64_t rowLength = geo.smemShape[rank - 1];
  // Without the guard every position is in the tile: `inside` starts true.
  Value alwaysInside =
      guard ? Value() : arith::ConstantIntOp::create(*b, b->getI1Type(), 1);
  Value row0, column0;
  if (rank > 1) {
    row0 = arith::DivUIOp::create(*b, first, cst(rowLength));
    column0 = arith::RemUIOp::create(*b, first, cst(rowLength));
  }
  StagingValues staged;
  for (int64_t j = 0; j < count; ++j) {
    Value e = addConst(first, j * threads);
    // Null when every position of the groups is in the tile.
    Value isValid;
    if (guard)
      isValid =
          arith::CmpIOp::create(*b, arith::CmpIPredicate::ult, e, cst(total));
    Value inside = isValid ? isValid : alwaysInside;
    Value linear;
    if (rank == 1) {
      linear = stagingCoord(0, e, inside);
    } else {
      // column = column0 + j * threads mod L, carrying into the row.
      int64_t step = (j * threads) % rowLength;
      Value column = addConst(column0, step);
      Value row = addConst(row0, (j * threads) / rowLength);
      if (step != 0) {
        Value carry = arith::CmpIOp::create(*b, arith::CmpIPredicate::uge,
                                            column, cst(rowLength));
        column = arith::SelectOp::create(*b, carry,
                                         addConst(column, -rowLength), column);
        row = arith::SelectOp::create(*b, carry, addConst(row, 1), row);
      }
      SmallVector<Value> coords;
      if (planeZ)
        coords.push_back(stagingCoord(0, planeZ, inside));
      for (int64_t d = planeZ ? 1 : 0; d < rank - 1; ++d) {
        Value local = row;
        if (d > 0)
          local = arith::RemUIOp::create(*b, local, cst(geo.smemShape[d]));
        if (d < rank - 2)
          local = arith::DivUIOp::create(*b, local, cst(geo.smemShape[d + 1]));
        coords.push_back(stagingCoord(d, local, inside));
      }
      coords.push_back(stagingCoord(rank - 1, column, inside));
      linear = gridIndex(coords);
    }
    staged.values.push_back(loadElement(linear, inside, isValid));
    staged.valid.push_back(isValid);
    staged.positions.push_back(e);
  }
  return staged;
}

void CudaCoreKernelBuilder::stagingStores(const StagingValues &staged,
                                          Value destBase) {
  // A vector (vector columns) is stored whole, aligned to its size.
  auto store = [&](Value value, Value index) {
    if (auto vectorType = dyn_cast<VectorType>(value.getType()))
      vector::StoreOp::create(*b, value, smem, ValueRange{index},
                              /*nontemporal=*/false,
                              llvm::MaybeAlign(getVectorBytes(vectorType)));
    else
      memref::StoreOp::create(*b, value, smem, ValueRange{index});
  };
  for (auto [value, isValid, e] :
       llvm::zip(staged.values, staged.valid, staged.positions)) {
    Value index = destBase ? add(destBase, e) : e;
    if (!isValid) {
      store(value, index);
      continue;
    }
    auto ifOp = scf::IfOp::create(*b, isValid, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard insertion(*b);
    b->setInsertionPointToStart(ifOp.thenBlock());
    store(value, index);
  }
}

Value CudaCoreKernelBuilder::stagingCoord(int64_t d, Value local,
                                          Value &inside) {
  // Operands in locals: C++ leaves the order of argument evaluation open,
  // and the IR must not depend on the host compiler (g++ and clang++ built
  // the two ops in opposite orders).
  Value position = add(origin[d], local);
  Value halo = cst(geo.halo[d]);
  Value coord = arith::SubIOp::create(*b, position, halo);
  if (interiorYX && d > 0)
    return coord;
  if (boundary != BoundaryKind::periodic) {
    inside = arith::AndIOp::create(*b, inside,
                                   isWithin(*b, coord, sizes[d], /*margin=*/0));
    return coord;
  }
  // ((c mod N) + N) mod N, with the signed remainder of c >= -halo.
  Value rem = arith::RemSIOp::create(*b, coord, sizes[d]);
  Value negative =
      arith::CmpIOp::create(*b, arith::CmpIPredicate::slt, rem, cst(0));
  return arith::SelectOp::create(*b, negative, add(rem, sizes[d]), rem);
}

Value CudaCoreKernelBuilder::loadElement(Value linear, Value inside,
                                         Value valid, VectorType vectorType) {
  // One element, or a whole vector aligned to its size.
  auto load = [&](OpBuilder &builder, Location loc) -> Value {
    if (vectorType)
      return vector::LoadOp::create(
          builder, loc, vectorType, in, ValueRange{linear},
          /*nontemporal=*/false, llvm::MaybeAlign(getVectorBytes(vectorType)));
    return memref::LoadOp::create(builder, loc, in, ValueRange{linear});
  };
  // Periodic coordinates are always in the grid: only positions past the
  // tile skip the load.
  Value condition = inside;
  if (boundary == BoundaryKind::periodic) {
    if (!valid)
      return load(*b, b->getLoc());
    condition = valid;
  }
  double outsideValue =
      boundary == BoundaryKind::dirichlet ? boundaryValue : 0.0;
  auto ifOp = scf::IfOp::create(
      *b, condition,
      [&](OpBuilder &then, Location loc) {
        scf::YieldOp::create(then, loc, load(then, loc));
      },
      [&](OpBuilder &otherwise, Location loc) {
        TypedAttr outside = otherwise.getFloatAttr(elementType, outsideValue);
        if (vectorType)
          outside = DenseElementsAttr::get(vectorType, outside);
        scf::YieldOp::create(
            otherwise, loc,
            arith::ConstantOp::create(otherwise, loc, outside).getResult());
      });
  return ifOp.getResult(0);
}

/// The streamed 3-D kernels of 16- and 32-bit grids address a point as the
/// start of its plane, z N_y N_x, hidden from LLVM, plus its index in the
/// plane. Without the opaque start, loop strength reduction turned each of
/// a thread's staged and stored rows into its own 64-bit pointer stepped by
/// the plane's size (18 of them in f16 Heat-3D with 8 outputs per thread,
/// each used through a further 64-bit add): those cost registers (95 -> 80
/// there) and two adds per access. On an H200 (bench/NOTES.md, "Plane
/// starts") this gains 3-14% in f16 and up to 8% in f32; f64 kernels, bound
/// by memory, went -33% to +12% by tiling, and keep the linear index.
bool CudaCoreKernelBuilder::hasOpaquePlaneStarts() const {
  return geo.stream && geo.rank == 3 && !elementType.isF64();
}

Value CudaCoreKernelBuilder::gridIndex(ArrayRef<Value> coords) {
  if (!hasOpaquePlaneStarts())
    return getLinearIndex(*b, coords, sizes);
  Value start = planeStart(coords[0]);
  return add(start, add(mul(coords[1], sizes[2]), coords[2]));
}

Value CudaCoreKernelBuilder::planeStart(Value z) {
  Value start = mul(z, mul(sizes[1], sizes[2]));
  if (hasOpaquePlaneStarts())
    start = hideFromOptimizer(*b, start);
  return start;
}

SmallVector<Value> CudaCoreKernelBuilder::unitOrigin(int64_t step, Value unit) {
  int64_t rank = geo.rank;
  SmallVector<int64_t> lo = geo.regionLo(step);
  SmallVector<int64_t> shape = geo.regionShape(step);
  if (rank == 1)
    return {addConst(unit, lo[0])};
  SmallVector<Value> local(rank);
  int64_t groups = geo.numRowGroups(step);
  Value x = arith::RemUIOp::create(*b, unit, cst(shape[rank - 1]));
  Value rest = arith::DivUIOp::create(*b, unit, cst(shape[rank - 1]));
  Value group =
      rank == 2 ? rest : arith::RemUIOp::create(*b, rest, cst(groups));
  Value y = mul(group, cst(geo.outputs));
  // The last group of a column ends at the region's last row.
  if (shape[rank - 2] % geo.outputs != 0)
    y = arith::MinUIOp::create(*b, y, cst(shape[rank - 2] - geo.outputs));
  local[rank - 1] = addConst(x, lo[rank - 1]);
  local[rank - 2] = addConst(y, lo[rank - 2]);
  if (rank == 3)
    local[0] = addConst(arith::DivUIOp::create(*b, rest, cst(groups)), lo[0]);
  return local;
}

SmallVector<Value> CudaCoreKernelBuilder::beginUnitLoop(int64_t step,
                                                        int64_t units) {
  Value threads = cst(geo.threads());
  Value count = cst(units);
  auto loop = scf::ForOp::create(*b, tid, count, threads);
  b->setInsertionPointToStart(loop.getBody());
  return unitOrigin(step, loop.getInductionVar());
}

scf::ForOp CudaCoreKernelBuilder::beginCountedLoop(Value count,
                                                   ValueRange inits) {
  Value one = cst(1);
  Value zero = cst(0);
  auto loop = scf::ForOp::create(*b, zero, count, one, inits);
  b->setInsertionPointToStart(loop.getBody());
  return loop;
}

/// Step 2 (fused steps only): the region of `step` in work units taken
/// round-robin by the threads, from one shared buffer into the other. As in
/// a one-step launch, the points the boundary computes get the stencil's
/// value rounded to the element type and every other point keeps its value
/// (halo: the halo keeps the input's, and points outside the grid are never
/// read by an interior point; Dirichlet: points outside the grid keep the
/// boundary value).
void CudaCoreKernelBuilder::computeIntermediateStep(int64_t step) {
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

Value CudaCoreKernelBuilder::nextStepValue(Value value, ArrayRef<Value> local,
                                           function_ref<Value()> oldIndex) {
  Value next = toElementType(value);
  if (boundary == BoundaryKind::periodic)
    return next;
  Value computed = isWritten(gridCoords(local));
  Value old = memref::LoadOp::create(*b, smem, ValueRange{oldIndex()});
  return arith::SelectOp::create(*b, computed, next, old);
}

SmallVector<Value> CudaCoreKernelBuilder::outputCoords(int64_t k) {
  SmallVector<Value> coords(origin);
  int64_t rank = geo.rank;
  if (rank == 1) {
    coords[0] = add(origin[0], addConst(tid, k * geo.threads()));
  } else {
    coords[rank - 1] = add(origin[rank - 1], tx);
    coords[rank - 2] = add(
        origin[rank - 2], addConst(mul(ty, cst(geo.outputs)), k % geo.outputs));
    if (rank == 3)
      coords[0] = addConst(origin[0], k / geo.outputs);
  }
  return coords;
}

SmallVector<Value> CudaCoreKernelBuilder::gridCoords(ArrayRef<Value> local) {
  SmallVector<Value> coords;
  for (int64_t d = 0; d < geo.rank; ++d) {
    Value halo = cst(geo.halo[d]);
    Value staged = add(origin[d], local[d]);
    coords.push_back(arith::SubIOp::create(*b, staged, halo));
  }
  return coords;
}

Value CudaCoreKernelBuilder::isWithinAll(ArrayRef<Value> coords,
                                         ArrayRef<int64_t> margins,
                                         std::pair<int64_t, int64_t> dims) {
  Value all;
  int64_t end = dims.second < 0 ? geo.rank : dims.second;
  for (int64_t d = dims.first; d < end; ++d) {
    if (interiorYX && d > 0)
      continue;
    Value inDim = isWithin(*b, coords[d], sizes[d], margins[d]);
    all = all ? arith::AndIOp::create(*b, all, inDim) : inDim;
  }
  return all;
}

Value CudaCoreKernelBuilder::isWritten(ArrayRef<Value> coords,
                                       std::pair<int64_t, int64_t> dims) {
  return boundary == BoundaryKind::halo
             ? isWithinAll(coords, geo.radii, dims)
             : isWithinAll(coords, SmallVector<int64_t>(geo.rank, 0), dims);
}

Value CudaCoreKernelBuilder::isStored(ArrayRef<Value> coords) {
  Value written = isWritten(coords);
  if (spec.bandMargins.empty())
    return written;
  Value exact = isWithinAll(coords, spec.bandMargins);
  return arith::AndIOp::create(*b, written, logicalNot(exact));
}

Value CudaCoreKernelBuilder::logicalNot(Value condition) {
  return arith::XOrIOp::create(
      *b, condition, arith::ConstantIntOp::create(*b, b->getI1Type(), 1));
}

Value CudaCoreKernelBuilder::toElementType(Value value) {
  return value.getType() == elementType
             ? value
             : arith::TruncFOp::create(*b, elementType, value).getResult();
}

Value CudaCoreKernelBuilder::smemIndex(int64_t k, ArrayRef<int64_t> offset) {
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

void mlir::stencil::createCudaCoreWeightsGlobal(gpu::GPUModuleOp gpuModule,
                                                Location loc, StringRef name,
                                                ArrayRef<double> weights,
                                                Type accType) {
  OpBuilder builder = OpBuilder::atBlockBegin(gpuModule.getBody());
  auto type = RankedTensorType::get({int64_t(weights.size())}, accType);
  SmallVector<Attribute> values;
  for (double w : weights)
    values.push_back(builder.getFloatAttr(accType, w));
  auto global = LLVM::GlobalOp::create(
      builder, loc, LLVM::LLVMArrayType::get(accType, weights.size()),
      /*isConstant=*/false, LLVM::Linkage::External, name,
      DenseElementsAttr::get(type, values), /*alignment=*/8,
      kConstantAddressSpace);
  // Spelled out as the parser fills it in, so that a print/parse round
  // trip gives the same op.
  global.setUnnamedAddr(LLVM::UnnamedAddr::None);
}

SmallVector<Value> CudaCoreKernelBuilder::compute(int64_t count,
                                                  SmemIndexFn index,
                                                  SmemLoopIndexFn loopIndex) {
  if (linear)
    return computeLinear(count, index, loopIndex);
  return computeApply(spec.apply, count, index);
}

/// Step 3, stencil.linear: register tiling along y (pass description): the
/// `count` points are consecutive along y (independent points in 1-D).
SmallVector<Value> CudaCoreKernelBuilder::computeLinear(
    int64_t count, SmemIndexFn index, SmemLoopIndexFn loopIndex) {
  if (sumsInLoop()) {
    if (loopIndex)
      return computeLinearLoop(count, loopIndex);
    // Every index but the ring's is linear in the offset.
    SmallVector<int64_t> origin(geo.rank, 0);
    SmallVector<Value> bases;
    for (int64_t k = 0; k < count; ++k)
      bases.push_back(index(k, origin));
    return computeLinearLoop(count, [&](int64_t k, ArrayRef<Value> offset) {
      Value linear = bases[k];
      for (int64_t d = 0; d < geo.rank; ++d)
        linear = add(linear, geo.smemStrides[d] == 1
                                 ? offset[d]
                                 : mul(offset[d], cst(geo.smemStrides[d])));
      return linear;
    });
  }
  const LinearStencil &pattern = *linear;
  ArrayRef<double> weights = linear->weights;
  int64_t rank = geo.rank;
  Value zero = arith::ConstantOp::create(*b, b->getZeroAttr(accType));
  SmallVector<Value> acc(count, zero);
  auto extend = [&](Value v) -> Value {
    return v.getType() == accType ? v : arith::ExtFOp::create(*b, accType, v);
  };
  auto weight = [&](int64_t i, double w) { return weightValue(i, w); };
  auto fma = [&](Value weight, Value v, Value a) -> Value {
    // llvm.intr.fma: fma.rn in PTX, without libdevice (math.fma becomes a
    // call to __nv_fmaf).
    return LLVM::FMAOp::create(*b, weight, extend(v), a);
  };
  if (rank == 1) {
    for (int64_t k = 0; k < count; ++k)
      for (unsigned i = 0; i < pattern.getNumPoints(); ++i) {
        Value v = memref::LoadOp::create(
            *b, smem, ValueRange{index(k, pattern.getPoint(i))});
        acc[k] = fma(weight(i, weights[i]), v, acc[k]);
      }
    return acc;
  }
  // Columns: the offset without its y, mapped to (dy -> weight and its
  // point, -1 where several points share the offset and their weights add).
  std::map<SmallVector<int64_t>, std::map<int64_t, std::pair<double, int64_t>>>
      columns;
  for (const auto &[offset, weight] : summedPoints()) {
    SmallVector<int64_t> column(offset);
    column[rank - 2] = 0;
    columns[column][offset[rank - 2]] = weight;
  }
  for (const auto &[column, rows] : columns) {
    forEachColumnRow(
        rows, count,
        [&](int64_t iy,
            ArrayRef<std::pair<int64_t, const std::pair<double, int64_t> *>>
                uses) {
          SmallVector<int64_t> offset(column);
          offset[rank - 2] = iy;
          Value v =
              memref::LoadOp::create(*b, smem, ValueRange{index(0, offset)});
          for (auto [k, w] : uses)
            acc[k] = fma(weight(w->second, w->first), v, acc[k]);
        });
    emitOrderingFence(acc);
  }
  return acc;
}

/// The loop form's points in the order computeLinear adds them to each
/// output: (offset, summed weight, point index or -1).
namespace {
struct LoopPoint {
  SmallVector<int64_t> offset;
  double weight;
  int64_t index;
};
} // namespace

const CudaCoreKernelBuilder::PointTables &CudaCoreKernelBuilder::pointTables() {
  if (tables)
    return *tables;
  int64_t rank = geo.rank;
  SmallVector<LoopPoint> points;
  if (rank == 1) {
    // The 1-D form adds the points in the pattern's order, unsummed.
    for (unsigned i = 0; i < linear->getNumPoints(); ++i)
      points.push_back({SmallVector<int64_t>(linear->getPoint(i)),
                        linear->weights[i], int64_t(i)});
  } else {
    // Columns (the offset without its y), then dy ascending (forEachColumnRow
    // adds row iy to output k through dy = iy - k, iy ascending).
    std::map<SmallVector<int64_t>, std::map<int64_t, LoopPoint>> columns;
    for (const auto &[offset, weight] : summedPoints()) {
      SmallVector<int64_t> column(offset);
      column[rank - 2] = 0;
      columns[column][offset[rank - 2]] = {offset, weight.first,
                                           weight.second};
    }
    for (const auto &[column, rows] : columns)
      for (const auto &[dy, point] : rows)
        points.push_back(point);
  }
  // The weights: entries of spec.weightsGlobal where every entry is one
  // point (the runtime may overwrite them), else a table of their own.
  bool fromGlobal = !spec.weightsGlobal.empty() &&
                    llvm::all_of(points, [](const LoopPoint &p) {
                      return p.index >= 0;
                    });
  SmallVector<int32_t> ints;
  SmallVector<Attribute> weights;
  for (const LoopPoint &p : points) {
    for (int64_t o : p.offset)
      ints.push_back(int32_t(o)); // |o| < 48 KiB: the tile holds 2 r + 1.
    ints.push_back(int32_t(p.index));
    weights.push_back(b->getFloatAttr(accType, p.weight));
  }

  auto gpuModule =
      b->getBlock()->getParentOp()->getParentOfType<gpu::GPUModuleOp>();
  tables.emplace();
  tables->numEntries = points.size();
  tables->offsets = createConstantTable(
      gpuModule, spec.loc, kernelName + "_points",
      DenseElementsAttr::get(
          RankedTensorType::get({int64_t(ints.size())}, b->getI32Type()),
          ArrayRef<int32_t>(ints)));
  if (!fromGlobal)
    tables->weights = createConstantTable(
        gpuModule, spec.loc, kernelName + "_point_weights",
        DenseElementsAttr::get(
            RankedTensorType::get({int64_t(weights.size())}, accType),
            weights));
  return *tables;
}

SmallVector<Value>
CudaCoreKernelBuilder::computeLinearLoop(int64_t count,
                                         SmemLoopIndexFn index) {
  const PointTables &table = pointTables();
  int64_t rank = geo.rank;
  Type i32 = b->getI32Type();
  Value zero = arith::ConstantOp::create(*b, b->getZeroAttr(accType));
  Value one = cst(1);
  Value entries = cst(table.numEntries);
  Value first = cst(0);
  auto loop = scf::ForOp::create(*b, first, entries, one,
                                 SmallVector<Value>(count, zero));
  OpBuilder::InsertionGuard guard(*b);
  b->setInsertionPointToStart(loop.getBody());
  Value e = loop.getInductionVar();
  // Entry e: offsets o_0 .. o_{R-1}, then the point's index.
  Value row = mul(e, cst(rank + 1));
  auto entry = [&](int64_t column) -> Value {
    return arith::IndexCastOp::create(
        *b, b->getIndexType(),
        loadTableEntry(*b, table.offsets, i32, addConst(row, column)));
  };
  SmallVector<Value> offset;
  for (int64_t d = 0; d < rank; ++d)
    offset.push_back(entry(d));
  Value weight =
      table.weights.empty()
          ? loadTableEntry(*b, spec.weightsGlobal, accType, entry(rank),
                           kConstantAddressSpace)
          : loadTableEntry(*b, table.weights, accType, e);
  SmallVector<Value> acc(loop.getRegionIterArgs());
  for (int64_t k = 0; k < count; ++k) {
    Value v = memref::LoadOp::create(*b, smem, ValueRange{index(k, offset)});
    if (v.getType() != accType)
      v = arith::ExtFOp::create(*b, accType, v);
    acc[k] = LLVM::FMAOp::create(*b, weight, v, acc[k]);
  }
  scf::YieldOp::create(*b, acc);
  return SmallVector<Value>(loop.getResults());
}

std::map<SmallVector<int64_t>, std::pair<double, int64_t>>
CudaCoreKernelBuilder::summedPoints() const {
  std::map<SmallVector<int64_t>, std::pair<double, int64_t>> points;
  for (unsigned i = 0; i < linear->getNumPoints(); ++i) {
    auto [it, inserted] = points.try_emplace(
        SmallVector<int64_t>(linear->getPoint(i)), linear->weights[i], i);
    if (!inserted) {
      it->second.first += linear->weights[i];
      it->second.second = -1;
    }
  }
  return points;
}

Value CudaCoreKernelBuilder::weightValue(int64_t i, double w) {
  if (spec.weightsGlobal.empty() || i < 0)
    return arith::ConstantOp::create(*b, b->getFloatAttr(accType, w));
  auto pointer =
      LLVM::LLVMPointerType::get(b->getContext(), kConstantAddressSpace);
  Value base = LLVM::AddressOfOp::create(*b, pointer, spec.weightsGlobal);
  Value address = LLVM::GEPOp::create(*b, pointer, accType, base,
                                      ArrayRef<LLVM::GEPArg>{int32_t(i)});
  return LLVM::LoadOp::create(*b, accType, address);
}

/// LLVM's instruction selection for NVPTX (at -O1 and above) would sink the
/// FMAs of every column below all the column loops' shared-memory loads,
/// grouped per accumulator, so that every loaded value stays live until the
/// last output uses it: box 15x15 in f64 then spilled 2.3 KB per thread
/// (ptxas -v) and ran at 1.3 GStencil/s. An empty volatile inline asm that
/// reads the accumulators after each column keeps the column's loads and
/// FMAs before it (it has side effects, so no load moves across it, and it
/// uses the FMAs' results); it emits no instruction, and ptxas still
/// schedules freely.
void CudaCoreKernelBuilder::emitOrderingFence(ValueRange values) {
  std::string constraints;
  for (auto [i, value] : llvm::enumerate(values))
    constraints +=
        std::string(i ? "," : "") + (value.getType().isF64() ? "d" : "f");
  LLVM::InlineAsmOp::create(*b, TypeRange{}, values, /*asm_string=*/"",
                            constraints, /*has_side_effects=*/true,
                            /*is_align_stack=*/false, LLVM::TailCallKind::None,
                            LLVM::AsmDialectAttr(), ArrayAttr());
}

/// Step 3, stencil.apply: the body, once per point, reading shared memory.
SmallVector<Value> CudaCoreKernelBuilder::computeApply(ApplyOp apply,
                                                       int64_t count,
                                                       SmemIndexFn index) {
  // Constants the body uses from above are cloned into the kernel (convert()
  // rejects any other value from above).
  IRMapping constants;
  SetVector<Value> fromAbove;
  getUsedValuesDefinedAbove(apply.getBody(), fromAbove);
  for (Value value : fromAbove)
    b->clone(*value.getDefiningOp(), constants);
  SmallVector<Value> values;
  for (int64_t k = 0; k < count; ++k) {
    IRMapping mapping(constants);
    for (Operation &bodyOp : apply.getBody().front()) {
      if (auto access = dyn_cast<AccessOp>(bodyOp)) {
        mapping.map(access.getResult(),
                    memref::LoadOp::create(
                        *b, smem, ValueRange{index(k, access.getOffset())})
                        .getResult());
        continue;
      }
      if (auto yield = dyn_cast<YieldOp>(bodyOp)) {
        values.push_back(mapping.lookup(yield.getValue()));
        continue;
      }
      b->clone(bodyOp, mapping);
    }
  }
  return values;
}

/// Step 4: the outputs the boundary computes (isWritten).
void CudaCoreKernelBuilder::storeOutputs(int64_t first, ArrayRef<Value> values,
                                         Value z) {
  for (auto [i, value] : llvm::enumerate(values)) {
    SmallVector<Value> coords = outputCoords(first + i);
    if (z)
      coords[0] = z;
    Value written = isStored(coords);
    Value linear = gridIndex(coords);
    Value stored = toElementType(value);
    scf::IfOp::create(*b, written, [&](OpBuilder &then, Location loc) {
      memref::StoreOp::create(then, loc, stored, out, ValueRange{linear});
      scf::YieldOp::create(then, loc);
    });
  }
}

gpu::GPUFuncOp mlir::stencil::buildCudaCoreKernel(
    OpBuilder &moduleBuilder, const CudaCoreKernelSpec &spec,
    const CudaCoreTiling &tiling, StringRef name) {
  assert((spec.linear || spec.apply) && "a kernel computes a stencil");
  assert((spec.bandMargins.empty() || !tiling.stream) &&
         "band kernels stage their tiles");
  assert((spec.bandMargins.empty() ||
          (spec.boundary == BoundaryKind::halo &&
           int64_t(spec.bandMargins.size()) == tiling.rank)) &&
         "band mode is for the halo boundary, one margin per dimension");
  CudaCoreKernelBuilder builder(spec, tiling);
  return builder.build(moduleBuilder, name);
}

int64_t mlir::stencil::getCudaCoreSharedBytes(const CudaCoreTiling &tiling,
                                              Type elementType) {
  return tiling.sharedElements() * elementType.getIntOrFloatBitWidth() / 8;
}

std::optional<unsigned>
mlir::stencil::findTooWideDimension(ArrayRef<int64_t> radii, int64_t steps,
                                    Type elementType) {
  int64_t elementBytes = elementType.getIntOrFloatBitWidth() / 8;
  for (auto [d, r] : llvm::enumerate(radii))
    if ((2 * steps * r + 1) * elementBytes > kMaxCudaCoreSharedBytes)
      return d;
  return std::nullopt;
}

CudaCoreTiling mlir::stencil::chooseCudaCoreTiling(
    ArrayRef<int64_t> radii, int64_t threadsX, int64_t threadsY,
    int64_t outputsPerThread, int64_t steps, int64_t planes, Type elementType,
    bool stream, bool planeSums, int64_t vectorWidth, int64_t rowPhases) {
  if (stream && radii.size() == 2)
    return CudaCoreTiling(radii, threadsX, threadsY, outputsPerThread, steps,
                          planes == 0 ? kDefaultRowStreamRows : planes,
                          /*stream=*/true, /*planeSums=*/false,
                          /*vectorWidth=*/1, rowPhases);
  stream = stream && radii.size() == 3;
  auto fits = [&](int64_t outputs, int64_t tilePlanes) {
    return getCudaCoreSharedBytes(
               CudaCoreTiling(radii, threadsX, threadsY, outputs, steps,
                              tilePlanes, stream, planeSums, vectorWidth),
               elementType) <= kMaxCudaCoreSharedBytes;
  };
  // A streamed block's planes do not change its shared memory.
  int64_t streamPlanes = planes == 0 ? kDefaultStreamPlanes : planes;
  int64_t outputs = outputsPerThread;
  if (outputs == 0) {
    outputs = 1;
    for (int64_t candidate : {4, 2})
      if (fits(candidate, stream ? streamPlanes : (planes == 0 ? 1 : planes))) {
        outputs = candidate;
        break;
      }
  }
  if (stream)
    return CudaCoreTiling(radii, threadsX, threadsY, outputs, steps,
                          streamPlanes, /*stream=*/true, planeSums,
                          vectorWidth);
  int64_t tilePlanes = planes == 0 ? 1 : planes;
  if (planes == 0 && radii.size() == 3)
    for (int64_t candidate : {8, 4, 2})
      if (fits(outputs, candidate)) {
        tilePlanes = candidate;
        break;
      }
  return CudaCoreTiling(radii, threadsX, threadsY, outputs, steps, tilePlanes);
}
