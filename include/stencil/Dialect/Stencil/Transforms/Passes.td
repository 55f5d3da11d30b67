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

//===----------------------------------------------------------------------===//
// Sparse Tensor Core pipeline (SPIDER)
//===----------------------------------------------------------------------===//

def StencilDecompose : Pass<"stencil-decompose"> {
  let summary = "Split linear stencils into banded kernel-matrix products "
                "(SPIDER 3.1.1)";
  let description = [{
    SPIDER section 3.1.1 (with the decomposition strategy of section 2.2):
    a stencil is split into kernel rows, one per offset `o` of the outer
    dimensions (2-D: up to 2r+1 rows `dy`; 3-D: up to (2r+1)^2 rows
    `(dz, dy)`; rows without any point, such as most rows of a star, are
    dropped and cost nothing). Row `o` has weights `w_o[j]`,
    `j = dx + r` for `dx` in `[-r, r]`, `r` the innermost radius. It becomes
    the banded kernel matrix `K_o` of shape `L x 2L`,
    `K_o[i][i + j] = w_o[j]`, so that `Y = K_o X` computes `L` consecutive
    outputs from the `2r + L` inputs around them (the last `L - 2r` columns
    are zero padding). The partial results of the rows are accumulated:

    ```
    out[p][x0 + i] = sum_o sum_c K_o[i][c] * in[p + o][x0 - r + c]
    ```

    `K_o` has `L (2r + 1)` non-zeros out of `2L^2`; `L >= 2r + 2` makes it at
    least half zeros, the precondition of 2:4 sparsity (SPIDER 3.1.1 chooses
    `L = 2r + 2`). The `m16n8k32` `mma.sp` instruction computes 16 rows, so
    by default `L` is the smallest even divisor of 16 that is at least
    `2r + 2` (4 for r = 1, 8 for r = 2, 3, 16 for r = 4..7) and `16 / L`
    kernel matrices are stacked on the diagonal of one MMA operand; an
    innermost radius above 7 does not fit and is an error.

    With `align-pairs` (the default) the bands start `r mod 2` columns
    later (`column_shift`): column `c` then multiplies the input at offset
    `c - r - s`, which is even for even `c`, so the 32-bit input pairs that
    the paired strided swap creates are 4-byte aligned. A band that starts
    one column later still fits, as `s + 2r + L <= 2L`.

    Only the `halo` boundary is supported (the papers' convention); other
    boundaries, and `stencil.apply` bodies that `--stencil-linearize` could
    not turn into weights, are errors pointing at the op.

    With `fused-steps=t` (t > 1; kernel composition, LoRAStencil's route to
    temporal fusion, LoRAStencil section III-A) the matrices are those of the
    t-fold composed weights `W_t = w * ... * w` (computed once in f64,
    `Support/StepComposition.h`; radius `t r_d` along each dimension), and
    the row form records `fused_steps`, `step_pattern` and `step_weights`:
    a launch computes t steps, the composed kernels on the exact region
    `[t r_d, N_d - t r_d)` and t direct steps of the step stencil on the
    band of the interior outside it. The composed innermost radius `t r`
    must fit the MMA tile (at most 7).

    With `low-rank` and `fused-steps=t > 1` a 2-D pattern of one radius
    along both dimensions takes the low-rank chain of its composed weights
    (LoRAStencil, sections II-D and III-A): the fewest leading
    SVD terms of the `n x n` composed matrix `W_t` (`n = 2 t r + 1`) whose
    residual `R = W_t - sum_k u_k v_k^T` has `sum |R| <= u S_t` (`u` the
    element type's unit roundoff, `S_t = sum |W_t|`), so that the
    truncation moves no output by more than the rounding of the composed
    weights to the element type, which the runner's composed tolerance
    allows. The row form is the chain's (`column_weights`, as for
    `stencil.low_rank`) with `fused_steps`, `step_pattern` and
    `step_weights`. A composed radius above 4 (the chain's 16-row MMA) is
    an error; where the chain needs more than `t r + 1` terms the direct
    composed form is built, with a warning. A `stencil.low_rank` (one step
    of `--stencil-low-rank`) takes no fused steps.
  }];
  let options = [
    Option<"rowsPerBlock", "rows-per-block", "int64_t", /*default=*/"0",
           "L, the outputs per kernel matrix (0: the smallest even divisor "
           "of 16 that is at least 2r + 2)">,
    Option<"fusedSteps", "fused-steps", "int64_t", /*default=*/"1",
           "Time steps per launch by kernel composition (1: none; 2..64: "
           "the t-fold composed weights, the band near the edge by direct "
           "steps)">,
    Option<"alignPairs", "align-pairs", "bool", /*default=*/"true",
           "Shift the bands by r mod 2 columns (column_shift), so that the "
           "input pairs of the paired swap start at even offsets">,
    Option<"lowRank", "low-rank", "bool", /*default=*/"false",
           "With fused-steps > 1: the low-rank chain of the composed weights "
           "of 2-D stencils (their SVD truncated within the element type's "
           "rounding), where it has at most t r + 1 terms">
  ];
  let dependentDialects = ["::mlir::stencil::StencilDialect"];
}

def StencilStridedSwap : Pass<"stencil-strided-swap"> {
  let summary = "Permute kernel-matrix columns into 2:4 sparsity "
                "(SPIDER 3.1.2)";
  let description = [{
    SPIDER section 3.1.2: in every banded kernel matrix (`L x 2L`) of a
    `stencil.row_gemm`, column `j` is swapped with column `j + L` for every
    `j` in `[0, L)` of one parity. Row `i` of `K` is non-zero only in the
    columns `[i, i + 2r]`, which span `2r <= L - 2`, while any three of the
    four columns of an aligned group after the swap span at least `L - 1`
    (see `chooseRowsPerBlock` in `Support/SparseKernel.h`), so every group of
    4 holds at most 2 non-zeros: 2:4 structured sparsity. The paper's text
    names odd `j` in 3.1.2 and even `j` in 3.2; both work for even `L`. The
    swap is recorded as `column_permutation`; the products are unchanged once
    the input rows are swapped the same way (`--stencil-fold-row-swap`).

    `paired` (the default) is this project's variant that moves columns in
    adjacent pairs: positions `[4g, 4g + 4)` hold columns
    `(2g, 2g + 1, 2g + L, 2g + L + 1)`. Any three of them span at least
    `L - 1 > 2r`, so it is 2:4 for the same `L`, and each 32-bit register of
    the B operand then holds two adjacent input points: the GPU kernel loads
    it with one 32-bit shared-memory load instead of two 16-bit ones.
    `paired=false` is SPIDER's element-wise swap.

    The pass checks the 2:4 property of every swapped matrix and fails with a
    diagnostic naming the first offending row and group instead of emitting
    wrong code (e.g. for an odd `rows_per_block`).
  }];
  let options = [
    Option<"paired", "paired", "bool", /*default=*/"true",
           "Swap adjacent column pairs (32-bit B loads) instead of single "
           "columns (SPIDER)">,
    Option<"oddParity", "odd-parity", "bool", /*default=*/"false",
           "With paired=false: swap the odd columns j (SPIDER 3.1.2's "
           "wording) instead of the even ones (3.2's)">
  ];
  let dependentDialects = ["::mlir::stencil::StencilDialect"];
}

def StencilFlatten : Pass<"stencil-flatten"> {
  let summary = "Flatten-and-crush a linear stencil into SparStencil's "
                "gathered matrix form (SparStencil, 3.1)";
  let description = [{
    SparStencil section 3.1, adaptive layout morphing: every
    `stencil.linear` on f16 grids with the `halo` boundary becomes a
    `stencil.row_gemm` in the gathered form (see the op). Stencil flattening
    writes each output as the kernel vector times the window it reads;
    crushing the horizontal duplicates (eq. 3: the `r1` outputs of one row
    read overlapping windows) and the vertical ones (eq. 4: the `r2` rows
    share input rows) leaves one matrix column per distinct input point of
    an `r2 x r1` output block, `r1 r2 = 16` the rows of an `mma.sp`:

    ```
    A'[u r1 + v][c] = w(o_c - (0, u, v)),
    out(origin + (0, u, v)) = Sum_c A'[u r1 + v][c] in(origin + o_c).
    ```

    Columns come in units of two adjacent inputs `(dz, dy, 2a)`,
    `(dz, dy, 2a + 1)` that the GPU kernel loads with one 32-bit load; the
    units are laid out in their natural order, 16 per kernel matrix (the
    last one padded with zero units), and `--stencil-sptc-match` then finds
    the 2:4 order. The layout is recorded as `layout = [r1, r2]`.

    Layout exploration (3.3, eq. 9): with `r1`/`r2` left at 0 every layout
    the rank takes ([16, 1] in 1-D; [16, 1], [8, 2], [4, 4], [2, 8]
    otherwise) is flattened and matched, and the one that issues the fewest
    `mma.sp` per MMA tile is taken; among equals, in 3-D, those whose kernel
    stages within ~11% of the fewest input elements per output with its
    default tiling (the 3-D plane stream is bound by its staging; measured
    in bench/NOTES.md), then the fewest units. `route=auto`
    keeps a stencil as it is, for `--stencil-decompose` and the strided swap
    (SPIDER), unless matching issues strictly fewer MMAs than strided swap
    (one per non-empty kernel row) or the strided swap cannot take it (an
    innermost radius above 7); `route=matching` always flattens.
    `Support/SparStencil.h` has the math; its unit tests run every layout of
    stars, boxes, diamonds, crosses and random patterns through the CPU
    model of `mma.sp`.
  }];
  let options = [
    Option<"route", "route", "::mlir::stencil::FlattenRoute",
           /*default=*/"::mlir::stencil::FlattenRoute::Auto",
           "Which linear stencils take the gathered form",
           "::mlir::stencil::getFlattenRouteValues()">,
    Option<"fusedSteps", "fused-steps", "int64_t", /*default=*/"1",
           "Steps the pipeline fuses by composition (--stencil-decompose "
           "fused-steps), which the gathered form does not take: with t > 1 "
           "route=auto keeps every f16 stencil banded and route=matching is "
           "an error">,
    Option<"keepWarpgroup", "keep-warpgroup", "bool", /*default=*/"false",
           "route=auto: keep banded the stencils that mma=auto sends to the "
           "sm_90a warpgroup kernel (2-D, r_y >= 5; "
           "Support/WgmmaSpTiling.h preferWarpgroupKernel)">,
    Option<"r1", "r1", "int64_t", /*default=*/"0",
           "Outputs of an MMA block along x (0: explore; with r2, r1 r2 = 16)">,
    Option<"r2", "r2", "int64_t", /*default=*/"0",
           "Rows of an MMA block along y (0: explore; 1 in 1-D)">,
    Option<"layouts", "layouts", "::mlir::stencil::FlattenLayouts",
           /*default=*/"::mlir::stencil::FlattenLayouts::All",
           "Layouts exploration may choose",
           "::mlir::stencil::getFlattenLayoutsValues()">
  ];
  let dependentDialects = ["::mlir::stencil::StencilDialect"];
}

def StencilSpTCMatch : Pass<"stencil-sptc-match"> {
  let summary = "Order the units of a gathered form into 2:4 sparsity by "
                "conflict-graph matching (SparStencil, 3.2)";
  let description = [{
    SparStencil section 3.2, structured sparsity conversion, on
    every `stencil.row_gemm` in the gathered form (`--stencil-flatten`) that
    is not yet matched. The units (pairs of columns) are the nodes of the
    conflict graph (Definition 1): two units conflict when some row holds
    more than two non-zeros in their four columns. A valid matching
    (Definition 3) pairs non-conflicting units into groups of 4 columns,
    which are then 2:4 in every row; an unmatched unit shares its group
    with a zero unit (Definition 2). The hierarchical two-level matching of
    Algorithm 1 pairs whole blocks (units of one input row) and then units
    inside a block; when it pairs fewer units than a maximum matching,
    Edmonds' blossom algorithm (Boost Graph,
    `edmonds_maximum_cardinality_matching`) on the complement of the
    conflict graph gives the matching instead. The groups are laid out 8
    per `mma.sp` (K = 32), which permutes the columns of A' and the gathered
    rows of B alike (the permutation invariance of eq. 5), so the products
    are unchanged.

    Every resulting kernel matrix is checked to be 2:4; a failure is a
    located error, never wrong code. The method used is recorded as the
    discardable attribute `stencil.matching` (`two-level` or `blossom`).
  }];
  let dependentDialects = ["::mlir::stencil::StencilDialect"];
}

def StencilSpTCReport : Pass<"stencil-sptc-report"> {
  let summary = "Print, per linear stencil, what each way of making it 2:4 "
                "sparse issues on the Sparse Tensor Cores";
  let description = [{
    A report for the user of `--lower-to-sptc` (its `layout` option): for
    every `stencil.linear` (run `--stencil-linearize` first for
    `stencil.apply` bodies), one block on standard output, headed by its
    function and location, with one line per candidate:

    - `strided-swap`: SPIDER, one `mma.sp` per non-empty kernel
      row;
    - `matching [r1, r2]`: SparStencil flattened and crushed with
      each layout of the stencil's rank, then matched (section 3.2; the
      method, `two-level` or `blossom`, is given);

    each with the `mma.sp.m16n8k32` issued per tile of 16 x 8 outputs and
    per output point, the fraction of the issued A slots (16 rows x 16 kept
    values per `mma.sp`) that hold a non-zero weight, and the B operand
    bytes read from shared memory per output point (section 3.3, eq. 9);
    for the matched layouts also the shared memory of the kernel's default
    tiling (`--stencil-sptc-tile`) and the input elements it stages per
    output point (tile and halo over the tile's outputs; in 3-D the
    streamed planes). The last line names what `layout=auto` takes (the
    same choice as `--stencil-flatten`: fewest `mma.sp`, then in 3-D the
    layouts staging within ~11% of the fewest inputs, then fewest input
    pairs). The IR is left unchanged; use `-o /dev/null` to see the report
    alone.
  }];
}

def StencilEncode2to4 : Pass<"stencil-encode-2to4"> {
  let summary = "Compress 2:4 kernel matrices into values and metadata "
                "(SPIDER 3.1.2)";
  let description = [{
    SPIDER section 3.1.2, stage 3: every kernel matrix of a
    `stencil.row_gemm` is stored as the A operand of `mma.sp` needs it: per
    row and per group of 4 columns, the two kept values and their 2-bit
    positions in the group. Two non-zeros are kept in position order; a
    group with one non-zero at position `p` keeps a zero placeholder beside
    it, at `p + 1` (at 2, before it, when `p = 3`), as in the paper's
    `0G00 -> G0` with metadata `0110`; an empty group keeps zeros at
    positions 0 and 1. The positions of a pair are strictly increasing, as
    PTX's ordered metadata (`.sp::ordered_metadata`) requires. The values
    are rounded to f16, the operand precision of the Sparse Tensor Cores.
    The result is a `stencil.sparse_row_gemm` that keeps the column
    permutation.

    A matrix that is not 2:4 (the strided swap was not applied, or does not
    apply) is an error that names the row and group.
  }];
  let dependentDialects = ["::mlir::stencil::StencilDialect"];
}

def StencilFoldRowSwap : Pass<"stencil-fold-row-swap"> {
  let summary = "Fold the input row swap into load offsets (SPIDER 3.2)";
  let description = [{
    SPIDER section 3.2: swapping columns `j` and `j + L` of the kernel
    matrices requires swapping rows `j` and `j + L` of the input matrix `X`.
    Instead of moving data, the swap becomes part of the address of every
    input load: logical column `c` multiplies the input point at innermost
    offset `perm[c] - r` from the block's first output. This pass replaces
    the `column_permutation` of a `stencil.sparse_row_gemm` by those
    `input_offsets`; the GPU lowering adds them as constants to the load
    addresses, so the swap costs no instruction at run time. The dense form
    (`stencil.row_gemm`, for `--lower-to-tc`) gets its offsets the same way,
    from the identity when it was not swapped.
  }];
  let dependentDialects = ["::mlir::stencil::StencilDialect"];
}

def StencilLowRank : Pass<"stencil-low-rank"> {
  let summary = "Rewrite 2-D linear stencils of low weight rank into "
                "stencil.low_rank (LoRAStencil)";
  let description = [{
    LoRAStencil, sections II-D and III-C. For a 2-D
    `stencil.linear` whose pattern has the same radius `h` along both
    dimensions, the weights form an `n x n` matrix `W` (`n = 2h + 1`). The
    pass decomposes `W = sum_k u_k v_k^T` (`Support/LowRank.h`):

    * `pyramidal` (PMA, III-C): `C_1 = W[:,0] W[0,:] / W[0][0]` takes the
      border of `W`; for row- and column-symmetric weights (the radially
      symmetric stencils of II-C) the remainder is such a matrix of size
      `n - 2`, so at most `h + 1` exact terms of decreasing size (eq. 15);
    * `svd` (eq. 8): the singular values above `tolerance x sigma_max`;
    * `auto` (default): `pyramidal` where it applies, `svd` otherwise.

    The tolerance defaults to the unit roundoff of the grid's element type
    (f16 2^-11, bf16 2^-8, f32 2^-24, f64 2^-53): dropping a smaller
    singular value changes the result by less than rounding it does.

    A rank-`K` stencil costs `K` row and `K` column passes (`U_k X V_k`,
    eq. 9) instead of `n^2` multiply-adds per point; LoRAStencil's symmetric
    stencils have `K <= h + 1`. When `K` exceeds `max-rank` (default
    `h + 1`) the low-rank form does not pay off: the pass leaves the op and
    says so with a warning at its location. Patterns with different radii
    along the two dimensions (whose halo would change) are left alone.
  }];
  let options = [
    Option<"method", "method", "::mlir::stencil::LowRankMethod",
           /*default=*/"::mlir::stencil::LowRankMethod::Auto",
           "How the rank-K decomposition is found",
           "::mlir::stencil::getLowRankMethodValues()">,
    Option<"maxRank", "max-rank", "int64_t", /*default=*/"0",
           "Largest rank worth rewriting (0: radius + 1)">,
    Option<"tolerance", "tolerance", "double", /*default=*/"0.0",
           "Relative singular-value cut-off (0: the element type's unit "
           "roundoff)">
  ];
  let dependentDialects = ["::mlir::stencil::StencilDialect"];
  let statistics = [
    Statistic<"numRewritten", "num-rewritten",
              "Number of stencil.linear ops rewritten to stencil.low_rank">,
    Statistic<"numKept", "num-kept",
              "Number of stencil.linear ops whose rank is too high">
  ];
}

def StencilFftTailor : Pass<"stencil-fft-tailor"> {
  let summary = "Choose the FFT tile of linear stencils and rewrite them "
                "into stencil.fft_apply (FlashFFTStencil kernel tailoring)";
  let description = [{
    FlashFFTStencil, section 3.1 (kernel tailoring: split, fuse,
    stitch) with the prime-factor reshaping of section 3.2.1 and the temporal
    fusion of section 4. For each `stencil.linear` on an f64 or f32 grid the
    pass chooses the tile a thread block transforms: per dimension a size
    `N_d`, the product of pairwise coprime factors from {3, 5, 7, 8, 9, 11,
    13, 16} (each factor's axis padded to a multiple of 8 for the MMA), such
    that `T = fused-steps` steps leave a valid region `N_d - 2 T r_d > 0`,
    the tile's complex array has at most `max-tile-elements` elements, and
    the Tensor Core work per point update, bounded below by the HBM traffic
    at the H100/H200 machine balance, is least (`chooseFftTile`,
    `Support/FftTiling.h`, which derives the cost). With `fused-steps=0`
    (default) the pass also chooses T, from 1 to min(steps, 64), for the
    least total cost of the op's ceil(steps / T) launches (a last launch of
    `steps mod T` steps costs as much as a full one). T is capped at the
    op's `steps`.

    In 1-D and 2-D the pass also considers the radix-8 Cooley-Tukey tile
    (4096 points in 1-D, 64 x 64 in 2-D; `cooley_tukey` on the op): no
    padding and half the shared-memory passes, at the price of twiddles
    (see "Cooley-Tukey tiles" in `Support/FftTiling.h`). It is taken unless
    a PFA tile costs less; `cooley-tukey=false` leaves only PFA tiles.

    Errors, at the op: an element type other than f64 and f32 (the FFT
    pipeline computes in f64; f16 and bf16 would lose the error bound over
    fused steps), a `stencil.apply` left by `--stencil-linearize` (only
    linear stencils have a spectrum), a radius for which no tile within the
    budget has a valid region.
  }];
  let options = [
    Option<"fusedSteps", "fused-steps", "int64_t", /*default=*/"0",
           "Time steps per tile (T); 0 chooses T by the tailoring cost">,
    Option<"maxTileElements", "max-tile-elements", "int64_t",
           /*default=*/"4096",
           "Largest complex array of a tile (16 bytes per element of shared "
           "memory)">,
    Option<"cooleyTukey", "cooley-tukey", "bool", /*default=*/"true",
           "Consider the radix-8 Cooley-Tukey tile (1-D 4096, 2-D 64 x 64, "
           "digits chained in registers) besides the PFA tiles">
  ];
  let dependentDialects = ["::mlir::stencil::StencilDialect"];
}

def StencilFftSpectrum : Pass<"stencil-fft-spectrum"> {
  let summary = "Attach the kernel spectrum raised to the fused steps to "
                "stencil.fft_apply (FlashFFTStencil temporal fusion)";
  let description = [{
    FlashFFTStencil, section 4, eq. (10): T fused steps are one
    product by `k_f^T`. For every `stencil.fft_apply` without a spectrum the
    pass computes, at compile time, `S[k] = H[k]^T / prod N_d` with
    `H[k] = sum_o w_o exp(2 pi i sum_d k_d o_d / N_d)` on the tile's
    frequencies, stored at their prime-factor (Ruritanian) positions of the
    padded array (`computeFftSpectrum`, `Support/FftTiling.h`): H in long
    double, the power by binary powering, one rounding to f64. It is done
    here rather than in a setup kernel because S depends only on
    compile-time constants, and long double keeps it within about one ulp
    even for T in the hundreds. When T does not divide `steps`, the last
    launch's `tail_spectrum` is `H^(steps mod T) / prod N_d` on the same
    tile.
  }];
  let dependentDialects = ["::mlir::stencil::StencilDialect"];
}

def StencilSpTCTile : Pass<"stencil-sptc-tile"> {
  let summary = "Choose the tiling of the Sparse Tensor Core kernel "
                "(SPIDER 3.3.1)";
  let description = [{
    SPIDER section 3.3.1: the hierarchical tiling (thread block / warp /
    MMA) of every `stencil.sparse_row_gemm`, recorded as its `tiling`
    attribute for `--convert-stencil-to-sptc`. One `mma.sp.m16n8k32`
    computes 16 consecutive outputs along the innermost dimension for 8
    columns (8 consecutive `y` in 2-D and 3-D, 8 segments of 16 outputs in
    1-D); a warp computes `nTiles` such column tiles, a block `warps` warps
    side by side along `x` and `subTiles` tiles one after the other along
    `y` (`x` in 1-D, `z` in 3-D), with `asyncCopy` the next one staged by
    `cp.async` while the current one computes. The kernel matrices stay in registers
    (SPIDER: "it resides entirely in registers").

    The defaults are the best of the H200 sweeps in bench/NOTES.md: in 2-D,
    4 warps x 4 n-tiles x 8 sub-tiles with `asyncCopy`; in 3-D 4 warps x 8
    n-tiles x 32 sub-tiles, which are output planes along `z` streamed
    through a ring of input planes (`--convert-stencil-to-sptc`, "3-D plane
    stream"; the best of 1, 8, 16, 32, 64 on an H100); in 1-D 4 warps x 8
    n-tiles, one sub-tile, synchronous staging. In 3-D `async-copy=on`
    needs `sub-tiles=1` (a located error otherwise). The dense form
    (`stencil.row_gemm`, for `--lower-to-tc`) is tiled the same way.

    With `mma=warpgroup` (or `mma=auto`, `chip=sm_90a` and a 2-D form of
    r_y >= 5, where an H100 ran it faster than the warp-level kernel:
    `Support/WgmmaSpTiling.h`, preferWarpgroupKernel) a banded
    `stencil.sparse_row_gemm` of rank 2 or 3 is tiled for the sm_90a kernel
    of `wgmma.mma_async.sp` m64nNk32 (`Support/WgmmaSpTiling.h`): one
    warpgroup per block, `wgmmaStrips` strips of 16 outputs along `x`
    (default 2 in 2-D, 1 in 3-D) by 4 N rows along `y` per tile (one output
    plane in 3-D), `subTiles` tiles one after the other along `y` (default
    8), staged by cp.async `wgmmaStages` tiles ahead in a ring of that many
    buffers (default 2), recorded as `wgmmaN` = N, `wgmmaStages` and
    `wgmmaStrips` next to the warp-level keys. The ring and the store
    staging are dynamic shared memory; N defaults to 24 in 2-D (16 where
    r_y <= 1) and 24 in 3-D, less where they
    would pass the default budget of 100 KiB (two blocks per SM), and an
    explicit tiling may take up to 227 KiB. Requesting the warpgroup kernel for a chip
    other than sm_90a, or for a form it does not take (1-D, gathered, the
    dense and low-rank forms), is a located error.

    Defaults always fit: where the staged tile of the preferred tiling
    (tile plus halo, doubled with `asyncCopy`) needs more than the 48 KiB of
    static shared memory a block has (3-D stencils of radius >= 2 do), the
    options left at their defaults shrink, in this order, until it fits:
    `n-tiles` halved, then `warps` halved, then (`async-copy=auto`)
    synchronous staging; the f64 kernel then halves `m-tiles`. The sizes come
    from `Support/SpTCTiling.h`, the geometry the kernel builders use.
    Options given explicitly are kept as given, and a tile that does not fit
    is a located error of `--convert-stencil-to-sptc`.

    The f64 dense form (`stencil.row_gemm` on f64 grids) runs on
    `mma.sync.m8n8k4` f64, whose A holds 8 rows (8 consecutive `y`, or 8
    segments in 1-D) by 4 inputs and whose C holds 8 rows by 8 consecutive
    outputs (Support/SpTCPacking.h, `TCF64CoefficientLayout`). A warp
    computes `mTiles` m-tiles of 8 rows by `nTiles` n-tiles of 8 outputs
    along `x`, a block `warps` warps side by side along `x`, with one
    sub-tile and synchronous staging. Defaults (not yet tuned on a GPU): 4
    warps x 4 n-tiles (2 in 3-D) x 2 m-tiles.
  }];
  let options = [
    Option<"warps", "warps", "int64_t", /*default=*/"0",
           "Warps per thread block, side by side along the innermost "
           "dimension (0: 4, fewer where the tile would not fit)">,
    Option<"nTiles", "n-tiles", "int64_t", /*default=*/"0",
           "mma.sp column tiles (of 8) per warp (0: 4 in 2-D, 8 otherwise; "
           "2 and 4 for f64; fewer where the tile would not fit)">,
    Option<"subTiles", "sub-tiles", "int64_t", /*default=*/"0",
           "Sub-tiles per block, pipelined (0: 8 in 2-D, 32 output planes "
           "streamed along z in 3-D, 1 in 1-D)">,
    Option<"asyncCopy", "async-copy", "::mlir::stencil::AsyncCopy",
           /*default=*/"::mlir::stencil::AsyncCopy::Auto",
           "How the kernel stages its input",
           "::mlir::stencil::getAsyncCopyValues()">,
    Option<"mTiles", "m-tiles", "int64_t", /*default=*/"0",
           "f64 kernel only: m-tiles (of 8 rows) per warp (0: 2, 1 where "
           "the tile would not fit)">,
    Option<"mma", "mma", "::mlir::stencil::MmaKind",
           /*default=*/"::mlir::stencil::MmaKind::Warp",
           "Sparse banded forms: warp (mma.sp), warpgroup (wgmma.mma_async.sp, "
           "needs chip=sm_90a) or auto (warpgroup where the chip is sm_90a, "
           "the form has a warpgroup kernel and it was measured faster: 2-D "
           "with r_y >= 5)",
           "::mlir::stencil::getMmaKindValues()">,
    Option<"chip", "chip", "std::string", /*default=*/"\"\"",
           "The target, for mma=auto and the check of mma=warpgroup">,
    Option<"wgmmaN", "wgmma-n", "int64_t", /*default=*/"0",
           "mma=warpgroup: N of every wgmma, output rows per warp and tile "
           "(a multiple of 8 up to 256; 0: 24 in 2-D, 16 where r_y <= 1, 24 in "
           "3-D; less where the tiles would not fit)">,
    Option<"wgmmaStages", "wgmma-stages", "int64_t", /*default=*/"0",
           "mma=warpgroup: staged sub-tiles in the ring of shared-memory "
           "buffers, 2 to 8 (0: 2)">,
    Option<"wgmmaStrips", "wgmma-strips", "int64_t", /*default=*/"0",
           "mma=warpgroup: strips of 16 outputs side by side along x per "
           "block, a power of two up to 8 (0: 2 in 2-D, 1 in 3-D)">
  ];
  let dependentDialects = ["::mlir::stencil::StencilDialect"];
}

def StencilSpTCPack : Pass<"stencil-sptc-pack"> {
  let summary = "Pack kernel values and metadata per lane (SPIDER 3.3.2)";
  let description = [{
    SPIDER section 3.3.2: the compressed kernel matrices of every
    `stencil.sparse_row_gemm` are laid out as the words the GPU kernel reads
    (`packed_coefficients`, layout in `Support/SpTCPacking.h`): each lane's
    eight A values of a kernel row are four contiguous 32-bit words (f16
    pairs) and the rows follow each other, so a warp reads them coalesced;
    the metadata of two kernel rows share one word per lane, the lanes of
    sparsity selector 0 holding the first row and those of selector 1 the
    second (SPIDER's concatenated metadata). With `L < 16` the operand
    stacks `16 / L` kernel matrices on its diagonal.

    The dense form (`stencil.row_gemm`, for `--lower-to-tc`): the kernels,
    rounded to f16, stacked the same way, as the A operands of two
    `mma.sync.m16n8k16` per kernel row (`TCCoefficientLayout`: 8 words per
    lane and row).
  }];
  let dependentDialects = ["::mlir::stencil::StencilDialect"];
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
               "Dialects (`llvm`) or single operations (`gpu.binary`) "
               "allowed in the module">,
    Option<"pipeline", "pipeline", "std::string", /*default=*/"\"\"",
           "Name of the pipeline, used in the diagnostic">
  ];
}

#endif // STENCIL_DIALECT_STENCIL_TRANSFORMS_PASSES_TD
