//===- Candidates.cpp - The configurations --lower-to-auto weighs ---------===//

#include "stencil/Pipelines/Candidates.h"
#include "stencil/Pipelines/Pipelines.h"

#include "llvm/ADT/Twine.h"

using namespace mlir;
using namespace mlir::stencil;

std::string PipelineCandidate::str() const {
  return options.empty() ? pipeline : pipeline + "{" + options + "}";
}

/// The cost model's family of a pipeline and its options.
static std::string getFamily(StringRef pipeline, StringRef options) {
  if (pipeline == "lower-to-sptc")
    return "sptc";
  if (pipeline == "lower-to-tc")
    return options.contains("low-rank=true") || options.contains("low-rank=1")
               ? "tc-lowrank"
               : "tc";
  if (pipeline == "lower-to-fft")
    return "fft";
  if (pipeline == "lower-to-cuda-core")
    return "cuda-core";
  return "";
}

FailureOr<PipelineCandidate>
mlir::stencil::parsePipelineCandidate(StringRef text) {
  text = text.trim();
  PipelineCandidate candidate;
  size_t brace = text.find('{');
  if (brace == StringRef::npos) {
    candidate.pipeline = text.str();
  } else {
    if (!text.ends_with("}"))
      return failure();
    candidate.pipeline = text.take_front(brace).trim().str();
    candidate.options = text.drop_front(brace + 1).drop_back().trim().str();
  }
  candidate.family = getFamily(candidate.pipeline, candidate.options);
  if (candidate.family.empty())
    return failure();
  return candidate;
}

SmallVector<PipelineCandidate>
mlir::stencil::getPipelineCandidates(StringRef chip, StringRef features,
                                     int optLevel, int64_t maxFusedSteps) {
  // The options each candidate sets; the pipelines' defaults otherwise.
  std::string common = ("chip=" + chip).str();
  if (!features.empty())
    common += (" features=" + features).str();
  if (optLevel != kOptLevelByKernel)
    common += " opt-level=" + std::to_string(optLevel);
  SmallVector<PipelineCandidate> candidates;
  auto add = [&](StringRef pipeline, const llvm::Twine &extra) {
    std::string options = common;
    std::string more = extra.str();
    if (!more.empty())
      options += " " + more;
    candidates.push_back(
        {getFamily(pipeline, options), pipeline.str(), options});
  };
  // The Tensor Core pipelines fuse steps by kernel composition
  // (`fused-steps`, docs/Pipelines.md); their t = 1 is the plain candidate.
  for (StringRef pipeline : {"lower-to-sptc", "lower-to-tc"}) {
    add(pipeline, "");
    for (int64_t t = 2; t <= maxFusedSteps; ++t)
      add(pipeline, "fused-steps=" + llvm::Twine(t));
  }
  // The low-rank chain fuses steps by composing them too, where the
  // composed weights keep a low rank (rejected otherwise).
  add("lower-to-tc", "low-rank=true");
  for (int64_t t = 2; t <= maxFusedSteps; ++t)
    add("lower-to-tc", "low-rank=true fused-steps=" + llvm::Twine(t));
  for (int64_t t = 1; t <= maxFusedSteps; ++t)
    add("lower-to-fft", "fused-steps=" + llvm::Twine(t));
  for (int64_t t = 1; t <= maxFusedSteps; ++t)
    add("lower-to-cuda-core", "fused-steps=" + llvm::Twine(t));
  // The streamed 3-D plane sums at the tiling measured fastest for them
  // (bench/NOTES.md, "Ring or plane sums": ahead of the default ring on
  // five of the six 3-D f16 stencils); rejected for other stencils
  // (SelectPipeline.cpp).
  add("lower-to-cuda-core", "fused-steps=1 plane-sums=true threads-y=4 "
                            "outputs-per-thread=4 planes=64");
  // With vector columns, at the tilings measured fastest for f16 Heat-3D
  // (W = 8) and Box-3D27P (W = 4, bench/NOTES.md, "Vector columns"), and
  // W = 2 (16 bytes of f64); rejected where the width exceeds 16 bytes
  // (the pipeline's error) or the grid's rows are not known to be a
  // multiple of it (SelectPipeline.cpp).
  add("lower-to-cuda-core", "fused-steps=1 plane-sums=true vector-width=8 "
                            "threads-y=2 outputs-per-thread=2 planes=64");
  add("lower-to-cuda-core",
      "fused-steps=1 plane-sums=true vector-width=4 threads-y=4 "
      "outputs-per-thread=2 planes=64 prefetch-distance=3");
  add("lower-to-cuda-core", "fused-steps=1 plane-sums=true vector-width=2 "
                            "threads-y=4 outputs-per-thread=4 planes=64");
  return candidates;
}

namespace {
/// Which part of a candidate's pipeline to build.
enum class Part { Kernel, Emission, Whole };
} // namespace

/// Parses `candidate`'s options into the pipeline's options struct and adds
/// `part` of its pipeline to `pm`: the stencil part (`kernel`), the emission
/// of PTX after it (buildStencilGPUEmissionPipeline), or both (`whole`).
template <typename Options>
static LogicalResult
buildWith(OpPassManager &pm, const PipelineCandidate &candidate, Part part,
          void (*kernel)(OpPassManager &, const Options &),
          void (*whole)(OpPassManager &, const Options &)) {
  std::unique_ptr<Options> options =
      Options::createFromString(candidate.options);
  if (!options)
    return failure();
  switch (part) {
  case Part::Kernel:
    kernel(pm, *options);
    break;
  case Part::Emission:
    buildStencilGPUEmissionPipeline(pm, candidate.pipeline, *options);
    break;
  case Part::Whole:
    whole(pm, *options);
    break;
  }
  return success();
}

static LogicalResult build(OpPassManager &pm, const PipelineCandidate &c,
                           Part part) {
  StringRef p = c.pipeline;
  if (p == "lower-to-sptc")
    return buildWith<LowerToSpTCOptions>(pm, c, part, buildSpTCKernelPipeline,
                                         buildLowerToSpTCPipeline);
  if (p == "lower-to-tc")
    return buildWith<LowerToTCOptions>(pm, c, part, buildTCKernelPipeline,
                                       buildLowerToTCPipeline);
  if (p == "lower-to-fft")
    return buildWith<LowerToFftOptions>(pm, c, part, buildFftKernelPipeline,
                                        buildLowerToFftPipeline);
  if (p == "lower-to-cuda-core")
    return buildWith<LowerToCudaCoreOptions>(
        pm, c, part, buildCudaCoreKernelPipeline, buildLowerToCudaCorePipeline);
  return failure();
}

LogicalResult
mlir::stencil::buildCandidateKernelPipeline(OpPassManager &pm,
                                            const PipelineCandidate &c) {
  return build(pm, c, Part::Kernel);
}

LogicalResult
mlir::stencil::buildCandidateEmissionPipeline(OpPassManager &pm,
                                              const PipelineCandidate &c) {
  return build(pm, c, Part::Emission);
}

LogicalResult
mlir::stencil::buildCandidatePipeline(OpPassManager &pm,
                                      const PipelineCandidate &c) {
  return build(pm, c, Part::Whole);
}
