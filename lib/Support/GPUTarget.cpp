//===- GPUTarget.cpp - The chip names the GPU pipelines take --------------===//

#include "stencil/Support/GPUTarget.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir::stencil;

std::optional<unsigned> mlir::stencil::getSMVersion(llvm::StringRef chip) {
  if (!chip.consume_front("sm_"))
    return std::nullopt;
  llvm::StringRef digits = chip.take_while(llvm::isDigit);
  llvm::StringRef suffix = chip.drop_front(digits.size());
  unsigned sm = 0;
  if (digits.empty() || digits.getAsInteger(10, sm) ||
      !(suffix.empty() || suffix == "a" || suffix == "f"))
    return std::nullopt;
  return sm;
}

bool mlir::stencil::isArchSpecificChip(llvm::StringRef chip) {
  return getSMVersion(chip) && chip.ends_with("a");
}

bool mlir::stencil::hasWarpgroupMma(llvm::StringRef chip) {
  return isArchSpecificChip(chip) && getSMVersion(chip) == 90u;
}
