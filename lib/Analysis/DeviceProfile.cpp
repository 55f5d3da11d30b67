//===- DeviceProfile.cpp - Measured peaks of a GPU ------------------------===//

#include "stencil/Analysis/DeviceProfile.h"
#include "stencil/Support/GPUTarget.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/SmallVectorExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"

#include <iterator>

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
/// The figures of one built-in profile but its peaks (kBuiltinPeaks): the
/// keys of the file format, in its order.
struct BuiltinProfile {
  StringRef key;
  StringRef name, chip, source;
  bool calibrated;
  int64_t sms, sharedBytesPerSM, sharedBytesPerBlock, registersPerSM;
  double bandwidthGBs;
};

/// One unit's peak (TFLOP/s) on each built-in, in the order of kBuiltins;
/// 0 where the device has no figure for it (the profile has no such peak).
struct BuiltinPeak {
  StringRef unit;
  double tflops[5];
};
} // namespace

static constexpr BuiltinProfile kBuiltins[] = {
    // H100: stencil-run --roofline --profile-out, NVIDIA H100 80GB HBM3,
    // 2026-11-25 (bench/results/2026-11-25-h100-auto3-profile.txt), the run
    // that calibrated the model (ModelConstants.cpp).
    {"h100", "NVIDIA H100 80GB HBM3", "sm_90",
     "stencil-run --roofline, bench/results/2026-11-25-h100-auto3-profile.txt",
     /*calibrated=*/true, 132, 233472, 232448, 65536, 3011.3},
    // H200: stencil-run --roofline --profile-out, NVIDIA H200, 2026-11-24
    // (bench/results/2026-11-24-h200-roofline.txt).
    {"h200", "NVIDIA H200", "sm_90",
     "stencil-run --roofline, bench/results/2026-11-24-h200-roofline.txt",
     /*calibrated=*/true, 132, 233472, 232448, 65536, 4265.0},
    // A100: NVIDIA's data sheet for the A100 SXM4 80 GB (sparse f16 is twice
    // the dense figure; no m16n8k4 f64 before sm_90). Not measured here.
    {"a100", "NVIDIA A100-SXM4-80GB", "sm_80",
     "NVIDIA A100 data sheet (vendor figures, not measured)",
     /*calibrated=*/false, 108, 167936, 166912, 65536, 2039},
    // B200: NVIDIA's Blackwell data sheet, HGX B200 at 1000 W, per GPU: 8
    // TB/s of HBM3e, 2.25 PFLOP/s dense f16 and bf16 on the Tensor Cores (4.5
    // with 2:4 sparsity), 40 TFLOP/s f64 on the Tensor Cores and on the CUDA
    // cores, 80 TFLOP/s f32; 148 SMs; 228 KiB of shared memory per SM, 227
    // KiB per block (compute capability 10.0). Not measured here: the Tensor
    // Core figures are those of Blackwell's tcgen05 instructions, and the
    // warp-level mma.sync and mma.sp these kernels issue may run well below
    // them. No figure for the f64 m8n8k4 shape (sm_100 takes m16n8k4).
    {"b200", "NVIDIA B200", "sm_100",
     "NVIDIA Blackwell data sheet, HGX B200 (vendor figures, not measured)",
     /*calibrated=*/false, 148, 233472, 232448, 65536, 8000},
    // RTX PRO 6000 Blackwell Workstation Edition (GB202, sm_120): NVIDIA's
    // data sheet and RTX Blackwell architecture figures: 1792 GB/s of GDDR7,
    // 188 SMs at a 2.6 GHz boost, 125 TFLOP/s f32, 503.8 TFLOP/s dense f16
    // and bf16 with f32 accumulation on the Tensor Cores (1007.6 with 2:4
    // sparsity), f64 at 1/64 of the f32 rate; 100 KiB of shared memory per
    // SM, 99 KiB per block (compute capability 12.0). No f64 Tensor Cores, so
    // no mma.f64 peak: the f64 Tensor Core kernels are no candidates on it.
    // Not measured here.
    {"rtx-pro-6000", "NVIDIA RTX PRO 6000 Blackwell Workstation Edition",
     "sm_120",
     "NVIDIA RTX PRO 6000 Blackwell data sheet (vendor figures, not "
     "measured)",
     /*calibrated=*/false, 188, 102400, 101376, 65536, 1792},
};

// clang-format off
static constexpr BuiltinPeak kBuiltinPeaks[] = {
    // unit               h100   h200   a100  b200  rtx-pro-6000
    {"mma.sp.f16",       {949.6, 948.2, 624,  4500, 1007.6}},
    {"mma.f16",          {647.5, 646.3, 312,  2250, 503.8}},
    {"mma.bf16",         {647.4, 646.7, 312,  2250, 503.8}},
    {"mma.f64",          {34.0,  33.2,  19.5, 0,    0}},
    {"mma.f64.m16n8k4",  {67.8,  65.3,  0,    40,   0}},
    {"mma.f64.m16n8k8",  {67.9,  66.4,  0,    40,   0}},
    {"mma.f64.m16n8k16", {68.1,  66.6,  0,    40,   0}},
    {"fma.f32",          {67.5,  66.0,  19.5, 80,   125}},
    {"fma.f64",          {31.2,  30.8,  9.7,  40,   1.97}},
};
// clang-format on

static_assert(std::size(kBuiltins) == std::size(kBuiltinPeaks[0].tflops),
              "a column of peaks per built-in profile");

ArrayRef<StringRef> mlir::stencil::getBuiltinDeviceProfileNames() {
  static const SmallVector<StringRef> names = llvm::map_to_vector(
      kBuiltins, [](const BuiltinProfile &builtin) { return builtin.key; });
  return names;
}

llvm::Expected<DeviceProfile>
mlir::stencil::getBuiltinDeviceProfile(StringRef name) {
  for (auto [index, builtin] : llvm::enumerate(kBuiltins)) {
    if (builtin.key != name.lower())
      continue;
    DeviceProfile profile;
    profile.name = builtin.name.str();
    profile.chip = builtin.chip.str();
    profile.source = builtin.source.str();
    profile.calibrated = builtin.calibrated;
    profile.sms = builtin.sms;
    profile.sharedBytesPerSM = builtin.sharedBytesPerSM;
    profile.sharedBytesPerBlock = builtin.sharedBytesPerBlock;
    profile.registersPerSM = builtin.registersPerSM;
    profile.bandwidthGBs = builtin.bandwidthGBs;
    for (const BuiltinPeak &peak : kBuiltinPeaks)
      if (peak.tflops[index] > 0)
        profile.unitTflops.emplace(peak.unit.str(), peak.tflops[index]);
    return profile;
  }
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
