//===- CudaCoreKernelBuilder.cpp - What every CUDA-core schedule uses -----===//
//
// The base of the CUDA-core kernel builders (CudaCoreKernelBuilder.h): the
// kernel's creation and thread and block indices (band mode's block origin
// too: CudaCoreKernel.cpp describes it), the staging of the tile or of one
// plane of it into shared memory, the grid's indices, the boundary's
// predicates, the fused steps' kept values and the stores of the outputs.
// The per-point body is CudaCorePointBody.cpp.
//
//===----------------------------------------------------------------------===//

#include "CudaCoreKernelBuilder.h"
#include "stencil/Conversion/StencilGPUCommon/KernelABI.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

using namespace mlir;
using namespace mlir::stencil;
using namespace mlir::stencil::detail;

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
  buildBody();
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
