//===- MmaF64.cpp - f64 warp MMAs of the GPU kernels ----------------------===//

#include "stencil/Conversion/StencilGPUCommon/MmaF64.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

#include <cassert>

using namespace mlir;
using namespace mlir::stencil;

SmallVector<Value, 4> mlir::stencil::createMmaF64(ImplicitLocOpBuilder &b,
                                                  ArrayRef<Value> a,
                                                  Value bValue,
                                                  ArrayRef<Value> c) {
  assert(((a.size() == 1 && c.size() == 2) ||
          (a.size() == 2 && c.size() == 4)) &&
         "m8n8k4 or m16n8k4 fragments");
  Type f64 = b.getF64Type();
  SmallVector<Value, 4> d;
  if (a.size() == 1) {
    auto resultType =
        LLVM::LLVMStructType::getLiteral(b.getContext(), {f64, f64});
    auto mma = NVVM::MmaOp::create(
        b, resultType, ValueRange{a[0]}, ValueRange{bValue}, c,
        ArrayRef<int64_t>{8, 8, 4}, std::nullopt, std::nullopt,
        std::array<NVVM::MMATypes, 2>{NVVM::MMATypes::f64,
                                      NVVM::MMATypes::f64},
        std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                       NVVM::MMALayout::col});
    for (int64_t k = 0; k < 2; ++k)
      d.push_back(LLVM::ExtractValueOp::create(b, mma.getRes(),
                                               ArrayRef<int64_t>{k}));
    return d;
  }
  // MLIR's nvvm.mma.sync verifies f64 for m8n8k4 only, so m16n8k4 is inline
  // PTX (no side effects: it may be scheduled freely).
  auto resultType =
      LLVM::LLVMStructType::getLiteral(b.getContext(), {f64, f64, f64, f64});
  SmallVector<Value> operands(a);
  operands.push_back(bValue);
  operands.append(c.begin(), c.end());
  auto asmOp = LLVM::InlineAsmOp::create(
      b, resultType, operands,
      "mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 "
      "{$0, $1, $2, $3}, {$4, $5}, {$6}, {$7, $8, $9, $10};",
      "=d,=d,=d,=d,d,d,d,d,d,d,d", /*has_side_effects=*/false,
      /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
      /*operand_attrs=*/ArrayAttr());
  for (int64_t k = 0; k < 4; ++k)
    d.push_back(LLVM::ExtractValueOp::create(b, asmOp.getResult(0),
                                             ArrayRef<int64_t>{k}));
  return d;
}
