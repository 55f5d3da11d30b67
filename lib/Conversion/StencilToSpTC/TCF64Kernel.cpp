//===- TCF64Kernel.cpp - The f64 mma.sync row-form kernel -----------------===//
//
// The kernel of a `stencil.row_gemm` on f64 grids: SPIDER's dense row form
// (SPIDER, section 4.4, "w. TC") on the f64 Tensor Core,
// `mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64` (PTX ISA, "Matrix
// Fragments for mma.m8n8k4 with .f64 floating point type"; sm_80 and later).
//
// The math (Support/SpTCPacking.h, TCF64CoefficientLayout). For a kernel row
// o at (dz, dy) with 1-D weights w_o(dx), |dx| <= r_x, the contribution to
// 8 rows by 8 consecutive outputs starting at x_0 is
//     C[m][n] += Sum_c Sum_k In[m + dy][x_0 - r_x + 4c + k] B_c[k][n],
//     B_c[k][n] = w_o(4c + k - n - r_x),  c < C = ceil((8 + 2 r_x) / 4),
// so each K-chunk c is one m8n8k4 with A = 8 rows x 4 inputs. Unlike the f16
// kernel, A holds the inputs and B the weights, so that lane (g, t) ends
// with two consecutive outputs (g, 2t) and (g, 2t + 1). The n-tiles j of a
// warp start 8 apart, so input chunk q of the warp feeds n-tile j as its
// chunk c = q - 2j: every A fragment is loaded once per m-tile and kernel
// row and feeds up to ceil(C / 2) MMAs.
//
// Kernel outline, for a block at (z_0, y_0, x_0):
//   1. the block stages its input tile with the halo into shared memory
//      (zero outside the grid), consecutive threads on consecutive x;
//   2. for every kernel row: each lane loads its C weights (one f64 per
//      chunk, from the packed coefficients), then for every m-tile and input
//      chunk one f64 of A from shared memory and the MMAs it feeds;
//   3. every accumulator that is an interior point is stored.
// The shared-memory pitch is 4 mod 8 doubles, so the four rows a half-warp's
// 64-bit A loads touch fall into distinct 32-byte bank groups.
//
//===----------------------------------------------------------------------===//

#include "TCF64Kernel.h"
#include "MmaKernelBuilder.h"

#include "stencil/Conversion/StencilGPUCommon/KernelABI.h"
#include "stencil/Conversion/StencilGPUCommon/MmaF64.h"
#include "stencil/Support/SpTCPacking.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

using namespace mlir;
using namespace mlir::stencil;

namespace {
class TCF64KernelBuilder : MmaKernelBuilder {
public:
  TCF64KernelBuilder(RowFormOpInterface op, const TCF64Geometry &geometry)
      : op(op), geo(geometry) {}

  gpu::GPUFuncOp build(OpBuilder &moduleBuilder, StringRef name);

private:
  void stageTile();
  Value loadWeight(int64_t row, int64_t chunk);
  void computeAndStore();
  void storeOutputs(int64_t mTile, ArrayRef<SmallVector<Value, 2>> acc);

  RowFormOpInterface op;
  const TCF64Geometry &geo;
};
} // namespace

gpu::GPUFuncOp TCF64KernelBuilder::build(OpBuilder &moduleBuilder,
                                         StringRef name) {
  gpu::GPUFuncOp func = beginKernel(
      moduleBuilder, op.getLoc(), name, Float64Type::get(op.getContext()),
      geo.rank, geo.smemElements(), geo.threads(), geo.tile);
  stageTile();
  gpu::BarrierOp::create(*b);
  computeAndStore();
  gpu::ReturnOp::create(*b);
  return func;
}

/// Step 1: element e of the shared tile for e = tid, tid + threads, ...
/// (plane, row, column in row-major order), zero outside the grid.
void TCF64KernelBuilder::stageTile() {
  Type f64 = b->getF64Type();
  int64_t rank = geo.rank;
  Value step = cst(geo.threads());
  Value upper = cst(geo.smemElements());
  auto loop = scf::ForOp::create(*b, tid, upper, step);
  OpBuilder::InsertionGuard guard(*b);
  b->setInsertionPointToStart(loop.getBody());
  Value e = loop.getInductionVar();
  Value col = arith::RemUIOp::create(*b, e, cst(geo.pitch));
  Value rows = cst(geo.rows);
  Value row = arith::DivUIOp::create(*b, e, cst(geo.pitch));
  Value rowIndex = arith::RemUIOp::create(*b, row, rows);
  SmallVector<Value> coords(rank);
  if (rank == 1) {
    Value x = addConst(col, -geo.radii[0]);
    Value segmentStart = add(origin[0], mul(rowIndex, cst(geo.segment)));
    coords[0] = add(segmentStart, x);
  } else {
    coords[rank - 1] = add(origin[rank - 1], addConst(col, -geo.radii[rank - 1]));
    coords[rank - 2] =
        add(origin[rank - 2], addConst(rowIndex, -geo.radii[rank - 2]));
    if (rank == 3) {
      Value plane =
          arith::DivUIOp::create(*b, e, cst(geo.rows * geo.pitch));
      coords[0] = add(origin[0], addConst(plane, -geo.radii[0]));
    }
  }
  Value inside;
  for (int64_t d = 0; d < rank; ++d) {
    Value inDim = isWithin(*b, coords[d], sizes[d], /*margin=*/0);
    inside = inside ? arith::AndIOp::create(*b, inside, inDim) : inDim;
  }
  auto ifOp = scf::IfOp::create(*b, TypeRange{f64}, inside,
                                /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard g(*b);
    b->setInsertionPointToStart(&ifOp.getThenRegion().front());
    Value linear = getLinearIndex(*b, coords, sizes);
    scf::YieldOp::create(*b, ValueRange{memref::LoadOp::create(
                                 *b, in, ValueRange{linear})});
    b->setInsertionPointToStart(&ifOp.getElseRegion().front());
    scf::YieldOp::create(
        *b, ValueRange{arith::ConstantOp::create(*b, b->getZeroAttr(f64))});
  }
  memref::StoreOp::create(*b, ifOp.getResult(0), smem, ValueRange{e});
}

/// The lane's b_0 of kernel row `row`, chunk `chunk`: two words, low first.
Value TCF64KernelBuilder::loadWeight(int64_t row, int64_t chunk) {
  TCF64CoefficientLayout layout{op.getNumRows(), geo.radii.back()};
  Value words = vector::LoadOp::create(
      *b, VectorType::get({2}, b->getI32Type()), coef,
      ValueRange{addConst(mul(lane, cst(2)), layout.word(row, chunk, 0))},
      /*nontemporal=*/false, llvm::MaybeAlign(8));
  Value asDouble = vector::BitCastOp::create(
      *b, VectorType::get({1}, b->getF64Type()), words);
  return vector::ExtractOp::create(*b, asDouble, ArrayRef<int64_t>{0});
}

/// Step 2: the MMAs of every kernel row, m-tile and input chunk.
void TCF64KernelBuilder::computeAndStore() {
  Type f64 = b->getF64Type();
  int64_t rank = geo.rank, outerRank = rank - 1;
  ArrayRef<int64_t> rowOffsets = op.getRowOffsets();

  // a_0 of lane (g, t) for m-tile i and chunk q of row (dz, dy) is the
  // shared element at laneBase + constant (column 8 n-tiles x warp + 4q + t
  // of row 8i + g + r_y + dy, plane r_z + dz).
  Value warpColumn = mul(warp, cst(8 * geo.nTiles));
  Value groupBase = add(mul(groupId, cst(geo.pitch)), threadInGroup);
  Value laneBase = add(groupBase, warpColumn);
  Value zero = arith::ConstantOp::create(*b, b->getZeroAttr(f64));
  SmallVector<SmallVector<SmallVector<Value, 2>>> acc(
      geo.mTiles, SmallVector<SmallVector<Value, 2>>(
                      geo.nTiles, SmallVector<Value, 2>(2, zero)));
  for (int64_t o = 0, e = op.getNumRows(); o < e; ++o) {
    ArrayRef<int64_t> outer = rowOffsets.slice(o * outerRank, outerRank);
    int64_t rowConstant = 0;
    if (rank >= 2)
      rowConstant += (geo.radii[rank - 2] + outer[rank - 2]) * geo.pitch;
    if (rank == 3)
      rowConstant += (geo.radii[0] + outer[0]) * geo.rows * geo.pitch;
    SmallVector<Value> weights;
    for (int64_t c = 0; c < geo.chunks; ++c)
      weights.push_back(loadWeight(o, c));
    for (int64_t i = 0; i < geo.mTiles;) {
      // m-tiles i and i + 1 (rows g and g + 8) in one m16n8k4, or i alone.
      int64_t group = geo.pairMTiles && i + 1 < geo.mTiles ? 2 : 1;
      for (int64_t q = 0; q < geo.chunksPerWarp(); ++q) {
        SmallVector<Value, 2> a;
        for (int64_t h = 0; h < group; ++h)
          a.push_back(memref::LoadOp::create(
              *b, smem,
              ValueRange{addConst(laneBase, rowConstant +
                                                8 * (i + h) * geo.pitch +
                                                4 * q)}));
        for (int64_t j = 0; j < geo.nTiles; ++j) {
          int64_t c = q - 2 * j;
          if (c < 0 || c >= geo.chunks)
            continue;
          if (group == 2) {
            SmallVector<Value, 4> cIn = {acc[i][j][0], acc[i][j][1],
                                         acc[i + 1][j][0], acc[i + 1][j][1]};
            SmallVector<Value, 4> d = createMmaF64(*b, a, weights[c], cIn);
            acc[i][j].assign({d[0], d[1]});
            acc[i + 1][j].assign({d[2], d[3]});
            continue;
          }
          SmallVector<Value, 4> d =
              createMmaF64(*b, a[0], weights[c], acc[i][j]);
          acc[i][j].assign({d[0], d[1]});
        }
      }
      i += group;
    }
  }
  for (int64_t i = 0; i < geo.mTiles; ++i)
    storeOutputs(i, acc[i]);
}

/// Step 3: c_k of lane (g, t) in m-tile i and n-tile j is the output at row
/// m = 8i + g (y_0 + m, or segment m in 1-D) and column 8 (n-tiles x warp
/// + j) + 2t + k, stored where it is an interior point.
void TCF64KernelBuilder::storeOutputs(int64_t mTile,
                                      ArrayRef<SmallVector<Value, 2>> acc) {
  int64_t rank = geo.rank;
  Value m = addConst(groupId, 8 * mTile);
  Value laneColumn = mul(threadInGroup, cst(2));
  Value warpColumn = mul(warp, cst(8 * geo.nTiles));
  Value columnBase = add(warpColumn, laneColumn);
  for (int64_t j = 0; j < geo.nTiles; ++j) {
    for (unsigned k = 0; k < 2; ++k) {
      Value column = addConst(columnBase, 8 * j + k);
      SmallVector<Value> coords(origin);
      if (rank == 1) {
        coords[0] = add(add(origin[0], mul(m, cst(geo.segment))), column);
      } else {
        coords[rank - 1] = add(origin[rank - 1], column);
        coords[rank - 2] = add(origin[rank - 2], m);
      }
      Value interior;
      for (int64_t d = 0; d < rank; ++d) {
        Value inDim = isWithin(*b, coords[d], sizes[d], geo.radii[d]);
        interior = interior ? arith::AndIOp::create(*b, interior, inDim)
                            : inDim;
      }
      Value value = acc[j][k];
      scf::IfOp::create(*b, interior, [&](OpBuilder &then, Location loc) {
        ImplicitLocOpBuilder nested(loc, then);
        Value linear = getLinearIndex(nested, coords, sizes);
        memref::StoreOp::create(nested, value, out, ValueRange{linear});
        scf::YieldOp::create(nested);
      });
    }
  }
}

gpu::GPUFuncOp mlir::stencil::buildTCF64Kernel(OpBuilder &moduleBuilder,
                                               RowFormOpInterface op,
                                               const TCF64Geometry &geometry,
                                               StringRef name) {
  return TCF64KernelBuilder(op, geometry).build(moduleBuilder, name);
}
