//===- GPUTarget.cpp - The chip names the GPU pipelines take --------------===//

#include "stencil/Support/GPUTarget.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"

using namespace mlir::stencil;
using llvm::ArrayRef;
using llvm::StringRef;

std::optional<unsigned> mlir::stencil::getSMVersion(StringRef chip) {
  if (!chip.consume_front("sm_"))
    return std::nullopt;
  StringRef digits = chip.take_while(llvm::isDigit);
  StringRef suffix = chip.drop_front(digits.size());
  unsigned sm = 0;
  if (digits.empty() || digits.getAsInteger(10, sm) ||
      !(suffix.empty() || suffix == "a" || suffix == "f"))
    return std::nullopt;
  return sm;
}

bool mlir::stencil::isArchSpecificChip(StringRef chip) {
  return getSMVersion(chip) && chip.ends_with("a");
}

bool mlir::stencil::hasWarpgroupMma(StringRef chip) {
  return chipHasInstructions(chip, GPUInstructions::Wgmma);
}

bool mlir::stencil::hasMmaF64M16N8K4(StringRef chip) {
  return isKnownChip(chip) && getSMVersion(chip).value_or(0) >= 90;
}

namespace {
/// One chip of LLVM 22's NVPTX backend and the oldest PTX ISA version whose
/// `.target` takes it there (found with `llc -mcpu=<chip> -mattr=+ptxNN`).
struct ChipInfo {
  StringRef name;
  unsigned minPTX;
};
} // namespace

static constexpr ChipInfo kChips[] = {
    {"sm_20", 32},   {"sm_21", 32},   {"sm_30", 32},   {"sm_32", 40},
    {"sm_35", 32},   {"sm_37", 41},   {"sm_50", 40},   {"sm_52", 41},
    {"sm_53", 42},   {"sm_60", 50},   {"sm_61", 50},   {"sm_62", 50},
    {"sm_70", 60},   {"sm_72", 61},   {"sm_75", 63},   {"sm_80", 70},
    {"sm_86", 71},   {"sm_87", 74},   {"sm_88", 90},   {"sm_89", 78},
    {"sm_90", 78},   {"sm_90a", 80},  {"sm_100", 86},  {"sm_100a", 86},
    {"sm_100f", 88}, {"sm_101", 86},  {"sm_101a", 86}, {"sm_101f", 88},
    {"sm_103", 88},  {"sm_103a", 88}, {"sm_103f", 88}, {"sm_110", 90},
    {"sm_110a", 90}, {"sm_110f", 90}, {"sm_120", 87},  {"sm_120a", 87},
    {"sm_120f", 88}, {"sm_121", 88},  {"sm_121a", 88}, {"sm_121f", 88},
};

/// The `+ptxNN` features of LLVM 22's NVPTX backend.
static constexpr unsigned kPTXVersions[] = {
    32, 40, 41, 42, 43, 50, 60, 61, 62, 63, 64, 65, 70, 71, 72, 73,
    74, 75, 76, 77, 78, 80, 81, 82, 83, 84, 85, 86, 87, 88, 90};

/// The chips diagnostics name, one per generation the pipelines are built
/// for (the others are accepted all the same).
static constexpr StringRef kNamedChips[] = {"sm_70",  "sm_75",   "sm_80",
                                            "sm_86",  "sm_89",   "sm_90",
                                            "sm_90a", "sm_100a", "sm_120"};

ArrayRef<StringRef> mlir::stencil::getKnownChips() {
  static const llvm::SmallVector<StringRef> names = [] {
    llvm::SmallVector<StringRef> names;
    for (const ChipInfo &chip : kChips)
      names.push_back(chip.name);
    return names;
  }();
  return names;
}

static const ChipInfo *lookupChip(StringRef chip) {
  for (const ChipInfo &info : kChips)
    if (info.name == chip)
      return &info;
  return nullptr;
}

bool mlir::stencil::isKnownChip(StringRef chip) {
  return lookupChip(chip) != nullptr;
}

std::optional<unsigned> mlir::stencil::getMinPTXVersion(StringRef chip) {
  if (const ChipInfo *info = lookupChip(chip))
    return info->minPTX;
  return std::nullopt;
}

bool mlir::stencil::isKnownPTXVersion(unsigned version) {
  return llvm::is_contained(kPTXVersions, version);
}

std::string mlir::stencil::formatPTXVersion(unsigned version) {
  return (llvm::Twine(version / 10) + "." + llvm::Twine(version % 10)).str();
}

std::string mlir::stencil::getPTXFeature(unsigned version) {
  return ("+ptx" + llvm::Twine(version)).str();
}

std::optional<unsigned> mlir::stencil::parsePTXFeatures(StringRef features,
                                                        std::string &error) {
  StringRef digits = features.trim();
  unsigned version = 0;
  if (digits.consume_front("+ptx") && !digits.empty() &&
      llvm::all_of(digits, llvm::isDigit) &&
      !digits.getAsInteger(10, version) && isKnownPTXVersion(version))
    return version;
  error = ("features='" + features +
           "' is not a PTX ISA version LLVM emits: give one +ptxNN, +ptx" +
           llvm::Twine(kPTXVersions[0]) + " to " +
           getPTXFeature(kMaxPTXVersion) + " (+ptx85 is PTX 8.5)")
              .str();
  return std::nullopt;
}

const GPUInstructionNeeds &
mlir::stencil::getInstructionNeeds(GPUInstructions instructions) {
  static const GPUInstructionNeeds kFma = {
      "the CUDA-core kernels' instructions", 70, 60, false};
  static const GPUInstructionNeeds kCpAsync = {"cp.async", 80, 70, false};
  static const GPUInstructionNeeds kMma = {"the Tensor Cores' mma.sync", 80, 70,
                                           false};
  static const GPUInstructionNeeds kMmaSp = {"the sparse Tensor Cores' mma.sp",
                                             80, 71, false};
  static const GPUInstructionNeeds kOrdered = {"mma.sp::ordered_metadata", 80,
                                               85, false};
  static const GPUInstructionNeeds kWgmma = {"Hopper's warpgroup "
                                             "wgmma.mma_async",
                                             90, 80, true};
  switch (instructions) {
  case GPUInstructions::Fma:
    return kFma;
  case GPUInstructions::CpAsync:
    return kCpAsync;
  case GPUInstructions::Mma:
    return kMma;
  case GPUInstructions::MmaSp:
    return kMmaSp;
  case GPUInstructions::MmaSpOrderedMetadata:
    return kOrdered;
  case GPUInstructions::Wgmma:
    return kWgmma;
  }
  llvm_unreachable("unknown GPUInstructions");
}

static constexpr std::pair<GPUInstructions, StringRef> kInstructionNames[] = {
    {GPUInstructions::Fma, "fma"},
    {GPUInstructions::CpAsync, "cp.async"},
    {GPUInstructions::Mma, "mma"},
    {GPUInstructions::MmaSp, "mma.sp"},
    {GPUInstructions::MmaSpOrderedMetadata, "mma.sp.ordered"},
    {GPUInstructions::Wgmma, "wgmma"},
};

StringRef mlir::stencil::getInstructionsName(GPUInstructions instructions) {
  for (auto [value, name] : kInstructionNames)
    if (value == instructions)
      return name;
  llvm_unreachable("unknown GPUInstructions");
}

std::optional<GPUInstructions>
mlir::stencil::parseInstructionsName(StringRef name) {
  for (auto [value, known] : kInstructionNames)
    if (known == name)
      return value;
  return std::nullopt;
}

/// Whether the known chip `chip` is sm_`minSM` or later (only the
/// architecture-specific sm_`minSM`a with `archSpecificOnly`).
static bool chipMeets(StringRef chip, unsigned minSM, bool archSpecificOnly) {
  if (!isKnownChip(chip))
    return false;
  unsigned sm = *getSMVersion(chip);
  if (archSpecificOnly)
    return sm == minSM && isArchSpecificChip(chip);
  return sm >= minSM;
}

bool mlir::stencil::chipHasInstructions(StringRef chip,
                                        GPUInstructions instructions) {
  const GPUInstructionNeeds &needs = getInstructionNeeds(instructions);
  return chipMeets(chip, needs.minSM, needs.archSpecificOnly);
}

static std::string describeChips(unsigned minSM, bool archSpecificOnly) {
  if (archSpecificOnly)
    return ("sm_" + llvm::Twine(minSM) + "a only").str();
  std::string text = ("sm_" + llvm::Twine(minSM) + " or later:").str();
  llvm::ListSeparator sep(",");
  for (StringRef chip : kNamedChips)
    if (chipMeets(chip, minSM, false))
      text += (llvm::Twine(StringRef(sep)) + " " + chip).str();
  return text + ", ...";
}

std::string mlir::stencil::describeChipsWith(GPUInstructions instructions) {
  const GPUInstructionNeeds &needs = getInstructionNeeds(instructions);
  return describeChips(needs.minSM, needs.archSpecificOnly);
}

/// The chips that have all of `instructions`, as diagnostics list them.
static std::string describeChipsWithAll(ArrayRef<GPUInstructions> all) {
  unsigned minSM = 0;
  bool archSpecificOnly = false;
  for (GPUInstructions instructions : all) {
    const GPUInstructionNeeds &needs = getInstructionNeeds(instructions);
    minSM = std::max(minSM, needs.minSM);
    archSpecificOnly |= needs.archSpecificOnly;
  }
  return describeChips(minSM ? minSM
                             : getInstructionNeeds(GPUInstructions::Fma).minSM,
                       archSpecificOnly);
}

unsigned
mlir::stencil::getRequiredPTXVersion(StringRef chip,
                                     ArrayRef<GPUInstructions> instructions) {
  unsigned version = getMinPTXVersion(chip).value_or(0);
  for (GPUInstructions i : instructions)
    version = std::max(version, getInstructionNeeds(i).minPTX);
  return version;
}

std::string mlir::stencil::getPTXFeatures(StringRef chip, StringRef features,
                                          ArrayRef<GPUInstructions> instrs) {
  if (!features.empty())
    return features.str();
  unsigned version = getRequiredPTXVersion(chip, instrs);
  return version ? getPTXFeature(version) : std::string();
}

/// checkGPUChip against the chips that have `instructions`.
static std::string checkChip(StringRef pipeline, StringRef chip,
                             ArrayRef<GPUInstructions> instructions) {
  std::string takes = describeChipsWithAll(instructions);
  if (chip.contains(',') || chip.contains('=') || chip.contains(' '))
    return (pipeline + ": chip='" + chip +
            "' is not a chip name: a pipeline's options are separated by "
            "spaces, not commas (" +
            pipeline + "=\"chip=" + llvm::join(llvm::split(chip, ','), " ") +
            "\")")
        .str();
  if (chip.empty())
    return (pipeline + " needs a chip (" + takes + "); got an empty chip=")
        .str();
  if (!isKnownChip(chip))
    return (pipeline + ": '" + chip +
            "' is not a chip LLVM's NVPTX backend knows (" + pipeline +
            " takes " + takes + ")")
        .str();
  return "";
}

std::string mlir::stencil::checkGPUChip(StringRef pipeline, StringRef chip) {
  return checkChip(pipeline, chip, {});
}

std::string mlir::stencil::checkGPUTarget(StringRef pipeline, StringRef chip,
                                          StringRef features,
                                          ArrayRef<GPUInstructions> instrs) {
  std::string error = checkChip(pipeline, chip, instrs);
  if (!error.empty())
    return error;
  // The chip has every family of instructions.
  for (GPUInstructions i : instrs) {
    if (chipHasInstructions(chip, i))
      continue;
    return (pipeline + " needs a chip with " +
            getInstructionNeeds(i).description + " (" + describeChipsWith(i) +
            "); got '" + chip + "'")
        .str();
  }
  if (features.empty())
    return "";
  // An explicit PTX ISA version is no older than the chip's and the
  // instructions'.
  if (features.contains('=') || features.contains(' '))
    return (pipeline + ": features='" + features +
            "' is not a PTX ISA version: a pipeline's options are separated "
            "by spaces, not commas")
        .str();
  std::optional<unsigned> version = parsePTXFeatures(features, error);
  if (!version)
    return (pipeline + ": " + error + ", or leave features out for " +
            getPTXFeature(getRequiredPTXVersion(chip, instrs)) +
            ", what chip=" + chip + " and the kernels need")
        .str();
  auto tooOld = [&](const llvm::Twine &what, unsigned needed) {
    return (pipeline + ": features=" + features + " (PTX " +
            formatPTXVersion(*version) + ") is older than " + what +
            " needs (PTX " + formatPTXVersion(needed) + ", " +
            getPTXFeature(needed) + "); leave features out for " +
            getPTXFeature(getRequiredPTXVersion(chip, instrs)))
        .str();
  };
  if (unsigned needed = *getMinPTXVersion(chip); *version < needed)
    return tooOld("chip=" + chip, needed);
  for (GPUInstructions i : instrs)
    if (unsigned needed = getInstructionNeeds(i).minPTX; *version < needed)
      return tooOld(getInstructionNeeds(i).description, needed);
  return "";
}

std::string mlir::stencil::checkLLVMOptLevel(int optLevel) {
  if (optLevel >= -1 && optLevel <= 3)
    return "";
  return "opt-level must be 0 to 3, or -1 (by kernel: 3, or the level the "
         "kernel's conversion asks); got " +
         std::to_string(optLevel);
}
