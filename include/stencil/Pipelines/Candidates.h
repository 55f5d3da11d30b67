//===- Candidates.h - The configurations --lower-to-auto weighs -*- C++ -*-===//
//
// A candidate is one GPU pipeline with its options, written as the textual
// pipeline element `stencil-opt` takes (`lower-to-cuda-core{chip=sm_90
// fused-steps=2}`), so a choice can be printed, stored in the IR
// (`stencil.pipeline`) and rerun by hand. The builders here parse it with
// the pipeline's own options struct, without the global pass registry.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_PIPELINES_CANDIDATES_H
#define STENCIL_PIPELINES_CANDIDATES_H

#include "mlir/Pass/PassManager.h"

#include <string>

namespace mlir {
namespace stencil {

/// One pipeline configuration.
struct PipelineCandidate {
  /// The cost model's name of the pipeline ("sptc", "tc", "tc-lowrank",
  /// "cuda-core", "fft"; getModelConstants).
  std::string family;
  /// The registered pipeline (`lower-to-tc`) and its options.
  std::string pipeline;
  std::string options;

  /// `pipeline{options}`.
  std::string str() const;
};

/// Splits `lower-to-x{a=1 b=2}` into pipeline and options; fails on a
/// malformed string or an unknown pipeline.
FailureOr<PipelineCandidate> parsePipelineCandidate(StringRef text);

/// The candidates of `--lower-to-auto` for `chip` (and `features`, when not
/// empty; each pipeline's own default otherwise): strided-swap/matching
/// SpTC (layout=auto), dense TC and the low-rank TC chain, each with
/// 1..maxFusedSteps fused steps (kernel composition), FFT with
/// 1..maxFusedSteps fused steps, CUDA cores with 1..maxFusedSteps fused
/// steps, and the 3-D plane sums. Which of them take a given stencil is found
/// by running them.
SmallVector<PipelineCandidate> getPipelineCandidates(StringRef chip,
                                                     StringRef features,
                                                     int optLevel,
                                                     int64_t maxFusedSteps);

/// Adds the stencil part of `candidate` (up to the kernels and launches,
/// before the NVVM emission) to `pm`; fails on options the pipeline does not
/// take.
LogicalResult buildCandidateKernelPipeline(OpPassManager &pm,
                                           const PipelineCandidate &candidate);

/// Adds the rest of `candidate`'s pipeline after its stencil part (NVVM,
/// LLVM, PTX in a gpu.binary) to `pm`.
LogicalResult
buildCandidateEmissionPipeline(OpPassManager &pm,
                               const PipelineCandidate &candidate);

/// Adds the whole pipeline of `candidate` to `pm`.
LogicalResult buildCandidatePipeline(OpPassManager &pm,
                                     const PipelineCandidate &candidate);

} // namespace stencil
} // namespace mlir

#endif // STENCIL_PIPELINES_CANDIDATES_H
