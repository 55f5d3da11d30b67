//===- Wgmma.cpp - Warpgroup MMAs of the GPU kernels ----------------------===//

#include "stencil/Conversion/StencilGPUCommon/Wgmma.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include "llvm/ADT/StringExtras.h"

#include <cassert>

using namespace mlir;
using namespace mlir::stencil;

/// The PTX of one warpgroup MMA `opcode` (`wgmma.mma_async...m64n<N>k<K>...`)
/// writing the N / 2 f32 accumulators $0 .. $(N/2 - 1), reading the four A
/// registers that follow the tied accumulators and then `operands` more
/// ($2h + 4 ..), with scale-d true (D += A B) and `tail` after them.
static std::string getWarpgroupMmaPtx(const std::string &opcode, int64_t n,
                                      int64_t operands,
                                      const std::string &tail) {
  int64_t h = n / 2;
  std::string d;
  for (int64_t i = 0; i < h; ++i)
    d += (i ? ", $" : "$") + std::to_string(i);
  // Inputs: the tied accumulators ($h .. $2h - 1), A, then the operands.
  int64_t a = 2 * h;
  std::string text = "{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n" + opcode +
                     " {" + d + "}, {$" + std::to_string(a) + ", $" +
                     std::to_string(a + 1) + ", $" + std::to_string(a + 2) +
                     ", $" + std::to_string(a + 3) + "}";
  for (int64_t i = 0; i < operands; ++i)
    text += ", $" + std::to_string(a + 4 + i);
  // scale-d is a predicate operand: true, D += A B.
  return text + tail + ", p, 1, 1, 0;\n}";
}

std::string mlir::stencil::getWgmmaSpPtx(int64_t n, unsigned selector) {
  assert(n >= 8 && n <= 256 && n % 8 == 0 && selector < 2 && "no such wgmma");
  // Operands: the descriptor and the metadata; then the sparsity selector.
  return getWarpgroupMmaPtx("wgmma.mma_async.sp.sync.aligned.m64n" +
                                std::to_string(n) + "k32.f32.f16.f16",
                            n, 2, ", " + std::to_string(selector));
}

std::string mlir::stencil::getWgmmaPtx(int64_t n) {
  assert(n >= 8 && n <= 256 && n % 8 == 0 && "no such wgmma");
  // Operand: the descriptor.
  return getWarpgroupMmaPtx("wgmma.mma_async.sync.aligned.m64n" +
                                std::to_string(n) + "k16.f32.f16.f16",
                            n, 1, "");
}

/// An inline assembly returning `outputs` f32 values tied to the first
/// operands.
static SmallVector<Value> createTiedAsm(ImplicitLocOpBuilder &b,
                                        ArrayRef<Value> tied,
                                        ArrayRef<Value> others,
                                        StringRef others_constraints,
                                        StringRef text) {
  int64_t h = tied.size();
  SmallVector<std::string> constraints;
  for (int64_t i = 0; i < h; ++i)
    constraints.push_back("=f");
  for (int64_t i = 0; i < h; ++i)
    constraints.push_back(std::to_string(i));
  std::string all = llvm::join(constraints, ",");
  if (!others_constraints.empty())
    all += "," + others_constraints.str();
  SmallVector<Type> types(h, b.getF32Type());
  auto resultType = LLVM::LLVMStructType::getLiteral(b.getContext(), types);
  SmallVector<Value> operands(tied);
  operands.append(others.begin(), others.end());
  auto asmOp = LLVM::InlineAsmOp::create(
      b, resultType, operands, text, all, /*has_side_effects=*/true,
      /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
      /*operand_attrs=*/ArrayAttr());
  SmallVector<Value> results;
  for (int64_t i = 0; i < h; ++i)
    results.push_back(LLVM::ExtractValueOp::create(b, asmOp.getResult(0),
                                                   ArrayRef<int64_t>{i}));
  return results;
}

SmallVector<Value>
mlir::stencil::createWgmmaSp(ImplicitLocOpBuilder &b, ArrayRef<Value> acc,
                             ArrayRef<Value> a, Value descriptor,
                             Value metadata, unsigned selector) {
  assert(a.size() == 4 && "four A registers");
  SmallVector<Value> others(a);
  others.push_back(descriptor);
  others.push_back(metadata);
  return createTiedAsm(b, acc, others, "r,r,r,r,l,r",
                       getWgmmaSpPtx(2 * acc.size(), selector));
}

SmallVector<Value> mlir::stencil::createWgmma(ImplicitLocOpBuilder &b,
                                              ArrayRef<Value> acc,
                                              ArrayRef<Value> a,
                                              Value descriptor) {
  assert(a.size() == 4 && "four A registers");
  SmallVector<Value> others(a);
  others.push_back(descriptor);
  return createTiedAsm(b, acc, others, "r,r,r,r,l",
                       getWgmmaPtx(2 * acc.size()));
}

SmallVector<Value> mlir::stencil::fenceAccumulators(ImplicitLocOpBuilder &b,
                                                    ArrayRef<Value> acc) {
  return createTiedAsm(b, acc, {}, "", "");
}
