//===- LaunchProgram.cpp - read a launch program --------------------------===//
//
// The reader of the program form (LaunchProgram.h, version 2): the header,
// then `[buffer NAME]`, `[kernel NAME]` and `[launch KERNEL]` sections in
// any order (the launches run in the order they are written). Each kernel
// section is read as a description of one kernel (readKernelKeys); what
// spans sections (the launches' bindings, the rotation, the steps) is
// checked once everything is read.
//
//===----------------------------------------------------------------------===//

#include "LaunchProgram.h"
#include "LaunchDescriptionReader.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <set>

namespace stencil_run {

using namespace detail;

namespace {
const std::pair<BufferRole, const char *> kBufferRoles[] = {
    {BufferRole::Input, "input"},
    {BufferRole::State, "state"},
    {BufferRole::Output, "output"},
    {BufferRole::Temporary, "temporary"},
};

/// The role of `kernel`'s argument `arg`; empty when it has none of that
/// name.
std::string getArgRole(const ProgramKernel &kernel, const std::string &arg) {
  const std::vector<std::string> &names = kernel.argNames;
  auto it = std::find(names.begin(), names.end(), arg);
  return it == names.end() ? "" : kernel.desc.args[it - names.begin()];
}

/// A buffer's shape as written: `grid` or its sizes.
std::string getShapeText(const std::vector<int64_t> &shape) {
  if (shape.empty())
    return "grid";
  std::string text;
  for (int64_t n : shape)
    text += (text.empty() ? "" : ",") + std::to_string(n);
  return text;
}
} // namespace

const char *getBufferRoleName(BufferRole role) {
  return getName(kBufferRoles, role, "state");
}

bool parseBufferRole(const std::string &text, BufferRole &role) {
  return parseName(kBufferRoles, text, role);
}

const ProgramBuffer *LaunchProgram::findBuffer(const std::string &name) const {
  for (const ProgramBuffer &buffer : buffers)
    if (buffer.name == name)
      return &buffer;
  return nullptr;
}

const ProgramKernel *LaunchProgram::findKernel(const std::string &name) const {
  for (const ProgramKernel &kernel : kernels)
    if (kernel.name == name)
      return &kernel;
  return nullptr;
}

LaunchProgram makeSingleKernelProgram(const LaunchDescription &desc) {
  LaunchProgram program;
  program.path = desc.path;
  program.version = 1;
  program.rank = desc.rank;
  program.ptx = desc.ptx;
  for (const char *name : {"in", "out"})
    program.buffers.push_back({name, desc.elementType, {}, BufferRole::State});
  program.kernels.push_back({desc.kernel, desc, desc.args});
  ProgramLaunch launch;
  launch.kernel = desc.kernel;
  for (const std::string &arg : desc.args)
    if (arg == "in" || arg == "out")
      launch.bindings.push_back({arg, arg});
  program.launches.push_back(std::move(launch));
  program.rotate = {"in", "out"};
  return program;
}

namespace {
/// The reader of a program's text: the sections one by one, then the
/// checks across them; each step fails with `error` set.
class ProgramReader {
public:
  ProgramReader(const std::string &path, std::vector<Section> &sections,
                LaunchProgram &program, std::string &error,
                std::vector<std::string> &warnings)
      : path(path), sections(sections), program(program), error(error),
        warnings(warnings) {}

  bool read();

private:
  /// version (2), rank, ptx; unknown keys are warnings.
  bool readHeader();
  /// A `[buffer NAME]` section: element_type, shape, role.
  bool readBuffer(Section &section);
  /// A `[kernel NAME]` section, with the header's rank and ptx.
  bool readKernel(Section &section);
  /// A `[launch KERNEL]` section: a buffer for each `in` and `out`
  /// argument; then checkLaunch.
  bool readLaunch(Section &section);
  /// The launch's buffers against its kernel and the launches before it.
  bool checkLaunch(Section &section, const ProgramKernel &kernel);
  /// `rotate`: buffers of one type and shape that pass their storage on.
  bool checkRotation();
  /// The launched kernels fuse as many steps, with alike tail kernels.
  bool checkSteps();

  std::string at(size_t line) {
    return path + ":" + std::to_string(line) + ": ";
  }
  /// A section's name is a name; one of its kind is not there yet.
  bool checkName(const Section &section, std::map<std::string, size_t> &seen);

  const std::string &path;
  std::vector<Section> &sections;
  LaunchProgram &program;
  std::string &error;
  std::vector<std::string> &warnings;
  std::map<std::string, size_t> bufferLines, kernelLines;
  /// The buffers an earlier launch wrote.
  std::set<std::string> written;
};

bool ProgramReader::read() {
  program = LaunchProgram();
  program.path = path;
  if (!readHeader())
    return false;
  std::vector<Section *> launches;
  for (size_t i = 1; i < sections.size(); ++i) {
    Section &section = sections[i];
    if (section.kind == "launch") {
      launches.push_back(&section);
      continue;
    }
    if (section.kind != "buffer" && section.kind != "kernel") {
      error = at(section.line) + "unknown section '[" + section.kind + " " +
              section.name + "]' (buffer, kernel or launch)";
      return false;
    }
    if (!(section.kind == "buffer" ? readBuffer(section) : readKernel(section)))
      return false;
  }
  if (program.kernels.empty() || launches.empty()) {
    error = path + ": a program has at least one '[kernel NAME]' and one "
                   "'[launch KERNEL]' section";
    return false;
  }
  for (Section *launch : launches)
    if (!readLaunch(*launch))
      return false;
  return checkRotation() && checkSteps();
}

bool ProgramReader::readHeader() {
  KeyValues &kv = sections[0].kv;
  for (const auto &e : kv)
    if (e.first != "version" && e.first != "rank" && e.first != "ptx" &&
        e.first != "rotate")
      warnings.push_back(at(e.second.second) + "unknown key '" + e.first +
                         "' ignored");
  if (!kv.count("rank")) {
    error = path + ": missing required key 'rank'";
    return false;
  }
  int64_t rank;
  if (!parseInt(kv["rank"].first, rank) || rank < 1 || rank > 3) {
    error = at(kv["rank"].second) + "rank must be 1, 2 or 3, got '" +
            kv["rank"].first + "'";
    return false;
  }
  program.rank = int(rank);
  if (kv.count("ptx"))
    program.ptx = kv["ptx"].first;
  if (kv.count("rotate"))
    program.rotate = split(kv["rotate"].first, ',');
  return true;
}

bool ProgramReader::checkName(const Section &section,
                              std::map<std::string, size_t> &seen) {
  if (!isName(section.name)) {
    error = at(section.line) + "bad " + section.kind + " name '" +
            section.name + "' (letters, digits, _, $ and .)";
    return false;
  }
  auto [it, added] = seen.emplace(section.name, section.line);
  if (!added) {
    error = at(section.line) + "duplicate " + section.kind + " '" +
            section.name + "' (first on line " + std::to_string(it->second) +
            ")";
    return false;
  }
  return true;
}

bool ProgramReader::readBuffer(Section &section) {
  if (!checkName(section, bufferLines))
    return false;
  KeyValues &kv = section.kv;
  for (const auto &e : kv)
    if (e.first != "element_type" && e.first != "shape" && e.first != "role")
      warnings.push_back(at(e.second.second) + "unknown key '" + e.first +
                         "' ignored");
  for (const char *key : {"element_type", "role"})
    if (!kv.count(key)) {
      error = at(section.line) + "buffer '" + section.name +
              "': missing required key '" + key + "'";
      return false;
    }
  ProgramBuffer buffer;
  buffer.name = section.name;
  if (!parseElemType(kv["element_type"].first, buffer.elementType)) {
    error = at(kv["element_type"].second) + "unknown element type '" +
            kv["element_type"].first + "' (f16, bf16, f32, f64)";
    return false;
  }
  if (!parseBufferRole(kv["role"].first, buffer.role)) {
    error = at(kv["role"].second) + "unknown role '" + kv["role"].first +
            "' (input, state, output, temporary)";
    return false;
  }
  if (kv.count("shape") && kv["shape"].first != "grid") {
    bool ok = parseIntList(kv["shape"].first, buffer.shape) &&
              int(buffer.shape.size()) == program.rank;
    for (int64_t n : buffer.shape)
      ok &= n >= 1 && n <= kMaxTile;
    if (!ok) {
      error = at(kv["shape"].second) + "shape must be 'grid' or " +
              std::to_string(program.rank) + " sizes from 1 to " +
              std::to_string(kMaxTile) + " (outermost first), got '" +
              kv["shape"].first + "'";
      return false;
    }
  }
  program.buffers.push_back(std::move(buffer));
  return true;
}

bool ProgramReader::readKernel(Section &section) {
  if (!checkName(section, kernelLines))
    return false;
  // The header's rank and ptx, where the section gives none.
  KeyValues &kv = section.kv;
  for (const char *key : {"rank", "ptx"})
    if (sections[0].kv.count(key))
      kv.emplace(key, sections[0].kv[key]);
  ProgramKernel kernel;
  kernel.name = section.name;
  if (!readKernelKeys(kv, path, &section, kernel.desc, &kernel.argNames, error,
                      warnings))
    return false;
  if (kernel.desc.rank != program.rank) {
    error = at(kv["rank"].second) + "kernel '" + section.name + "' has rank " +
            std::to_string(kernel.desc.rank) + ", the program's grid " +
            std::to_string(program.rank);
    return false;
  }
  program.kernels.push_back(std::move(kernel));
  return true;
}

bool ProgramReader::readLaunch(Section &section) {
  const ProgramKernel *kernel = program.findKernel(section.name);
  if (!kernel) {
    error =
        at(section.line) + "launch of an unknown kernel '" + section.name + "'";
    return false;
  }
  KeyValues &kv = section.kv;
  for (const auto &[arg, value] : kv) {
    std::string role = getArgRole(*kernel, arg);
    if (role != "in" && role != "out") {
      error = at(value.second) + "kernel '" + kernel->name +
              (role.empty() ? "' has no argument '" + arg + "'"
                            : "' takes its argument '" + arg + "' (" + role +
                                  ") from the runner, not from a buffer");
      return false;
    }
    if (!program.findBuffer(value.first)) {
      error = at(value.second) + "unknown buffer '" + value.first + "'";
      return false;
    }
  }
  ProgramLaunch launch;
  launch.kernel = kernel->name;
  for (size_t i = 0; i < kernel->argNames.size(); ++i) {
    const std::string &arg = kernel->argNames[i];
    if (kernel->desc.args[i] != "in" && kernel->desc.args[i] != "out")
      continue;
    if (!kv.count(arg)) {
      error = at(section.line) + "the launch of kernel '" + kernel->name +
              "' binds no buffer to its argument '" + arg + "'";
      return false;
    }
    launch.bindings.push_back({arg, kv[arg].first});
  }
  program.launches.push_back(std::move(launch));
  return checkLaunch(section, *kernel);
}

bool ProgramReader::checkLaunch(Section &section, const ProgramKernel &kernel) {
  const ProgramLaunch &launch = program.launches.back();
  const ProgramBuffer *first = program.findBuffer(launch.bindings[0].second);
  std::map<std::string, std::string> boundTo; // buffer -> its first argument
  for (const auto &[arg, name] : launch.bindings) {
    const ProgramBuffer &buffer = *program.findBuffer(name);
    bool out = getArgRole(kernel, arg) == "out";
    auto [firstArg, added] = boundTo.emplace(name, arg);
    std::string here = at(section.kv[arg].second) + "buffer '" + name + "' ";
    if (buffer.elementType != kernel.desc.elementType)
      error = here + "holds " + elemTypeName(buffer.elementType) +
              ", kernel '" + kernel.name + "' computes on " +
              elemTypeName(kernel.desc.elementType);
    else if (buffer.shape != first->shape)
      error = here + "has the shape " + getShapeText(buffer.shape) +
              ", buffer '" + first->name + "' of the same launch " +
              getShapeText(first->shape);
    else if (!added && (out || getArgRole(kernel, firstArg->second) == "out"))
      error = here + "is bound to the arguments '" + firstArg->second +
              "' and '" + arg +
              "' of one launch, which writes it through "
              "one of them";
    else if (out && buffer.role == BufferRole::Input)
      error = here + "is an input, which no launch writes (argument '" + arg +
              "' of kernel '" + kernel.name + "' is an output)";
    else if (!out && !written.count(name) &&
             (buffer.role == BufferRole::Output ||
              buffer.role == BufferRole::Temporary))
      error =
          here + "is read (argument '" + arg + "') before a launch writes it";
    if (!error.empty())
      return false;
  }
  for (const auto &[arg, name] : launch.bindings)
    if (getArgRole(kernel, arg) == "out")
      written.insert(name);
  return true;
}

bool ProgramReader::checkRotation() {
  if (program.rotate.empty())
    return true;
  KeyValues &kv = sections[0].kv;
  std::string here = at(kv["rotate"].second);
  std::set<std::string> seen;
  const ProgramBuffer *first = nullptr;
  for (const std::string &name : program.rotate) {
    const ProgramBuffer *buffer = program.findBuffer(name);
    if (!buffer)
      error = here + "unknown buffer '" + name + "'";
    else if (!seen.insert(name).second)
      error = here + "buffer '" + name + "' rotates twice";
    else if (buffer->role == BufferRole::Input)
      error = here + "buffer '" + name +
              "' is an input, which does not "
              "rotate (it is never written)";
    else if (first && (buffer->elementType != first->elementType ||
                       buffer->shape != first->shape))
      error = here + "buffers '" + first->name + "' and '" + name +
              "' differ in type or shape, so they cannot pass their "
              "storage on";
    if (!error.empty())
      return false;
    first = first ? first : buffer;
  }
  if (program.rotate.size() < 2) {
    error = here + "rotate names at least two buffers";
    return false;
  }
  return true;
}

bool ProgramReader::checkSteps() {
  const LaunchDescription &first =
      program.findKernel(program.launches[0].kernel)->desc;
  for (const ProgramLaunch &launch : program.launches) {
    const LaunchDescription &desc = program.findKernel(launch.kernel)->desc;
    if (desc.stepsPerLaunch != first.stepsPerLaunch ||
        desc.tailKernel.empty() != first.tailKernel.empty() ||
        desc.tailSteps != first.tailSteps) {
      error = path + ": the launched kernels '" + program.launches[0].kernel +
              "' and '" + launch.kernel +
              "' advance a pass by different steps (steps_per_launch, "
              "tail_steps): every launch of a pass computes as many";
      return false;
    }
  }
  return true;
}
} // namespace

bool parseLaunchProgram(const std::string &path, LaunchProgram &program,
                        std::string &error,
                        std::vector<std::string> &warnings) {
  return readFile(path, "launch program", parseLaunchProgramText, program,
                  error, warnings);
}

bool parseLaunchProgramText(const std::string &text, const std::string &path,
                            LaunchProgram &program, std::string &error,
                            std::vector<std::string> &warnings) {
  std::vector<Section> sections;
  if (!readSections(text, path, sections, error))
    return false;
  // Version 2, or 1 (or none, which the reader of one kernel reports).
  KeyValues &header = sections[0].kv;
  int64_t version = 1;
  if (header.count("version") && (!parseInt(header["version"].first, version) ||
                                  version < 1 || version > 2)) {
    error = path + ":" + std::to_string(header["version"].second) +
            ": unsupported version '" + header["version"].first +
            "' (this reader takes versions 1 and 2)";
    return false;
  }
  if (version == 2)
    return ProgramReader(path, sections, program, error, warnings).read();
  LaunchDescription desc;
  if (!readSingleKernel(sections, path, desc, error, warnings))
    return false;
  program = makeSingleKernelProgram(desc);
  return true;
}

} // namespace stencil_run
