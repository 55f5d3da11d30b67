//===- OptionEnums.h - The enum-valued options of the passes ----*- C++ -*-===//
//
// The options whose values are a fixed set of words, as enums, each with its
// `llvm::cl::values` list: the passes (Passes.td) and the pipelines
// (Pipelines.h) declare them with the same list, so an unknown word is
// refused where the option is parsed (as upstream's SparseTensor passes do)
// and the pass code compares enums, never strings.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_SUPPORT_OPTIONENUMS_H
#define STENCIL_SUPPORT_OPTIONENUMS_H

#include "stencil/Support/GPUTarget.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/CommandLine.h"

namespace mlir {
namespace stencil {

/// `--stencil-flatten route=`: which linear stencils take SparStencil's
/// gathered form.
enum class FlattenRoute { Auto, Matching };
inline llvm::cl::ValuesClass getFlattenRouteValues() {
  return llvm::cl::values(
      clEnumValN(FlattenRoute::Auto, "auto",
                 "flatten only where matching issues fewer MMAs than the "
                 "strided swap"),
      clEnumValN(FlattenRoute::Matching, "matching",
                 "flatten every linear stencil"));
}

/// `--stencil-flatten layouts=`: the layouts exploration may choose.
enum class FlattenLayouts { All, Horizontal };
inline llvm::cl::ValuesClass getFlattenLayoutsValues() {
  return llvm::cl::values(
      clEnumValN(FlattenLayouts::All, "all", "every layout"),
      clEnumValN(FlattenLayouts::Horizontal, "h",
                 "horizontal crushing only, [16, 1]"));
}

/// `--stencil-low-rank method=`: how the rank-K decomposition is found.
enum class LowRankMethod { Auto, Pyramidal, Svd };
inline llvm::cl::ValuesClass getLowRankMethodValues() {
  return llvm::cl::values(
      clEnumValN(LowRankMethod::Auto, "auto",
                 "pyramidal where the weights are row- and column-symmetric, "
                 "else the SVD"),
      clEnumValN(LowRankMethod::Pyramidal, "pyramidal",
                 "LoRAStencil's pyramidal decomposition only"),
      clEnumValN(LowRankMethod::Svd, "svd", "the SVD only"));
}

/// `async-copy=`: how the Tensor Core kernels stage their input.
enum class AsyncCopy { Auto, On, Off };
inline llvm::cl::ValuesClass getAsyncCopyValues() {
  return llvm::cl::values(
      clEnumValN(AsyncCopy::Auto, "auto", "on in 2-D, off otherwise"),
      clEnumValN(AsyncCopy::On, "on", "double-buffered cp.async staging"),
      clEnumValN(AsyncCopy::Off, "off", "synchronous staging"));
}

/// `mma=`: the Tensor Core instruction of the banded kernels.
enum class MmaKind { Warp, Warpgroup, Auto };
inline llvm::cl::ValuesClass getMmaKindValues() {
  return llvm::cl::values(
      clEnumValN(MmaKind::Warp, "warp", "mma.sp / mma.sync, one warp each"),
      clEnumValN(MmaKind::Warpgroup, "warpgroup",
                 "wgmma.mma_async on sm_90a, four warps each"),
      clEnumValN(MmaKind::Auto, "auto",
                 "warpgroup where the chip has it and it was measured "
                 "faster"));
}

/// `f64-shape=`: the f64 mma.sync shape of the DMMA kernels.
enum class F64Shape { M8N8K4, M16N8K4 };
inline llvm::cl::ValuesClass getF64ShapeValues() {
  return llvm::cl::values(
      clEnumValN(F64Shape::M8N8K4, "m8n8k4", "mma.sync.m8n8k4.f64 (sm_80)"),
      clEnumValN(F64Shape::M16N8K4, "m16n8k4",
                 "mma.sync.m16n8k4.f64 (sm_90 and later)"));
}

/// `--convert-stencil-to-cuda-core stream=`: whether a block streams along
/// its outermost dimension.
enum class StreamMode { Off, On, Auto };
inline llvm::cl::ValuesClass getStreamModeValues() {
  return llvm::cl::values(
      clEnumValN(StreamMode::Off, "off", "staged tiles"),
      clEnumValN(StreamMode::On, "on",
                 "3-D: planes through rings; 2-D: the row sweep"),
      clEnumValN(StreamMode::Auto, "auto",
                 "the row sweep where the 2-D stencil gains from it"));
}

/// `explain=`: how much of `--lower-to-auto`'s ranking is printed.
enum class ExplainLevel { None, Ranked, All };
inline llvm::cl::ValuesClass getExplainLevelValues() {
  return llvm::cl::values(
      clEnumValN(ExplainLevel::None, "false", "nothing"),
      clEnumValN(ExplainLevel::Ranked, "true",
                 "the ranked candidates and a count of the rejected ones"),
      clEnumValN(ExplainLevel::All, "all",
                 "each rejected candidate with its reason too"));
}

/// `--stencil-check-target instructions=`: the families of instructions a
/// pipeline's kernels issue, as words separated by commas
/// ("mma.sp,cp.async"; the names of getInstructionsName). One option of this
/// type rather than a ListOption of GPUInstructions: MLIR's ListOption
/// parses its elements with a parser of its own, which does not get the
/// option's cl::values, so an enum list could not be parsed, not even from
/// its printed form. The parser below (llvm::cl::parser<GPUInstructionList>)
/// refuses an unknown word where the option is parsed.
struct GPUInstructionList {
  llvm::SmallVector<GPUInstructions, 4> families;

  bool operator==(const GPUInstructionList &other) const {
    return families == other.families;
  }
  bool operator!=(const GPUInstructionList &other) const {
    return !(*this == other);
  }
};

} // namespace stencil
} // namespace mlir

namespace llvm {
namespace cl {
/// Parses and prints a GPUInstructionList: "fma,cp.async" (empty: none).
template <>
class parser<mlir::stencil::GPUInstructionList>
    : public basic_parser<mlir::stencil::GPUInstructionList> {
public:
  using basic_parser::basic_parser;

  bool parse(Option &option, StringRef, StringRef arg,
             mlir::stencil::GPUInstructionList &value) {
    value.families.clear();
    if (arg.empty())
      return false;
    SmallVector<StringRef> words;
    arg.split(words, ',');
    for (StringRef word : words) {
      std::optional<mlir::stencil::GPUInstructions> family =
          mlir::stencil::parseInstructionsName(word.trim());
      if (!family)
        return option.error("unknown instructions '" + word.trim() +
                            "' (fma, cp.async, mma, mma.sp, mma.sp.ordered, "
                            "wgmma)");
      value.families.push_back(*family);
    }
    return false;
  }

  StringRef getValueName() const override { return "families"; }

  /// For --print-options: the option's name (its value is not printed).
  void printOptionDiff(const Option &option,
                       const mlir::stencil::GPUInstructionList &,
                       const OptionValue<mlir::stencil::GPUInstructionList> &,
                       size_t globalWidth) const {
    printOptionNoValue(option, globalWidth);
  }

  /// Prints `value` as parse() reads it (pass pipelines print their options).
  static void print(raw_ostream &os,
                    const mlir::stencil::GPUInstructionList &value) {
    interleave(
        value.families, os,
        [&](mlir::stencil::GPUInstructions family) {
          os << mlir::stencil::getInstructionsName(family);
        },
        ",");
  }
};
} // namespace cl
} // namespace llvm

#endif // STENCIL_SUPPORT_OPTIONENUMS_H
