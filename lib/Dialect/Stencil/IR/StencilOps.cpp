//===- StencilOps.cpp - Stencil dialect operations ------------------------===//

#include "stencil/Dialect/Stencil/IR/StencilDialect.h"
#include "stencil/Support/FloatRange.h"
#include "stencil/Support/SpTCPacking.h"
#include "stencil/Support/SpTCTiling.h"
#include "stencil/Support/StencilShape.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

#include <cmath>

using namespace mlir;
using namespace mlir::stencil;

//===----------------------------------------------------------------------===//
// Custom directives
//===----------------------------------------------------------------------===//

/// boundary ::= `halo` | `periodic` | `dirichlet` `(` float `)`
/// (after the `boundary` keyword of the op's format)
static ParseResult parseBoundary(OpAsmParser &parser, BoundaryKindAttr &kind,
                                 FloatAttr &value) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef name;
  if (parser.parseKeyword(&name))
    return failure();
  std::optional<BoundaryKind> parsed = symbolizeBoundaryKind(name);
  if (!parsed)
    return parser.emitError(loc)
           << "unknown boundary '" << name
           << "', expected 'halo', 'periodic' or 'dirichlet'";
  kind = BoundaryKindAttr::get(parser.getContext(), *parsed);
  if (*parsed != BoundaryKind::dirichlet)
    return success();
  double v = 0.0;
  if (parser.parseLParen() || parser.parseFloat(v) || parser.parseRParen())
    return failure();
  value = parser.getBuilder().getF64FloatAttr(v);
  return success();
}

static void printBoundary(OpAsmPrinter &printer, Operation *,
                          BoundaryKindAttr kind, FloatAttr value) {
  printer << stringifyBoundaryKind(kind ? kind.getValue() : BoundaryKind::halo);
  if (value) {
    printer << '(';
    printer.printFloat(value.getValue());
    printer << ')';
  }
}

/// weights ::= `[` (float (`,` float)*)? `]`
///
/// Printed through `printFloat`, as upstream prints FloatAttr: the shortest
/// decimal that parses back to the same bits, else the bits in hexadecimal.
/// (DenseF64ArrayAttr's own short form prints `%e`, 7 significant digits,
/// which changes an f64 stencil on every print/parse round trip.)
static ParseResult parseWeights(OpAsmParser &parser, DenseF64ArrayAttr &weights) {
  SmallVector<double> values;
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] {
        return parser.parseFloat(values.emplace_back());
      }))
    return failure();
  weights = parser.getBuilder().getDenseF64ArrayAttr(values);
  return success();
}

static void printWeights(OpAsmPrinter &printer, Operation *,
                         DenseF64ArrayAttr weights) {
  printer << '[';
  llvm::interleaveComma(weights.asArrayRef(), printer, [&](double w) {
    printer.printFloat(llvm::APFloat(w));
  });
  printer << ']';
}

/// grid-types ::= type (`->` type)?   (one type: input and output agree)
static ParseResult parseGridTypes(OpAsmParser &parser, Type &inputType,
                                  Type &outputType) {
  if (parser.parseType(inputType))
    return failure();
  outputType = inputType;
  if (succeeded(parser.parseOptionalArrow()))
    return parser.parseType(outputType);
  return success();
}

static void printGridTypes(OpAsmPrinter &printer, Operation *, Type inputType,
                           Type outputType) {
  printer << inputType;
  if (outputType != inputType)
    printer << " -> " << outputType;
}

//===----------------------------------------------------------------------===//
// Shared verification
//===----------------------------------------------------------------------===//

/// Checks what both stencil forms require of their grids and boundary, given
/// the radius of the neighbourhood along each dimension.
/// `value` without the `memref.cast`s that lead to it: the same buffer.
static Value stripCasts(Value value) {
  while (auto cast = value.getDefiningOp<memref::CastOp>())
    value = cast.getSource();
  return value;
}

static LogicalResult verifyStencil(Operation *op, Value input, Value output,
                                   ArrayRef<int64_t> radii,
                                   BoundaryKind boundary,
                                   FloatAttr boundaryValue) {
  if (stripCasts(input) == stripCasts(output))
    return op->emitOpError("reads and writes the same buffer")
           << (input == output ? "" : " (through memref.cast)")
           << ": the time steps ping-pong between two distinct grids (and a "
              "step must not overwrite points its neighbours still read)";
  auto inputType = cast<MemRefType>(input.getType());
  auto outputType = cast<MemRefType>(output.getType());
  if (inputType != outputType)
    return op->emitOpError("input and output grids must have the same type, "
                           "got ")
           << inputType << " and " << outputType;
  if (boundary == BoundaryKind::dirichlet && !boundaryValue)
    return op->emitOpError("a dirichlet boundary needs a value");
  if (boundary != BoundaryKind::dirichlet && boundaryValue)
    return op->emitOpError("a boundary value is only meaningful with a "
                           "dirichlet boundary");
  if (boundaryValue && !std::isfinite(boundaryValue.getValueAsDouble()))
    return op->emitOpError("the dirichlet boundary value must be finite");
  if (boundaryValue) {
    // The grid holds the value in its element type.
    auto elementType = cast<FloatType>(inputType.getElementType());
    if (overflowsFloatFormat(boundaryValue.getValueAsDouble(),
                             elementType.getFloatSemantics()))
      return op->emitOpError("the dirichlet boundary value ")
             << boundaryValue.getValueAsDouble() << " overflows the grid's "
             << "element type " << elementType << " (largest finite value "
             << APFloat::getLargest(elementType.getFloatSemantics())
                    .convertToDouble()
             << ")";
  }
  for (auto [dim, radius] : llvm::enumerate(radii)) {
    int64_t size = inputType.getDimSize(dim);
    if (ShapedType::isDynamic(size) || size >= 2 * radius + 1)
      continue;
    return op->emitOpError("radius ")
           << radius << " along dimension " << dim << " needs at least "
           << 2 * radius + 1 << " grid points, but the grid has " << size;
  }
  return success();
}

static void addGridEffects(
    int64_t steps, OpOperand &inputOperand, OpOperand &outputOperand,
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Read::get(), &inputOperand,
                       SideEffects::DefaultResource::get());
  effects.emplace_back(MemoryEffects::Write::get(), &outputOperand,
                       SideEffects::DefaultResource::get());
  // The halo boundary starts by copying the input, and several time steps
  // ping-pong through both buffers.
  effects.emplace_back(MemoryEffects::Read::get(), &outputOperand,
                       SideEffects::DefaultResource::get());
  if (steps > 1)
    effects.emplace_back(MemoryEffects::Write::get(), &inputOperand,
                         SideEffects::DefaultResource::get());
}

//===----------------------------------------------------------------------===//
// LinearOp
//===----------------------------------------------------------------------===//

/// Checks a stencil's `pattern` and `weights` against a rank-`rank` grid:
/// the pattern's rank, one weight per point, every weight finite. `what`
/// names them in the messages ("" for the op's own, "step " for the step
/// stencil of fused steps).
static LogicalResult verifyPatternWeights(Operation *op, PatternAttr pattern,
                                          ArrayRef<double> weights,
                                          int64_t rank, StringRef what) {
  if (pattern.getRank() != rank)
    return op->emitOpError(what) << "pattern has rank " << pattern.getRank()
                                 << " but the grid has rank " << rank;
  if (weights.size() != pattern.getNumPoints())
    return op->emitOpError("has ")
           << weights.size() << " " << what << "weights for "
           << pattern.getNumPoints() << " " << what << "pattern points";
  for (auto [i, w] : llvm::enumerate(weights))
    if (!std::isfinite(w))
      return op->emitOpError(what) << "weight #" << i << " is not finite";
  return success();
}

SmallVector<int64_t> LinearOp::getRadii() { return getPattern().getRadii(); }

LogicalResult LinearOp::verify() {
  auto inputType = cast<MemRefType>(getInput().getType());
  PatternAttr pattern = getPattern();
  if (failed(verifyPatternWeights(*this, pattern, getWeights(),
                                  inputType.getRank(), "")))
    return failure();
  return verifyStencil(*this, getInput(), getOutput(), pattern.getRadii(),
                       getBoundary(), getBoundaryValueAttr());
}

void LinearOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  addGridEffects(getSteps(), getInputMutable(),
                 getOutputMutable(), effects);
}

//===----------------------------------------------------------------------===//
// ApplyOp
//===----------------------------------------------------------------------===//

YieldOp ApplyOp::getYield() {
  return cast<YieldOp>(getBody().front().getTerminator());
}

SmallVector<int64_t> ApplyOp::getRadii() {
  unsigned rank = cast<MemRefType>(getInput().getType()).getRank();
  SmallVector<int64_t> radii(rank, 0);
  getBody().walk([&](AccessOp access) {
    for (auto [d, o] : llvm::enumerate(access.getOffset()))
      if (d < rank)
        radii[d] = std::max<int64_t>(radii[d], std::abs(o));
  });
  return radii;
}

LogicalResult ApplyOp::verifyRegions() {
  Block &body = getBody().front();
  if (body.getNumArguments() != 0)
    return emitOpError("body must not have block arguments");
  if (body.empty() || !isa<YieldOp>(body.back()))
    return emitOpError("body must end with 'stencil.yield'");
  bool readsInput = false;
  for (Operation &op : body) {
    if (isa<AccessOp>(op))
      readsInput = true;
    if (isa<AccessOp, YieldOp>(op))
      continue;
    if (op.getNumRegions() != 0 || !isMemoryEffectFree(&op))
      return op.emitOpError("is not allowed in a 'stencil.apply' body: the "
                            "body must be free of side effects and regions");
  }
  if (!readsInput)
    return emitOpError("body must read at least one neighbour with "
                       "'stencil.access'");
  return verifyStencil(*this, getInput(), getOutput(), getRadii(),
                       getBoundary(), getBoundaryValueAttr());
}

void ApplyOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  addGridEffects(getSteps(), getInputMutable(),
                 getOutputMutable(), effects);
}

//===----------------------------------------------------------------------===//
// AccessOp
//===----------------------------------------------------------------------===//

LogicalResult AccessOp::verify() {
  auto apply = cast<ApplyOp>((*this)->getParentOp());
  auto gridType = dyn_cast<MemRefType>(apply.getInput().getType());
  if (!gridType)
    return success(); // The parent reports its operand type.
  if (static_cast<int64_t>(getOffset().size()) != gridType.getRank())
    return emitOpError("offset has ")
           << getOffset().size() << " components but the grid has rank "
           << gridType.getRank();
  for (auto [d, o] : llvm::enumerate(getOffset()))
    if (o < -kMaxOffset || o > kMaxOffset)
      return emitOpError("offset ")
             << o << " along dimension " << d << " is outside [-" << kMaxOffset
             << ", " << kMaxOffset << "]";
  if (getType() != gridType.getElementType())
    return emitOpError("result type ")
           << getType() << " does not match the grid's element type "
           << gridType.getElementType();
  return success();
}

//===----------------------------------------------------------------------===//
// YieldOp
//===----------------------------------------------------------------------===//

LogicalResult YieldOp::verify() {
  auto apply = cast<ApplyOp>((*this)->getParentOp());
  auto gridType = dyn_cast<MemRefType>(apply.getOutput().getType());
  if (!gridType)
    return success(); // The parent reports its operand type.
  Type elementType = gridType.getElementType();
  if (getValue().getType() != elementType)
    return emitOpError("yields ")
           << getValue().getType() << " but the grid's element type is "
           << elementType;
  return success();
}

//===----------------------------------------------------------------------===//
// FftApplyOp
//===----------------------------------------------------------------------===//

FftTilePlan FftApplyOp::getTilePlan() {
  FftTilePlan plan;
  plan.fusedSteps = getFusedSteps();
  plan.cooleyTukey = getCooleyTukey();
  plan.radii = getPattern().getRadii();
  for (Attribute dim : getFactors())
    plan.factors.emplace_back(cast<DenseI64ArrayAttr>(dim).asArrayRef());
  return plan;
}

SmallVector<int64_t> FftApplyOp::getArrayShape() {
  return getTilePlan().getAxisExtents();
}

SmallVector<int64_t> FftApplyOp::getRadii() { return getPattern().getRadii(); }

/// Checks a spectrum attribute: complex<f64> elements in the array's shape.
static LogicalResult verifySpectrum(FftApplyOp op, StringRef name,
                                    ElementsAttr spectrum,
                                    ArrayRef<int64_t> shape) {
  auto type = dyn_cast<RankedTensorType>(spectrum.getType());
  auto complexType =
      type ? dyn_cast<ComplexType>(type.getElementType()) : ComplexType();
  if (!complexType || !complexType.getElementType().isF64())
    return op.emitOpError() << name << " must be a tensor of complex<f64>";
  if (type.getShape() != shape) {
    std::string expected;
    llvm::raw_string_ostream os(expected);
    llvm::interleave(shape, os, "x");
    return op.emitOpError()
           << name << " has shape " << type << " but the tile array is "
           << expected << " (the factors' padded extents)";
  }
  return success();
}

LogicalResult FftApplyOp::verify() {
  auto inputType = cast<MemRefType>(getInput().getType());
  PatternAttr pattern = getPattern();
  int64_t rank = inputType.getRank();
  if (failed(verifyPatternWeights(*this, pattern, getWeights(), rank, "")))
    return failure();
  if (!inputType.getElementType().isF64() &&
      !inputType.getElementType().isF32())
    return emitOpError("computes in f64 or f32 grids, got ")
           << inputType.getElementType();
  if (getFusedSteps() > getSteps())
    return emitOpError("fuses ") << getFusedSteps()
                                 << " steps but the op has only "
                                 << getSteps();
  if (static_cast<int64_t>(getFactors().size()) != rank)
    return emitOpError("has factors for ")
           << getFactors().size() << " dimensions but the grid has rank "
           << rank;
  SmallVector<int64_t> radii = pattern.getRadii();
  if (getCooleyTukey() && !getTilePlan().hasCooleyTukeyShape())
    return emitOpError("a cooley_tukey tile has the digits [8, 8] per "
                       "dimension in 2-D (64 x 64) or [8, 8, 8, 8] in 1-D "
                       "(4096), got ")
           << getFactors();
  for (auto [d, attr] : llvm::enumerate(getFactors())) {
    ArrayRef<int64_t> factors = cast<DenseI64ArrayAttr>(attr).asArrayRef();
    if (getCooleyTukey()) {
      // Digits checked above.
    } else if (factors.empty() || factors.size() > 4 ||
               !arePfaFactors(factors))
      return emitOpError("the factors of dimension ")
             << d
             << " must be 1 to 4 pairwise coprime integers in [2, 64] (a "
                "prime-factor FFT needs no twiddles only then)";
    int64_t size = 1;
    for (int64_t f : factors)
      size *= f;
    // 2 T r < N, in 128 bits (r may be up to 2^31 - 1 and T up to 1024).
    __int128 margin = __int128(2) * getFusedSteps() * radii[d];
    if (margin >= size)
      return emitOpError("a tile of ")
             << size << " points along dimension " << d
             << " has no valid region for " << getFusedSteps()
             << " fused steps of radius " << radii[d] << " (it needs more than "
             << static_cast<int64_t>(std::min<__int128>(margin, INT64_MAX))
             << ")";
  }
  // At most 12 axes of at most 64: saturate past the limit.
  SmallVector<int64_t> shape = getArrayShape();
  constexpr int64_t kMaxElements = int64_t(1) << 20;
  int64_t elements = 1;
  for (int64_t p : shape)
    elements = std::min(elements * p, kMaxElements + 1);
  if (elements > kMaxElements)
    return emitOpError("the tile array has more than 2^20 elements (")
           << llvm::make_range(shape.begin(), shape.end())
           << "): the tile must fit a thread block's shared memory";
  if (ElementsAttr spectrum = getSpectrumAttr()) {
    if (failed(verifySpectrum(*this, "spectrum", spectrum, shape)))
      return failure();
  }
  // The tail (one step per launch) finishes the steps fused_steps does not
  // divide: needed then, allowed whenever fused_steps > 1.
  if (ElementsAttr tail = getTailSpectrumAttr()) {
    if (!getSpectrumAttr() || getFusedSteps() == 1)
      return emitOpError("a tail_spectrum needs a spectrum and fused_steps "
                         "> 1");
    if (failed(verifySpectrum(*this, "tail_spectrum", tail, shape)))
      return failure();
  } else if (getSpectrumAttr() && getSteps() % getFusedSteps() != 0) {
    return emitOpError("needs a tail_spectrum (one step's) for the last ")
           << getSteps() % getFusedSteps() << " steps";
  }
  return verifyStencil(*this, getInput(), getOutput(), radii, getBoundary(),
                       getBoundaryValueAttr());
}

void FftApplyOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  addGridEffects(getSteps(), getInputMutable(), getOutputMutable(), effects);
}

//===----------------------------------------------------------------------===//
// Matrix forms: shared verification
//===----------------------------------------------------------------------===//

/// Checks a permutation of [0, size).
static LogicalResult verifyPermutation(Operation *op, StringRef name,
                                       ArrayRef<int64_t> perm, int64_t size) {
  if (static_cast<int64_t>(perm.size()) != size)
    return op->emitOpError() << "'" << name << "' has " << perm.size()
                             << " entries, expected " << size;
  SmallVector<bool> seen(size, false);
  for (int64_t p : perm) {
    if (p < 0 || p >= size || seen[p])
      return op->emitOpError()
             << "'" << name << "' is not a permutation of [0, " << size << ")";
    seen[p] = true;
  }
  return success();
}

/// Checks what both matrix forms share: one outer offset per kernel row, and
/// the grid, boundary and radius rules of the stencil forms. Returns the
/// per-dimension radii in `radii`.
static LogicalResult verifyRowForm(Operation *op, Value input, Value output,
                                   int64_t numRows, int64_t radius,
                                   ArrayRef<int64_t> rowOffsets,
                                   BoundaryKind boundary,
                                   FloatAttr boundaryValue) {
  auto inputType = cast<MemRefType>(input.getType());
  int64_t outerRank = inputType.getRank() - 1;
  if (numRows < 1)
    return op->emitOpError("needs at least one kernel row");
  if (static_cast<int64_t>(rowOffsets.size()) != numRows * outerRank)
    return op->emitOpError("has ")
           << rowOffsets.size() << " row offset components for " << numRows
           << " kernel rows of a rank-" << inputType.getRank()
           << " grid, expected " << numRows * outerRank;
  for (int64_t o : rowOffsets)
    if (o < -kMaxOffset || o > kMaxOffset)
      return op->emitOpError("row offset ")
             << o << " is outside [-" << kMaxOffset << ", " << kMaxOffset
             << "]";
  return verifyStencil(op, input, output,
                       getRowFormRadii(inputType.getRank(), radius, rowOffsets),
                       boundary, boundaryValue);
}

/// What the kernel matrices of a row form reach along each dimension: a
/// gathered form's non-zero weights, or the banded form's innermost radius,
/// row offsets and outer radius.
static SmallVector<int64_t> getRowFormOpRadii(RowFormOpInterface op) {
  int64_t rank = op.getGridRank();
  std::optional<ArrayRef<int64_t>> gather = op.getGatherOffsets();
  std::optional<ArrayRef<int64_t>> layout = op.getLayout();
  if (gather && layout)
    return getGatheredRadii(rank, *layout, *gather, op.getKernelNonZeros());
  return getRowFormRadii(rank, op.getRadius(), op.getRowOffsets(),
                         op.getColumnRadius());
}

//===----------------------------------------------------------------------===//
// RowGemmOp
//===----------------------------------------------------------------------===//

SmallVector<int64_t> RowGemmOp::getRadii() { return getRowFormOpRadii(*this); }

int64_t RowGemmOp::getColumnRadius() {
  auto columns = getColumnWeightsAttr();
  return columns ? (cast<ShapedType>(columns.getType()).getDimSize(1) - 1) / 2
                 : 0;
}

SmallVector<bool> RowGemmOp::getKernelNonZeros() {
  return llvm::map_to_vector(getKernels().getValues<double>(),
                             [](double w) { return w != 0.0; });
}

int64_t RowGemmOp::getNumRows() {
  auto type = cast<ShapedType>(getKernels().getType());
  return type.getRank() == 3 ? type.getDimSize(0) : 0;
}

/// The attributes that prepare a row form for the GPU kernel: at most one of
/// `column_permutation` and `input_offsets` (2L entries), `tiling`
/// (`{warps, n_tiles, sub_tiles, async_copy}`) and `packed_coefficients` of
/// `expectedWords` words.
static LogicalResult
verifyKernelAttrs(Operation *op, std::optional<ArrayRef<int64_t>> perm,
                  std::optional<ArrayRef<int64_t>> offsets,
                  TilingAttr tiling,
                  std::optional<ArrayRef<int32_t>> packed,
                  int64_t expectedWords, int64_t l) {
  if (perm && offsets)
    return op->emitOpError("needs exactly one of 'column_permutation' and "
                           "'input_offsets'");
  if (perm &&
      failed(verifyPermutation(op, "column_permutation", *perm, 2 * l)))
    return failure();
  if (offsets && static_cast<int64_t>(offsets->size()) != 2 * l)
    return op->emitOpError("'input_offsets' has ")
           << offsets->size() << " entries, expected " << 2 * l;
  if (packed && static_cast<int64_t>(packed->size()) != expectedWords)
    return op->emitOpError("'packed_coefficients' has ")
           << packed->size() << " words, expected " << expectedWords;
  return success();
}

/// The gathered form (SparStencil; `gather_offsets` and `layout`, see the
/// op description) of `op`: `rows_per_block` 16, no row offsets, column
/// permutation or input offsets, `layout = [r1, r2]` with r1 r2 = 16 and r1
/// even, #rows x 16 offsets (dz, dy, dx) with dx even, what its non-zero
/// weights reach (the stencil's radii) within its radius, the kernel
/// attributes (`expectedWords` packed words) and the grids.
template <typename OpTy>
static LogicalResult verifyGatheredForm(OpTy op, int64_t expectedWords) {
  int64_t rank = cast<MemRefType>(op.getInput().getType()).getRank();
  int64_t numRows = op.getNumRows(), l = op.getRowsPerBlock();
  int64_t radius = op.getRadius();
  std::optional<ArrayRef<int64_t>> gather = op.getGatherOffsets();
  std::optional<ArrayRef<int64_t>> layout = op.getLayout();
  if (!gather || !layout)
    return op->emitOpError("the gathered form needs both 'gather_offsets' "
                           "and 'layout'");
  if (op.getColumnPermutation() || op.getInputOffsets())
    return op->emitOpError("the gathered form takes no 'column_permutation' "
                           "or 'input_offsets'");
  if (l != 16)
    return op->emitOpError("the gathered form needs rows_per_block 16, got ")
           << l;
  if (!op.getRowOffsets().empty())
    return op->emitOpError("the gathered form takes no row offsets");
  if (layout->size() != 2)
    return op->emitOpError("layout must be [r1, r2]");
  int64_t r1 = (*layout)[0], r2 = (*layout)[1];
  if (r1 < 2 || r2 < 1 || r1 * r2 != 16 || r1 % 2 != 0 ||
      (rank == 1 && r2 != 1))
    return op->emitOpError("layout [")
           << r1 << ", " << r2
           << "] is not one of [16, 1], [8, 2], [4, 4], [2, 8] (r1 r2 = 16, "
              "r1 even; [16, 1] in 1-D)";
  if (int64_t(gather->size()) != numRows * 16 * 3)
    return op->emitOpError("gather_offsets has ")
           << gather->size() << " entries, expected " << numRows * 16 * 3
           << " (#rows x 16 units x (dz, dy, dx))";
  for (int64_t q = 0; q < numRows; ++q)
    for (int64_t unit = 0; unit < 16; ++unit) {
      ArrayRef<int64_t> g = gather->slice((q * 16 + unit) * 3, 3);
      if (llvm::any_of(
              g, [](int64_t o) { return o < -kMaxOffset || o > kMaxOffset; }))
        return op->emitOpError("gather offset of kernel row ")
               << q << ", unit " << unit << " is outside [-" << kMaxOffset
               << ", " << kMaxOffset << "]";
      if (g[2] % 2 != 0 || (rank < 3 && g[0] != 0) || (rank < 2 && g[1] != 0))
        return op->emitOpError("gather offset (")
               << g[0] << ", " << g[1] << ", " << g[2] << ") of kernel row "
               << q << ", unit " << unit
               << " must have an even dx and no component the grid lacks";
    }
  SmallVector<int64_t> radii =
      getGatheredRadii(rank, *layout, *gather, op.getKernelNonZeros());
  if (radii.back() > radius)
    return op->emitOpError("reaches ")
           << radii.back() << " points along the innermost dimension, more "
           << "than its radius " << radius;
  if (failed(verifyKernelAttrs(op, std::nullopt, std::nullopt,
                               op.getTilingAttr(), op.getPackedCoefficients(),
                               expectedWords, l)))
    return failure();
  return verifyStencil(op, op.getInput(), op.getOutput(), radii,
                       op.getBoundary(), op.getBoundaryValueAttr());
}

/// Checks the fused steps of a matrix form (kernel composition): the three
/// attributes together, a step stencil of the grid's rank with one finite
/// weight per point, the halo boundary, and, for a banded form, an innermost
/// radius of exactly t times the step's (the composed kernels reach that
/// far, Support/StepComposition.h).
template <typename OpTy>
static LogicalResult verifyFusedSteps(OpTy op, bool banded) {
  auto fused = op.getFusedStepsAttr();
  PatternAttr pattern = op.getStepPatternAttr();
  DenseF64ArrayAttr weights = op.getStepWeightsAttr();
  if (!fused && !pattern && !weights)
    return success();
  if (!fused || !pattern || !weights)
    return op.emitOpError("needs fused_steps, step_pattern and step_weights "
                          "together");
  int64_t rank = cast<MemRefType>(op.getInput().getType()).getRank();
  if (failed(verifyPatternWeights(op, pattern, weights.asArrayRef(), rank,
                                  "step ")))
    return failure();
  if (op.getBoundary() != BoundaryKind::halo)
    return op.emitOpError("fuses steps by composition, which is exact only "
                          "with the 'halo' boundary");
  int64_t t = op.getFusedStepsAttr().getInt();
  int64_t stepRadius = pattern.getRadii().back();
  if (banded && int64_t(op.getRadius()) != t * stepRadius)
    return op.emitOpError("has radius ")
           << op.getRadius() << ", but " << t << " composed steps of a "
           << "stencil of innermost radius " << stepRadius << " reach "
           << t * stepRadius;
  return success();
}

LogicalResult RowGemmOp::verify() {
  auto type = cast<ShapedType>(getKernels().getType());
  int64_t l = getRowsPerBlock();
  if (type.getRank() != 3 || type.getDimSize(1) != l ||
      type.getDimSize(2) != 2 * l)
    return emitOpError("kernels must have shape #rows x ")
           << l << " x " << 2 * l << " (rows_per_block x 2 * rows_per_block), "
           << "got " << type;
  // The dense packing (Support/SpTCPacking.h): per kernel row 32 lanes x 8
  // words (two m16n8k16 A operands), or for f64 grids 32 lanes x 2 words per
  // K-chunk (the m8n8k4 B operands).
  int64_t expectedWords = getNumRows() * 256;
  if (cast<MemRefType>(getInput().getType()).getElementType().isF64())
    expectedWords = TCF64CoefficientLayout{getNumRows(), int64_t(getRadius())}.size();
  if (auto columns = getColumnWeightsAttr()) {
    auto columnsType = cast<ShapedType>(columns.getType());
    if (cast<MemRefType>(getInput().getType()).getRank() != 2)
      return emitOpError("has column_weights (a low-rank chain), which "
                         "needs 2-D grids");
    if (columnsType.getRank() != 2 ||
        columnsType.getDimSize(0) != getNumRows() ||
        columnsType.getDimSize(1) % 2 != 1)
      return emitOpError("column_weights must have shape ")
             << getNumRows() << " x (2h + 1) (one column vector per kernel "
             << "row), got " << columns.getType();
    if (getColumnRadius() > LowRankColumnLayout::kMaxRadius)
      return emitOpError("column_weights of radius ")
             << getColumnRadius() << ": the low-rank chain reaches at most "
             << LowRankColumnLayout::kMaxRadius << " rows (8 + 2h <= 16)";
    if (llvm::any_of(getRowOffsets(), [](int64_t o) { return o != 0; }))
      return emitOpError("has column_weights, so every row offset must be 0");
    expectedWords = LowRankColumnLayout{getNumRows()}.size();
  }
  if (failed(verifyFusedSteps(*this, !getGatherOffsets() && !getLayout())))
    return failure();
  if (getGatherOffsets() || getLayout()) {
    if (getColumnWeightsAttr())
      return emitOpError("the gathered form takes no column_weights");
    return verifyGatheredForm(*this, expectedWords);
  }
  if (failed(verifyKernelAttrs(*this, getColumnPermutation(),
                               getInputOffsets(), getTilingAttr(),
                               getPackedCoefficients(), expectedWords, l)))
    return failure();
  return verifyRowForm(*this, getInput(), getOutput(), getNumRows(),
                       getRadius(), getRowOffsets(), getBoundary(),
                       getBoundaryValueAttr());
}

void RowGemmOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  addGridEffects(getSteps(), getInputMutable(), getOutputMutable(), effects);
}

//===----------------------------------------------------------------------===//
// LowRankOp
//===----------------------------------------------------------------------===//

int64_t LowRankOp::getRank() {
  auto type = cast<ShapedType>(getU().getType());
  return type.getRank() == 2 ? type.getDimSize(0) : 0;
}

SmallVector<int64_t> LowRankOp::getRadii() {
  return SmallVector<int64_t>(getGridRank(), getRadius());
}

LogicalResult LowRankOp::verify() {
  auto inputType = cast<MemRefType>(getInput().getType());
  if (inputType.getRank() != 2)
    return emitOpError("needs 2-D grids, got ") << inputType;
  int64_t n = 2 * getRadius() + 1;
  for (auto [name, attr] : {std::make_pair("u", getU()),
                            std::make_pair("v", getV())}) {
    auto type = cast<ShapedType>(attr.getType());
    if (type.getRank() != 2 || type.getDimSize(0) < 1 ||
        type.getDimSize(1) != n)
      return emitOpError(name) << " must have shape #terms x " << n
                               << " (2 * radius + 1), got " << type;
    for (double w : attr.getValues<double>())
      if (!std::isfinite(w))
        return emitOpError(name) << " has a value that is not finite";
  }
  if (getU().getType() != getV().getType())
    return emitOpError("u and v must have the same number of terms");
  return verifyStencil(*this, getInput(), getOutput(),
                       {int64_t(getRadius()), int64_t(getRadius())}, getBoundary(),
                       getBoundaryValueAttr());
}

void LowRankOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  addGridEffects(getSteps(), getInputMutable(), getOutputMutable(), effects);
}

//===----------------------------------------------------------------------===//
// SparseRowGemmOp
//===----------------------------------------------------------------------===//

SmallVector<int64_t> SparseRowGemmOp::getRadii() {
  return getRowFormOpRadii(*this);
}

SmallVector<bool> SparseRowGemmOp::getKernelNonZeros() {
  int64_t l = getRowsPerBlock();
  SmallVector<bool> nonZeros(getNumRows() * l * 2 * l, false);
  auto values = getValues().getValues<APFloat>();
  auto indices = getIndices().getValues<int8_t>();
  // Entry k of row (q, m) is group k / 2's kept value at position
  // indices[k] of the group.
  for (int64_t qm = 0, e = getNumRows() * l; qm < e; ++qm)
    for (int64_t k = 0; k < l; ++k) {
      int64_t at = qm * l + k;
      int64_t column = 4 * (k / 2) + indices[at];
      if (!values[at].isZero() && column >= 0 && column < 2 * l)
        nonZeros[qm * 2 * l + column] = true;
    }
  return nonZeros;
}

int64_t SparseRowGemmOp::getNumRows() {
  auto type = cast<ShapedType>(getValues().getType());
  return type.getRank() == 3 ? type.getDimSize(0) : 0;
}

LogicalResult SparseRowGemmOp::verify() {
  int64_t l = getRowsPerBlock();
  auto valuesType = cast<ShapedType>(getValues().getType());
  if (valuesType.getRank() != 3 || valuesType.getDimSize(1) != l ||
      valuesType.getDimSize(2) != l)
    return emitOpError("values must have shape #rows x ")
           << l << " x " << l << " (two kept values per group of 4 of the "
           << 2 * l << " columns), got " << valuesType;
  if (getIndices().getType() !=
      RankedTensorType::get(valuesType.getShape(),
                            IntegerType::get(getContext(), 8)))
    return emitOpError("indices must be i8 of the shape of values, got ")
           << getIndices().getType();
  if (l % 2 != 0)
    return emitOpError("rows_per_block must be even for 2:4 groups of the ")
           << 2 * l << " columns";
  SmallVector<int8_t> indices(getIndices().getValues<int8_t>());
  for (size_t i = 0; i < indices.size(); i += 2) {
    if (indices[i] < 0 || indices[i + 1] > 3 || indices[i] >= indices[i + 1])
      return emitOpError("index pair #")
             << i / 2 << " is (" << int(indices[i]) << ", "
             << int(indices[i + 1])
             << "): positions in a group of 4 must be in 0..3 and strictly "
                "increasing";
  }
  // Per kernel row 32 lanes x 4 value words, then one metadata word per
  // lane for every two rows (Support/SpTCPacking.h).
  int64_t rows = getNumRows();
  if (failed(verifyFusedSteps(*this, !getGatherOffsets() && !getLayout())))
    return failure();
  if (getGatherOffsets() || getLayout())
    return verifyGatheredForm(*this, rows * 128 + (rows + 1) / 2 * 32);
  if (!getColumnPermutation() && !getInputOffsets())
    return emitOpError("needs exactly one of 'column_permutation' and "
                       "'input_offsets'");
  if (failed(verifyKernelAttrs(*this, getColumnPermutation(),
                               getInputOffsets(), getTilingAttr(),
                               getPackedCoefficients(),
                               rows * 128 + (rows + 1) / 2 * 32, l)))
    return failure();
  return verifyRowForm(*this, getInput(), getOutput(), getNumRows(),
                       getRadius(), getRowOffsets(), getBoundary(),
                       getBoundaryValueAttr());
}

void SparseRowGemmOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  addGridEffects(getSteps(), getInputMutable(), getOutputMutable(), effects);
}

#define GET_OP_CLASSES
#include "stencil/Dialect/Stencil/IR/StencilOps.cpp.inc"
