//===- StencilInterfaces.td - Stencil op interfaces --------*- tablegen -*-===//
//
// The interfaces of the stencil dialect's compute ops: what every op that
// applies a stencil to a grid has (StencilComputeOpInterface), and what the
// two row forms, `stencil.row_gemm` and `stencil.sparse_row_gemm`, share
// (RowFormOpInterface).
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_DIALECT_STENCIL_IR_STENCILINTERFACES_TD
#define STENCIL_DIALECT_STENCIL_IR_STENCILINTERFACES_TD

include "mlir/IR/OpBase.td"

//===----------------------------------------------------------------------===//
// StencilComputeOpInterface
//===----------------------------------------------------------------------===//

def StencilComputeOpInterface : OpInterface<"StencilComputeOpInterface"> {
  let cppNamespace = "::mlir::stencil";
  let description = [{
    An op that applies a stencil to a grid: it reads one input grid and
    writes one output grid of the same type, for a number of time steps,
    with one boundary kind (`stencil.linear`, `stencil.apply`,
    `stencil.low_rank`, `stencil.fft_apply`, `stencil.row_gemm`,
    `stencil.sparse_row_gemm`). The time steps, the ping-pong use of the two
    buffers and the boundary mean what they mean on `stencil.linear`.

    The conversions and passes ask these questions through the interface
    when the answer does not depend on the form of the stencil; what does
    (the weights, a body, the kernel matrices) they read off the op itself.
  }];

  let methods = [
    InterfaceMethod<[{
        The grid the op reads: the state before the first step. With more
        than one step it is also the op's second buffer, and holds an
        intermediate step afterwards.
      }],
      "::mlir::Value", "getInput">,
    InterfaceMethod<[{
        The grid the op writes: after the op it holds the last step. It must
        not alias the input.
      }],
      "::mlir::Value", "getOutput">,
    InterfaceMethod<[{
        The number of time steps the op applies (at least 1); for a row form
        with fused steps, steps of its step stencil.
      }],
      "int64_t", "getSteps">,
    InterfaceMethod<[{
        Which points are computed and what a neighbour outside the grid reads
        (`#stencil.boundary_kind`).
      }],
      "::mlir::stencil::BoundaryKind", "getBoundary">,
    InterfaceMethod<[{
        The value of a `dirichlet` boundary; std::nullopt for the other
        kinds.
      }],
      "::std::optional<::llvm::APFloat>", "getBoundaryValue">,
    InterfaceMethod<[{
        The stencil's reach along each dimension of the grid, outermost
        first: the largest |offset| that one application of the op reads
        around an output. It is the radii of the pattern (`stencil.linear`,
        `stencil.fft_apply`), of the body's accesses (`stencil.apply`), the
        radius along both dimensions (`stencil.low_rank`), and, for the row
        forms, what their kernel matrices reach: the innermost radius, the
        row offsets and a low-rank chain's outer radius, or a gathered
        form's non-zero weights; with fused steps, that of the composed
        stencil (t times the step stencil's).
      }],
      "::llvm::SmallVector<int64_t>", "getRadii">,
  ];

  let extraSharedClassDeclaration = [{
    /// The type of the input and output grids (they agree).
    ::mlir::MemRefType getGridType() {
      return ::llvm::cast<::mlir::MemRefType>($_op.getInput().getType());
    }
    /// The grids' element type.
    ::mlir::Type getGridElementType() {
      return getGridType().getElementType();
    }
    /// The grids' rank, 1 to 3.
    int64_t getGridRank() { return getGridType().getRank(); }
  }];
}

//===----------------------------------------------------------------------===//
// RowFormOpInterface
//===----------------------------------------------------------------------===//

def RowFormOpInterface
    : OpInterface<"RowFormOpInterface", [StencilComputeOpInterface]> {
  let cppNamespace = "::mlir::stencil";
  let description = [{
    The matrix form of a linear stencil after SPIDER's row decomposition
    (section 3.1.1), as `--convert-stencil-to-sptc` takes it:
    `stencil.sparse_row_gemm` (the kernel matrices 2:4 compressed, one
    `mma.sp.m16n8k32` per kernel row and column tile) or `stencil.row_gemm`
    (dense, for `--lower-to-tc`: two `mma.sync.m16n8k16` per kernel row, or
    `mma.sync.m8n8k4` on f64 grids). Both have the same geometry (`radius`,
    `rows_per_block`, `column_shift`, `row_offsets`), the same input side
    (`column_permutation` or `input_offsets`, or a gathered form's `layout`
    and `gather_offsets`), the same fused steps, and the same attributes that
    prepare the GPU kernel (`tiling`, `packed_coefficients`); see the ops.
  }];

  let methods = [
    InterfaceMethod<[{
        Whether the kernel matrices are dense (`stencil.row_gemm`) rather
        than 2:4 compressed (`stencil.sparse_row_gemm`).
      }],
      "bool", "isDense">,
    InterfaceMethod<"The number of kernel rows (kernel matrices).",
      "int64_t", "getNumRows">,
    InterfaceMethod<[{
        L, the outputs along the innermost dimension of one block: each
        kernel matrix is L x 2L.
      }],
      "int64_t", "getRowsPerBlock">,
    InterfaceMethod<"The stencil's radius along the innermost dimension.",
      "int64_t", "getRadius">,
    InterfaceMethod<"The columns the bands start later (`column_shift`).",
      "int64_t", "getColumnShift">,
    InterfaceMethod<[{
        The outer offset of each kernel row, rank - 1 components per row
        (none in 1-D and for a gathered form).
      }],
      "::llvm::ArrayRef<int64_t>", "getRowOffsets">,
    InterfaceMethod<[{
        The outer radius h of a low-rank chain (a `stencil.row_gemm` with
        `column_weights`), 0 otherwise.
      }],
      "int64_t", "getColumnRadius", (ins), [{}], [{ return 0; }]>,
    InterfaceMethod<[{
        Whether column c of row m of kernel matrix q holds a non-zero weight
        (entry (q L + m) 2L + c; for the compressed form, its logical
        columns).
      }],
      "::llvm::SmallVector<bool>", "getKernelNonZeros">,
    InterfaceMethod<[{
        The permutation of the 2L columns of the strided swap, until
        `--stencil-fold-row-swap` folds it into `input_offsets`.
      }],
      "::std::optional<::llvm::ArrayRef<int64_t>>", "getColumnPermutation">,
    InterfaceMethod<[{
        The `input_offsets` of `--stencil-fold-row-swap`: per logical column,
        the innermost offset, relative to a block's first output, of the
        input point it multiplies.
      }],
      "::std::optional<::llvm::ArrayRef<int64_t>>", "getInputOffsets">,
    InterfaceMethod<"Records `input_offsets`.",
      "void", "setInputOffsets", (ins "::llvm::ArrayRef<int64_t>":$offsets)>,
    InterfaceMethod<[{
        Removes the column permutation (once `input_offsets` fold it); returns
        it, or null.
      }],
      "::mlir::Attribute", "removeColumnPermutationAttr">,
    InterfaceMethod<[{
        A gathered form's offsets of the input pairs, per kernel row and unit
        (dz, dy, dx); std::nullopt for a banded form.
      }],
      "::std::optional<::llvm::ArrayRef<int64_t>>", "getGatherOffsets">,
    InterfaceMethod<"A gathered form's layout [r1, r2].",
      "::std::optional<::llvm::ArrayRef<int64_t>>", "getLayout">,
    InterfaceMethod<[{
        The time steps one launch computes by kernel composition
        (`fused_steps`), 1 without.
      }],
      "int64_t", "getNumFusedSteps", (ins), [{
        ::mlir::IntegerAttr fused = $_op.getFusedStepsAttr();
        return fused ? fused.getInt() : int64_t(1);
      }]>,
    InterfaceMethod<[{
        The stencil of one step of a fused form (`step_pattern`,
        `step_weights`); std::nullopt without fused steps.
      }],
      "::std::optional<::mlir::stencil::LinearStencil>", "getStepStencil",
      (ins), [{
        if (!$_op.getStepPatternAttr() || !$_op.getStepWeightsAttr())
          return ::std::nullopt;
        return ::mlir::stencil::getLinearStencil(
            $_op.getStepPatternAttr(), $_op.getStepWeightsAttr().asArrayRef());
      }]>,
    InterfaceMethod<"The tiling of `--stencil-sptc-tile`, or null.",
      "::mlir::stencil::TilingAttr", "getTilingAttr">,
    InterfaceMethod<"Records the tiling.",
      "void", "setTilingAttr", (ins "::mlir::stencil::TilingAttr":$tiling)>,
    InterfaceMethod<"The per-lane words of `--stencil-sptc-pack`.",
      "::std::optional<::llvm::ArrayRef<int32_t>>", "getPackedCoefficients">,
    InterfaceMethod<"Records the per-lane words.",
      "void", "setPackedCoefficients",
      (ins "::llvm::ArrayRef<int32_t>":$words)>,
  ];

  let extraSharedClassDeclaration = [{
    /// Whether the form is gathered (SparStencil: `gather_offsets`).
    bool isGathered() { return $_op.getGatherOffsets().has_value(); }

    /// The gather of a gathered form (`layout`, `gather_offsets`), as its
    /// kernel reads it; std::nullopt for a banded form.
    ::std::optional<::mlir::stencil::SpTCGather> getGather() {
      ::std::optional<::llvm::ArrayRef<int64_t>> offsets =
          $_op.getGatherOffsets();
      ::std::optional<::llvm::ArrayRef<int64_t>> layout = $_op.getLayout();
      if (!offsets || !layout)
        return ::std::nullopt;
      return ::mlir::stencil::getSpTCGather(*layout, *offsets,
                                            $_op.getKernelNonZeros());
    }

    /// The innermost input offset, relative to a block's first output, of
    /// each of the 2L logical columns: `input_offsets` when set, else the
    /// row swap of `column_permutation` (the identity when absent) folded
    /// into offsets, `perm[c] - radius - column_shift` (SPIDER 3.2; what
    /// `--stencil-fold-row-swap` records).
    ::llvm::SmallVector<int64_t> getFoldedInputOffsets() {
      if (::std::optional<::llvm::ArrayRef<int64_t>> offsets =
              $_op.getInputOffsets())
        return ::llvm::SmallVector<int64_t>(*offsets);
      ::std::optional<::llvm::ArrayRef<int64_t>> perm =
          $_op.getColumnPermutation();
      ::llvm::SmallVector<int64_t> offsets;
      for (int64_t c = 0, e = 2 * int64_t($_op.getRowsPerBlock()); c < e; ++c)
        offsets.push_back((perm ? (*perm)[c] : c) - int64_t($_op.getRadius()) -
                          int64_t($_op.getColumnShift()));
      return offsets;
    }
  }];
}

#endif // STENCIL_DIALECT_STENCIL_IR_STENCILINTERFACES_TD
