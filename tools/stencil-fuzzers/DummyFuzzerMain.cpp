//===- DummyFuzzerMain.cpp - Replay driver for the fuzz targets -----------===//
//
// In a build without libFuzzer (LLVM_USE_SANITIZE_COVERAGE off, e.g. g++),
// the fuzz targets link this main instead: it runs LLVMFuzzerTestOneInput once
// on each file named on the command line, so CI replays the kept corpus
// (test/Fuzz) through exactly the code the fuzzer exercised. As upstream's
// llvm/tools/*-fuzzer/Dummy*FuzzerMain.cpp.
//
//===----------------------------------------------------------------------===//

#include "llvm/FuzzMutate/FuzzerCLI.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char *argv[]) {
  return llvm::runFuzzerOnInputs(argc, argv, LLVMFuzzerTestOneInput);
}
