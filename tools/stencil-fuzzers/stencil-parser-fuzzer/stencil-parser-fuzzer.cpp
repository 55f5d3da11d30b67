//===- stencil-parser-fuzzer.cpp - Parse, verify, print round trip --------===//
//
// libFuzzer target over the stencil dialect's parser, verifiers and printer,
// with the dialects a stencil program is written in (func, arith, math,
// memref). Every input that parses and verifies must
//
//  1. print (custom form) to text that parses back and prints identically:
//     print/parse is a fixed point, so no attribute loses bits;
//  2. print in the generic form to text that parses back to the same IR;
//
// anything else aborts. Inputs that do not parse or verify are fine: the
// property there is "no crash, no hang, no sanitizer report", which
// libFuzzer and the sanitizers check.
//
//   stencil-parser-fuzzer -dict=test/Fuzz/mlir.dict CORPUS test/Fuzz/corpus/parser
//
//===----------------------------------------------------------------------===//

#include "StencilFuzzing.h"

#include "stencil/Dialect/Stencil/IR/StencilDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace stencil_fuzz;

static std::unique_ptr<MLIRContext> makeContext() {
  DialectRegistry registry;
  registry.insert<stencil::StencilDialect, func::FuncDialect,
                  arith::ArithDialect, math::MathDialect,
                  memref::MemRefDialect>();
  auto context = std::make_unique<MLIRContext>(registry);
  context->loadAllAvailableDialects();
  return context;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static ContextPool pool(makeContext, /*period=*/4096);
  MLIRContext &context = pool.get();
  ErrorCounter errors(context);

  StringRef input(reinterpret_cast<const char *>(data), size);
  OwningOpRef<ModuleOp> module = parse(context, input);
  if (!module)
    return 0;

  // 1. The custom form is a fixed point of print/parse.
  std::string printed = print(*module);
  OwningOpRef<ModuleOp> reparsed = parse(context, printed);
  if (!reparsed)
    fail("the printed form of valid IR does not parse back", printed);
  std::string reprinted = print(*reparsed);
  if (reprinted != printed)
    fail("print/parse is not a fixed point",
         "first print:\n" + printed + "\nafter a round trip:\n" + reprinted);

  // 2. The generic form parses back to the same IR.
  std::string generic = print(*module, /*generic=*/true);
  OwningOpRef<ModuleOp> fromGeneric = parse(context, generic);
  if (!fromGeneric)
    fail("the generic form of valid IR does not parse back", generic);
  if (print(*fromGeneric) != printed)
    fail("the generic form does not round trip",
         "custom form:\n" + printed + "\ngeneric form:\n" + generic);
  return 0;
}
