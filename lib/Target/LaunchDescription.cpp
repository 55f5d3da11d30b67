//===- LaunchDescription.cpp - PTX and launch descriptions ----------------===//
//
// stencil-translate's two outputs of a lowered module: its PTX, and the launch
// description of one kernel, which the runtime's codec (runtime/lib/
// LaunchDescription.h) writes from the kernel's `stencil.launches` record;
// and its check of a description or program, read and written by the codec.
//
//===----------------------------------------------------------------------===//

#include "stencil/Target/LaunchDescription.h"
#include "DescriptionBuilder.h"
#include "LaunchProgram.h" // the runtime's codec (runtime/lib)
#include "stencil/Dialect/Stencil/IR/LaunchRecord.h"
#include "stencil/Dialect/Stencil/IR/StencilDialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinAttributes.h"

#include <sstream>

using namespace mlir;
using namespace mlir::stencil;

LogicalResult mlir::stencil::emitPTX(Operation *module, raw_ostream &os) {
  bool found = false;
  module->walk([&](gpu::BinaryOp binary) {
    for (Attribute attr : binary.getObjects()) {
      auto object = dyn_cast<gpu::ObjectAttr>(attr);
      if (!object || object.getFormat() != gpu::CompilationTarget::Assembly)
        continue;
      os << object.getObject().getValue();
      found = true;
    }
  });
  if (!found)
    return mlir::emitError(getLaunchRecordsLoc(module),
                           "no gpu.binary with PTX (format = isa) in the "
                           "module; lower it with a GPU pipeline first");
  return success();
}

namespace {
/// The kernel's launch record (a `stencil.launches` entry, verified) as the
/// runtime's LaunchDescription, which writes it.
class DescriptionBuilder {
public:
  DescriptionBuilder(Operation *module, DictionaryAttr record)
      : module(module), record(record) {}

  FailureOr<stencil_run::LaunchDescription>
  build(const LaunchDescriptionOptions &options);

private:
  int64_t getInt(StringRef key) {
    auto attr = record.getAs<IntegerAttr>(key);
    return attr ? attr.getInt() : 0;
  }
  StringRef getString(StringRef key) {
    auto attr = record.getAs<StringAttr>(key);
    return attr ? attr.getValue() : StringRef();
  }
  std::vector<int64_t> getArray(StringRef key) {
    auto attr = record.getAs<DenseI64ArrayAttr>(key);
    return attr ? std::vector<int64_t>(attr.asArrayRef().begin(),
                                       attr.asArrayRef().end())
                : std::vector<int64_t>();
  }
  std::optional<double> getFloat(StringRef key) {
    if (auto attr = record.getAs<FloatAttr>(key))
      return attr.getValueAsDouble();
    return std::nullopt;
  }
  /// Threads per block (1 to 3 sizes, the rest 1).
  void getBlock(StringRef key, unsigned (&block)[3]) {
    std::vector<int64_t> sizes = getArray(key);
    for (size_t i = 0; i < sizes.size() && i < 3; ++i)
      block[i] = unsigned(sizes[i]);
  }
  InFlightDiagnostic emitError() {
    return mlir::emitError(getLaunchRecordsLoc(module))
           << "kernel '" << getString("kernel") << "': ";
  }
  void readSource(stencil_run::LaunchDescription &desc);
  LogicalResult readBoundary(stencil_run::LaunchDescription &desc);
  void readFusedSteps(stencil_run::LaunchDescription &desc);
  void readRepack(stencil_run::LaunchDescription &desc);

  Operation *module;
  DictionaryAttr record;
};
} // namespace

void DescriptionBuilder::readSource(stencil_run::LaunchDescription &desc) {
  auto source = record.getAs<DictionaryAttr>("source");
  if (!source)
    return;
  auto pattern = source.getAs<PatternAttr>("pattern");
  auto weights = source.getAs<DenseF64ArrayAttr>("weights");
  if (pattern && weights) {
    for (unsigned i = 0, e = pattern.getNumPoints(); i < e; ++i) {
      ArrayRef<int64_t> point = pattern.getPoint(i);
      desc.offsets.emplace_back(point.begin(), point.end());
    }
    desc.weights.assign(weights.asArrayRef().begin(),
                        weights.asArrayRef().end());
  }
  if (auto body = source.getAs<StringAttr>("body")) {
    desc.hasBody = true;
    desc.bodyText = body.getValue().str();
  }
}

LogicalResult
DescriptionBuilder::readBoundary(stencil_run::LaunchDescription &desc) {
  // The verifier took halo, periodic or dirichlet(v) with a finite v; the
  // runtime reads it the same way.
  StringRef boundary = getString("boundary");
  if (!stencil_run::parseBoundary(boundary.str(), desc.boundary,
                                  desc.dirichletValue))
    return emitError() << "unknown boundary '" << boundary << "'";
  return success();
}

void DescriptionBuilder::readFusedSteps(stencil_run::LaunchDescription &desc) {
  desc.stepsPerLaunch = std::max<int64_t>(1, getInt("steps_per_launch"));
  if (std::optional<double> sum = getFloat("composed_abs_sum")) {
    desc.composedAbsSum = *sum;
    desc.composedPoints = getInt("composed_points");
  }
  desc.bandKernel = getString("band_kernel").str();
  if (!desc.bandKernel.empty()) {
    desc.bandTile = getArray("band_tile");
    desc.bandMargins = getArray("band_margins");
    getBlock("band_block", desc.bandBlock);
  }
  desc.tailKernel = getString("tail_kernel").str();
  if (!desc.tailKernel.empty()) {
    desc.tailSteps = int(getInt("tail_steps"));
    desc.tailTile = getArray("tail_tile");
    getBlock("tail_block", desc.tailBlock);
    desc.tailSharedBytes = unsigned(getInt("tail_shared_bytes"));
  }
}

void DescriptionBuilder::readRepack(stencil_run::LaunchDescription &desc) {
  if (auto words = record.getAs<DenseI32ArrayAttr>("coefficients")) {
    for (int32_t word : words.asArrayRef())
      desc.coefficients.push_back(static_cast<uint32_t>(word));
    desc.hasCoefficients = !desc.coefficients.empty();
  }
  if (auto repack = record.getAs<DictionaryAttr>("repack")) {
    // The verifier took a known kind and type, the sizes and the map.
    RepackRecipe recipe;
    parseRepackKind(repack.getAs<StringAttr>("kind").getValue().str(),
                    recipe.kind);
    parseOperandType(repack.getAs<StringAttr>("type").getValue().str(),
                     recipe.type);
    recipe.numRows = repack.getAs<IntegerAttr>("rows").getInt();
    recipe.rowsPerBlock = repack.getAs<IntegerAttr>("rows_per_block").getInt();
    recipe.radius = repack.getAs<IntegerAttr>("radius").getInt();
    auto map = repack.getAs<DenseI64ArrayAttr>("map");
    if (auto indices = repack.getAs<DenseI8ArrayAttr>("indices"))
      for (int8_t index : indices.asArrayRef())
        recipe.indices.push_back(uint8_t(index));
    recipe.map.assign(map.asArrayRef().begin(), map.asArrayRef().end());
    desc.repack = std::move(recipe);
  } else {
    desc.weightsGlobal = getString("weights_global").str();
    desc.repackUnsupported = getString("repack_unsupported").str();
  }
}

FailureOr<stencil_run::LaunchDescription>
DescriptionBuilder::build(const LaunchDescriptionOptions &options) {
  stencil_run::LaunchDescription desc;
  desc.version = 1;
  desc.kernel = getString("kernel").str();
  desc.ptx = options.ptxFile.empty() ? desc.kernel + ".ptx" : options.ptxFile;
  desc.rank = int(getInt("rank"));
  // The verifier took f16, bf16, f32 or f64.
  stencil_run::parseElemType(getString("element_type").str(), desc.elementType);
  StringRef accumulator = getString("accumulator");
  if (!accumulator.empty())
    stencil_run::parseElemType(accumulator.str(), desc.accumulator);
  else if (desc.elementType == stencil_run::ElemType::F64)
    desc.accumulator = stencil_run::ElemType::F64;
  readSource(desc);
  if (failed(readBoundary(desc)))
    return failure();
  readFusedSteps(desc);
  desc.tile = getArray("tile");
  getBlock("block", desc.block);
  desc.sharedBytes = unsigned(getInt("shared_bytes"));
  desc.unit = getString("unit").str();
  if (!desc.unit.empty())
    desc.unitFlopsPerPoint = getFloat("unit_flops_per_point");
  desc.schedule = getString("schedule").str();
  desc.vectorWidth = int(getInt("vector_width"));
  desc.edgeFlopsPerPoint = getFloat("edge_flops_per_point");
  desc.edgeUnit = getString("edge_unit").str();
  desc.chainAbsSum = getFloat("chain_abs_sum").value_or(0);
  desc.fftErrorBound = getFloat("fft_error_bound").value_or(0);
  readRepack(desc);
  desc.args = {"in", "out", "coeffs", "sizes"};
  return desc;
}

LogicalResult mlir::stencil::buildLaunchDescription(
    Operation *module, const LaunchDescriptionOptions &options,
    stencil_run::LaunchDescription &desc,
    stencil_run::LaunchDescriptionNotes &notes) {
  // 1. Find the kernel's record.
  Attribute launchesAttr = module->getAttr(kLaunchesAttrName);
  if (!launchesAttr)
    return mlir::emitError(getLaunchRecordsLoc(module),
                           "no 'stencil.launches' attribute: the module was "
                           "not lowered by a stencil GPU pipeline");
  // Checked here too: the stencil dialect verifies the records only where it
  // is loaded.
  if (failed(verifyLaunchRecords(launchesAttr, [&] {
        return mlir::emitError(getLaunchRecordsLoc(module));
      })))
    return failure();
  auto launches = cast<ArrayAttr>(launchesAttr);
  if (launches.empty())
    return mlir::emitError(getLaunchRecordsLoc(module),
                           "'stencil.launches' is empty: the module has no "
                           "kernel");
  DictionaryAttr record;
  SmallVector<StringRef> names;
  for (Attribute attr : launches) {
    auto dict = cast<DictionaryAttr>(attr);
    names.push_back(dict.getAs<StringAttr>("kernel").getValue());
    if (options.kernel.empty() ? launches.size() == 1
                               : names.back() == options.kernel)
      record = dict;
  }
  if (!record) {
    InFlightDiagnostic diag = mlir::emitError(getLaunchRecordsLoc(module));
    if (options.kernel.empty())
      diag << "the module has " << names.size()
           << " kernels; choose one with --kernel: ";
    else
      diag << "no kernel named '" << options.kernel << "'; the module has: ";
    llvm::interleaveComma(names, diag);
    return diag;
  }

  // 2. The description and its notes.
  FailureOr<stencil_run::LaunchDescription> built =
      DescriptionBuilder(module, record).build(options);
  if (failed(built))
    return failure();
  desc = std::move(*built);
  notes = stencil_run::LaunchDescriptionNotes();
  if (auto steps = record.getAs<IntegerAttr>("steps"))
    notes.sourceSteps = steps.getInt();
  // What --lower-to-auto chose and assumed (comments: the runner reads
  // neither).
  if (auto pipeline = module->getAttrOfType<StringAttr>(kPipelineAttrName))
    notes.pipeline = pipeline.getValue().str();
  if (auto assumed = module->getAttrOfType<StringAttr>(kDeviceProfileAttrName))
    notes.deviceProfile = assumed.getValue().str();
  return success();
}

std::string
mlir::stencil::writeLaunchDescription(const stencil_run::LaunchDescription &desc,
                                      const stencil_run::LaunchDescriptionNotes &notes) {
  std::ostringstream text;
  stencil_run::writeLaunchDescription(desc, text, notes);
  return text.str();
}

LogicalResult
mlir::stencil::emitLaunchDescription(Operation *module, raw_ostream &os,
                                     const LaunchDescriptionOptions &options) {
  stencil_run::LaunchDescription desc;
  stencil_run::LaunchDescriptionNotes notes;
  if (failed(buildLaunchDescription(module, options, desc, notes)))
    return failure();
  os << writeLaunchDescription(desc, notes);
  return success();
}

LogicalResult mlir::stencil::checkLaunchDescription(StringRef text,
                                                    StringRef path,
                                                    raw_ostream &os,
                                                    raw_ostream &diagnostics) {
  std::string error;
  std::vector<std::string> warnings;
  stencil_run::LaunchProgram program;
  bool ok = text.size() <= stencil_run::kMaxLaunchDescriptionBytes;
  if (!ok)
    error = path.str() + ": larger than " +
            std::to_string(stencil_run::kMaxLaunchDescriptionBytes >> 20) +
            " MiB";
  ok = ok && stencil_run::parseLaunchProgramText(text.str(), path.str(),
                                                 program, error, warnings);
  for (const std::string &warning : warnings)
    diagnostics << "warning: " << warning << "\n";
  if (!ok) {
    diagnostics << "error: " << error << "\n";
    return failure();
  }
  std::ostringstream written;
  stencil_run::writeLaunchProgram(program, written);
  os << written.str();
  return success();
}
