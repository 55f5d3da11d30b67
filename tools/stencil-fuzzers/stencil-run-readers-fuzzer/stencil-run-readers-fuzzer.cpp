//===- stencil-run-readers-fuzzer.cpp - stencil-run's input readers -------===//
//
// libFuzzer target over stencil-run's readers of untrusted input, host code
// only (no CUDA): the launch description parser (with the general-body
// expression parser), the launch program parser and the .npy reader. The
// first byte selects the reader and the rest of the input is its text:
//
//   first byte even: parseLaunchDescriptionText and parseLaunchProgramText
//                    (the name is "fuzz.launch");
//   first byte odd:  readNpy from an in-memory stream (the name "fuzz.npy").
//
// An empty input does nothing. Nothing is written to files. Rejected inputs
// are fine: the property there is "no crash, no hang, no huge allocation, no
// sanitizer report", which libFuzzer and the sanitizers check. An accepted
// input must also satisfy what stencil-run relies on afterwards, or the
// target aborts:
//
//  * a description: rank 1 to 3, offsets of `rank` components within
//    +-kMaxOffset, one weight per offset (linear) or a body whose accesses
//    are the offsets, `rank` tile sizes; the body is then evaluated, and the
//    CPU reference runs one step on a small grid of each boundary (this
//    exercises the index arithmetic on the accepted offsets); the program
//    reader accepts it too, as a program of one kernel;
//  * a program: each kernel as a description; each launch names a kernel
//    and binds known buffers to exactly its `in` and `out` arguments; the
//    rotated buffers are known;
//  * both: what the writer writes reads back, and writes the same text
//    again;
//  * an array: as many values as the product of its shape, and a dtype of
//    '<f2', '<f4' or '<f8'.
//
//   stencil-run-readers-fuzzer CORPUS test/Fuzz/corpus/run-readers
//
//===----------------------------------------------------------------------===//

#include "HostUtil.h"
#include "LaunchDescription.h"
#include "LaunchProgram.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

using namespace stencil_run;

namespace {

[[noreturn]] void broken(const char *what) {
  std::fprintf(stderr, "stencil-run-readers-fuzzer: broken guarantee: %s\n",
               what);
  std::abort();
}

void checkDescription(const LaunchDescription &desc) {
  if (desc.rank < 1 || desc.rank > 3)
    broken("rank outside 1..3");
  if (desc.offsets.empty())
    broken("no offsets");
  for (const std::vector<int64_t> &o : desc.offsets) {
    if (static_cast<int>(o.size()) != desc.rank)
      broken("an offset without `rank` components");
    for (int64_t c : o)
      if (c < -kMaxOffset || c > kMaxOffset)
        broken("an offset component out of range");
  }
  if (desc.hasBody ? !desc.weights.empty()
                   : desc.weights.size() != desc.offsets.size())
    broken("weights do not match the offsets");
  if (desc.hasBody && desc.body.accesses() != desc.offsets)
    broken("the offsets are not the body's accesses");
  if (static_cast<int>(desc.tile.size()) != desc.rank)
    broken("tile without `rank` sizes");
  for (int64_t t : desc.tile)
    if (t < 1 || t > kMaxTile)
      broken("tile size out of range");
  for (unsigned b : desc.block)
    if (b < 1 || b > 1024)
      broken("block size out of range");
  if (desc.stepsPerLaunch < 1 || desc.stepsPerLaunch > 1024)
    broken("steps_per_launch out of range");

  // What stencil-run does with it on the host, on a 5^rank grid.
  std::vector<double> ones(desc.offsets.size(), 1.0);
  if (desc.hasBody) {
    double bound = 0;
    desc.body.evaluateWithBound(ones.data(), 0.5, 0x1p-11, 0x1p-24, bound);
  }
  ReferenceStencil ref;
  ref.rank = desc.rank;
  ref.dims.assign(desc.rank, 5);
  ref.offsets = desc.offsets;
  ref.weights = desc.weights;
  ref.body = desc.hasBody ? &desc.body : nullptr;
  ref.elementType = desc.elementType;
  ref.dirichletValue = roundTo(desc.elementType, desc.dirichletValue);
  size_t points = desc.rank == 1 ? 5 : desc.rank == 2 ? 25 : 125;
  std::vector<double> input(points, 0.25);
  for (Boundary b : {Boundary::Halo, Boundary::Periodic, Boundary::Dirichlet}) {
    ref.boundary = b;
    double maxAbs = 0, bodyBound = 0;
    BodyRounding rounding{0x1p-11, 0x1p-24};
    std::vector<double> out = runReference(ref, input, 1, /*threads=*/1, maxAbs,
                                           rounding, &bodyBound);
    if (out.size() != points)
      broken("the reference changed the grid's size");
  }
}

/// The program's names resolve: what a runner looks up exists.
void checkProgram(const LaunchProgram &program) {
  if (program.kernels.empty() || program.launches.empty())
    broken("a program without kernels or launches");
  for (const ProgramKernel &kernel : program.kernels) {
    checkDescription(kernel.desc);
    if (kernel.desc.rank != program.rank)
      broken("a kernel of another rank than the program's");
    if (kernel.argNames.size() != kernel.desc.args.size())
      broken("argument names do not match the arguments");
  }
  for (const ProgramLaunch &launch : program.launches) {
    const ProgramKernel *kernel = program.findKernel(launch.kernel);
    if (!kernel)
      broken("a launch of an unknown kernel");
    size_t buffers = 0;
    for (const std::string &role : kernel->desc.args)
      buffers += role == "in" || role == "out";
    if (launch.bindings.size() != buffers)
      broken("a launch that does not bind every buffer argument");
    for (const auto &binding : launch.bindings)
      if (!program.findBuffer(binding.second))
        broken("a launch binds an unknown buffer");
  }
  for (const std::string &name : program.rotate)
    if (!program.findBuffer(name))
      broken("an unknown buffer rotates");
}

/// What the writer writes of `program` reads back, to the same text.
void checkWritesBack(const LaunchProgram &program) {
  std::ostringstream written;
  writeLaunchProgram(program, written);
  LaunchProgram again;
  std::string error;
  std::vector<std::string> warnings;
  if (!parseLaunchProgramText(written.str(), "fuzz.launch", again, error,
                              warnings))
    broken("a written program does not read back");
  std::ostringstream rewritten;
  writeLaunchProgram(again, rewritten);
  if (rewritten.str() != written.str())
    broken("a program read back writes another text");
}

void checkArray(const std::vector<int64_t> &shape,
                const std::vector<double> &values, const std::string &dtype) {
  uint64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0)
      broken("a negative dimension");
    n *= static_cast<uint64_t>(d); // bounded: the values are all present
  }
  if (values.size() != n)
    broken("values do not match the shape");
  if (dtype != "<f2" && dtype != "<f4" && dtype != "<f8")
    broken("an unsupported dtype accepted");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return 0;
  std::string rest(reinterpret_cast<const char *>(data) + 1, size - 1);
  std::string error;
  if (data[0] % 2 == 0) {
    LaunchDescription desc;
    std::vector<std::string> warnings;
    bool isDescription =
        parseLaunchDescriptionText(rest, "fuzz.launch", desc, error, warnings);
    if (isDescription)
      checkDescription(desc);
    LaunchProgram program;
    bool isProgram =
        parseLaunchProgramText(rest, "fuzz.launch", program, error, warnings);
    if (isDescription && (!isProgram || program.version != 1))
      broken("a description that is not a program of one kernel");
    if (isProgram) {
      checkProgram(program);
      checkWritesBack(program);
    }
  } else {
    std::istringstream in(rest);
    std::vector<int64_t> shape;
    std::vector<double> values;
    std::string dtype;
    if (readNpy(in, "fuzz.npy", shape, values, dtype, error))
      checkArray(shape, values, dtype);
  }
  return 0;
}
