//===- Passes.td - Stencil conversion passes ---------------*- tablegen -*-===//

#ifndef STENCIL_CONVERSION_PASSES_TD
#define STENCIL_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertStencilToSCF : Pass<"convert-stencil-to-scf"> {
  let summary = "Lower stencil ops to scf loops over memrefs (the CPU "
                "reference)";
  let description = [{
    The reference lowering every other pipeline is checked against, kept
    simple on purpose. For a stencil of `T` steps on a grid of rank `n` with
    per-dimension radius `r_d` it emits:

    1. with the `halo` boundary, `memref.copy input -> output` (the output
       halo is the input's);
    2. an `scf.for` over the `T` steps carrying `(src, dst)` and yielding
       `(dst, src)`, so step `t` reads step `t-1` (ping-pong);
    3. inside it an `n`-deep `scf.for` nest over the computed points:
       `r_d <= i_d < N_d - r_d` for `halo`, the whole grid otherwise;
    4. at each point, for `stencil.linear`, the sum of `w_i * src[i + o_i]`
       accumulated in f64 in pattern order and rounded once to the element
       type; for `stencil.apply`, the body cloned with each `stencil.access`
       replaced by a load (computing in the element type, as written);
    5. when `T` is even the result is in `input`: a final
       `memref.copy input -> output`.

    Neighbour loads: `halo` loads `src[i + o]` (in bounds by construction);
    `periodic` loads `src[(i + o + N) mod N]` (needs `N > r`, which the
    verifier checks for static sizes); `dirichlet` loads at the index clamped
    into the grid and selects the boundary value when `i + o` is outside.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"
  ];
}

#endif // STENCIL_CONVERSION_PASSES_TD
