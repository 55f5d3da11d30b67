//===- CudaCorePointBody.cpp - The per-point body of a CUDA-core kernel ---===//
//
// What each schedule's points compute, from the values its index function
// finds in shared memory (CudaCoreKernelBuilder::compute): a linear
// stencil's register tiling along y (unrolled, or for many points a loop
// over constant tables of the points), its weights (immediates or the
// runtime's weights global), the ordering fences that keep LLVM from
// sinking the FMAs, and a stencil.apply's body cloned once per point.
//
//===----------------------------------------------------------------------===//

#include "CudaCoreKernelBuilder.h"
#include "stencil/Conversion/StencilGPUCommon/KernelABI.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
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
SmallVector<Value>
CudaCoreKernelBuilder::computeLinear(int64_t count, SmemIndexFn index,
                                     SmemLoopIndexFn loopIndex) {
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
      columns[column][offset[rank - 2]] = {offset, weight.first, weight.second};
    }
    for (const auto &[column, rows] : columns)
      for (const auto &[dy, point] : rows)
        points.push_back(point);
  }
  // The weights: entries of spec.weightsGlobal where every entry is one
  // point (the runtime may overwrite them), else a table of their own.
  bool fromGlobal =
      !spec.weightsGlobal.empty() &&
      llvm::all_of(points, [](const LoopPoint &p) { return p.index >= 0; });
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
CudaCoreKernelBuilder::computeLinearLoop(int64_t count, SmemLoopIndexFn index) {
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
  Value weight = table.weights.empty()
                     ? loadTableEntry(*b, spec.weightsGlobal, accType,
                                      entry(rank), kConstantAddressSpace)
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
