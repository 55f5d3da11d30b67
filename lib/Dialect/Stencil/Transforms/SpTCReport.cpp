//===- SpTCReport.cpp - What each 2:4 route issues, per stencil -----------===//
//
// Implements `--stencil-sptc-report` (SparStencil, section 3.3;
// SPIDER, section 3.1.1); see Passes.td. The numbers come from
// the functions `--stencil-flatten` decides with (Transforms.h), so the
// report names the choice the pipeline makes.
//
//===----------------------------------------------------------------------===//

#include "stencil/Dialect/Stencil/Transforms/Passes.h"
#include "stencil/Dialect/Stencil/Transforms/Transforms.h"

#include "mlir/Interfaces/FunctionInterfaces.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir {
namespace stencil {
#define GEN_PASS_DEF_STENCILSPTCREPORT
#include "stencil/Dialect/Stencil/Transforms/Passes.h.inc"
} // namespace stencil
} // namespace mlir

using namespace mlir;
using namespace mlir::stencil;

/// One line of the report: what `cost` says of a candidate.
static void printCandidate(raw_ostream &os, StringRef name,
                           const LayoutCost &cost, StringRef method,
                           const std::optional<SpTCStaging> &staging = {}) {
  os << llvm::format("  %-18s %3lld mma.sp/tile  %.4f mma.sp/point  "
                     "slot use %5.1f%%  B %5.1f bytes/point",
                     name.str().c_str(), (long long)cost.mmas,
                     double(cost.mmas) / double(kMmaSpM * kMmaSpN),
                     100.0 * cost.slotUse, cost.operandBytesPerPoint);
  if (staging)
    os << llvm::format("  smem %4.1f KiB  staged %.2f/point",
                       staging->sharedBytes / 1024.0,
                       staging->elementsPerPoint);
  if (!method.empty())
    os << "  (" << method << ")";
  os << "\n";
}

namespace {
struct StencilSpTCReportPass
    : public stencil::impl::StencilSpTCReportBase<StencilSpTCReportPass> {
  void runOnOperation() override {
    raw_ostream &os = llvm::outs();
    getOperation()->walk([&](LinearOp op) {
      PatternAttr pattern = op.getPattern();
      SmallVector<double> weights(op.getWeights());
      int64_t points =
          llvm::count_if(weights, [](double w) { return w != 0.0; });
      auto func = op->getParentOfType<FunctionOpInterface>();
      os << "stencil in @" << (func ? func.getName() : StringRef("?")) << " at "
         << op.getLoc() << ": " << pattern.getNumPoints() << " points, rank "
         << pattern.getRank() << ", radii [";
      llvm::interleaveComma(pattern.getRadii(), os);
      os << "]\n";
      if (points == 0) {
        os << "  no non-zero weight: nothing to multiply\n";
        return;
      }
      int64_t swapMmas = countStridedSwapMmas(pattern, weights);
      printCandidate(os, "strided-swap", getMmaCost(swapMmas, points), "");
      if (*llvm::max_element(pattern.getRadii()) > kMaxGatheredRadius) {
        os << "  matching: radius above " << kMaxGatheredRadius
           << ", not taken\n  layout=auto takes: strided-swap\n";
        return;
      }
      std::string why;
      FailureOr<std::vector<ExploredLayout>> explored = exploreLayouts(
          pattern, weights, getFlattenLayouts(pattern.getRank()), &why);
      if (failed(explored)) {
        os << "  matching: " << why << "\n";
        return;
      }
      for (const ExploredLayout &entry : *explored) {
        std::string name = "matching [" +
                           std::to_string(entry.kernel.layout.r1) + ", " +
                           std::to_string(entry.kernel.layout.r2) + "]";
        if (!entry.fits) {
          os << "  " << name << ": " << entry.kernel.units.size()
             << " input pairs, more than " << kMaxGatheredUnits << "\n";
          continue;
        }
        printCandidate(os, name, entry.cost,
                       entry.matching.method == MatchingMethod::Blossom
                           ? "blossom"
                           : "two-level",
                       entry.staging);
      }
      int64_t best = pickLayout(*explored);
      os << "  layout=auto takes: ";
      if (best >= 0 &&
          preferMatching(pattern, weights, (*explored)[best].cost.mmas)) {
        const FlattenLayout &layout = (*explored)[best].kernel.layout;
        os << "matching [" << layout.r1 << ", " << layout.r2 << "], "
           << (*explored)[best].cost.mmas << " mma.sp/tile against " << swapMmas
           << "\n";
      } else {
        os << "strided-swap\n";
      }
    });
    markAllAnalysesPreserved();
  }
};
} // namespace
