//===- Passes.td - Stencil dialect transformation passes ---*- tablegen -*-===//

#ifndef STENCIL_DIALECT_STENCIL_TRANSFORMS_PASSES_TD
#define STENCIL_DIALECT_STENCIL_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def StencilLinearize : Pass<"stencil-linearize"> {
  let summary = "Rewrite linear stencil.apply bodies into stencil.linear";
  let description = [{
    The Tensor-Core pipelines need a stencil as a weighted neighbourhood:
    `out[p] = sum_i w_i * in[p + o_i]` (SPIDER section 2.2, "Stencil Kernel
    Decomposing", starts from exactly these weights). This pass recognises a
    `stencil.apply` whose yielded value is such a combination and rewrites it
    to `stencil.linear`.

    The body is read as an expression tree from the yield down. Accepted:
    `stencil.access` (weight 1 at its offset), `arith.constant` (a scalar),
    `arith.addf`, `arith.subf`, `arith.negf`, `arith.mulf` with at least one
    side a scalar, and `arith.divf` by a non-zero scalar. Each subtree
    evaluates to a linear combination plus a constant term. The body is linear
    when the constant term of the result is zero; repeated offsets are merged
    and zero weights dropped (`LinearCombination` in `StencilShape.h`). If
    every weight cancels, the op is left alone.

    The rewrite re-associates the floating-point sum (the linear form
    accumulates in the order of the pattern), as `-ffast-math` would; the
    CPU pipeline accumulates the linear form in f64.

    Any other body (a product of two accesses, `arith.maximumf`, `math` ops,
    a constant bias) is non-linear and stays a `stencil.apply`: the CPU and
    CUDA-core pipelines take it, the Tensor-Core pipelines reject it.
  }];
  let dependentDialects = ["::mlir::stencil::StencilDialect"];
  let statistics = [
    Statistic<"numLinearized", "num-linearized",
              "Number of stencil.apply ops rewritten to stencil.linear">,
    Statistic<"numNonLinear", "num-non-linear",
              "Number of stencil.apply ops left in general form">
  ];
}

def StencilAttachCpuHarness : Pass<"stencil-attach-cpu-harness",
                                   "::mlir::ModuleOp"> {
  let summary = "Add a main function that runs a stencil function on "
                "deterministic data and prints its output";
  let description = [{
    Makes a module runnable with `mlir-runner -e main
    -entry-point-result=void`. The new `@main` allocates one grid per memref
    argument of the function named by `func` (sizes from the static type, or
    from `grid` for dynamic dimensions), fills each argument `a` at row-major
    index `n` with

    ```
    h = (((n * 1103515245 + 12345 + a * 7919) & 0x7fffffff) >> 16) & 255
    value = (h - 128) / 256
    ```

    (exactly representable in f16, bf16, f32 and f64, so any reference can
    reproduce the input), calls the function, and prints the last memref
    argument, the output, with `printI64`, one number per line: the rank,
    the sizes, then every element's bit pattern zero-extended to i64. Bit
    patterns, not decimal text, so that a checker compares exact values.
    `utils/stencil-ref.py` reads this format.
  }];
  let options = [
    Option<"funcName", "func", "std::string", /*default=*/"\"\"",
           "Function to run (default: the only public function)">,
    ListOption<"gridSizes", "grid", "int64_t",
               "Grid sizes, one per dimension (needed for dynamic sizes)">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::func::FuncDialect",
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect",
    "::mlir::LLVM::LLVMDialect"
  ];
}

def StencilSplitBF16Casts : Pass<"stencil-split-bf16-casts"> {
  let summary = "Route f64 <-> bf16 conversions through f32 for the CPU";
  let description = [{
    Rewrites `arith.truncf f64 -> bf16` into `f64 -> f32 -> bf16` and
    `arith.extf bf16 -> f64` into `bf16 -> f32 -> f64`, so that
    `arith-expand{include-bf16}` can expand the f32 <-> bf16 steps inline.
    Without it LLVM calls `__truncdfbf2`, which neither libgcc on these
    machines nor the `mlir-runner` runtime provides.

    The extension is exact. The truncation rounds twice (to f32, then to
    bf16), which can differ from a single correct rounding by one bf16 ulp
    when the f32 value lies exactly halfway between two bf16 values; the CPU
    reference checker allows one rounding per time step.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def StencilCheckLowered : Pass<"stencil-check-lowered", "::mlir::ModuleOp"> {
  let summary = "Check a pipeline's contract: only the allowed dialects remain";
  let description = [{
    The last pass of every pipeline. It fails, pointing at the first
    offending operation, when an operation from a dialect outside `allowed`
    is left in the module (for example a `stencil` op a pipeline could not
    lower, or an `scf` loop that was not converted), so that a pipeline never
    silently produces half-lowered output.
  }];
  let options = [
    ListOption<"allowed", "allowed", "std::string",
               "Dialects allowed in the module (host code)">,
    Option<"pipeline", "pipeline", "std::string", /*default=*/"\"\"",
           "Name of the pipeline, used in the diagnostic">
  ];
}

#endif // STENCIL_DIALECT_STENCIL_TRANSFORMS_PASSES_TD
