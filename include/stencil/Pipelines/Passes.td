//===- Passes.td - The passes of --lower-to-auto -----------*- tablegen -*-===//

#ifndef STENCIL_PIPELINES_PASSES_TD
#define STENCIL_PIPELINES_PASSES_TD

include "mlir/Pass/PassBase.td"

// The GPU target options of the passes below, declared once: their names,
// types and defaults (Support/GPUTarget.h, which the pipelines' target
// options, GPUTargetOptions in Pipelines.h, share); `help` says what the
// pass does with them. checkGPUTarget and checkLLVMOptLevel validate them.
class StencilChipOption<string help>
    : Option<"chip", "chip", "std::string",
             /*default=*/"::mlir::stencil::kDefaultChip", help>;
class StencilFeaturesOption<string help>
    : Option<"features", "features", "std::string", /*default=*/"\"\"",
             help>;
class StencilOptLevelOption<string help>
    : Option<"optLevel", "opt-level", "int",
             /*default=*/"::mlir::stencil::kOptLevelByKernel", help>;

def StencilCheckTarget : Pass<"stencil-check-target", "::mlir::ModuleOp"> {
  let summary = "Check a GPU pipeline's chip and PTX ISA version before it "
                "emits anything";
  let description = [{
    The first pass of every GPU pipeline (`--lower-to-sptc`, `--lower-to-tc`,
    `--lower-to-cuda-core`, `--lower-to-fft`, and the pipelines
    `--lower-to-auto` weighs). It checks, with the rules of
    `Support/GPUTarget.h`, that

    - `chip` is a chip LLVM 22's NVPTX backend knows (not empty, and not a
      string of several options: a pipeline's options are separated by
      spaces, `--lower-to-sptc="chip=sm_90 warps=8"`, not commas);
    - the chip has every family of instructions in `instructions` that the
      pipeline's kernels issue (`mma.sp`: sm_80 or later; `wgmma`: sm_90a
      only; ...);
    - `features`, when given, is one `+ptxNN` that LLVM emits, no older
      than the chip needs (sm_100a: PTX 8.6, sm_120: 8.7) and than the
      instructions need (`mma.sp::ordered_metadata`: 8.5);
    - `opt-level` is 0 to 3, or -1 (by kernel: `--stencil-attach-target`);
    - no op needs instructions the pipeline does not issue: a 2:4 sparse row
      form (`stencil.sparse_row_gemm`) is for `--lower-to-sptc`'s `mma.sp`,
      not for the dense pipelines.

    Each failure is an error at the first stencil op (the module when there
    is none) that names the pipeline, what was given and the chips or the
    PTX ISA version the pipeline takes, instead of a crash or an instruction
    selection failure in LLVM's NVPTX backend later. With an empty
    `features`, the pipeline emits the newest of the PTX ISA versions the
    chip and the instructions need (`getPTXFeatures`).

    Example: `--stencil-check-target="pipeline=--lower-to-sptc chip=sm_75
    instructions=mma.sp,cp.async"` fails with "--lower-to-sptc needs a chip
    with the sparse Tensor Cores' mma.sp (sm_80 or later: sm_80, sm_86,
    sm_89, sm_90, sm_90a, sm_100a, sm_120, ...); got 'sm_75'".
  }];
  let options = [
    Option<"pipeline", "pipeline", "std::string",
           /*default=*/"\"--stencil-check-target\"",
           "The pipeline's flag, as diagnostics name it (--lower-to-sptc)">,
    StencilChipOption<"The target GPU (sm_80, sm_90a, sm_100a, sm_120, ...)">,
    StencilFeaturesOption<"The PTX ISA version (+ptx85; empty: the one the "
                          "chip and the instructions need)">,
    Option<"instructions", "instructions",
           "::mlir::stencil::GPUInstructionList",
           /*default=*/"::mlir::stencil::GPUInstructionList{}",
           "The families of instructions the pipeline's kernels issue, "
           "separated by commas: fma, cp.async, mma, mma.sp, mma.sp.ordered, "
           "wgmma">,
    StencilOptLevelOption<"The pipeline's LLVM optimization level: 0 to 3, or "
                          "-1 (by kernel)">,
  ];
}

def StencilAttachTarget : Pass<"stencil-attach-target", "::mlir::ModuleOp"> {
  let summary = "Attach the NVVM target to each GPU module, at the LLVM "
                "optimization level its kernels ask";
  let description = [{
    The NVVM emission of every GPU pipeline (`buildStencilGPUEmissionPipeline`)
    runs upstream's `gpu-lower-to-nvvm-pipeline` passes with this pass in the
    place of `nvvm-attach-target`. It attaches `#nvvm.target<O = L, chip,
    features>` to every `gpu.module`, as upstream's pass does, where L is

    - `opt-level`, when it is 0 to 3;
    - with `opt-level=-1` (by kernel, the pipelines' default): the lowest
      `stencil.llvm_opt_level` of the module's kernels (`gpu.func`), 3 where
      none sets it. A conversion asks for a level where LLVM's optimizations
      were measured to hurt its kernel: `--convert-stencil-to-sptc` asks for
      0 for the gathered 2-D form of more than 32 kernel rows, whose O3
      schedule raises the register pressure until ptxas spills (a 31 x 31
      box: 6 KB per thread at O3, 360 bytes at O0; 2.8x faster and 3.5x
      faster to compile on an H200, bench/NOTES.md, "LLVM's optimization
      level").

    The kernels' `stencil.llvm_opt_level` attributes are removed; the rest of
    the IR is what upstream's pass would give.

    Example: `--stencil-attach-target="chip=sm_90 features=+ptx85"`.
  }];
  let options = [
    StencilChipOption<"The target GPU">,
    StencilFeaturesOption<"The PTX ISA version (+ptx85)">,
    StencilOptLevelOption<"LLVM's optimization level: 0 to 3, or -1: by "
                          "kernel (3, or the level its conversion asks)">,
  ];
  let dependentDialects = ["::mlir::NVVM::NVVMDialect"];
}

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
    `--stencil-lower-selected` runs, and next to it
    `stencil.device_profile`, what the choice assumed: the device profile
    (and, when `device-profile` is not given, that it was assumed from the
    chip and how to give another) and where the occupancy came from. The
    launch description repeats both as comments. With `explain=true`, a
    remark prints the ranked table: per candidate the unit, its issued flops
    and the bytes per point and step, both bounds, the binding one, the
    resident warps per SM and the prediction, then a count of the rejected
    candidates; `explain=all` lists each rejected candidate with its
    reason.

    The occupancy needs the kernel's registers, which only the assembler
    knows: when `ptxas` names an assembler (by default the ptxas of the CUDA
    toolkit found when the compiler was built, never one from `PATH`, so the
    choice does not depend on the environment), each candidate that lowers is
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

    With `lower=true` (as `--lower-to-auto` runs it) the pass also lowers
    the module through the chosen pipeline: the module becomes the copy the
    ranking compiled (its PTX emitted here where no assembler ran), so the
    chosen pipeline is not run a second time; the output is the same as
    `--stencil-lower-selected`'s.
  }];
  let options = [
    StencilChipOption<"Target GPU: sm_80, sm_86, sm_89, sm_90, sm_90a, "
                      "sm_100a, sm_120, ... (each candidate that does not "
                      "take it is rejected)">,
    StencilFeaturesOption<"PTX ISA version, +ptxNN, of every candidate "
                          "(default: each pipeline's own, the newest of what "
                          "the chip and its instructions need)">,
    Option<"deviceProfile", "device-profile", "std::string",
           /*default=*/"\"\"",
           "The device: a built-in profile (h100, h200, a100, b200, "
           "rtx-pro-6000; a100, b200 and rtx-pro-6000 from published "
           "figures, not calibrated) or the path of a file from stencil-run "
           "--roofline --profile-out; empty: by chip (sm_80..sm_89: a100, "
           "sm_90: h100, sm_100: b200, sm_120: rtx-pro-6000)">,
    Option<"fusedSteps", "fused-steps", "std::string", /*default=*/"\"max\"",
           "Time steps a launch may fuse: N (candidates with 1..N) or max "
           "(1..4); never more than the op's steps">,
    StencilOptLevelOption<"LLVM's optimization level of the candidates: 0 to "
                          "3, or -1 (by kernel, as the pipelines' opt-level)">,
    Option<"explain", "explain", "::mlir::stencil::ExplainLevel",
           /*default=*/"::mlir::stencil::ExplainLevel::None",
           "Print the ranked table of candidates as a remark",
           "::mlir::stencil::getExplainLevelValues()">,
    Option<"ptxas", "ptxas", "std::string", /*default=*/"\"auto\"",
           "The assembler that gives each candidate's registers (the "
           "occupancy): auto (the ptxas of the CUDA toolkit found when the "
           "compiler was built; never one from PATH), none, or a path">,
    ListOption<"grid", "grid", "int64_t",
               "The grid's extents, outermost first, the prediction is for; "
               "default: the op's static shape, else 10240000 (1-D), "
               "10240 x 10240 (2-D), 512^3 (3-D). The 3-D plane sums with "
               "vector columns of W are candidates only for a known grid "
               "whose rows are a multiple of W">,
    Option<"lower", "lower", "bool", /*default=*/"false",
           "Also lower the module through the chosen pipeline, reusing the "
           "copy the ranking compiled (what --stencil-lower-selected would "
           "do, without compiling the candidate again)">,
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
