//===- StencilDialect.cpp - Stencil dialect and attributes ----------------===//

#include "stencil/Dialect/Stencil/IR/StencilDialect.h"
#include "stencil/Dialect/Stencil/IR/LaunchRecord.h"
#include "stencil/Support/StencilShape.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace mlir;
using namespace mlir::stencil;

#include "stencil/Dialect/Stencil/IR/StencilDialect.cpp.inc"
#include "stencil/Dialect/Stencil/IR/StencilEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "stencil/Dialect/Stencil/IR/StencilAttrs.cpp.inc"

void StencilDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "stencil/Dialect/Stencil/IR/StencilAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "stencil/Dialect/Stencil/IR/StencilOps.cpp.inc"
      >();
}

LogicalResult StencilDialect::verifyOperationAttribute(Operation *op,
                                                       NamedAttribute attr) {
  // At the op's location without printing the op: the records sit on the
  // module, which would be printed whole.
  Location loc = op->getLoc();
  if (attr.getName() == kLaunchesAttrName)
    return verifyLaunchRecords(attr.getValue(),
                               [&] { return mlir::emitError(loc); });
  if (attr.getName() == kPipelineAttrName ||
      attr.getName() == kDeviceProfileAttrName)
    return verifyChoiceAttr(attr.getValue(), [&] {
      return mlir::emitError(loc) << "'" << attr.getName().getValue() << "' ";
    });
  if (attr.getName() == kSourceAttrName)
    return verifySourceAttr(attr.getValue(), [&] {
      return mlir::emitError(loc) << "'" << kSourceAttrName << "' ";
    });
  return success();
}

//===----------------------------------------------------------------------===//
// TilingAttr
//===----------------------------------------------------------------------===//

LogicalResult TilingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 int64_t warps, int64_t nTiles,
                                 int64_t subTiles, bool asyncCopy,
                                 int64_t mTiles, int64_t wgmmaN,
                                 int64_t wgmmaStages, int64_t wgmmaStrips) {
  if (warps < 1 || nTiles < 1 || subTiles < 1)
    return emitError() << "#stencil.tiling needs warps, nTiles and subTiles "
                          ">= 1, got "
                       << warps << ", " << nTiles << " and " << subTiles;
  if (mTiles < 0 || wgmmaN < 0 || wgmmaStages < 0 || wgmmaStrips < 0)
    return emitError() << "#stencil.tiling needs mTiles, wgmmaN, wgmmaStages "
                          "and wgmmaStrips >= 0 (0: absent)";
  if (mTiles > 0 && wgmmaN > 0)
    return emitError() << "#stencil.tiling is of the f64 kernel (mTiles) or "
                          "of the warpgroup kernel (wgmmaN), not both";
  if (wgmmaN == 0 && (wgmmaStages > 0 || wgmmaStrips > 0))
    return emitError() << "#stencil.tiling has wgmmaStages or wgmmaStrips "
                          "without wgmmaN";
  return success();
}

//===----------------------------------------------------------------------===//
// PatternAttr
//===----------------------------------------------------------------------===//

static constexpr unsigned kMaxRank = 3;

LogicalResult PatternAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                  unsigned rank, ArrayRef<int64_t> offsets) {
  if (offsets.empty())
    return emitError() << "pattern must have at least one point";
  if (rank < 1 || rank > kMaxRank)
    return emitError() << "pattern rank must be 1, 2 or 3, got " << rank;
  if (offsets.size() % rank != 0)
    return emitError() << "pattern offsets must come in groups of " << rank;
  if (offsets.size() / rank > kMaxPatternPoints)
    return emitError() << "pattern has " << offsets.size() / rank
                       << " points, more than the " << kMaxPatternPoints
                       << " a pattern may have";
  for (auto [i, c] : llvm::enumerate(offsets))
    if (c < -kMaxOffset || c > kMaxOffset)
      return emitError() << "pattern point #" << i / rank << " has offset "
                         << c << " along dimension " << i % rank
                         << ", outside [-" << kMaxOffset << ", " << kMaxOffset
                         << "]";
  if (std::optional<unsigned> dup = findDuplicatePoint(rank, offsets))
    return emitError() << "pattern point #" << *dup
                       << " repeats an earlier offset";
  return success();
}

SmallVector<int64_t> PatternAttr::getRadii() const {
  return stencil::getRadii(getRank(), getOffsets());
}

int64_t PatternAttr::getRadius() const {
  SmallVector<int64_t> radii = getRadii();
  return radii.empty() ? 0 : *llvm::max_element(radii);
}

/// pattern ::= `<` (`star` | `box`) `,` `rank` `=` int `,` `radius` `=` int `>`
///           | `<` `[` (`[` int (`,` int)* `]`) (`,` ...)* `]` `>`
Attribute PatternAttr::parse(AsmParser &parser, Type) {
  MLIRContext *ctx = parser.getContext();
  SMLoc loc = parser.getCurrentLocation();
  auto emitError = [&] { return parser.emitError(loc); };
  if (parser.parseLess())
    return {};

  StringRef kindName;
  if (succeeded(parser.parseOptionalKeyword(&kindName, {"star", "box"}))) {
    int64_t rank = 0, radius = 0;
    if (parser.parseComma() || parser.parseKeyword("rank") ||
        parser.parseEqual() || parser.parseInteger(rank) ||
        parser.parseComma() || parser.parseKeyword("radius") ||
        parser.parseEqual() || parser.parseInteger(radius) ||
        parser.parseGreater())
      return {};
    if (rank < 1 || rank > kMaxRank) {
      emitError() << "pattern rank must be 1, 2 or 3, got " << rank;
      return {};
    }
    if (radius < 0 || radius > kMaxOffset) {
      emitError() << "pattern radius must be in [0, " << kMaxOffset
                  << "], got " << radius;
      return {};
    }
    ShapeKind kind = kindName == "star" ? ShapeKind::Star : ShapeKind::Box;
    // Count before building: a short form of a large radius names more
    // points than any pattern may have.
    uint64_t numPoints = getShapeNumPoints(kind, rank, radius);
    if (numPoints > kMaxPatternPoints) {
      emitError() << "pattern <" << kindName << ", rank = " << rank
                  << ", radius = " << radius << "> has more than the "
                  << kMaxPatternPoints << " points a pattern may have";
      return {};
    }
    // Distinct points within the limits by construction (rank, radius and
    // count are checked above), so the verifier's duplicate search, the
    // costliest part of a large short form, is not needed.
    return PatternAttr::get(ctx, rank, makeOffsets(kind, rank, radius));
  }

  SmallVector<int64_t> offsets;
  std::optional<unsigned> rank;
  auto parsePoint = [&]() -> ParseResult {
    SMLoc pointLoc = parser.getCurrentLocation();
    size_t before = offsets.size();
    if (parser.parseCommaSeparatedList(
            AsmParser::Delimiter::Square,
            [&] { return parser.parseInteger(offsets.emplace_back()); }))
      return failure();
    unsigned size = offsets.size() - before;
    if (!rank)
      rank = size;
    if (size != *rank)
      return parser.emitError(pointLoc)
             << "pattern point has " << size << " components, expected "
             << *rank;
    return success();
  };
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                     parsePoint) ||
      parser.parseGreater())
    return {};
  return PatternAttr::getChecked(emitError, ctx, rank.value_or(0), offsets);
}

void PatternAttr::print(AsmPrinter &printer) const {
  printer << '<';
  if (auto shape = classifyOffsets(getRank(), getOffsets())) {
    printer << (shape->first == ShapeKind::Star ? "star" : "box")
            << ", rank = " << getRank() << ", radius = " << shape->second
            << '>';
    return;
  }
  printer << '[';
  for (unsigned i = 0, e = getNumPoints(); i < e; ++i) {
    if (i)
      printer << ", ";
    printer << '[';
    llvm::interleaveComma(getPoint(i), printer);
    printer << ']';
  }
  printer << "]>";
}

DictionaryAttr mlir::stencil::getSourceAttr(PatternAttr pattern,
                                            DenseF64ArrayAttr weights) {
  Builder b(pattern.getContext());
  return b.getDictionaryAttr({b.getNamedAttr("pattern", pattern),
                              b.getNamedAttr("weights", weights)});
}

LinearStencil mlir::stencil::getLinearStencil(PatternAttr pattern,
                                              ArrayRef<double> weights) {
  LinearStencil stencil;
  stencil.rank = pattern.getRank();
  stencil.offsets.assign(pattern.getOffsets().begin(),
                         pattern.getOffsets().end());
  stencil.weights.assign(weights.begin(), weights.end());
  return stencil;
}

double mlir::stencil::getUnitRoundoff(Type elementType) {
  if (elementType.isF16())
    return std::ldexp(1.0, -11);
  if (elementType.isBF16())
    return std::ldexp(1.0, -8);
  if (elementType.isF32())
    return std::ldexp(1.0, -24);
  return std::ldexp(1.0, -53);
}
