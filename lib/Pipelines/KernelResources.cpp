//===- KernelResources.cpp - ptxas's registers and shared memory ----------===//

#include "stencil/Pipelines/KernelResources.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace mlir;
using namespace mlir::stencil;

std::optional<std::string> mlir::stencil::findPtxas(StringRef setting) {
  if (setting == "none")
    return std::nullopt;
  if (!setting.empty() && setting != "auto") {
    if (llvm::sys::fs::can_execute(setting))
      return setting.str();
    return std::nullopt;
  }
  // The assembler of the CUDA toolkit CMake found when the compiler was
  // built, never one found through PATH: the choice must not change with
  // the environment of the compiling process.
  StringRef built = getBuildPtxas();
  if (!built.empty() && llvm::sys::fs::can_execute(built))
    return built.str();
  return std::nullopt;
}

StringRef mlir::stencil::getBuildPtxas() {
#ifdef STENCIL_BUILD_PTXAS
  return STENCIL_BUILD_PTXAS;
#else
  return "";
#endif
}

llvm::StringMap<KernelResources> mlir::stencil::parsePtxasInfo(StringRef log) {
  llvm::StringMap<KernelResources> result;
  llvm::Regex entry("Compiling entry function '([^']+)'");
  llvm::Regex used("Used ([0-9]+) registers");
  llvm::Regex smem("([0-9]+) bytes smem");
  llvm::Regex spill("([0-9]+) bytes spill stores");
  KernelResources *current = nullptr;
  SmallVector<StringRef> lines;
  log.split(lines, '\n');
  for (StringRef line : lines) {
    SmallVector<StringRef> m;
    if (entry.match(line, &m)) {
      current = &result[m[1]];
      continue;
    }
    if (!current)
      continue;
    if (used.match(line, &m))
      m[1].getAsInteger(10, current->registers);
    if (smem.match(line, &m))
      m[1].getAsInteger(10, current->staticSharedBytes);
    if (spill.match(line, &m))
      m[1].getAsInteger(10, current->spillStoreBytes);
  }
  return result;
}

FailureOr<llvm::StringMap<KernelResources>>
mlir::stencil::getKernelResources(ModuleOp module, StringRef ptxas,
                                  StringRef chip, std::string &error) {
  std::string ptx;
  module.walk([&](gpu::BinaryOp binary) {
    for (Attribute attr : binary.getObjects())
      if (auto object = dyn_cast<gpu::ObjectAttr>(attr))
        if (object.getFormat() == gpu::CompilationTarget::Assembly)
          ptx += object.getObject().getValue();
  });
  if (ptx.empty()) {
    error = "no PTX in the lowered module";
    return failure();
  }
  SmallString<128> input, log;
  int fd;
  if (llvm::sys::fs::createTemporaryFile("stencil-select", "ptx", fd, input) ||
      llvm::sys::fs::createTemporaryFile("stencil-select", "log", log)) {
    error = "cannot create a temporary file for ptxas";
    return failure();
  }
  llvm::FileRemover removeInput(input), removeLog(log);
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << ptx;
  }
  std::string arch = ("-arch=" + chip).str();
  SmallVector<StringRef> args = {ptxas, arch, "-v", input, "-o", "/dev/null"};
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(log),
                                          StringRef(log)};
  std::string message;
  int rc = llvm::sys::ExecuteAndWait(ptxas, args, /*Env=*/std::nullopt,
                                     redirects, /*SecondsToWait=*/0,
                                     /*MemoryLimit=*/0, &message);
  auto buffer = llvm::MemoryBuffer::getFile(log);
  if (rc != 0) {
    error = (ptxas + " failed" + (message.empty() ? "" : ": " + message) +
             (buffer ? ": " + (*buffer)->getBuffer().trim().str() : ""))
                .str();
    return failure();
  }
  if (!buffer) {
    error = "cannot read the output of " + ptxas.str();
    return failure();
  }
  return parsePtxasInfo((*buffer)->getBuffer());
}

/// The 32-bit registers a value of `type` takes at least (0: a predicate,
/// or a type that need not live in a register).
static int64_t getMinRegisters(Type type) {
  int64_t bits = 0;
  if (auto vector = dyn_cast<VectorType>(type)) {
    Type element = vector.getElementType();
    if (vector.isScalable() || !element.isIntOrFloat())
      return 0;
    bits = vector.getNumElements() * element.getIntOrFloatBitWidth();
  } else if (type.isIntOrFloat()) {
    bits = type.getIntOrFloatBitWidth();
  } else if (type.isIndex()) {
    bits = 32;
  }
  return bits <= 1 ? 0 : (bits + 31) / 32;
}

llvm::StringMap<int64_t>
mlir::stencil::getLoopLiveInRegisters(ModuleOp module) {
  llvm::StringMap<int64_t> registers;
  module.walk([&](gpu::GPUFuncOp kernel) {
    if (!kernel.isKernel() || kernel.getBody().empty())
      return;
    Block *entry = &kernel.getBody().front();
    int64_t most = 0;
    kernel.walk([&](LoopLikeOpInterface loop) {
      llvm::SetVector<Value> above;
      getUsedValuesDefinedAbove(loop->getRegions(), above);
      int64_t count = 0;
      for (Value value : above) {
        if (auto argument = dyn_cast<BlockArgument>(value))
          if (argument.getOwner() == entry)
            continue;
        if (matchPattern(value, m_Constant()))
          continue;
        count += getMinRegisters(value.getType());
      }
      most = std::max(most, count);
    });
    registers[kernel.getName()] = most;
  });
  return registers;
}
