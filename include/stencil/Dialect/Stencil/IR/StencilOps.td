//===- StencilOps.td - Stencil dialect operations ----------*- tablegen -*-===//

#ifndef STENCIL_DIALECT_STENCIL_IR_STENCILOPS_TD
#define STENCIL_DIALECT_STENCIL_IR_STENCILOPS_TD

include "stencil/Dialect/Stencil/IR/StencilBase.td"
include "stencil/Dialect/Stencil/IR/StencilAttrs.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/CommonAttrConstraints.td"

/// The element types a grid may hold.
def Stencil_ElementType : AnyTypeOf<[F16, BF16, F32, F64]>;

/// A grid: a 1-D, 2-D or 3-D memref of f16, bf16, f32 or f64, static or
/// dynamic sizes.
def Stencil_Grid : MemRefRankOf<[F16, BF16, F32, F64], [1, 2, 3]>;

def Stencil_StepsAttr : ConfinedAttr<I64Attr, [IntMinValue<1>]>;

//===----------------------------------------------------------------------===//
// LinearOp
//===----------------------------------------------------------------------===//

def Stencil_LinearOp : Stencil_Op<"linear", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
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
    $input `->` $output `pattern` $pattern `weights` $weights
    (`steps` $steps^)?
    (`boundary` custom<Boundary>($boundary, $boundary_value)^)?
    attr-dict `:` custom<GridTypes>(type($input), type($output))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// ApplyOp
//===----------------------------------------------------------------------===//

def Stencil_ApplyOp : Stencil_Op<"apply", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>, SingleBlock]> {
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

#endif // STENCIL_DIALECT_STENCIL_IR_STENCILOPS_TD
