//===- DeviceProfile.cpp - Measured peaks of a GPU ------------------------===//

#include "stencil/Analysis/DeviceProfile.h"
#include "stencil/Support/GPUTarget.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;
using namespace mlir::stencil;
using llvm::ArrayRef;
using llvm::SmallVector;
using llvm::StringRef;

double DeviceProfile::getUnitTflops(StringRef unit) const {
  auto it = unitTflops.find(unit.str());
  if (it == unitTflops.end() && unit == "wgmma.sp.f16")
    return getUnitTflops("mma.sp.f16");
  if (it == unitTflops.end() && unit == "wgmma.f16")
    return getUnitTflops("mma.f16");
  return it == unitTflops.end() ? 0.0 : it->second;
}

static llvm::Error lineError(unsigned line, const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "device profile line " + llvm::Twine(line) +
                                     ": " + message);
}

llvm::Expected<DeviceProfile>
mlir::stencil::parseDeviceProfile(StringRef text) {
  DeviceProfile profile;
  bool sawVersion = false;
  unsigned lineNo = 0;
  SmallVector<StringRef> lines;
  text.split(lines, '\n');
  for (StringRef line : lines) {
    ++lineNo;
    line = line.split('#').first.trim();
    if (line.empty())
      continue;
    auto [key, value] = line.split('=');
    key = key.trim();
    value = value.trim();
    if (key.empty() || value.empty() || !line.contains('='))
      return lineError(lineNo, "expected 'key = value', got '" + line + "'");
    auto getNumber = [&](double &out) -> llvm::Error {
      if (value.getAsDouble(out) || !(out > 0))
        return lineError(lineNo, "'" + key +
                                     "' needs a positive number, got '" +
                                     value + "'");
      return llvm::Error::success();
    };
    auto getInteger = [&](int64_t &out) -> llvm::Error {
      if (value.getAsInteger(10, out) || out <= 0)
        return lineError(lineNo, "'" + key +
                                     "' needs a positive integer, got '" +
                                     value + "'");
      return llvm::Error::success();
    };
    llvm::Error err = llvm::Error::success();
    if (key == "version") {
      int64_t version = 0;
      err = getInteger(version);
      if (!err && version != 1)
        err = lineError(lineNo, "unsupported version " + value +
                                    " (this compiler reads version 1)");
      sawVersion = true;
    } else if (key == "name") {
      profile.name = value.str();
    } else if (key == "chip") {
      profile.chip = value.str();
    } else if (key == "source") {
      profile.source = value.str();
    } else if (key == "calibrated") {
      if (value != "true" && value != "false")
        err = lineError(lineNo, "'calibrated' needs true or false, got '" +
                                    value + "'");
      profile.calibrated = value == "true";
    } else if (key == "sms") {
      err = getInteger(profile.sms);
    } else if (key == "shared_bytes_per_sm") {
      err = getInteger(profile.sharedBytesPerSM);
    } else if (key == "shared_bytes_per_block") {
      err = getInteger(profile.sharedBytesPerBlock);
    } else if (key == "registers_per_sm") {
      err = getInteger(profile.registersPerSM);
    } else if (key == "bandwidth_gbs") {
      err = getNumber(profile.bandwidthGBs);
    } else if (key.starts_with("peak.")) {
      StringRef unit = key.drop_front(5);
      double tflops = 0;
      err = getNumber(tflops);
      if (!err && !profile.unitTflops.emplace(unit.str(), tflops).second)
        err = lineError(lineNo, "second peak for unit '" + unit + "'");
    } else {
      err = lineError(lineNo, "unknown key '" + key + "'");
    }
    if (err)
      return std::move(err);
  }
  if (!sawVersion)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "device profile: no 'version = 1' line");
  if (!(profile.bandwidthGBs > 0))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "device profile: no 'bandwidth_gbs'");
  if (profile.unitTflops.empty())
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "device profile: no 'peak.<unit>' line (e.g. peak.fma.f32)");
  return profile;
}

void mlir::stencil::printDeviceProfile(const DeviceProfile &profile,
                                       llvm::raw_ostream &os) {
  os << "# stencil device profile v1 (docs/DeviceProfile.md)\n";
  os << "version = 1\n";
  if (!profile.name.empty())
    os << "name = " << profile.name << "\n";
  if (!profile.chip.empty())
    os << "chip = " << profile.chip << "\n";
  if (!profile.source.empty())
    os << "source = " << profile.source << "\n";
  if (!profile.calibrated)
    os << "calibrated = false\n";
  auto printInt = [&](StringRef key, int64_t v) {
    if (v > 0)
      os << key << " = " << v << "\n";
  };
  printInt("sms", profile.sms);
  printInt("shared_bytes_per_sm", profile.sharedBytesPerSM);
  printInt("shared_bytes_per_block", profile.sharedBytesPerBlock);
  printInt("registers_per_sm", profile.registersPerSM);
  os << "bandwidth_gbs = " << llvm::format("%.1f", profile.bandwidthGBs)
     << "\n";
  for (const auto &[unit, tflops] : profile.unitTflops)
    os << "peak." << unit << " = " << llvm::format("%.1f", tflops) << "\n";
}

namespace {
/// One built-in profile: its name and its text in the file format, so the
/// built-ins go through the same parser as a user's file.
struct BuiltinProfile {
  StringRef name;
  StringRef text;
};
} // namespace

// H100: stencil-run --roofline --profile-out, NVIDIA H100 80GB HBM3,
// 2026-11-25 (bench/results/2026-11-25-h100-auto3-profile.txt), the run that
// calibrated the model (ModelConstants.cpp).
static constexpr StringRef kH100 = R"(version = 1
name = NVIDIA H100 80GB HBM3
chip = sm_90
source = stencil-run --roofline, bench/results/2026-11-25-h100-auto3-profile.txt
sms = 132
shared_bytes_per_sm = 233472
shared_bytes_per_block = 232448
registers_per_sm = 65536
bandwidth_gbs = 3011.3
peak.mma.sp.f16 = 949.6
peak.mma.f16 = 647.5
peak.mma.bf16 = 647.4
peak.mma.f64 = 34.0
peak.mma.f64.m16n8k4 = 67.8
peak.mma.f64.m16n8k8 = 67.9
peak.mma.f64.m16n8k16 = 68.1
peak.fma.f32 = 67.5
peak.fma.f64 = 31.2
)";

// H200: stencil-run --roofline --profile-out, NVIDIA H200, 2026-11-24
// (bench/results/2026-11-24-h200-roofline.txt).
static constexpr StringRef kH200 = R"(version = 1
name = NVIDIA H200
chip = sm_90
source = stencil-run --roofline, bench/results/2026-11-24-h200-roofline.txt
sms = 132
shared_bytes_per_sm = 233472
shared_bytes_per_block = 232448
registers_per_sm = 65536
bandwidth_gbs = 4265.0
peak.mma.sp.f16 = 948.2
peak.mma.f16 = 646.3
peak.mma.bf16 = 646.7
peak.mma.f64 = 33.2
peak.mma.f64.m16n8k4 = 65.3
peak.mma.f64.m16n8k8 = 66.4
peak.mma.f64.m16n8k16 = 66.6
peak.fma.f32 = 66.0
peak.fma.f64 = 30.8
)";

// A100: NVIDIA's data sheet for the A100 SXM4 80 GB (sparse f16 is twice the
// dense figure; no m16n8k4 f64 before sm_90). Not measured here.
static constexpr StringRef kA100 = R"(version = 1
name = NVIDIA A100-SXM4-80GB
chip = sm_80
source = NVIDIA A100 data sheet (vendor figures, not measured)
calibrated = false
sms = 108
shared_bytes_per_sm = 167936
shared_bytes_per_block = 166912
registers_per_sm = 65536
bandwidth_gbs = 2039
peak.mma.sp.f16 = 624
peak.mma.f16 = 312
peak.mma.bf16 = 312
peak.mma.f64 = 19.5
peak.fma.f32 = 19.5
peak.fma.f64 = 9.7
)";

// B200: NVIDIA's Blackwell data sheet, HGX B200 at 1000 W, per GPU: 8 TB/s
// of HBM3e, 2.25 PFLOP/s dense f16 and bf16 on the Tensor Cores (4.5 with
// 2:4 sparsity), 40 TFLOP/s f64 on the Tensor Cores and on the CUDA cores,
// 80 TFLOP/s f32; 148 SMs; 228 KiB of shared memory per SM, 227 KiB per
// block (compute capability 10.0). Not measured here: the Tensor Core
// figures are those of Blackwell's tcgen05 instructions, and the warp-level
// mma.sync and mma.sp these kernels issue may run well below them. No
// figure for the f64 m8n8k4 shape (sm_100 takes m16n8k4).
static constexpr StringRef kB200 = R"(version = 1
name = NVIDIA B200
chip = sm_100
source = NVIDIA Blackwell data sheet, HGX B200 (vendor figures, not measured)
calibrated = false
sms = 148
shared_bytes_per_sm = 233472
shared_bytes_per_block = 232448
registers_per_sm = 65536
bandwidth_gbs = 8000
peak.mma.sp.f16 = 4500
peak.mma.f16 = 2250
peak.mma.bf16 = 2250
peak.mma.f64.m16n8k4 = 40
peak.mma.f64.m16n8k8 = 40
peak.mma.f64.m16n8k16 = 40
peak.fma.f32 = 80
peak.fma.f64 = 40
)";

// RTX PRO 6000 Blackwell Workstation Edition (GB202, sm_120): NVIDIA's data
// sheet and RTX Blackwell architecture figures: 1792 GB/s of GDDR7, 188 SMs
// at a 2.6 GHz boost, 125 TFLOP/s f32, 503.8 TFLOP/s dense f16 and bf16
// with f32 accumulation on the Tensor Cores (1007.6 with 2:4 sparsity), f64
// at 1/64 of the f32 rate; 100 KiB of shared memory per SM, 99 KiB per block
// (compute capability 12.0). No f64 Tensor Cores, so no mma.f64 peak: the
// f64 Tensor Core kernels are no candidates on it. Not measured here.
static constexpr StringRef kRtxPro6000 = R"(version = 1
name = NVIDIA RTX PRO 6000 Blackwell Workstation Edition
chip = sm_120
source = NVIDIA RTX PRO 6000 Blackwell data sheet (vendor figures, not measured)
calibrated = false
sms = 188
shared_bytes_per_sm = 102400
shared_bytes_per_block = 101376
registers_per_sm = 65536
bandwidth_gbs = 1792
peak.mma.sp.f16 = 1007.6
peak.mma.f16 = 503.8
peak.mma.bf16 = 503.8
peak.fma.f32 = 125
peak.fma.f64 = 1.97
)";

static constexpr BuiltinProfile kBuiltins[] = {{"h100", kH100},
                                               {"h200", kH200},
                                               {"a100", kA100},
                                               {"b200", kB200},
                                               {"rtx-pro-6000", kRtxPro6000}};

ArrayRef<StringRef> mlir::stencil::getBuiltinDeviceProfileNames() {
  static const StringRef names[] = {"h100", "h200", "a100", "b200",
                                    "rtx-pro-6000"};
  return names;
}

llvm::Expected<DeviceProfile>
mlir::stencil::getBuiltinDeviceProfile(StringRef name) {
  for (const BuiltinProfile &builtin : kBuiltins)
    if (builtin.name == name.lower())
      return parseDeviceProfile(builtin.text);
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      "no built-in device profile '" + name +
          "' (built-in: " + llvm::join(getBuiltinDeviceProfileNames(), ", ") +
          "; or give the path of a profile file)");
}

llvm::Expected<DeviceProfile>
mlir::stencil::lookupDeviceProfile(StringRef spec, StringRef chip) {
  if (spec.empty()) {
    // The generation of the chip: Ampere and Ada, Hopper, the data-center
    // and the workstation Blackwell.
    std::optional<unsigned> sm = getSMVersion(chip);
    if (sm && *sm >= 80 && *sm <= 89)
      return getBuiltinDeviceProfile("a100");
    if (sm == 90u)
      return getBuiltinDeviceProfile("h100");
    if (sm == 100u)
      return getBuiltinDeviceProfile("b200");
    if (sm == 120u)
      return getBuiltinDeviceProfile("rtx-pro-6000");
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "no built-in device profile for chip '" + chip +
            "' (sm_80 to sm_89, sm_90, sm_100, sm_120); give "
            "device-profile=");
  }
  // A name without a path separator or a dot is meant as a built-in.
  if (llvm::is_contained(getBuiltinDeviceProfileNames(), spec.lower()) ||
      (!spec.contains('/') && !spec.contains('.')))
    return getBuiltinDeviceProfile(spec);
  auto buffer = llvm::MemoryBuffer::getFile(spec, /*IsText=*/true);
  if (!buffer)
    return llvm::createStringError(buffer.getError(),
                                   "cannot read device profile '" + spec +
                                       "': " + buffer.getError().message());
  auto profile = parseDeviceProfile((*buffer)->getBuffer());
  if (!profile)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   spec + ": " +
                                       llvm::toString(profile.takeError()));
  return profile;
}
