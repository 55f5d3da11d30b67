//===- DeviceProfile.h - Measured peaks of a GPU ----------------*- C++ -*-===//
//
// What the performance model (CostModel.h) needs to know about a GPU: its
// memory bandwidth and the peak of every arithmetic unit the kernels use,
// as `stencil-run --roofline --profile-out FILE` measures them, plus the
// on-chip limits. The file format (docs/DeviceProfile.md) is `key = value`
// lines:
//
//   # stencil device profile v1
//   version = 1
//   name = NVIDIA H100 80GB HBM3
//   chip = sm_90
//   source = stencil-run --roofline, 2026-11-22
//   calibrated = true            (false: published figures, not measured)
//   sms = 132
//   shared_bytes_per_sm = 233472
//   shared_bytes_per_block = 232448
//   registers_per_sm = 65536
//   bandwidth_gbs = 3015.6
//   peak.mma.sp.f16 = 964.6      (TFLOP/s; mma.sp dense-equivalent)
//   peak.fma.f64 = 31.5
//
// The unit names are those of the launch records (`unit`: mma.sp.f16,
// mma.f16, mma.bf16, mma.f64, mma.f64.m16n8k4, fma.f32, fma.f64).
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_ANALYSIS_DEVICEPROFILE_H
#define STENCIL_ANALYSIS_DEVICEPROFILE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <string>

namespace mlir {
namespace stencil {

/// The peaks and limits of one GPU.
struct DeviceProfile {
  /// The device's name (as the driver reports it) and its chip (sm_XX).
  std::string name;
  std::string chip;
  /// Where the figures come from (a run, or vendor figures).
  std::string source;
  /// Whether the figures were measured on the device (stencil-run
  /// --roofline); false (`calibrated = false`) for published figures, whose
  /// predictions `--lower-to-auto` marks as not calibrated.
  bool calibrated = true;
  int64_t sms = 0;
  int64_t sharedBytesPerSM = 0;
  int64_t sharedBytesPerBlock = 0;
  int64_t registersPerSM = 0;
  /// Device memory bandwidth (read + write bytes), GB/s.
  double bandwidthGBs = 0;
  /// Peak of each arithmetic unit, TFLOP/s (dense-equivalent for mma.sp).
  std::map<std::string, double> unitTflops;

  /// The peak of `unit` in TFLOP/s; 0 when the profile has none. A profile
  /// without `peak.wgmma.sp.f16` (stencil-run --roofline does not measure
  /// the warpgroup instruction yet) gives it the warp-level
  /// `peak.mma.sp.f16`: the same Sparse Tensor Cores, a lower bound; and
  /// `wgmma.f16` (dense) that of `mma.f16`.
  double getUnitTflops(llvm::StringRef unit) const;
};

/// Parses a profile (the format above). Unknown keys are errors, so a typo
/// does not silently leave a peak at zero; the error names the line.
llvm::Expected<DeviceProfile> parseDeviceProfile(llvm::StringRef text);

/// Writes `profile` in the format parseDeviceProfile reads.
void printDeviceProfile(const DeviceProfile &profile, llvm::raw_ostream &os);

/// The built-in profiles: "h100" and "h200" (measured with stencil-run
/// --roofline on this project's GPU machines), and "a100" (sm_80), "b200"
/// (sm_100) and "rtx-pro-6000" (sm_120) from NVIDIA's published figures,
/// not calibrated.
llvm::ArrayRef<llvm::StringRef> getBuiltinDeviceProfileNames();

/// The built-in profile `name`, or an error listing the names.
llvm::Expected<DeviceProfile> getBuiltinDeviceProfile(llvm::StringRef name);

/// The profile a `device-profile=` option names: a built-in name or the path
/// of a profile file; empty: the built-in profile of `chip` (sm_80 to sm_89:
/// a100, sm_90: h100, sm_100: b200, sm_120: rtx-pro-6000).
llvm::Expected<DeviceProfile> lookupDeviceProfile(llvm::StringRef spec,
                                                  llvm::StringRef chip);

} // namespace stencil
} // namespace mlir

#endif // STENCIL_ANALYSIS_DEVICEPROFILE_H
