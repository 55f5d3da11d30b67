//===- SelectPipeline.cpp - Choose a GPU pipeline by the cost model -------===//
//
// Implements `--stencil-select-pipeline`, the choosing half of
// `--lower-to-auto`. "Do We Need Tensor Cores for Stencil Computations?"
// (sections 3 and 4) decides between CUDA cores and (sparse) Tensor Cores by
// the roofline of each unit with the work the unit really issues,
// (alpha / S) 2 K flops per point (eq. 3, 12), against the memory traffic of
// 2 D / t bytes per point and step; Analysis/CostModel.h has the formulas
// and the calibration. This pass does not describe any kernel itself: it
// lowers a copy of the module with the stencil part of every candidate
// pipeline (Candidates.h) and reads the unit, its flops per point and the
// fused steps from the launch records the conversions wrote. A candidate
// that fails on the module (a type its unit cannot do, a radius or tile
// beyond the chip's shared memory, a pattern the pipeline does not take) is
// rejected with its first diagnostic, so the choice never fails on a
// stencil some pipeline takes.
//
// When it finds ptxas, candidates are also emitted as PTX and assembled
// (KernelResources.h): the registers and static shared memory give the
// occupancy o = min(1, W / W_sat) <= 1 the model needs, and a kernel ptxas
// refuses (beyond the chip's registers or shared memory) is rejected too.
// Since the occupancy only lowers a prediction, the candidates are
// assembled best prediction first, and one whose prediction at full
// occupancy is below an assembled candidate's is not emitted nor assembled
// (branch and bound: the emission and ptxas are most of a candidate's
// compile time); a single candidate is not assembled at all. The choice is
// the one assembling every candidate would make.
//
// With `lower`, the module becomes the chosen candidate's lowered copy
// (its PTX emitted here if the ranking did not), its warnings and remarks
// replayed: --stencil-lower-selected's output, without a second compile.
//
//===----------------------------------------------------------------------===//

#include "stencil/Analysis/CostModel.h"
#include "stencil/Dialect/Stencil/IR/LaunchRecord.h"
#include "stencil/Dialect/Stencil/IR/StencilDialect.h"
#include "stencil/Pipelines/Candidates.h"
#include "stencil/Pipelines/KernelResources.h"
#include "stencil/Pipelines/Passes.h"
#include "stencil/Support/GPULimits.h"
#include "stencil/Support/GPUTarget.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir {
namespace stencil {
#define GEN_PASS_DEF_STENCILSELECTPIPELINE
#include "stencil/Pipelines/Passes.h.inc"
} // namespace stencil
} // namespace mlir

using namespace mlir;
using namespace mlir::stencil;

/// The fused steps `fused-steps=max` allows.
static constexpr int64_t kMaxAutoFusedSteps = 4;
/// The most `fused-steps=N` may ask for: each count adds candidates, each a
/// whole pipeline and a ptxas run.
static constexpr int64_t kMaxRankedFusedSteps = 16;

namespace {
/// One candidate and what the model made of it.
struct Evaluation {
  PipelineCandidate candidate;
  /// Empty when the candidate lowers the module and the model predicts it.
  std::string rejection;
  /// The module's kernels: unit (or "mixed"), C_u and M per point and step,
  /// the bounds and the prediction, combined over kernels by their steps.
  std::string unit;
  double unitFlops = 0, bytes = 0;
  double bandwidthBound = 0, unitBound = 0, bound = 0, predicted = 0;
  bool memoryBound = false;
  int64_t kernels = 0;
  /// The fewest warps per SM of its kernels (0: unknown).
  int64_t residentWarps = 0;
  /// Why ptxas did not assemble its PTX (empty: it did, or was not run);
  /// the prediction then has no occupancy.
  std::string assemblerError;
  /// The copy of the module the candidate's pipeline lowered (its emission
  /// part too where it was assembled: `emitted`), its kernels' work and
  /// model constants, and the first error of its passes.
  OwningOpRef<ModuleOp> lowered;
  bool emitted = false;
  SmallVector<KernelWork, 1> works;
  SmallVector<ModelConstants, 1> constants;
  std::string firstError;
  /// Whether ptxas gave its kernels' registers; `pruned`: not assembled,
  /// since even fully occupied (its prediction then an upper bound) it
  /// would not beat an assembled candidate.
  bool assembled = false, pruned = false;
  /// The warnings and remarks its pipeline emitted, with their notes:
  /// shown to the user for the chosen candidate, as its pipeline would
  /// have shown them.
  struct Report {
    Location loc;
    DiagnosticSeverity severity;
    std::string message;
    SmallVector<std::pair<Location, std::string>> notes;
  };
  SmallVector<Report, 0> reports;
};

struct StencilSelectPipelinePass
    : public stencil::impl::StencilSelectPipelineBase<
          StencilSelectPipelinePass> {
  using StencilSelectPipelineBase::StencilSelectPipelineBase;

  void getDependentDialects(DialectRegistry &registry) const override {
    // The candidates' passes create ops of many dialects while this pass
    // runs, when no dialect may be loaded any more.
    for (const PipelineCandidate &c :
         getPipelineCandidates(chip, features, optLevel, 1)) {
      OpPassManager pm(ModuleOp::getOperationName());
      if (succeeded(buildCandidateKernelPipeline(pm, c)))
        pm.getDependentDialects(registry);
    }
  }

  void runOnOperation() override;

  /// Step 1: the options (fused-steps, opt-level, chip and features,
  /// ptxas, explain), each error at `loc`; the grid's extents.
  LogicalResult readOptions(Location loc, int64_t &maxFused,
                            bool &explainRanked, bool &explainAll);
  /// Step 2: every candidate lowered, predicted and, with ptxas, assembled
  /// best-first (branch and bound); rejected ones last. `assemblerNote`
  /// says why ptxas took none, when it took none.
  SmallVector<Evaluation, 0> evaluateAll(int64_t maxFused,
                                         const DeviceProfile &profile,
                                         std::string &assemblerNote);
  /// What the choice assumed (the device profile, the occupancy's source).
  std::string describeAssumptions(const DeviceProfile &profile,
                                  StringRef assemblerNote);
  /// The explain table: the ranked candidates, then the rejected ones.
  std::string explainTable(ArrayRef<Evaluation> evaluations,
                           const DeviceProfile &profile,
                           StringRef assemblerNote, bool explainAll);

  /// Replaces the module's contents and attributes with the chosen
  /// candidate's lowered copy, emitting its PTX first where the ranking did
  /// not.
  LogicalResult adoptLowered(Evaluation &chosen);

  /// The candidate's kernel pipeline on a copy of the module and the
  /// checks of its launch records: a rejection, or the kernels' work.
  Evaluation lowerCandidate(const PipelineCandidate &candidate);
  std::string getEarlyRejection(const PipelineCandidate &candidate,
                                bool asksPlaneSums);
  void readLaunchRecords(Evaluation &e, ModuleOp copy, bool asksPlaneSums);
  /// Runs `pm` on `module`, the candidate's diagnostics into `e`.
  LogicalResult runCaptured(Evaluation &e, PassManager &pm, ModuleOp module);
  /// The emission part of the pipeline, then ptxas's registers per kernel.
  void assemble(Evaluation &e);
  /// The model's prediction from the kernels' work (and registers, where
  /// assembled).
  void predict(Evaluation &e, const DeviceProfile &profile);

  /// The assembler to run (none: occupancy not modelled) and the grid's
  /// extents when known for all kernels (the `grid` option or the op's
  /// static shape).
  std::optional<std::string> ptxasPath;
  SmallVector<int64_t> gridSizes;
};

/// The papers' benchmark sizes, the grid a prediction is for when neither the
/// option nor the op's type gives one.
static SmallVector<int64_t> getNominalGrid(int64_t rank) {
  switch (rank) {
  case 1:
    return {10240000};
  case 2:
    return {10240, 10240};
  default:
    return SmallVector<int64_t>(rank, 512);
  }
}
} // namespace

/// Kernels that spill more than this to local memory per thread are
/// rejected: the model has no term for it. Measured on the H100
/// (bench/NOTES.md, "Vector columns in the model"): 76 and 112 bytes cost
/// those kernels little, 3224 bytes (the f64 radius-2 box with vector
/// columns) made one 2.2x slower than its one-column sibling.
static constexpr int64_t kMaxSpillStoreBytes = 1024;

/// The integer after `key` ("name=") in a candidate's options, `fallback`
/// when absent.
static int64_t getIntOption(StringRef options, StringRef key,
                            int64_t fallback) {
  size_t at = options.find(key);
  int64_t value = fallback;
  if (at != StringRef::npos && options.drop_front(at + key.size())
                                   .take_while(llvm::isDigit)
                                   .getAsInteger(10, value))
    return fallback;
  return value;
}

/// Why a candidate fusing `fused` steps per launch does not lower an op of
/// `steps` steps.
static std::string getFusedStepsRejection(int64_t fused, int64_t steps) {
  return llvm::formatv("fuses {0} steps, the op has {1}", fused, steps).str();
}

/// Why vector columns of `width` are not offered for a grid of `sizes`
/// (empty: unknown); empty when they are.
static std::string getVectorColumnsRejection(int64_t width,
                                             ArrayRef<int64_t> sizes) {
  if (width <= 1 || (!sizes.empty() && sizes.back() % width == 0))
    return "";
  return llvm::formatv("vector columns of {0} need a known grid (the `grid` "
                       "option or a static shape) whose rows are a multiple "
                       "of {0}",
                       width)
      .str();
}

static constexpr const char *kNotLowRankRejection =
    "not of low rank (the kernel of lower-to-tc)";

static constexpr const char *kPlaneSumsRejection =
    "plane sums are for the streamed one-step sweep of a 3-D "
    "stencil.linear";

/// Why `candidate` cannot win before its pipeline runs (empty: it may):
/// more fused steps than any op has, plane sums or vector columns where
/// they do not apply, the low-rank chain without a factorable op.
std::string
StencilSelectPipelinePass::getEarlyRejection(const PipelineCandidate &candidate,
                                             bool asksPlaneSums) {
  ModuleOp module = getOperation();
  // A candidate fusing more steps than any op has: its launches would fuse
  // more than their op's steps (the check on the launch records below),
  // rejected before its pipeline and ptxas run. (The FFT pipeline takes
  // `fused-steps` as an upper bound.)
  if (candidate.family != "fft") {
    int64_t fused = getIntOption(candidate.options, "fused-steps=", 1);
    int64_t most = 0;
    module.walk(
        [&](LinearOp op) { most = std::max<int64_t>(most, op.getSteps()); });
    module.walk(
        [&](ApplyOp op) { most = std::max<int64_t>(most, op.getSteps()); });
    if (most > 0 && fused > most) {
      return getFusedStepsRejection(fused, most);
    }
  }
  // The plane-sums candidate is the one-step 3-D sweep of a stencil.linear;
  // elsewhere it would be another tiling of the cuda-core candidate, without
  // constants of its own (and its `planes` is an error in 1-D and 2-D).
  if (asksPlaneSums) {
    // (A 3-D stencil.apply may be linearized first.)
    bool any3D = false;
    module.walk([&](LinearOp op) {
      any3D |= op.getPattern().getRank() == 3;
    });
    module.walk([&](ApplyOp op) { any3D |= op.getRadii().size() == 3; });
    if (!any3D) {
      return kPlaneSumsRejection;
    }
    // Vector columns for a grid they do not suit: rejected before the
    // pipeline runs (the launch record says the same after it).
    std::string rejection = getVectorColumnsRejection(
        getIntOption(candidate.options, "vector-width=", 1),
        gridSizes.size() == 3 ? ArrayRef<int64_t>(gridSizes)
                              : ArrayRef<int64_t>());
    if (!rejection.empty())
      return rejection;
  }
  // LoRAStencil's chain factors 2-D weights of one radius along both axes
  // (--stencil-low-rank); without such an op the candidate would build the
  // kernel of lower-to-tc again.
  if (candidate.family == "tc-lowrank") {
    bool factorable = false;
    module.walk([&](LinearOp op) {
      SmallVector<int64_t> radii = op.getPattern().getRadii();
      factorable |= radii.size() == 2 && radii[0] == radii[1];
    });
    if (!factorable) {
      return kNotLowRankRejection;
    }
  }
  return "";
}

/// The launch records of the lowered `copy`: each kernel's work for the
/// model, or a rejection in `e`.
void StencilSelectPipelinePass::readLaunchRecords(Evaluation &e, ModuleOp copy,
                                                  bool asksPlaneSums) {
  const PipelineCandidate &candidate = e.candidate;
  auto launches = copy->getAttrOfType<ArrayAttr>(kLaunchesAttrName);
  for (Attribute attr :
       launches ? launches.getValue() : ArrayRef<Attribute>{}) {
    auto record = cast<DictionaryAttr>(attr);
    FailureOr<KernelWork> work = getKernelWork(record);
    if (failed(work)) {
      e.rejection = "its launch record has no unit and flops per point";
      return;
    }
    if (work->stepsPerLaunch > work->steps) {
      e.rejection = getFusedStepsRejection(work->stepsPerLaunch, work->steps);
      return;
    }
    if (candidate.family == "tc-lowrank" && !record.get("chain_abs_sum")) {
      e.rejection = kNotLowRankRejection;
      return;
    }
    // Composition on the Tensor Cores (their `fused-steps`) was measured
    // slower than one step per launch in 3-D (bench/NOTES.md, "Fused steps
    // by kernel composition"), which the model, without constants for it,
    // would not predict.
    if ((candidate.family == "tc" || candidate.family == "sptc") &&
        work->stepsPerLaunch > 1 && work->rank == 3) {
      e.rejection = "composed steps are slower than one step in 3-D "
                    "(measured; not modelled)";
      return;
    }
    // Every kernel of the plane-sums candidate must be one (a general
    // body, fused steps or a staged fallback are not).
    if (asksPlaneSums && work->schedule != "plane-sums") {
      e.rejection = kPlaneSumsRejection;
      return;
    }
    // Vector columns are fast only where the rows are a multiple of the
    // width (elsewhere they stage and store element by element and lose
    // to one column, bench/NOTES.md, "Vector columns"): the grid must be
    // known.
    e.rejection = getVectorColumnsRejection(
        work->vectorWidth, int64_t(gridSizes.size()) == work->rank
                               ? ArrayRef<int64_t>(gridSizes)
                               : ArrayRef<int64_t>());
    if (!e.rejection.empty())
      return;
    // The CUDA-core and FFT kernels have constants per fused depth, the
    // CUDA-core row sweep and plane sums their own; composed Tensor Core
    // kernels (the low-rank chain's too) take those of their depth where
    // measured, else of one step (getModelConstants).
    std::string key = candidate.family;
    if (key == "cuda-core" && work->schedule == "rows")
      key = "cuda-core-rows";
    if (key == "cuda-core" && work->schedule == "plane-sums")
      key = work->vectorWidth > 1
                ? "cuda-core-vsums-w" + std::to_string(work->vectorWidth)
                : "cuda-core-sums";
    if (key == "cuda-core" || key == "cuda-core-rows" ||
        key == "cuda-core-sums" ||
        StringRef(key).starts_with("cuda-core-vsums") || key == "fft" ||
        ((key == "tc" || key == "sptc" || key == "tc-lowrank") &&
         work->stepsPerLaunch > 1))
      key += "-f" + std::to_string(work->stepsPerLaunch);
    work->gridSizes = int64_t(gridSizes.size()) == work->rank
                          ? gridSizes
                          : getNominalGrid(work->rank);
    e.constants.push_back(
        getModelConstants(key, work->rank, work->elementBytes));
    e.works.push_back(std::move(*work));
  }
}

Evaluation
StencilSelectPipelinePass::lowerCandidate(const PipelineCandidate &candidate) {
  Evaluation e;
  e.candidate = candidate;
  ModuleOp module = getOperation();
  bool asksPlaneSums = StringRef(candidate.options).contains("plane-sums=true");
  e.rejection = getEarlyRejection(candidate, asksPlaneSums);
  if (!e.rejection.empty())
    return e;
  OwningOpRef<ModuleOp> copy = module.clone();
  PassManager pm(module.getContext(), ModuleOp::getOperationName());
  if (failed(buildCandidateKernelPipeline(pm, candidate))) {
    e.rejection = "the pipeline does not take these options";
    return e;
  }
  if (failed(runCaptured(e, pm, *copy))) {
    e.rejection = e.firstError.empty() ? "the pipeline failed" : e.firstError;
    return e;
  }
  readLaunchRecords(e, *copy, asksPlaneSums);
  if (!e.rejection.empty())
    return e;
  // A kernel whose loop holds more values than the registers by more than
  // kMaxSpillStoreBytes spills more than that whatever LLVM and ptxas do:
  // rejected before its PTX is emitted and assembled (most of the
  // candidate's compile time).
  llvm::StringMap<int64_t> held = getLoopLiveInRegisters(*copy);
  for (const KernelWork &work : e.works) {
    int64_t registers = held.lookup(work.kernel);
    if (4 * (registers - kMaxThreadRegisters) > kMaxSpillStoreBytes) {
      e.rejection =
          llvm::formatv("kernel {0} holds at least {1} registers across its "
                        "loop (values defined before it and used in it), more "
                        "than {2} plus {3} bytes: it would spill (not "
                        "modelled)",
                        work.kernel, registers, kMaxThreadRegisters,
                        kMaxSpillStoreBytes)
              .str();
      return e;
    }
  }
  e.lowered = std::move(copy);
  return e;
}

LogicalResult StencilSelectPipelinePass::runCaptured(Evaluation &e,
                                                     PassManager &pm,
                                                     ModuleOp module) {
  // The candidate's diagnostics are its reasons, not the user's errors;
  // its warnings and remarks are kept for the chosen one.
  ScopedDiagnosticHandler handler(module.getContext(), [&](Diagnostic &d) {
    if (d.getSeverity() == DiagnosticSeverity::Error) {
      if (e.firstError.empty())
        e.firstError = d.str();
      return success();
    }
    Evaluation::Report report{d.getLocation(), d.getSeverity(), d.str(), {}};
    for (const Diagnostic &note : d.getNotes())
      report.notes.push_back({note.getLocation(), note.str()});
    e.reports.push_back(std::move(report));
    return success();
  });
  return pm.run(module);
}

void StencilSelectPipelinePass::assemble(Evaluation &e) {
  PassManager emit(getOperation().getContext(), ModuleOp::getOperationName());
  if (failed(buildCandidateEmissionPipeline(emit, e.candidate)) ||
      failed(runCaptured(e, emit, *e.lowered))) {
    e.rejection =
        e.firstError.empty() ? "the PTX emission failed" : e.firstError;
    return;
  }
  e.emitted = true;
  std::string error;
  FailureOr<llvm::StringMap<KernelResources>> found =
      getKernelResources(*e.lowered, *ptxasPath, chip, error);
  if (failed(found)) {
    e.assemblerError = error;
    return;
  }
  for (KernelWork &work : e.works) {
    auto it = found->find(work.kernel);
    if (it == found->end())
      continue;
    work.registers = it->second.registers;
    work.staticSharedBytes = it->second.staticSharedBytes;
    if (int64_t spill = it->second.spillStoreBytes;
        spill > kMaxSpillStoreBytes) {
      e.rejection = llvm::formatv("ptxas spills {0} bytes per thread of "
                                  "kernel {1} (more than {2}: not "
                                  "modelled)",
                                  spill, work.kernel, kMaxSpillStoreBytes)
                        .str();
      return;
    }
  }
  e.assembled = true;
}

void StencilSelectPipelinePass::predict(Evaluation &e,
                                        const DeviceProfile &profile) {
  double weights = 0, predictedTime = 0, boundTime = 0, bwTime = 0,
         unitTime = 0;
  e.unitFlops = e.bytes = 0;
  e.unit.clear();
  e.kernels = e.residentWarps = 0;
  for (auto [work, constants] : llvm::zip_equal(e.works, e.constants)) {
    FailureOr<KernelPrediction> p =
        predictKernel(work, profile, constants, getModelGlobals());
    if (failed(p)) {
      e.rejection = "the device profile has no peak for unit " + work.unit;
      return;
    }
    double w = double(work.steps);
    weights += w;
    predictedTime += w / p->predicted;
    boundTime += w / p->bound;
    bwTime += w / p->bandwidthBound;
    unitTime += w / p->unitBound;
    e.unitFlops += w * work.unitFlopsPerPoint;
    e.bytes += w * work.getBytesPerPoint();
    e.unit = e.kernels == 0 || e.unit == work.unit ? work.unit : "mixed";
    if (p->residentWarps > 0)
      e.residentWarps = e.residentWarps == 0
                            ? p->residentWarps
                            : std::min(e.residentWarps, p->residentWarps);
    ++e.kernels;
  }
  if (e.kernels == 0)
    return;
  e.predicted = weights / predictedTime;
  e.bound = weights / boundTime;
  e.bandwidthBound = weights / bwTime;
  e.unitBound = weights / unitTime;
  e.memoryBound = e.bandwidthBound <= e.unitBound;
  e.unitFlops /= weights;
  e.bytes /= weights;
}

LogicalResult StencilSelectPipelinePass::adoptLowered(Evaluation &chosen) {
  ModuleOp module = getOperation();
  ModuleOp lowered = chosen.lowered.get();
  // The warnings and remarks of its pipeline, as the user would have seen
  // them from --stencil-lower-selected; the rest of the emission reports
  // its own.
  for (const Evaluation::Report &report : chosen.reports) {
    InFlightDiagnostic diag =
        report.severity == DiagnosticSeverity::Warning
            ? mlir::emitWarning(report.loc, report.message)
            : mlir::emitRemark(report.loc, report.message);
    for (const auto &[loc, text] : report.notes)
      diag.attachNote(loc) << text;
  }
  if (!chosen.emitted) {
    PassManager emit(module.getContext(), ModuleOp::getOperationName());
    if (failed(buildCandidateEmissionPipeline(emit, chosen.candidate)) ||
        failed(emit.run(lowered)))
      return failure();
  }
  // The attributes the choice wrote, then the lowered module's (its launch
  // records among them) in place of the input's.
  for (StringRef name : {kPipelineAttrName, kDeviceProfileAttrName})
    lowered->setAttr(name, module->getAttr(name));
  module->setAttrs(lowered->getAttrDictionary());
  module.getBody()->clear();
  module.getBody()->getOperations().splice(
      module.getBody()->end(), lowered.getBody()->getOperations());
  return success();
}

LogicalResult StencilSelectPipelinePass::readOptions(Location loc,
                                                     int64_t &maxFused,
                                                     bool &explainRanked,
                                                     bool &explainAll) {
  maxFused = kMaxAutoFusedSteps;
  if (fusedSteps != "max" &&
      (StringRef(fusedSteps).getAsInteger(10, maxFused) || maxFused < 1 ||
       maxFused > kMaxRankedFusedSteps))
    return emitError(loc)
           << "fused-steps must be an integer from 1 to "
           << kMaxRankedFusedSteps << " or 'max' (" << kMaxAutoFusedSteps
           << "), got '" << fusedSteps
           << "'; a kernel fusing more steps is chosen with its "
              "pipeline's own fused-steps (e.g. --lower-to-cuda-core "
              "fused-steps=32)";
  if (std::string error = checkLLVMOptLevel(optLevel); !error.empty())
    return emitError(loc) << error;
  // The chip and features every candidate gets (GPUTarget.h); whether a
  // candidate's instructions run on that chip is its own check.
  if (std::string error = checkGPUTarget("--lower-to-auto", chip, features, {});
      !error.empty())
    return emitError(loc) << error;
  ptxasPath = findPtxas(ptxas);
  if (!ptxasPath && ptxas != "none" && ptxas != "auto" && !ptxas.empty())
    return emitError(loc) << "ptxas='" << ptxas << "' is not an executable";
  explainRanked = explain != ExplainLevel::None;
  explainAll = explain == ExplainLevel::All;
  gridSizes.assign(grid.begin(), grid.end());
  if (gridSizes.empty()) {
    // The first stencil op's grid, when its type has a static shape.
    getOperation().walk([&](Operation *op) {
      if (!isa<StencilDialect>(op->getDialect()) || op->getNumOperands() == 0)
        return WalkResult::advance();
      if (auto type = dyn_cast<MemRefType>(op->getOperand(0).getType()))
        if (type.hasStaticShape())
          gridSizes.assign(type.getShape().begin(), type.getShape().end());
      return WalkResult::interrupt();
    });
  }
  return success();
}

SmallVector<Evaluation, 0>
StencilSelectPipelinePass::evaluateAll(int64_t maxFused,
                                       const DeviceProfile &profile,
                                       std::string &assemblerNote) {
  SmallVector<Evaluation, 0> evaluations;
  for (const PipelineCandidate &c :
       getPipelineCandidates(chip, features, optLevel, maxFused)) {
    evaluations.push_back(lowerCandidate(c));
    Evaluation &e = evaluations.back();
    if (e.rejection.empty())
      predict(e, profile);
  }
  // With an assembler, the occupancy: ptxas's registers lower a kernel's
  // prediction, never raise it (occupancy <= 1), so the candidates are
  // assembled best prediction first, and one whose prediction at full
  // occupancy does not beat an assembled candidate's is not assembled
  // (nor its PTX emitted: most of a candidate's compile time). A single
  // candidate has nothing to be ranked against.
  SmallVector<Evaluation *> order;
  for (Evaluation &e : evaluations)
    if (e.rejection.empty())
      order.push_back(&e);
  if (ptxasPath && order.size() > 1) {
    llvm::stable_sort(order, [](const Evaluation *a, const Evaluation *b) {
      return a->predicted > b->predicted;
    });
    double best = 0;
    for (Evaluation *e : order) {
      if (best > 0 && e->predicted < best) {
        e->pruned = true;
        continue;
      }
      assemble(*e);
      if (!e->rejection.empty())
        continue;
      predict(*e, profile);
      if (e->assembled && e->rejection.empty())
        best = std::max(best, e->predicted);
    }
  }
  // A kernel ptxas refuses is rejected, unless ptxas takes none of the
  // candidates the pipelines lower (one older than the PTX ISA LLVM emits):
  // then it says nothing of them, and they are ranked without the occupancy.
  bool anyAssembled = llvm::any_of(evaluations, [](const Evaluation &e) {
    return e.rejection.empty() && e.assemblerError.empty();
  });
  for (Evaluation &e : evaluations) {
    if (!e.rejection.empty() || e.assemblerError.empty())
      continue;
    if (anyAssembled)
      e.rejection = e.assemblerError;
    else if (assemblerNote.empty())
      assemblerNote = e.assemblerError;
  }
  // Best prediction first; rejected ones last; ties keep the order of
  // getPipelineCandidates.
  llvm::stable_sort(evaluations, [](const Evaluation &a, const Evaluation &b) {
    if (a.rejection.empty() != b.rejection.empty())
      return a.rejection.empty();
    return a.predicted > b.predicted;
  });
  return evaluations;
}

std::string
StencilSelectPipelinePass::describeAssumptions(const DeviceProfile &profile,
                                               StringRef assemblerNote) {
  std::string assumed;
  llvm::raw_string_ostream os(assumed);
  os << profile.name;
  if (!profile.calibrated)
    os << ", published figures, not calibrated";
  if (deviceProfile.empty())
    os << "; assumed for chip " << chip
       << ": give device-profile= for another device (a built-in name, "
          "or a file of stencil-run --roofline --profile-out)";
  os << "; occupancy "
     << (!assemblerNote.empty() || !ptxasPath
             ? std::string("not modelled (no ptxas that assembles the "
                           "candidates; give ptxas=PATH)")
             : "from " + *ptxasPath);
  return assumed;
}

std::string StencilSelectPipelinePass::explainTable(
    ArrayRef<Evaluation> evaluations, const DeviceProfile &profile,
    StringRef assemblerNote, bool explainAll) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "candidates on " << profile.name << " (bandwidth "
     << llvm::format("%.0f", profile.bandwidthGBs) << " GB/s"
     << (profile.calibrated ? "" : "; not calibrated: published figures")
     << "), GStencil/s, per point and step, best first; "
     << (!assemblerNote.empty()
             ? "ptxas assembled no candidate (" + assemblerNote.str() +
                   "): occupancy not modelled"
         : ptxasPath ? "warps per SM from " + *ptxasPath
                     : std::string("no ptxas: occupancy not modelled"))
     << ":\n";
  // The pipeline column fits the longest ranked candidate.
  int width = 58;
  for (const Evaluation &e : evaluations)
    if (e.rejection.empty())
      width = std::max<int>(width, e.candidate.str().size());
  os << llvm::format("  %-2s %-*s %-16s %9s %8s %9s %9s %-9s %5s %9s\n", "#",
                     width, "pipeline", "unit", "flops", "bytes", "BW bound",
                     "unit bnd", "binds", "warps", "predicted");
  int rank = 0;
  for (const Evaluation &e : evaluations) {
    if (!e.rejection.empty())
      continue;
    std::string warps =
        e.residentWarps > 0 ? std::to_string(e.residentWarps) : "-";
    std::string predicted =
        (e.pruned ? "<=" : "") + llvm::formatv("{0:F1}", e.predicted).str();
    os << llvm::format("  %-2d %-*s %-16s %9.1f %8.3f %9.1f %9.1f %-9s "
                       "%5s %9s\n",
                       ++rank, width, e.candidate.str().c_str(), e.unit.c_str(),
                       e.unitFlops, e.bytes, e.bandwidthBound, e.unitBound,
                       e.memoryBound ? "bandwidth" : "unit", warps.c_str(),
                       predicted.c_str());
  }
  if (llvm::any_of(evaluations, [](const Evaluation &e) {
        return e.rejection.empty() && e.pruned;
      }))
    os << "  <= at full occupancy: not assembled, since it would not beat "
          "an assembled candidate\n";
  // Rejected candidates: one count line, or with explain=all one line per
  // reason, a pipeline's variants rejected for the same reason (an element
  // type it does not take) together.
  int64_t rejected = llvm::count_if(
      evaluations, [](const Evaluation &e) { return !e.rejection.empty(); });
  if (rejected && !explainAll)
    os << "  -  " << rejected << " candidate" << (rejected == 1 ? "" : "s")
       << " rejected (explain=all lists each with its reason)\n";
  for (auto [i, e] : llvm::enumerate(evaluations)) {
    if (e.rejection.empty() || !explainAll)
      continue;
    if (i > 0 && evaluations[i - 1].rejection == e.rejection &&
        evaluations[i - 1].candidate.pipeline == e.candidate.pipeline)
      continue;
    int64_t same = 0;
    for (size_t j = i + 1;
         j < evaluations.size() && evaluations[j].rejection == e.rejection &&
         evaluations[j].candidate.pipeline == e.candidate.pipeline;
         ++j)
      ++same;
    os << "  -  " << e.candidate.str();
    if (same)
      os << " (and " << same << " more with other options)";
    os << ": rejected: " << e.rejection << "\n";
  }
  if (!evaluations.empty() && evaluations.front().rejection.empty())
    os << "chosen: " << evaluations.front().candidate.str();
  return text;
}

void StencilSelectPipelinePass::runOnOperation() {
  ModuleOp module = getOperation();
  // The remarks and errors point at the first stencil op.
  Location loc = module.getLoc();
  module.walk([&](Operation *op) {
    if (isa<StencilDialect>(op->getDialect())) {
      loc = op->getLoc();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  int64_t maxFused;
  bool explainRanked = false, explainAll = false;
  if (failed(readOptions(loc, maxFused, explainRanked, explainAll)))
    return signalPassFailure();
  auto profile = lookupDeviceProfile(deviceProfile, chip);
  if (!profile) {
    emitError(loc) << llvm::toString(profile.takeError());
    return signalPassFailure();
  }
  // Published figures rank the candidates less surely than measured ones.
  if (!profile->calibrated)
    emitWarning(loc) << "device profile '" << profile->name
                     << "' is not calibrated (" << profile->source
                     << "): the choice rests on published peaks; measure the "
                        "device with stencil-run --roofline --profile-out";

  std::string assemblerNote;
  SmallVector<Evaluation, 0> evaluations =
      evaluateAll(maxFused, *profile, assemblerNote);
  // What the choice assumed, recorded with it (the launch description
  // repeats it as a comment).
  std::string assumed = describeAssumptions(*profile, assemblerNote);
  if (explainRanked)
    emitRemark(loc) << explainTable(evaluations, *profile, assemblerNote,
                                    explainAll);

  if (evaluations.empty() || !evaluations.front().rejection.empty()) {
    InFlightDiagnostic diag = emitError(loc)
                              << "no GPU pipeline lowers this module";
    for (const Evaluation &e : evaluations)
      diag.attachNote() << e.candidate.str() << ": " << e.rejection;
    return signalPassFailure();
  }
  module->setAttr(kPipelineAttrName,
                  StringAttr::get(module.getContext(),
                                  evaluations.front().candidate.str()));
  module->setAttr(kDeviceProfileAttrName,
                  StringAttr::get(module.getContext(), assumed));
  if (lower && failed(adoptLowered(evaluations.front())))
    return signalPassFailure();
}
