//===- RoundTripTest.cpp - print/parse keeps every number's bits ----------===//
//
// Issue 12: printing must not lose what parsing gives back. Random stencils
// with random f64 weights (full 53-bit mantissas, subnormals, -0.0, huge and
// tiny magnitudes), random Dirichlet values and random constants in general
// bodies are taken through every pass that produces a new op or attribute
// carrying numbers:
//
//   stencil.linear / stencil.apply        weights, boundary_value, constants
//   stencil.low_rank                      u, v
//   stencil.row_gemm                      kernels, column_weights
//   stencil.sparse_row_gemm               values (f16), indices
//   packed coefficients, launch records   (the GPU conversions)
//
// and at each stage the module is printed (custom and generic form), parsed
// back, and compared op by op: same names, same result types, and the same
// attribute dictionary. Attributes are uniqued in a context, so the same
// dictionary means the same bits of every number.
//
//===----------------------------------------------------------------------===//

#include "stencil/InitAll.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <random>
#include <set>

using namespace mlir;

namespace {

/// A random f64 from a mix of the cases that lose bits when printed short.
double randomWeight(std::mt19937_64 &rng) {
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  switch (rng() % 8) {
  case 0:
    return uniform(rng) * 1e-300; // tiny
  case 1:
    return uniform(rng) * 1e300; // huge
  case 2:
    return std::ldexp(double(rng() % 1000 + 1), -1074); // subnormal
  case 3:
    return rng() % 2 ? -0.0 : 0.1 + 0.2; // -0.0 and 0.30000000000000004
  default: {
    // Any finite double, bit pattern chosen directly.
    uint64_t bits = rng();
    double d;
    std::memcpy(&d, &bits, sizeof d);
    return std::isfinite(d) ? d : uniform(rng);
  }
  }
}

/// 17 significant digits: the exact double when parsed back (C11 7.21.6.1),
/// with the '.' MLIR's float literals need ("-0" -> "-0.0", "1e+300" ->
/// "1.0e+300").
std::string literal(double d) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", d);
  std::string s = text;
  if (s.find('.') == std::string::npos)
    s.insert(std::min(s.find('e'), s.size()), ".0");
  return s;
}

struct RandomStencil {
  std::string text;             // the program, numbers with 17 digits
  std::vector<double> numbers;  // the f64 numbers it carries, in order
  unsigned rank;
};

RandomStencil makeStencil(std::mt19937_64 &rng, bool general) {
  static const char *types[] = {"f16", "f32", "f64", "bf16"};
  RandomStencil s;
  s.rank = 1 + rng() % 3;
  std::string type = types[rng() % 4];
  std::string grid = "memref<";
  for (unsigned d = 0; d < s.rank; ++d)
    grid += "?x";
  grid += type + ">";

  // Distinct random offsets in [-3, 3]^rank, always including the centre.
  std::set<std::vector<int64_t>> offsets = {std::vector<int64_t>(s.rank, 0)};
  unsigned points = 1 + rng() % (s.rank == 1 ? 7 : 8); // 7 offsets in 1-D
  while (offsets.size() < points) {
    std::vector<int64_t> o;
    for (unsigned d = 0; d < s.rank; ++d)
      o.push_back(int64_t(rng() % 7) - 3);
    offsets.insert(o);
  }

  std::string boundary;
  switch (rng() % 3) {
  case 0:
    break;
  case 1:
    boundary = " boundary periodic";
    break;
  default: {
    // A value the grid's element type holds (a larger one is an error).
    double largest = type == "f16"    ? 65504.0
                     : type == "bf16" ? 3.3e38 // below bf16's 3.39e38
                     : type == "f32" ? double(std::numeric_limits<float>::max())
                                     : std::numeric_limits<double>::max();
    double v = randomWeight(rng);
    while (std::fabs(v) > largest)
      v = randomWeight(rng);
    boundary = " boundary dirichlet(" + literal(v) + ")";
    s.numbers.push_back(v);
  }
  }
  std::string steps = " steps " + std::to_string(1 + rng() % 3);

  std::string body;
  if (!general) {
    std::string pattern, weights;
    for (const std::vector<int64_t> &o : offsets) {
      pattern += pattern.empty() ? "[" : ", [";
      for (unsigned d = 0; d < s.rank; ++d)
        pattern += (d ? ", " : "") + std::to_string(o[d]);
      pattern += "]";
      double w = randomWeight(rng);
      s.numbers.push_back(w);
      weights += (weights.empty() ? "" : ", ") + literal(w);
    }
    body = "  stencil.linear %in -> %out pattern <[" + pattern +
           "]> weights [" + weights + "]" + steps + boundary + " : " + grid +
           "\n";
  } else {
    // sum_i c_i * in[p + o_i] with f64 constants, computed in f64.
    body = "  stencil.apply %in -> %out" + steps + boundary + " : " + grid +
           " {\n";
    std::string acc;
    unsigned i = 0;
    for (const std::vector<int64_t> &o : offsets) {
      std::string idx = std::to_string(i++);
      std::string access = "    %a" + idx + " = stencil.access [";
      for (unsigned d = 0; d < s.rank; ++d)
        access += (d ? ", " : "") + std::to_string(o[d]);
      body += access + "] : " + type + "\n";
      std::string x = "%a" + idx;
      if (type != "f64") {
        body += "    %x" + idx + " = arith.extf %a" + idx + " : " + type +
                " to f64\n";
        x = "%x" + idx;
      }
      double c = randomWeight(rng);
      s.numbers.push_back(c);
      body += "    %c" + idx + " = arith.constant " + literal(c) + " : f64\n";
      body += "    %t" + idx + " = arith.mulf %c" + idx + ", " + x + " : f64\n";
      if (acc.empty()) {
        acc = "%t" + idx;
      } else {
        body += "    %s" + idx + " = arith.addf " + acc + ", %t" + idx +
                " : f64\n";
        acc = "%s" + idx;
      }
    }
    if (type != "f64") {
      body += "    %r = arith.truncf " + acc + " : f64 to " + type + "\n";
      acc = "%r";
    }
    body += "    stencil.yield " + acc + " : " + type + "\n  }\n";
  }
  s.text = "func.func @f(%in: " + grid + ", %out: " + grid + ") {\n" + body +
           "  return\n}\n";
  return s;
}

class RoundTrip : public ::testing::Test {
protected:
  static void SetUpTestSuite() { stencil::registerAllStencilPasses(); }

  RoundTrip() {
    DialectRegistry registry;
    registerAllDialects(registry);
    registerAllExtensions(registry);
    stencil::registerAllStencilDialects(registry);
    context = std::make_unique<MLIRContext>(registry);
    context->disableMultithreading();
    // Passes that reject a random stencil say so; keep the output quiet.
    context->getDiagEngine().registerHandler([](Diagnostic &diag) {
      if (std::getenv("ROUNDTRIP_VERBOSE"))
        llvm::errs() << diag << "\n";
      return success();
    });
  }

  OwningOpRef<ModuleOp> parse(StringRef text) {
    return parseSourceString<ModuleOp>(text, context.get());
  }

  static std::string print(ModuleOp module, bool generic) {
    std::string text;
    llvm::raw_string_ostream os(text);
    OpPrintingFlags flags;
    if (generic)
      flags.printGenericOpForm();
    module->print(os, flags);
    return text;
  }

  static std::string str(Attribute attr) {
    std::string text;
    llvm::raw_string_ostream(text) << attr;
    return text;
  }

  /// Every attribute of either dictionary is the same (uniqued, so the same
  /// bits) in the other, except that the printer elides an ODS default
  /// (`nontemporal = false`), which the parser leaves unset.
  static bool sameAttributes(DictionaryAttr a, DictionaryAttr b) {
    auto covered = [](DictionaryAttr from, DictionaryAttr to) {
      return llvm::all_of(from, [&](NamedAttribute attr) {
        Attribute other = to.get(attr.getName());
        if (!other) {
          auto flag = dyn_cast<BoolAttr>(attr.getValue());
          return flag && !flag.getValue();
        }
        return other == attr.getValue();
      });
    };
    return covered(a, b) && covered(b, a);
  }

  /// Same ops, result types and attributes (hence bits), in the same order.
  static void expectSameIR(ModuleOp a, ModuleOp b, const std::string &stage) {
    SmallVector<Operation *> opsA, opsB;
    a->walk([&](Operation *op) { opsA.push_back(op); });
    b->walk([&](Operation *op) { opsB.push_back(op); });
    ASSERT_EQ(opsA.size(), opsB.size()) << stage;
    for (auto [x, y] : llvm::zip(opsA, opsB)) {
      ASSERT_EQ(x->getName(), y->getName()) << stage;
      EXPECT_EQ(x->getResultTypes(), y->getResultTypes()) << stage;
      EXPECT_TRUE(sameAttributes(x->getAttrDictionary(),
                                 y->getAttrDictionary()))
          << stage << ": " << x->getName().getStringRef().str()
          << " lost bits:\n"
          << str(x->getAttrDictionary()) << "\nbecame\n"
          << str(y->getAttrDictionary());
    }
  }

  /// Prints `module` both ways and checks each parses back to the same IR.
  void checkRoundTrip(ModuleOp module, const std::string &stage) {
    for (bool generic : {false, true}) {
      std::string text = print(module, generic);
      OwningOpRef<ModuleOp> back = parse(text);
      ASSERT_TRUE(back) << stage << " does not parse back:\n" << text;
      expectSameIR(module, *back, stage);
    }
  }

  std::unique_ptr<MLIRContext> context;
};

/// The stages: a pass pipeline on the parsed program, and the op the stage
/// exists for (a stage counts as checked only where that op is present).
const std::vector<std::pair<const char *, const char *>> kStages = {
    {"", "func.func"},
    {"stencil-low-rank", "stencil.low_rank"},
    {"stencil-low-rank,stencil-decompose", "stencil.row_gemm"},
    {"stencil-decompose", "stencil.row_gemm"},
    {"stencil-decompose,stencil-strided-swap,stencil-encode-2to4,"
     "stencil-fold-row-swap",
     "stencil.sparse_row_gemm"},
    {"stencil-decompose,stencil-strided-swap,stencil-encode-2to4,"
     "stencil-fold-row-swap,stencil-sptc-tile,stencil-sptc-pack,"
     "convert-stencil-to-sptc",
     "gpu.module"},
    {"stencil-decompose,stencil-fold-row-swap,stencil-sptc-tile,"
     "stencil-sptc-pack,convert-stencil-to-sptc",
     "gpu.module"},
    {"convert-stencil-to-cuda-core", "gpu.module"},
};

TEST_F(RoundTrip, EveryNumberKeepsItsBits) {
  std::mt19937_64 rng(20261123);
  std::map<std::string, unsigned> checked;
  for (unsigned trial = 0; trial < 120; ++trial) {
    bool general = trial % 4 == 3;
    RandomStencil s = makeStencil(rng, general);
    OwningOpRef<ModuleOp> source = parse(s.text);
    ASSERT_TRUE(source) << s.text;

    // The input carries exactly the numbers drawn (so the test's own text is
    // not where bits get lost).
    std::vector<double> parsed;
    source->walk([&](Operation *op) {
      if (auto w = op->getAttrOfType<DenseF64ArrayAttr>("weights"))
        parsed.insert(parsed.end(), w.asArrayRef().begin(),
                      w.asArrayRef().end());
      if (auto v = op->getAttrOfType<FloatAttr>("boundary_value"))
        parsed.insert(parsed.begin(), v.getValueAsDouble());
      if (auto c = dyn_cast<arith::ConstantOp>(op))
        if (auto f = dyn_cast<FloatAttr>(c.getValue()))
          parsed.push_back(f.getValueAsDouble());
    });
    ASSERT_EQ(parsed.size(), s.numbers.size()) << s.text;
    for (auto [want, got] : llvm::zip(s.numbers, parsed))
      ASSERT_EQ(std::memcmp(&want, &got, sizeof want), 0) << s.text;

    for (auto [pipeline, op] : kStages) {
      OwningOpRef<ModuleOp> module = source->clone();
      PassManager pm(context.get());
      if (*pipeline) {
        ASSERT_TRUE(succeeded(parsePassPipeline(pipeline, pm))) << pipeline;
      }
      if (failed(pm.run(*module)))
        continue; // This stencil is not for this pipeline.
      bool present = false;
      module->walk([&](Operation *o) {
        present |= o->getName().getStringRef() == op;
      });
      if (!present)
        continue;
      std::string stage = std::string(op) + " after '" + pipeline + "'";
      checkRoundTrip(*module, stage);
      if (HasFatalFailure() || HasFailure()) {
        ADD_FAILURE() << "input:\n" << s.text;
        return;
      }
      ++checked[stage];
    }
  }
  // Every stage was reached by some random stencil: the test cannot pass by
  // skipping everything.
  for (auto [pipeline, op] : kStages) {
    std::string stage = std::string(op) + " after '" + pipeline + "'";
    EXPECT_GT(checked[stage], 0u) << stage << " was never checked";
  }
}

/// The defect of issue 12 itself: a weight with 17 significant digits.
TEST_F(RoundTrip, SeventeenDigitWeight) {
  OwningOpRef<ModuleOp> module = parse(
      "func.func @f(%in: memref<?xf64>, %out: memref<?xf64>) {\n"
      "  stencil.linear %in -> %out pattern <[[0]]> weights "
      "[0.12345678901234567] : memref<?xf64>\n  return\n}\n");
  ASSERT_TRUE(module);
  std::string text = print(*module, /*generic=*/false);
  EXPECT_EQ(text.find("1.234568e-01"), std::string::npos) << text;
  checkRoundTrip(*module, "stencil.linear");
}

} // namespace
