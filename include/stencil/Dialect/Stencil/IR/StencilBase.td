//===- StencilBase.td - Stencil dialect definition ---------*- tablegen -*-===//
//
// The `stencil` dialect: stencil computations on 1-D, 2-D and 3-D grids held
// in memrefs, at the level a user writes them.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_DIALECT_STENCIL_IR_STENCILBASE_TD
#define STENCIL_DIALECT_STENCIL_IR_STENCILBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

def Stencil_Dialect : Dialect {
  let name = "stencil";
  let cppNamespace = "::mlir::stencil";
  let summary = "Stencil computations on structured grids";
  let description = [{
    The `stencil` dialect describes stencil computations: every point of an
    n-D grid (n = 1, 2, 3) is updated from its neighbours at constant
    offsets, for a number of time steps. It is the entry level of the stencil
    compiler; the Tensor-Core, CUDA-core and CPU pipelines lower it.

    Two forms exist:

    * `stencil.linear`, the *coefficient form*: a set of offsets (a
      `#stencil.pattern`) and one constant weight per offset. This is the form
      the Tensor-Core pipelines consume (SPIDER section 2.2: every paper treats
      a stencil as such a weighted neighbourhood).
    * `stencil.apply`, the *general form*: a region evaluated at every point
      that reads neighbours with `stencil.access` and combines them with
      `arith`/`math` ops, after the Open Earth Compiler's `stencil.apply`.
      `--stencil-linearize` rewrites a body that is a linear combination with
      constant weights into the coefficient form.

    The passes lower them to the forms of the GPU pipelines:
    `stencil.low_rank`, `stencil.fft_apply` and the row forms
    `stencil.row_gemm` and `stencil.sparse_row_gemm`. Every op that applies a
    stencil (these and the two above) implements `StencilComputeOpInterface`
    (its grids, steps, boundary and reach); the two row forms also implement
    `RowFormOpInterface` (their geometry, input side, fused steps and GPU
    kernel attributes), through which `--convert-stencil-to-sptc` takes
    either (`StencilInterfaces.td`).

    See `docs/Rationale.md` for the boundary and time-stepping semantics.
  }];
  let useDefaultAttributePrinterParser = 1;
  // `stencil.launches` (a module's launch records) and `stencil.source` are
  // checked against their contracts (LaunchRecord.h).
  let hasOperationAttrVerify = 1;
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

class Stencil_Op<string mnemonic, list<Trait> traits = []>
    : Op<Stencil_Dialect, mnemonic, traits>;

class Stencil_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Stencil_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

#endif // STENCIL_DIALECT_STENCIL_IR_STENCILBASE_TD
