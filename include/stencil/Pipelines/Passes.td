//===- Passes.td - The passes of --lower-to-auto -----------*- tablegen -*-===//

#ifndef STENCIL_PIPELINES_PASSES_TD
#define STENCIL_PIPELINES_PASSES_TD

include "mlir/Pass/PassBase.td"

def StencilSelectPipeline
    : Pass<"stencil-select-pipeline", "::mlir::ModuleOp"> {
  let summary = "Choose a module's GPU pipeline by the performance model of "
                "\"Do We Need Tensor Cores for Stencil Computations?\"";
  let description = [{
    Runs the stencil part of every candidate pipeline (Candidates.h: SpTC,
    dense TC, low-rank TC, FFT and CUDA cores, with 1 to `fused-steps`
    fused steps) on a copy of the module, keeps the candidates that lower
    it, reads the launch records they wrote, predicts each one's
    GStencil/s on the device profile (Analysis/CostModel.h: the roofline
    min(B / M, P_unit / C_unit) of "Do We Need Tensor Cores?", eq. 12, scaled by the measured
    efficiencies of the pipeline) and records the fastest as the module
    attribute `stencil.pipeline = "lower-to-...{...}"`, which
    `--stencil-lower-selected` runs. With `explain`, a remark prints the
    ranked table: per candidate the unit, its issued flops and the bytes per
    point and step, both bounds, the binding one, the resident warps per SM,
    the prediction, and why each rejected candidate was rejected.

    The occupancy needs the kernel's registers, which only the assembler
    knows: when `ptxas` finds an assembler, each candidate that lowers is
    also emitted as PTX and assembled with `ptxas -v`; without one the model
    takes every kernel as fully occupied (the remark says so), which
    misranks kernels that hold many registers (on an H100, SpTC against
    dense TC for 2-D boxes of radius 5 to 7). A kernel ptxas refuses is
    rejected; an assembler that takes no candidate at all (older than the
    PTX ISA LLVM emits) is ignored, and the remark says so. The FFT
    kernel's edge blocks depend on the grid: `grid` gives its extents, else
    the op's static shape, else the papers' benchmark sizes (10240000;
    10240 x 10240; 512^3).

    A module no candidate lowers is an error that lists every candidate's
    reason.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "Target GPU (sm_80, sm_86, sm_90, ...)">,
    Option<"deviceProfile", "device-profile", "std::string",
           /*default=*/"\"\"",
           "The device: a built-in profile (h100, h200, a100) or the path of "
           "a file from stencil-run --roofline --profile-out; empty: by chip "
           "(sm_90: h100, sm_80: a100)">,
    Option<"fusedSteps", "fused-steps", "std::string", /*default=*/"\"max\"",
           "Time steps a launch may fuse: N (candidates with 1..N) or max "
           "(1..4); never more than the op's steps">,
    Option<"optLevel", "opt-level", "int", /*default=*/"3",
           "NVVM optimization level of the chosen pipeline">,
    Option<"explain", "explain", "bool", /*default=*/"false",
           "Print the ranked table of candidates as a remark">,
    Option<"ptxas", "ptxas", "std::string", /*default=*/"\"auto\"",
           "The assembler that gives each candidate's registers (the "
           "occupancy): auto (ptxas on PATH, in $CUDA_HOME/bin, "
           "$CUDA_PATH/bin or /usr/local/cuda/bin), none, or a path">,
    ListOption<"grid", "grid", "int64_t",
               "The grid's extents, outermost first, the prediction is for; "
               "default: the op's static shape, else 10240000 (1-D), "
               "10240 x 10240 (2-D), 512^3 (3-D). The 3-D plane sums with "
               "vector columns of W are candidates only for a known grid "
               "whose rows are a multiple of W">,
  ];
}

def StencilLowerSelected
    : Pass<"stencil-lower-selected", "::mlir::ModuleOp"> {
  let summary = "Run the pipeline named by the `stencil.pipeline` attribute";
  let description = [{
    Parses the module attribute `stencil.pipeline` (a textual pipeline
    element such as `lower-to-cuda-core{chip=sm_90 fused-steps=2}`, as
    `--stencil-select-pipeline` writes it) and runs that pipeline on the
    module as a dynamic pass pipeline.
  }];
}

#endif // STENCIL_PIPELINES_PASSES_TD
