//===- LaunchDescription.cpp - PTX and launch descriptions ----------------===//

#include "stencil/Target/LaunchDescription.h"
#include "stencil/Dialect/Stencil/IR/LaunchRecord.h"
#include "stencil/Dialect/Stencil/IR/StencilDialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/Support/Format.h"

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

/// Prints `values` separated by `sep`.
template <typename Range, typename Fn>
static void printList(raw_ostream &os, const Range &values, StringRef sep,
                      Fn print) {
  bool first = true;
  for (const auto &v : values) {
    if (!first)
      os << sep;
    first = false;
    print(v);
  }
}

LogicalResult
mlir::stencil::emitLaunchDescription(Operation *module, raw_ostream &os,
                                     const LaunchDescriptionOptions &options) {
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

  auto getInt = [&](StringRef key) {
    auto attr = record.getAs<IntegerAttr>(key);
    return attr ? attr.getInt() : 0;
  };
  auto getString = [&](StringRef key) {
    auto attr = record.getAs<StringAttr>(key);
    return attr ? attr.getValue() : StringRef();
  };
  auto getArray = [&](StringRef key) {
    auto attr = record.getAs<DenseI64ArrayAttr>(key);
    return attr ? attr.asArrayRef() : ArrayRef<int64_t>();
  };
  StringRef kernel = getString("kernel");

  // 2. The description.
  os << "# stencil launch description v1, written by stencil-translate\n";
  os << "version = 1\n";
  os << "kernel = " << kernel << "\n";
  os << "ptx = "
     << (options.ptxFile.empty() ? (kernel + ".ptx").str() : options.ptxFile)
     << "\n";
  os << "rank = " << getInt("rank") << "\n";
  os << "element_type = " << getString("element_type") << "\n";
  os << "accumulator = " << getString("accumulator") << "\n";
  if (auto source = record.getAs<DictionaryAttr>("source")) {
    auto pattern = source.getAs<PatternAttr>("pattern");
    auto weights = source.getAs<DenseF64ArrayAttr>("weights");
    if (pattern && weights) {
      os << "offsets = ";
      printList(os, llvm::seq<unsigned>(0, pattern.getNumPoints()), ";",
                [&](unsigned i) {
                  printList(os, pattern.getPoint(i), ",",
                            [&](int64_t c) { os << c; });
                });
      os << "\nweights = ";
      printList(os, weights.asArrayRef(), ",",
                [&](double w) { os << llvm::format("%.17g", w); });
      os << "\n";
    }
    if (auto body = source.getAs<StringAttr>("body"))
      os << "body = " << body.getValue() << "\n";
  }
  os << "boundary = " << getString("boundary") << "\n";
  os << "# time steps in the source op: " << getInt("steps") << "\n";
  if (int64_t fused = getInt("steps_per_launch"); fused > 1)
    os << "steps_per_launch = " << fused << "\n";
  if (auto composed = record.getAs<FloatAttr>("composed_abs_sum"))
    os << "composed_abs_sum = "
       << llvm::format("%.17g", composed.getValueAsDouble())
       << "\ncomposed_points = " << getInt("composed_points") << "\n";
  if (auto band = record.getAs<StringAttr>("band_kernel")) {
    os << "band_kernel = " << band.getValue() << "\nband_tile = ";
    printList(os, getArray("band_tile"), ",", [&](int64_t v) { os << v; });
    os << "\nband_block = ";
    printList(os, getArray("band_block"), ",", [&](int64_t v) { os << v; });
    os << "\nband_margins = ";
    printList(os, getArray("band_margins"), ",", [&](int64_t v) { os << v; });
    os << "\n";
  }
  if (auto tail = record.getAs<StringAttr>("tail_kernel")) {
    os << "tail_kernel = " << tail.getValue()
       << "\ntail_steps = " << getInt("tail_steps") << "\ntail_tile = ";
    printList(os, getArray("tail_tile"), ",", [&](int64_t v) { os << v; });
    os << "\ntail_block = ";
    printList(os, getArray("tail_block"), ",", [&](int64_t v) { os << v; });
    os << "\ntail_shared_bytes = " << getInt("tail_shared_bytes") << "\n";
  }
  os << "tile = ";
  printList(os, getArray("tile"), ",", [&](int64_t v) { os << v; });
  os << "\nblock = ";
  printList(os, getArray("block"), ",", [&](int64_t v) { os << v; });
  os << "\nshared_bytes = " << getInt("shared_bytes") << "\n";
  if (auto unit = record.getAs<StringAttr>("unit")) {
    os << "unit = " << unit.getValue() << "\n";
    if (auto flops = record.getAs<FloatAttr>("unit_flops_per_point"))
      os << "unit_flops_per_point = "
         << llvm::format("%.17g", flops.getValueAsDouble()) << "\n";
  }
  if (auto schedule = record.getAs<StringAttr>("schedule"))
    os << "schedule = " << schedule.getValue() << "\n";
  if (auto width = record.getAs<IntegerAttr>("vector_width"))
    os << "vector_width = " << width.getInt() << "\n";
  if (auto edge = record.getAs<FloatAttr>("edge_flops_per_point"))
    os << "edge_unit = " << getString("edge_unit")
       << "\nedge_flops_per_point = "
       << llvm::format("%.17g", edge.getValueAsDouble()) << "\n";
  if (auto chain = record.getAs<FloatAttr>("chain_abs_sum"))
    os << "chain_abs_sum = "
       << llvm::format("%.17g", chain.getValueAsDouble()) << "\n";
  if (auto bound = record.getAs<FloatAttr>("fft_error_bound"))
    os << "fft_error_bound = "
       << llvm::format("%.17g", bound.getValueAsDouble()) << "\n";
  if (auto words = record.getAs<DenseI32ArrayAttr>("coefficients")) {
    os << "coefficients = ";
    printList(os, words.asArrayRef(), ",", [&](int32_t w) {
      os << llvm::format("%08x", static_cast<uint32_t>(w));
    });
    os << "\n";
  }
  if (auto repack = record.getAs<DictionaryAttr>("repack")) {
    auto kind = repack.getAs<StringAttr>("kind");
    auto type = repack.getAs<StringAttr>("type");
    auto map = repack.getAs<DenseI64ArrayAttr>("map");
    if (!kind || !type || !map)
      return mlir::emitError(getLaunchRecordsLoc(module),
                             "malformed 'repack' entry of kernel '")
             << record.getAs<StringAttr>("kernel").getValue() << "'";
    os << "repack = " << kind.getValue() << "\n";
    os << "repack_type = " << type.getValue() << "\n";
    for (StringRef key : {"rows", "rows_per_block", "radius"})
      if (auto value = repack.getAs<IntegerAttr>(key))
        os << "repack_" << key << " = " << value.getInt() << "\n";
    if (auto indices = repack.getAs<DenseI8ArrayAttr>("indices")) {
      // One digit (0..3) per slot.
      os << "repack_indices = ";
      for (int8_t index : indices.asArrayRef())
        os << char('0' + index);
      os << "\n";
    }
    os << "repack_map = ";
    printList(os, map.asArrayRef(), ",", [&](int64_t j) { os << j; });
    os << "\n";
  } else if (auto global = record.getAs<StringAttr>("weights_global")) {
    os << "weights_global = " << global.getValue() << "\n";
  } else if (auto why = record.getAs<StringAttr>("repack_unsupported")) {
    os << "repack_unsupported = " << why.getValue() << "\n";
  }
  os << "args = in,out,coeffs,sizes\n";
  // What --lower-to-auto chose and assumed (comments: the runner reads
  // neither).
  if (auto pipeline = module->getAttrOfType<StringAttr>(kPipelineAttrName))
    os << "# pipeline: " << pipeline.getValue() << "\n";
  if (auto assumed = module->getAttrOfType<StringAttr>(kDeviceProfileAttrName))
    os << "# chosen by --lower-to-auto for the device profile "
       << assumed.getValue() << "\n";
  return success();
}
