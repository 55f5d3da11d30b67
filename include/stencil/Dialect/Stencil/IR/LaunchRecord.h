//===- LaunchRecord.h - The contract of a kernel's launch record -*- C++
//-*-===//
//
// A GPU pipeline records each kernel it emits in the module's
// `stencil.launches` array: one dictionary per kernel, which
// `stencil-translate --to-launch` prints as a launch description
// (docs/LaunchDescription.md), `--to-c-header` embeds and `--lower-to-auto`
// reads. The records are checked against one contract (the keys, their types
// and ranges) wherever a module is verified, so a record written by hand or
// damaged on the way is a located error, never a crash or a description that
// the runner reads differently.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_DIALECT_STENCIL_IR_LAUNCHRECORD_H
#define STENCIL_DIALECT_STENCIL_IR_LAUNCHRECORD_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"

namespace mlir {
namespace stencil {

/// The module attribute holding the launch records.
inline constexpr llvm::StringLiteral kLaunchesAttrName = "stencil.launches";

/// The module attributes of `--lower-to-auto`'s choice: the chosen pipeline
/// with its options, and what the choice assumed (the device profile, where
/// the occupancy came from). Each is one line of text; the launch
/// description repeats both as comments.
inline constexpr llvm::StringLiteral kPipelineAttrName = "stencil.pipeline";
inline constexpr llvm::StringLiteral kDeviceProfileAttrName =
    "stencil.device_profile";

/// Checks `stencil.pipeline` and `stencil.device_profile`: a string without
/// a line break (the launch description prints it in a comment).
LogicalResult verifyChoiceAttr(Attribute value,
                               function_ref<InFlightDiagnostic()> emitError);

/// Where a translation reports an error about the launch records of a
/// lowered `module`: its file without a line, so that the diagnostic does
/// not quote the module's first line (which holds every record); the
/// module's own location when it has no file.
Location getLaunchRecordsLoc(Operation *module);

/// Checks one launch record: the required keys (`kernel`, `rank`,
/// `element_type`, `boundary`, `tile`, `block`) are present, every key the
/// description prints has its type and range (a rank of 1 to 3, `tile` of
/// `rank` positive sizes, 1 to 3 block sizes of at most 1024 threads in all,
/// the optional groups all or none, finite bounds), the source's weights
/// match its pattern, and no string would break the description's
/// `key = value` lines (a kernel name is a PTX identifier; no string holds a
/// line break or `#`). Unknown keys are accepted.
LogicalResult verifyLaunchRecord(DictionaryAttr record,
                                 function_ref<InFlightDiagnostic()> emitError);

/// Checks the value of `stencil.launches`: an array of launch records, each
/// verified by verifyLaunchRecord, with distinct kernel names.
LogicalResult verifyLaunchRecords(Attribute launches,
                                  function_ref<InFlightDiagnostic()> emitError);

/// Checks the value of `stencil.source`: `{pattern, weights}` with one finite
/// weight per point, or `{body}` (the runner's expression).
LogicalResult verifySourceAttr(Attribute source,
                               function_ref<InFlightDiagnostic()> emitError);

} // namespace stencil
} // namespace mlir

#endif // STENCIL_DIALECT_STENCIL_IR_LAUNCHRECORD_H
