//===- LaunchDescriptionWriter.cpp - write a launch description -----------===//
//
// The writer half of the launch description codec (LaunchDescription.h,
// LaunchProgram.h): the key order and number formats that the compiler has
// always written, so that descriptions stay byte-identical; a program writes
// each kernel's keys in the same order in its `[kernel NAME]` section.
//
//===----------------------------------------------------------------------===//

#include "LaunchDescription.h"
#include "LaunchProgram.h"

#include <cstdio>
#include <ostream>

namespace stencil_run {

namespace {

/// `v` with 17 significant digits: every double reads back exactly.
std::string formatExact(double v) {
  char text[40];
  std::snprintf(text, sizeof(text), "%.17g", v);
  return text;
}

template <typename T>
void printList(std::ostream &os, const std::vector<T> &values) {
  for (size_t i = 0; i < values.size(); ++i)
    os << (i ? "," : "") << values[i];
}

void printBlock(std::ostream &os, const unsigned (&block)[3]) {
  os << block[0] << "," << block[1] << "," << block[2];
}

void writePattern(const LaunchDescription &desc, std::ostream &os) {
  if (desc.hasBody) {
    os << "body = " << desc.bodyText << "\n";
    return;
  }
  if (desc.offsets.empty())
    return;
  os << "offsets = ";
  for (size_t i = 0; i < desc.offsets.size(); ++i) {
    os << (i ? ";" : "");
    printList(os, desc.offsets[i]);
  }
  os << "\nweights = ";
  for (size_t i = 0; i < desc.weights.size(); ++i)
    os << (i ? "," : "") << formatExact(desc.weights[i]);
  os << "\n";
}

/// The fused steps' companions: the composed weights, the band kernel and
/// the tail kernel.
void writeFusedSteps(const LaunchDescription &desc, std::ostream &os) {
  if (desc.stepsPerLaunch > 1)
    os << "steps_per_launch = " << desc.stepsPerLaunch << "\n";
  if (desc.composedPoints > 0)
    os << "composed_abs_sum = " << formatExact(desc.composedAbsSum)
       << "\ncomposed_points = " << desc.composedPoints << "\n";
  if (!desc.bandKernel.empty()) {
    os << "band_kernel = " << desc.bandKernel << "\nband_tile = ";
    printList(os, desc.bandTile);
    os << "\nband_block = ";
    printBlock(os, desc.bandBlock);
    os << "\nband_margins = ";
    printList(os, desc.bandMargins);
    os << "\n";
  }
  if (!desc.tailKernel.empty()) {
    os << "tail_kernel = " << desc.tailKernel
       << "\ntail_steps = " << desc.tailSteps << "\ntail_tile = ";
    printList(os, desc.tailTile);
    os << "\ntail_block = ";
    printBlock(os, desc.tailBlock);
    os << "\ntail_shared_bytes = " << desc.tailSharedBytes << "\n";
  }
}

/// What the benchmark scripts and the runner's tolerance read.
void writeCostKeys(const LaunchDescription &desc, std::ostream &os) {
  if (!desc.unit.empty()) {
    os << "unit = " << desc.unit << "\n";
    if (desc.unitFlopsPerPoint)
      os << "unit_flops_per_point = " << formatExact(*desc.unitFlopsPerPoint)
         << "\n";
  }
  if (!desc.schedule.empty())
    os << "schedule = " << desc.schedule << "\n";
  if (desc.vectorWidth > 0)
    os << "vector_width = " << desc.vectorWidth << "\n";
  if (desc.edgeFlopsPerPoint)
    os << "edge_unit = " << desc.edgeUnit
       << "\nedge_flops_per_point = " << formatExact(*desc.edgeFlopsPerPoint)
       << "\n";
  if (desc.chainAbsSum > 0)
    os << "chain_abs_sum = " << formatExact(desc.chainAbsSum) << "\n";
  if (desc.fftErrorBound > 0)
    os << "fft_error_bound = " << formatExact(desc.fftErrorBound) << "\n";
}

/// The packed coefficients and how new weights are packed.
void writeCoefficients(const LaunchDescription &desc, std::ostream &os) {
  if (!desc.coefficients.empty()) {
    os << "coefficients = ";
    char word[12];
    for (size_t i = 0; i < desc.coefficients.size(); ++i) {
      std::snprintf(word, sizeof(word), "%08x",
                    static_cast<unsigned>(desc.coefficients[i]));
      os << (i ? "," : "") << word;
    }
    os << "\n";
  }
  if (desc.repack) {
    using namespace mlir::stencil;
    const RepackRecipe &recipe = *desc.repack;
    os << "repack = " << getRepackKindName(recipe.kind) << "\n";
    os << "repack_type = " << getOperandTypeName(recipe.type) << "\n";
    os << "repack_rows = " << recipe.numRows << "\n";
    os << "repack_rows_per_block = " << recipe.rowsPerBlock << "\n";
    os << "repack_radius = " << recipe.radius << "\n";
    if (!recipe.indices.empty()) {
      // One digit (0..3) per slot.
      os << "repack_indices = ";
      for (uint8_t index : recipe.indices)
        os << char('0' + index);
      os << "\n";
    }
    os << "repack_map = ";
    printList(os, recipe.map);
    os << "\n";
  } else if (!desc.weightsGlobal.empty()) {
    os << "weights_global = " << desc.weightsGlobal << "\n";
  } else if (!desc.repackUnsupported.empty()) {
    os << "repack_unsupported = " << desc.repackUnsupported << "\n";
  }
}

/// A kernel's keys in the order the compiler has always written them: a
/// whole description of version 1 (`program` null), or a `[kernel NAME]`
/// section of `program`, which leaves out the grid's rank and a `ptx` that
/// is the program's, and names the arguments.
void writeKernelKeys(const LaunchDescription &desc, std::ostream &os,
                     const LaunchDescriptionNotes &notes,
                     const LaunchProgram *program,
                     const ProgramKernel *kernel) {
  os << "kernel = " << desc.kernel << "\n";
  if (!program || program->ptx.empty() || desc.ptx != program->ptx)
    os << "ptx = " << desc.ptx << "\n";
  if (!program)
    os << "rank = " << desc.rank << "\n";
  os << "element_type = " << elemTypeName(desc.elementType) << "\n";
  os << "accumulator = " << elemTypeName(desc.accumulator) << "\n";
  writePattern(desc, os);
  os << "boundary = " << getBoundaryKeyword(desc.boundary);
  if (desc.boundary == Boundary::Dirichlet)
    os << "(" << formatExact(desc.dirichletValue) << ")";
  os << "\n";
  if (!program)
    os << "# time steps in the source op: " << notes.sourceSteps << "\n";
  writeFusedSteps(desc, os);
  os << "tile = ";
  printList(os, desc.tile);
  os << "\nblock = ";
  printBlock(os, desc.block);
  os << "\nshared_bytes = " << desc.sharedBytes << "\n";
  writeCostKeys(desc, os);
  writeCoefficients(desc, os);
  os << "args = ";
  for (size_t i = 0; i < desc.args.size(); ++i) {
    const std::string &name = kernel ? kernel->argNames[i] : desc.args[i];
    os << (i ? "," : "") << name;
    if (name != desc.args[i])
      os << ":" << desc.args[i];
  }
  os << "\n";
}

/// What --lower-to-auto chose and assumed, as comments.
void writeChoiceNotes(const LaunchDescriptionNotes &notes, std::ostream &os) {
  if (!notes.pipeline.empty())
    os << "# pipeline: " << notes.pipeline << "\n";
  if (!notes.deviceProfile.empty())
    os << "# chosen by --lower-to-auto for the device profile "
       << notes.deviceProfile << "\n";
}

} // namespace

void writeLaunchDescription(const LaunchDescription &desc, std::ostream &os,
                            const LaunchDescriptionNotes &notes) {
  os << "# stencil launch description v1, written by " << notes.writer << "\n";
  os << "version = 1\n";
  writeKernelKeys(desc, os, notes, nullptr, nullptr);
  writeChoiceNotes(notes, os);
}

void writeLaunchProgram(const LaunchProgram &program, std::ostream &os,
                        const LaunchDescriptionNotes &notes) {
  if (program.version == 1) {
    writeLaunchDescription(program.kernels.at(0).desc, os, notes);
    return;
  }
  os << "# stencil launch program v2, written by " << notes.writer << "\n";
  os << "version = 2\nrank = " << program.rank << "\n";
  if (!program.ptx.empty())
    os << "ptx = " << program.ptx << "\n";
  if (!program.rotate.empty()) {
    os << "rotate = ";
    printList(os, program.rotate);
    os << "\n";
  }
  writeChoiceNotes(notes, os);
  for (const ProgramBuffer &buffer : program.buffers) {
    os << "\n[buffer " << buffer.name
       << "]\nelement_type = " << elemTypeName(buffer.elementType)
       << "\nshape = ";
    if (buffer.shape.empty())
      os << "grid";
    printList(os, buffer.shape);
    os << "\nrole = " << getBufferRoleName(buffer.role) << "\n";
  }
  for (const ProgramKernel &kernel : program.kernels) {
    os << "\n[kernel " << kernel.name << "]\n";
    writeKernelKeys(kernel.desc, os, notes, &program, &kernel);
  }
  for (const ProgramLaunch &launch : program.launches) {
    os << "\n[launch " << launch.kernel << "]\n";
    for (const auto &[arg, buffer] : launch.bindings)
      os << arg << " = " << buffer << "\n";
  }
}

} // namespace stencil_run
