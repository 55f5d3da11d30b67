//===- StencilOps.td - Stencil dialect operations ----------*- tablegen -*-===//

#ifndef STENCIL_DIALECT_STENCIL_IR_STENCILOPS_TD
#define STENCIL_DIALECT_STENCIL_IR_STENCILOPS_TD

include "stencil/Dialect/Stencil/IR/StencilBase.td"
include "stencil/Dialect/Stencil/IR/StencilAttrs.td"
include "stencil/Dialect/Stencil/IR/StencilInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/CommonAttrConstraints.td"

/// The element types a grid may hold.
def Stencil_ElementType : AnyTypeOf<[F16, BF16, F32, F64]>;

/// A grid: a 1-D, 2-D or 3-D memref of f16, bf16, f32 or f64, static or
/// dynamic sizes.
def Stencil_Grid : MemRefRankOf<[F16, BF16, F32, F64], [1, 2, 3]>;

def Stencil_StepsAttr : ConfinedAttr<I64Attr, [IntMinValue<1>]>;
/// A radius of a matrix form: at most kMaxOffset (StencilShape.h), like every
/// offset of a pattern.
/// Time steps one launch computes (temporal fusion), 2 to 64.
def Stencil_FusedStepsAttr
    : ConfinedAttr<I64Attr, [IntMinValue<2>, IntMaxValue<64>]>;

def Stencil_RadiusAttr
    : ConfinedAttr<I64Attr, [IntMinValue<0>, IntMaxValue<2147483647>]>;

def Stencil_F16ElementsAttr : FloatElementsAttr<16>;
def Stencil_I8ElementsAttr : SignlessIntElementsAttr<8>;

//===----------------------------------------------------------------------===//
// LinearOp
//===----------------------------------------------------------------------===//

def Stencil_LinearOp : Stencil_Op<"linear", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    StencilComputeOpInterface]> {
  let summary = "a stencil as constant weights on a set of offsets";
  let description = [{
    The coefficient form of a stencil. One time step computes, for every
    output point `p` (which points: see `boundary`),

    ```
    out[p] = sum_i weights[i] * in[p + pattern[i]]
    ```

    rounded to the grid's element type when stored. `steps` time steps are
    applied one after the other (step `t` reads the result of step `t-1`),
    with `input` and `output` as ping-pong buffers: after the op `output`
    holds step `steps`; when `steps > 1`, `input` is clobbered (it holds an
    intermediate step). The two buffers must not alias.

    `boundary` (default `halo`) says which points are computed and what a
    neighbour outside the grid reads; see `#stencil.boundary_kind`. With
    `halo`, the output halo is the input's. A `dirichlet` boundary takes its
    value in parentheses.

    The weights are stored as f64; a pipeline may accumulate in a narrower
    type (each pipeline documents its accumulation type).

    Example (Heat-2D, 3 steps):

    ```mlir
    stencil.linear %in -> %out pattern <star, rank = 2, radius = 1>
        weights [0.1, 0.2, 0.4, 0.2, 0.1] steps 3 boundary periodic
        : memref<?x?xf16>
    ```
  }];
  let arguments = (ins
    Stencil_Grid:$input,
    Stencil_Grid:$output,
    Stencil_PatternAttr:$pattern,
    DenseF64ArrayAttr:$weights,
    DefaultValuedAttr<Stencil_StepsAttr, "1">:$steps,
    DefaultValuedAttr<Stencil_BoundaryKindAttr,
                      "::mlir::stencil::BoundaryKind::halo">:$boundary,
    OptionalAttr<F64Attr>:$boundary_value
  );
  let assemblyFormat = [{
    $input `->` $output `pattern` $pattern `weights` custom<Weights>($weights)
    (`steps` $steps^)?
    (`boundary` custom<Boundary>($boundary, $boundary_value)^)?
    attr-dict `:` custom<GridTypes>(type($input), type($output))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The radius along each dimension: the pattern's.
    ::llvm::SmallVector<int64_t> getRadii();
  }];
}

//===----------------------------------------------------------------------===//
// ApplyOp
//===----------------------------------------------------------------------===//

def Stencil_ApplyOp : Stencil_Op<"apply", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    StencilComputeOpInterface, SingleBlock]> {
  let summary = "a stencil as a per-point region";
  let description = [{
    The general form of a stencil. The body is evaluated at every output
    point `p` (which points: see `boundary`): each `stencil.access [o]` in it
    reads the input at `p + o`, the ops in it compute in the grid's element
    type, and the value given to `stencil.yield` is stored to `output[p]`.
    The body must be free of side effects (`arith` and `math` ops).

    Time steps, buffers and boundary are as for `stencil.linear`.
    `--stencil-linearize` rewrites a body that is a linear combination of
    accesses with constant weights into `stencil.linear`; other bodies are
    taken only by the CPU (and CUDA-core) pipelines.

    ```mlir
    stencil.apply %in -> %out steps 2 : memref<?x?xf32> {
      %c = stencil.access [0, 0] : f32
      %e = stencil.access [0, 1] : f32
      %m = arith.maximumf %c, %e : f32
      stencil.yield %m : f32
    }
    ```
  }];
  let arguments = (ins
    Stencil_Grid:$input,
    Stencil_Grid:$output,
    DefaultValuedAttr<Stencil_StepsAttr, "1">:$steps,
    DefaultValuedAttr<Stencil_BoundaryKindAttr,
                      "::mlir::stencil::BoundaryKind::halo">:$boundary,
    OptionalAttr<F64Attr>:$boundary_value
  );
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $input `->` $output (`steps` $steps^)?
    (`boundary` custom<Boundary>($boundary, $boundary_value)^)?
    attr-dict `:` custom<GridTypes>(type($input), type($output))
    $body
  }];
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// The yield terminating the body.
    YieldOp getYield();
    /// The radius along each dimension: max |offset| over the accesses.
    ::llvm::SmallVector<int64_t> getRadii();
  }];
}

//===----------------------------------------------------------------------===//
// AccessOp
//===----------------------------------------------------------------------===//

def Stencil_AccessOp : Stencil_Op<"access", [
    Pure, HasParent<"ApplyOp">]> {
  let summary = "reads the input grid at a constant offset";
  let description = [{
    Inside a `stencil.apply` body, the value of the input grid at the current
    point plus `offset` (one entry per grid dimension).

    ```mlir
    %w = stencil.access [0, -1] : f32
    ```
  }];
  let arguments = (ins DenseI64ArrayAttr:$offset);
  let results = (outs Stencil_ElementType:$result);
  let assemblyFormat = "$offset attr-dict `:` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// YieldOp
//===----------------------------------------------------------------------===//

def Stencil_YieldOp : Stencil_Op<"yield", [
    Pure, HasParent<"ApplyOp">, Terminator]> {
  let summary = "the value a stencil.apply body stores at the current point";
  let arguments = (ins Stencil_ElementType:$value);
  let assemblyFormat = "$value attr-dict `:` type($value)";
  let hasVerifier = 1;
}


//===----------------------------------------------------------------------===//
// LowRankOp
//===----------------------------------------------------------------------===//

def Stencil_LowRankOp : Stencil_Op<"low_rank", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    StencilComputeOpInterface]> {
  let summary = "a 2-D stencil as a sum of rank-1 (separable) terms";
  let description = [{
    The low-rank form of a linear 2-D stencil of radius `h` (LoRAStencil,
    section II-D): its `n x n` weight matrix (`n = 2h + 1`, row
    `i` the offset `dy = i - h`, column `j` the offset `dx = j - h`) written
    as `W = sum_k u_k v_k^T`. `u` and `v` hold the `K` vectors as `K x n`
    f64 tensors; for every output point `p = (y, x)`:

    ```
    out[y][x] = sum_k sum_i u[k][i] * (sum_j v[k][j] * in[y + i - h][x + j - h])
    ```

    which a Tensor Core kernel computes as the matrix chains `U_k X V_k`
    (eq. 9). `--stencil-low-rank` produces it. Points, steps, buffers and
    boundary are as for `stencil.linear`.

    ```mlir
    stencil.low_rank %in -> %out radius 1
        u dense<[[1.0, 2.0, 1.0]]> : tensor<1x3xf64>
        v dense<[[0.1, 0.2, 0.1]]> : tensor<1x3xf64>
        : memref<?x?xf32>
    ```
  }];
  let arguments = (ins
    Stencil_Grid:$input,
    Stencil_Grid:$output,
    Stencil_RadiusAttr:$radius,
    F64ElementsAttr:$u,
    F64ElementsAttr:$v,
    DefaultValuedAttr<Stencil_StepsAttr, "1">:$steps,
    DefaultValuedAttr<Stencil_BoundaryKindAttr,
                      "::mlir::stencil::BoundaryKind::halo">:$boundary,
    OptionalAttr<F64Attr>:$boundary_value
  );
  let assemblyFormat = [{
    $input `->` $output `radius` $radius `u` $u `v` $v
    (`steps` $steps^)?
    (`boundary` custom<Boundary>($boundary, $boundary_value)^)?
    attr-dict `:` custom<GridTypes>(type($input), type($output))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The number of rank-1 terms.
    int64_t getRank();
    /// The radius along each dimension: `radius` along both.
    ::llvm::SmallVector<int64_t> getRadii();
  }];
}

//===----------------------------------------------------------------------===//
// FftApplyOp
//===----------------------------------------------------------------------===//

/// Per dimension, the PFA factors of its tile size.
def Stencil_FftFactorsAttr : TypedArrayAttrBase<DenseI64ArrayAttr,
    "array of dense i64 arrays (the PFA factors of each dimension)">;

def Stencil_FftApplyOp : Stencil_Op<"fft_apply", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    StencilComputeOpInterface]> {
  let summary = "a linear stencil as tiled FFTs: transform, product by the "
                "spectrum to the fused steps, inverse transform";
  let description = [{
    The FFT form of a `stencil.linear` (FlashFFTStencil): the same
    `pattern`, `weights`, `steps`, buffers and boundary, computed `fused_steps`
    (T) steps at a time on tiles. `factors` gives, per dimension (outermost
    first), the pairwise coprime factors of the tile size `N_d` (prime-factor
    reshaping, section 3.2.1); each factor becomes an axis of the tile's
    array, padded to a multiple of 8. With `cooley_tukey` the factors are
    instead radix-8 digits joined by twiddles, and the tile is 64 x 64
    (`[array<i64: 8, 8>, array<i64: 8, 8>]`) or, in 1-D, 4096 points
    (`[array<i64: 8, 8, 8, 8>]`, the four-step split 64 x 64); its two
    digits per axis run chained in registers. A tile holds the input at
    `[s_d, s_d + N_d)` and yields T steps on its valid region
    `[s_d + T r_d, s_d + N_d - T r_d)` (kernel tailoring, section 3.1): its
    circular transform, the product by `H^T`, and the inverse transform equal
    T steps of the stencil there (`Support/FftTiling.h` has the math).
    Points within `T r_d` of the grid's edge are computed by T direct steps
    for the `halo` and `dirichlet` boundaries, so every boundary keeps the
    meaning it has on `stencil.linear`; `periodic` wraps the tiles' loads.

    `--stencil-fft-tailor` produces the op; `--stencil-fft-spectrum` attaches
    `spectrum`, `S[k] = H[k]^T / prod N_d` over the padded array (a
    `complex<f64>` tensor of the axes' padded extents, zero at padding), and,
    when T does not divide `steps`, `tail_spectrum` (the same for
    `steps mod T` steps, for the last launch).

    ```mlir
    stencil.fft_apply %in -> %out pattern <star, rank = 2, radius = 1>
        weights [0.1, 0.2, 0.4, 0.2, 0.1] steps 8 fused_steps 4
        factors [array<i64: 8, 7>, array<i64: 8, 7>] : memref<?x?xf64>
    ```
  }];
  let arguments = (ins
    Stencil_Grid:$input,
    Stencil_Grid:$output,
    Stencil_PatternAttr:$pattern,
    DenseF64ArrayAttr:$weights,
    DefaultValuedAttr<Stencil_StepsAttr, "1">:$steps,
    ConfinedAttr<I64Attr, [IntMinValue<1>, IntMaxValue<1024>]>:$fused_steps,
    Stencil_FftFactorsAttr:$factors,
    UnitAttr:$cooley_tukey,
    OptionalAttr<ElementsAttr>:$spectrum,
    OptionalAttr<ElementsAttr>:$tail_spectrum,
    DefaultValuedAttr<Stencil_BoundaryKindAttr,
                      "::mlir::stencil::BoundaryKind::halo">:$boundary,
    OptionalAttr<F64Attr>:$boundary_value
  );
  let assemblyFormat = [{
    $input `->` $output `pattern` $pattern `weights` custom<Weights>($weights)
    (`steps` $steps^)? `fused_steps` $fused_steps `factors` $factors
    (`cooley_tukey` $cooley_tukey^)? (`spectrum` $spectrum^)? (`tail_spectrum` $tail_spectrum^)?
    (`boundary` custom<Boundary>($boundary, $boundary_value)^)?
    attr-dict `:` custom<GridTypes>(type($input), type($output))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The tile plan the op records (Support/FftTiling.h).
    ::mlir::stencil::FftTilePlan getTilePlan();
    /// The padded extents of the tile array's axes.
    ::llvm::SmallVector<int64_t> getArrayShape();
    /// The radius along each dimension: the pattern's (of one step).
    ::llvm::SmallVector<int64_t> getRadii();
  }];
}

//===----------------------------------------------------------------------===//
// Matrix form (SPIDER 3.1): RowGemmOp, SparseRowGemmOp
//===----------------------------------------------------------------------===//

def Stencil_RowGemmOp : Stencil_Op<"row_gemm", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>, RowFormOpInterface]> {
  let summary = "a stencil as banded kernel-matrix products, one per kernel row";
  let description = [{
    The matrix form of a linear stencil after SPIDER's row decomposition
    (section 3.1.1). The stencil is split into kernel rows: for each outer
    offset `o` in `row_offsets` (rank - 1 components; none in 1-D) the weights
    along the innermost dimension. Each row becomes a banded kernel matrix
    `K_o` of shape `L x 2L` (`L = rows_per_block`): `K_o[i][i + j] = w_o[j]`
    for `j` in `[0, 2r]`, zero elsewhere (`r = radius`, the innermost
    radius). `kernels` holds them as a `#rows x L x 2L` f64 tensor. With
    `column_shift` `s` (default 0) the bands start `s` columns later,
    `K_o[i][s + i + j] = w_o[j]`, which the paired swap uses to align input
    pairs.

    For every block of `L` consecutive outputs along the innermost dimension,
    starting at `x0`, and every point `p` of the outer dimensions:

    ```
    out[p][x0 + i] = sum_o sum_c K_o[i][c] * in[p + o][x0 - r - s + perm[c]]
    ```

    where `perm` is `column_permutation` (the identity when absent; the
    strided swap of `--stencil-strided-swap` sets it and permutes the
    kernels' columns accordingly, which leaves the products unchanged).
    Points, steps, buffers and boundary are as for `stencil.linear`.

    For the dense Tensor Core pipeline (`--lower-to-tc`, SPIDER's "w. TC"
    configuration, section 4.4), the same optional attributes as on
    `stencil.sparse_row_gemm` prepare the GPU kernel: `input_offsets` in
    place of `column_permutation` (`--stencil-fold-row-swap`), `tiling`
    (`--stencil-sptc-tile`) and `packed_coefficients`
    (`--stencil-sptc-pack`: the dense f16 A operands, `Support/SpTCPacking.h`).

    With `column_weights` (a `K x (2h + 1)` f64 tensor, 2-D only) the op is
    the low-rank chain of LoRAStencil (section II-D, eq. 9) that
    `--stencil-decompose` makes of a `stencil.low_rank`: kernel row `k` (all
    `row_offsets` zero) is `V_k`, the row product `T_k = X V_k`, and its
    results are combined along the outer dimension by `u_k =
    column_weights[k]` instead of being summed at one offset:

    ```
    out[y][x0 + i] = sum_k sum_{dy=-h..h} u_k[dy + h] * T_k[y + dy][x0 + i]
    ```

    `h` is the outer radius (at most 4, the reach of the kernel's 16-row
    stage-2 MMA, `LowRankColumnLayout`); `packed_coefficients` then holds the
    stage-2 words after the row words.

    **Gathered form** (SparStencil, section 3.1;
    `--stencil-flatten`, `--stencil-sptc-match`). With `gather_offsets` the
    kernel rows are the MMAs of SparStencil's flattened and crushed matrix
    (`Support/SparStencil.h`) instead of banded rows: `rows_per_block` is 16,
    `row_offsets` is empty, and `layout = [r1, r2]` (r1 r2 = 16, r1 even)
    says that the 16 rows of every kernel matrix are the outputs of an
    `r2 x r1` block, output `m = u r1 + v` at `(0, u, v)` from the block's
    origin (y and x; `r2 = 1` in 1-D). Each kernel matrix has 16 units of
    two columns; `gather_offsets` holds, per kernel row `q` and unit `s`,
    the offset `g_q[s] = (dz, dy, dx)` (dx even) from the block's origin of
    the input pair it reads, so for every output point `p` and every
    `(u, v)` in the block:

    ```
    out[p] = sum_q sum_s sum_{e=0,1} K_q[u r1 + v][2s + e] *
             in[p - (0, u, v) + g_q[s] + (0, 0, e)]
    ```

    A unit whose two columns are zero in every row is padding (its offset is
    read but multiplies zeros). The stencil's radius along each dimension
    is what the non-zero entries reach; `radius` is the innermost one.

    **Fused steps** (kernel composition, LoRAStencil's route,
    section III-A; `--stencil-decompose fused-steps=t`, math in
    `Support/StepComposition.h`). With `fused_steps t` the kernels are those
    of the t-fold composition of the stencil `step_pattern`/`step_weights`
    (W_t = w * ... * w, radius t r_d), and `steps` counts steps of that
    stencil: a launch computes t of them, the composed kernels on the exact
    region `[t r_d, N_d - t r_d)` (r_d the step's radius along d) and t
    direct steps of the step stencil, the halo kept at each, on the rest of
    the interior; `steps mod t` steps are direct. So the op means exactly
    `steps` steps of the step stencil (halo boundary only).

    The op and `stencil.sparse_row_gemm` implement `RowFormOpInterface`
    (`isDense` tells them apart).
  }];
  let arguments = (ins
    Stencil_Grid:$input,
    Stencil_Grid:$output,
    Stencil_RadiusAttr:$radius,
    ConfinedAttr<I64Attr, [IntMinValue<1>]>:$rows_per_block,
    DefaultValuedAttr<ConfinedAttr<I64Attr, [IntMinValue<0>]>, "0">:$column_shift,
    DenseI64ArrayAttr:$row_offsets,
    F64ElementsAttr:$kernels,
    OptionalAttr<F64ElementsAttr>:$column_weights,
    OptionalAttr<DenseI64ArrayAttr>:$column_permutation,
    OptionalAttr<DenseI64ArrayAttr>:$input_offsets,
    OptionalAttr<DenseI64ArrayAttr>:$gather_offsets,
    OptionalAttr<DenseI64ArrayAttr>:$layout,
    OptionalAttr<Stencil_TilingAttr>:$tiling,
    OptionalAttr<DenseI32ArrayAttr>:$packed_coefficients,
    DefaultValuedAttr<Stencil_StepsAttr, "1">:$steps,
    DefaultValuedAttr<Stencil_BoundaryKindAttr,
                      "::mlir::stencil::BoundaryKind::halo">:$boundary,
    OptionalAttr<F64Attr>:$boundary_value,
    OptionalAttr<Stencil_FusedStepsAttr>:$fused_steps,
    OptionalAttr<Stencil_PatternAttr>:$step_pattern,
    OptionalAttr<DenseF64ArrayAttr>:$step_weights
  );
  let assemblyFormat = [{
    $input `->` $output `radius` $radius `rows_per_block` $rows_per_block
    (`column_shift` $column_shift^)?
    `row_offsets` $row_offsets
    (`column_permutation` $column_permutation^)?
    (`input_offsets` $input_offsets^)?
    (`layout` $layout^)?
    (`gather_offsets` $gather_offsets^)?
    `kernels` $kernels
    (`column_weights` $column_weights^)?
    (`tiling` $tiling^)?
    (`packed` $packed_coefficients^)?
    (`steps` $steps^)?
    (`fused_steps` $fused_steps^ `of` $step_pattern
     `weights` custom<Weights>($step_weights))?
    (`boundary` custom<Boundary>($boundary, $boundary_value)^)?
    attr-dict `:` custom<GridTypes>(type($input), type($output))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The kernel matrices are dense (RowFormOpInterface).
    bool isDense() { return true; }
    /// The number of kernel rows (matrices).
    int64_t getNumRows();
    /// The outer radius h of a low-rank chain (0 without column weights).
    int64_t getColumnRadius();
    /// Whether column c of row m of kernel matrix q holds a non-zero weight
    /// (entry (q L + m) 2L + c).
    ::llvm::SmallVector<bool> getKernelNonZeros();
    /// What the kernel matrices reach along each dimension
    /// (StencilComputeOpInterface).
    ::llvm::SmallVector<int64_t> getRadii();
  }];
}

def Stencil_SparseRowGemmOp : Stencil_Op<"sparse_row_gemm", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>, RowFormOpInterface]> {
  let summary = "banded kernel-matrix products in 2:4 compressed form";
  let description = [{
    The sparse form of `stencil.row_gemm` (SPIDER section 3.1.2, stage 3):
    every kernel matrix, after the strided swap, is 2:4 sparse and stored
    compressed, as the A operand of `mma.sp`: for each row and each group of
    4 columns two `values` (f16, the precision of the Sparse Tensor Core
    operands) and their positions in the group, `indices` (0..3, strictly
    increasing in each pair), both of shape `#rows x L x L`.

    The input side of the products is given either as
    `column_permutation` (as produced by `--stencil-encode-2to4`) or, once
    `--stencil-fold-row-swap` has folded the row swap into the load offsets
    (SPIDER section 3.2), as `input_offsets`: for each of the `2L` logical
    columns `c`, the innermost offset, relative to the block's first output
    `x0`, of the input point that column multiplies
    (`input_offsets[c] = perm[c] - radius - column_shift`). Exactly one of
    the two is set.

    ```
    out[p][x0 + i] = sum_o sum_g sum_{s=0,1} values_o[i][2g+s] *
                     in[p + o][x0 + input_offsets[4g + indices_o[i][2g+s]]]
    ```

    The gathered form of `stencil.row_gemm` (`layout`, `gather_offsets`,
    no `column_permutation` or `input_offsets`, `rows_per_block` 16) keeps
    its meaning here, with the compressed kernel matrices:

    ```
    out[p] = sum_q sum_g sum_{s=0,1} values_q[m][2g+s] *
             in[p - (0, u, v) + g_q[c / 2] + (0, 0, c % 2)],
    c = 4g + indices_q[m][2g+s],  m = u r1 + v.
    ```

    Two optional attributes prepare the GPU kernel without changing the
    meaning: `tiling` (a `#stencil.tiling`, set by
    `--stencil-sptc-tile`, SPIDER 3.3.1) and `packed_coefficients` (the
    per-lane words of `Support/SpTCPacking.h`, set by `--stencil-sptc-pack`,
    SPIDER 3.3.2).

    `fused_steps`, `step_pattern` and `step_weights` mean what they mean on
    `stencil.row_gemm` (the compressed kernels are those of the composed
    stencil).
  }];
  let arguments = (ins
    Stencil_Grid:$input,
    Stencil_Grid:$output,
    Stencil_RadiusAttr:$radius,
    ConfinedAttr<I64Attr, [IntMinValue<1>]>:$rows_per_block,
    DefaultValuedAttr<ConfinedAttr<I64Attr, [IntMinValue<0>]>, "0">:$column_shift,
    DenseI64ArrayAttr:$row_offsets,
    Stencil_F16ElementsAttr:$values,
    Stencil_I8ElementsAttr:$indices,
    OptionalAttr<DenseI64ArrayAttr>:$column_permutation,
    OptionalAttr<DenseI64ArrayAttr>:$input_offsets,
    OptionalAttr<DenseI64ArrayAttr>:$gather_offsets,
    OptionalAttr<DenseI64ArrayAttr>:$layout,
    OptionalAttr<Stencil_TilingAttr>:$tiling,
    OptionalAttr<DenseI32ArrayAttr>:$packed_coefficients,
    DefaultValuedAttr<Stencil_StepsAttr, "1">:$steps,
    DefaultValuedAttr<Stencil_BoundaryKindAttr,
                      "::mlir::stencil::BoundaryKind::halo">:$boundary,
    OptionalAttr<F64Attr>:$boundary_value,
    OptionalAttr<Stencil_FusedStepsAttr>:$fused_steps,
    OptionalAttr<Stencil_PatternAttr>:$step_pattern,
    OptionalAttr<DenseF64ArrayAttr>:$step_weights
  );
  let assemblyFormat = [{
    $input `->` $output `radius` $radius `rows_per_block` $rows_per_block
    (`column_shift` $column_shift^)?
    `row_offsets` $row_offsets
    (`column_permutation` $column_permutation^)?
    (`input_offsets` $input_offsets^)?
    (`layout` $layout^)?
    (`gather_offsets` $gather_offsets^)?
    `values` $values `indices` $indices
    (`tiling` $tiling^)?
    (`packed` $packed_coefficients^)?
    (`steps` $steps^)?
    (`fused_steps` $fused_steps^ `of` $step_pattern
     `weights` custom<Weights>($step_weights))?
    (`boundary` custom<Boundary>($boundary, $boundary_value)^)?
    attr-dict `:` custom<GridTypes>(type($input), type($output))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The kernel matrices are 2:4 compressed (RowFormOpInterface).
    bool isDense() { return false; }
    /// What the kernel matrices reach along each dimension
    /// (StencilComputeOpInterface).
    ::llvm::SmallVector<int64_t> getRadii();
    /// The number of kernel rows (matrices).
    int64_t getNumRows();
    /// Whether logical column c of row m of kernel matrix q holds a non-zero
    /// weight, one of the row's two kept values of group c / 4 sitting at
    /// position c % 4 (entry (q L + m) 2L + c).
    ::llvm::SmallVector<bool> getKernelNonZeros();
  }];
}

#endif // STENCIL_DIALECT_STENCIL_IR_STENCILOPS_TD
