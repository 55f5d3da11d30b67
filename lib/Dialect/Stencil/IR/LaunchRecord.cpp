//===- LaunchRecord.cpp - The contract of a kernel's launch record --------===//

#include "stencil/Dialect/Stencil/IR/LaunchRecord.h"
#include "stencil/Dialect/Stencil/IR/StencilDialect.h"
#include "stencil/Support/CoefficientPacking.h"

#include "llvm/ADT/StringSet.h"

#include <cmath>

using namespace mlir;
using namespace mlir::stencil;

/// Whether `text` would break a description's `key = value` line: a line
/// break, or `#`, which starts a comment.
static bool breaksDescriptionLine(StringRef text) {
  return text.find_first_of("\n\r#") != StringRef::npos;
}

namespace {
/// Checks the keys of one record, each error naming the kernel and the key.
class RecordChecker {
public:
  RecordChecker(DictionaryAttr record,
                function_ref<InFlightDiagnostic()> emitError)
      : record(record), emitErrorFn(emitError) {}

  LogicalResult check();

private:
  InFlightDiagnostic error(StringRef key) {
    InFlightDiagnostic diag = emitErrorFn();
    diag << "launch record";
    if (!kernel.empty())
      diag << " of kernel '" << kernel << "'";
    diag << ": '" << key << "' ";
    return diag;
  }

  /// The attribute of `key` as `T`; failure when it is present with another
  /// type, or absent and `required`. A null `T` when absent.
  template <typename T>
  FailureOr<T> get(StringRef key, bool required, StringRef what) {
    Attribute attr = record.get(key);
    if (!attr) {
      if (required)
        return error(key) << "is missing (" << what << ")";
      return T();
    }
    auto typed = dyn_cast<T>(attr);
    if (!typed)
      return error(key) << "must be " << what << ", got " << attr;
    return typed;
  }

  /// An integer in [lo, hi]; `fallback` when absent and not required.
  FailureOr<int64_t> getInt(StringRef key, bool required, int64_t lo,
                            int64_t hi, int64_t fallback = 0) {
    FailureOr<IntegerAttr> attr = get<IntegerAttr>(key, required, "an integer");
    if (failed(attr))
      return failure();
    if (!*attr)
      return fallback;
    int64_t value = attr->getValue().getSExtValue();
    if (attr->getValue().getSignificantBits() > 64 || value < lo || value > hi)
      return error(key) << "must be in [" << lo << ", " << hi << "], got "
                        << llvm::toString(attr->getValue(), 10, true);
    return value;
  }

  /// A finite, non-negative f64 when present.
  LogicalResult checkBound(StringRef key) {
    FailureOr<FloatAttr> attr = get<FloatAttr>(key, false, "a float");
    if (failed(attr))
      return failure();
    if (*attr && !(std::isfinite(attr->getValueAsDouble()) &&
                   attr->getValueAsDouble() >= 0))
      return error(key) << "must be finite and non-negative, got "
                        << attr->getValueAsDouble();
    return success();
  }

  /// A string that keeps the description's lines intact; one of `allowed`
  /// when that is not empty.
  FailureOr<StringRef> getString(StringRef key, bool required,
                                 ArrayRef<StringRef> allowed = {}) {
    FailureOr<StringAttr> attr = get<StringAttr>(key, required, "a string");
    if (failed(attr))
      return failure();
    if (!*attr)
      return StringRef();
    StringRef value = attr->getValue();
    if (value.empty() || breaksDescriptionLine(value))
      return error(key) << "must be a non-empty string without a line break "
                           "or '#' (the description's comment sign)";
    if (!allowed.empty() && !llvm::is_contained(allowed, value)) {
      InFlightDiagnostic diag = error(key);
      diag << "must be one of ";
      llvm::interleaveComma(allowed, diag);
      return diag << ", got '" << value << "'";
    }
    return value;
  }

  /// A kernel name: a PTX identifier.
  FailureOr<StringRef> getKernelName(StringRef key, bool required) {
    FailureOr<StringRef> name = getString(key, required);
    if (failed(name) || name->empty())
      return name;
    auto isIdentChar = [](char c) {
      return llvm::isAlnum(c) || c == '_' || c == '$';
    };
    if (llvm::isDigit(name->front()) || !llvm::all_of(*name, isIdentChar))
      return error(key)
             << "must be a PTX identifier ([A-Za-z_$][A-Za-z0-9_$]*), "
             << "got '" << *name << "'";
    return name;
  }

  /// `count` sizes (innermost first) in [lo, hi] when present.
  FailureOr<ArrayRef<int64_t>> getSizes(StringRef key, bool required,
                                        int64_t minCount, int64_t maxCount,
                                        int64_t lo, int64_t hi) {
    FailureOr<DenseI64ArrayAttr> attr =
        get<DenseI64ArrayAttr>(key, required, "an array<i64>");
    if (failed(attr))
      return failure();
    if (!*attr)
      return ArrayRef<int64_t>();
    ArrayRef<int64_t> sizes = attr->asArrayRef();
    if (int64_t(sizes.size()) < minCount || int64_t(sizes.size()) > maxCount) {
      if (minCount == maxCount)
        return error(key) << "must hold " << minCount << " values (the rank), "
                          << "got " << sizes.size();
      return error(key) << "must hold " << minCount << " to " << maxCount
                        << " values, got " << sizes.size();
    }
    for (int64_t v : sizes)
      if (v < lo || v > hi)
        return error(key) << "values must be in [" << lo << ", " << hi
                          << "], got " << v;
    return sizes;
  }

  /// Threads per block: 1 to 3 positive sizes, at most 1024 in all.
  LogicalResult checkBlock(StringRef key, bool required) {
    FailureOr<ArrayRef<int64_t>> block = getSizes(key, required, 1, 3, 1, 1024);
    if (failed(block))
      return failure();
    int64_t threads = 1;
    for (int64_t v : *block)
      threads *= v;
    if (threads > 1024)
      return error(key) << "asks for " << threads
                        << " threads per block, more than 1024";
    return success();
  }

  /// All of `keys` or none.
  LogicalResult checkGroup(ArrayRef<StringRef> keys) {
    unsigned present = llvm::count_if(
        keys, [&](StringRef key) { return bool(record.get(key)); });
    if (present == 0 || present == keys.size())
      return success();
    InFlightDiagnostic diag = error(keys.front());
    diag << "comes with ";
    llvm::interleaveComma(keys.drop_front(), diag,
                          [&](StringRef k) { diag << "'" << k << "'"; });
    return diag << ": all of them or none";
  }

  DictionaryAttr record;
  function_ref<InFlightDiagnostic()> emitErrorFn;
  StringRef kernel;
};
} // namespace

LogicalResult RecordChecker::check() {
  FailureOr<StringRef> name = getKernelName("kernel", true);
  if (failed(name))
    return failure();
  kernel = *name;
  FailureOr<int64_t> rank = getInt("rank", true, 1, 3);
  if (failed(rank))
    return failure();
  static constexpr StringRef kTypes[] = {"f16", "bf16", "f32", "f64"};
  if (failed(getString("element_type", true, kTypes)) ||
      failed(getString("accumulator", false, kTypes)))
    return failure();
  FailureOr<StringRef> boundary = getString("boundary", true);
  if (failed(boundary))
    return failure();
  if (*boundary != "halo" && *boundary != "periodic") {
    double value;
    StringRef inner = *boundary;
    if (!inner.consume_front("dirichlet(") || !inner.consume_back(")") ||
        inner.trim().getAsDouble(value) || !std::isfinite(value))
      return error("boundary")
             << "must be halo, periodic or dirichlet(v) with a finite v, got '"
             << *boundary << "'";
  }
  if (failed(getInt("steps", false, 0, INT64_MAX)) ||
      failed(getInt("steps_per_launch", false, 1, 1024)) ||
      failed(getSizes("tile", true, *rank, *rank, 1, INT32_MAX)) ||
      failed(checkBlock("block", true)) ||
      failed(getInt("shared_bytes", false, 0, INT32_MAX)) ||
      failed(getString("unit", false)) ||
      failed(getString("schedule", false,
                       {"staged", "streamed", "plane-sums", "rows"})) ||
      failed(getInt("vector_width", false, 1, 16)) ||
      failed(getString("edge_unit", false)) ||
      failed(checkBound("unit_flops_per_point")) ||
      failed(checkBound("edge_flops_per_point")) ||
      failed(checkBound("chain_abs_sum")) ||
      failed(checkBound("fft_error_bound")) ||
      failed(checkBound("composed_abs_sum")) ||
      failed(getInt("composed_points", false, 1, INT64_MAX)) ||
      failed(checkGroup({"unit_flops_per_point", "unit"})) ||
      failed(checkGroup({"edge_flops_per_point", "edge_unit"})) ||
      failed(checkGroup({"composed_abs_sum", "composed_points"})) ||
      failed(get<DenseI32ArrayAttr>("coefficients", false, "an array<i32>")) ||
      failed(getString("weights_global", false)) ||
      failed(getString("repack_unsupported", false)))
    return failure();
  // Fused steps by composition: the band kernel and its geometry.
  if (failed(checkGroup(
          {"band_kernel", "band_tile", "band_block", "band_margins"})) ||
      failed(getKernelName("band_kernel", false)) ||
      failed(getSizes("band_tile", false, *rank, *rank, 1, INT32_MAX)) ||
      failed(checkBlock("band_block", false)) ||
      failed(getSizes("band_margins", false, *rank, *rank, 0, INT32_MAX)))
    return failure();
  // The tail kernel (fewer steps than `steps_per_launch`, for the steps a
  // run leaves over).
  if (failed(getKernelName("tail_kernel", false)) ||
      failed(getInt("tail_steps", false, 1, 1024)) ||
      failed(getSizes("tail_tile", false, *rank, *rank, 1, INT32_MAX)) ||
      failed(checkBlock("tail_block", false)) ||
      failed(getInt("tail_shared_bytes", false, 0, INT32_MAX)))
    return failure();
  // The weights' repacking recipe.
  FailureOr<DictionaryAttr> repack =
      get<DictionaryAttr>("repack", false, "a dictionary");
  if (failed(repack))
    return failure();
  if (*repack) {
    // The recipe of Support/CoefficientPacking.h: its kind, operand type
    // and sizes by name.
    auto kind = repack->getAs<StringAttr>("kind");
    RepackKind parsedKind;
    if (!kind || !parseRepackKind(kind.getValue().str(), parsedKind))
      return error("repack") << "needs a 'kind' of sptc, tc or tc-f64";
    auto type = repack->getAs<StringAttr>("type");
    OperandType parsedType;
    if (!type || !parseOperandType(type.getValue().str(), parsedType))
      return error("repack") << "needs a 'type' of f16, bf16 or f64";
    for (StringRef key : {"rows", "rows_per_block", "radius"})
      if (!repack->getAs<IntegerAttr>(key))
        return error("repack") << "needs an integer '" << key << "'";
    if (!repack->getAs<DenseI64ArrayAttr>("map"))
      return error("repack") << "needs an array<i64> 'map'";
  }
  // The source stencil the runner checks against.
  if (Attribute source = record.get("source")) {
    if (failed(verifySourceAttr(source, [&] { return error("source"); })))
      return failure();
    auto pattern = cast<DictionaryAttr>(source).getAs<PatternAttr>("pattern");
    if (pattern && int64_t(pattern.getRank()) != *rank)
      return error("source") << "has a pattern of rank " << pattern.getRank()
                             << " in a record of rank " << *rank;
  }
  return success();
}

Location mlir::stencil::getLaunchRecordsLoc(Operation *module) {
  if (auto file = dyn_cast<FileLineColLoc>(module->getLoc()))
    return FileLineColLoc::get(file.getFilename(), 0, 0);
  return module->getLoc();
}

LogicalResult
mlir::stencil::verifySourceAttr(Attribute source,
                                function_ref<InFlightDiagnostic()> emitError) {
  auto dict = dyn_cast<DictionaryAttr>(source);
  if (!dict)
    return emitError() << "must be a dictionary ({pattern, weights} or "
                          "{body}), got "
                       << source;
  auto pattern = dict.getAs<PatternAttr>("pattern");
  auto weights = dict.getAs<DenseF64ArrayAttr>("weights");
  auto body = dict.getAs<StringAttr>("body");
  if (body) {
    if (pattern || weights)
      return emitError() << "holds a body and a pattern: one or the other";
    if (breaksDescriptionLine(body.getValue()))
      return emitError() << "has a body with a line break or '#'";
    return success();
  }
  if (!pattern || !weights)
    return emitError() << "needs a #stencil.pattern 'pattern' and an "
                          "array<f64> 'weights', or a string 'body'";
  if (weights.size() != int64_t(pattern.getNumPoints()))
    return emitError() << "has " << weights.size() << " weights for "
                       << pattern.getNumPoints() << " pattern points";
  for (double w : weights.asArrayRef())
    if (!std::isfinite(w))
      return emitError() << "has a weight that is not finite (" << w << ")";
  return success();
}

LogicalResult mlir::stencil::verifyLaunchRecord(
    DictionaryAttr record, function_ref<InFlightDiagnostic()> emitError) {
  return RecordChecker(record, emitError).check();
}

LogicalResult mlir::stencil::verifyLaunchRecords(
    Attribute launches, function_ref<InFlightDiagnostic()> emitError) {
  auto array = dyn_cast<ArrayAttr>(launches);
  if (!array)
    return emitError() << "'" << kLaunchesAttrName
                       << "' must be an array of launch records, got "
                       << launches;
  llvm::StringSet<> names;
  for (auto [i, attr] : llvm::enumerate(array)) {
    auto record = dyn_cast<DictionaryAttr>(attr);
    if (!record)
      return emitError() << "'" << kLaunchesAttrName << "' entry #" << i
                         << " must be a dictionary (a launch record), got "
                         << attr;
    if (failed(verifyLaunchRecord(record, emitError)))
      return failure();
    StringRef kernel = record.getAs<StringAttr>("kernel").getValue();
    if (!names.insert(kernel).second)
      return emitError() << "'" << kLaunchesAttrName
                         << "' has two records of kernel '" << kernel << "'";
  }
  return success();
}

LogicalResult mlir::stencil::verifyChoiceAttr(
    Attribute value, function_ref<InFlightDiagnostic()> emitError) {
  auto text = dyn_cast<StringAttr>(value);
  if (!text)
    return emitError() << "must be a string";
  if (text.getValue().find_first_of("\n\r") != StringRef::npos)
    return emitError() << "must be one line (the launch description prints "
                          "it in a comment)";
  return success();
}
