//===- LaunchProgramTest.cpp - the program form of the launch record ------===//
//
// The launch program (LaunchProgram.h, version 2): a program of two kernels
// on four buffers with three time levels reads, and writes back to the same
// bytes; a version 1 description reads as a program of one kernel and
// writes back as version 1, byte for byte; every inconsistency is an error
// at its line; and mangled programs are rejected or read back, never crash.
//
//===----------------------------------------------------------------------===//

#include "LaunchProgram.h"

#include "gtest/gtest.h"

#include <sstream>

using namespace stencil_run;

namespace {

/// A wave equation's step: the Laplacian of `u` into `lap`, then
/// u_next = 2 u - u_prev + c lap, and the three time levels rotate. In the
/// writer's form (the writer writes it back byte for byte).
const char *kWave = R"(# stencil launch program v2, written by stencil-translate
version = 2
rank = 2
ptx = wave.ptx
rotate = u_prev,u,u_next

[buffer u_prev]
element_type = f32
shape = grid
role = state

[buffer u]
element_type = f32
shape = grid
role = state

[buffer u_next]
element_type = f32
shape = grid
role = temporary

[buffer lap]
element_type = f32
shape = grid
role = temporary

[kernel laplace]
kernel = wave_laplace
element_type = f32
accumulator = f32
offsets = -1,0;0,-1;0,0;0,1;1,0
weights = 1,1,-4,1,1
boundary = halo
tile = 32,8
block = 256,1,1
shared_bytes = 0
args = u:in,lap:out,sizes

[kernel update]
kernel = wave_update
ptx = update.ptx
element_type = f32
accumulator = f32
offsets = 0,0
weights = 2
boundary = halo
tile = 64,4
block = 128,1,1
shared_bytes = 1024
args = u:in,u_prev:in,lap:in,u_next:out,sizes

[launch laplace]
u = u
lap = lap

[launch update]
u = u
u_prev = u_prev
lap = lap
u_next = u_next
)";

/// Reads `text` as the file dir/p.launch: the error, empty when it reads;
/// its warnings go to `warnings` when given.
std::string readProgram(const std::string &text, LaunchProgram &program,
                        std::vector<std::string> *warnings = nullptr) {
  std::string error;
  std::vector<std::string> ignored;
  if (parseLaunchProgramText(text, "dir/p.launch", program, error,
                             warnings ? *warnings : ignored))
    return "";
  return error.empty() ? "(no message)" : error;
}

/// `text`, which must read, as a program.
LaunchProgram read(const std::string &text) {
  LaunchProgram program;
  std::string error = readProgram(text, program);
  EXPECT_EQ(error, "");
  return program;
}

std::string write(const LaunchProgram &program) {
  std::ostringstream os;
  writeLaunchProgram(program, os);
  return os.str();
}

/// `text` with the first occurrence of `from` replaced by `to`.
std::string replace(std::string text, const std::string &from,
                    const std::string &to) {
  size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos)
    text.replace(at, from.size(), to);
  return text;
}

/// Expects `text` to be rejected with a message containing `message`.
void expectRejected(const std::string &text, const std::string &message) {
  LaunchProgram program;
  std::string error = readProgram(text, program);
  EXPECT_NE(error, "") << text;
  EXPECT_NE(error.find(message), std::string::npos)
      << "'" << error << "' does not contain '" << message << "'";
}

TEST(LaunchProgramTest, ReadsAProgram) {
  LaunchProgram p;
  std::vector<std::string> warnings;
  ASSERT_EQ(readProgram(kWave, p, &warnings), "");
  EXPECT_TRUE(warnings.empty());
  EXPECT_EQ(p.version, 2);
  EXPECT_EQ(p.rank, 2);
  EXPECT_EQ(p.ptx, "wave.ptx");
  EXPECT_EQ(p.rotate, std::vector<std::string>({"u_prev", "u", "u_next"}));
  ASSERT_EQ(p.buffers.size(), 4u);
  EXPECT_EQ(p.findBuffer("lap")->role, BufferRole::Temporary);
  EXPECT_EQ(p.findBuffer("u")->elementType, ElemType::F32);
  EXPECT_TRUE(p.findBuffer("u")->shape.empty());
  EXPECT_EQ(p.findBuffer("nothing"), nullptr);
  ASSERT_EQ(p.kernels.size(), 2u);
  const ProgramKernel &update = *p.findKernel("update");
  EXPECT_EQ(update.desc.kernel, "wave_update");
  EXPECT_EQ(update.desc.rank, 2);
  EXPECT_EQ(update.desc.ptxPath, "dir/update.ptx");
  EXPECT_EQ(p.findKernel("laplace")->desc.ptxPath, "dir/wave.ptx");
  EXPECT_EQ(update.desc.sharedBytes, 1024u);
  EXPECT_EQ(update.desc.args,
            std::vector<std::string>({"in", "in", "in", "out", "sizes"}));
  EXPECT_EQ(update.argNames, std::vector<std::string>(
                                 {"u", "u_prev", "lap", "u_next", "sizes"}));
  ASSERT_EQ(p.launches.size(), 2u);
  EXPECT_EQ(p.launches[0].kernel, "laplace");
  using Binding = std::pair<std::string, std::string>;
  EXPECT_EQ(p.launches[1].bindings,
            std::vector<Binding>({{"u", "u"},
                                  {"u_prev", "u_prev"},
                                  {"lap", "lap"},
                                  {"u_next", "u_next"}}));
}

TEST(LaunchProgramTest, WritesBackTheSameBytes) {
  EXPECT_EQ(write(read(kWave)), kWave);

  // Sections in another order, spelled otherwise, read as the same
  // program: the writer's form is canonical.
  std::string shuffled = replace(kWave,
                                 "[buffer lap]\nelement_type = f32\n"
                                 "shape = grid\nrole = temporary\n",
                                 "");
  shuffled = replace(shuffled, "[launch laplace]\nu = u\nlap = lap\n",
                     "[launch laplace]\nlap = lap   # the output\nu = u\n");
  shuffled += "\n[buffer lap]\nrole = temporary\nelement_type = f32\n";
  std::string canonical = replace(kWave,
                                  "[buffer lap]\nelement_type = f32\n"
                                  "shape = grid\nrole = temporary\n\n",
                                  "");
  canonical = replace(canonical, "[kernel laplace]",
                      "[buffer lap]\nelement_type = f32\nshape = grid\n"
                      "role = temporary\n\n[kernel laplace]");
  EXPECT_EQ(write(read(shuffled)), canonical);
}

TEST(LaunchProgramTest, ExplicitShapesAndNamedCoefficients) {
  std::string text = replace(kWave,
                             "[buffer lap]\nelement_type = f32\n"
                             "shape = grid",
                             "[buffer lap]\nelement_type = f32\n"
                             "shape = 512,256");
  for (const char *level : {"u_prev", "u", "u_next"})
    text = replace(text,
                   std::string("[buffer ") + level +
                       "]\nelement_type = f32\nshape = grid",
                   std::string("[buffer ") + level +
                       "]\nelement_type = f32\nshape = 512,256");
  text = replace(text, "args = u:in,lap:out,sizes",
                 "coefficients = 3c003c00\nargs = u:in,w:coeffs,lap:out,grid:"
                 "sizes");
  LaunchProgram p = read(text);
  EXPECT_EQ(p.findBuffer("u")->shape, std::vector<int64_t>({512, 256}));
  EXPECT_EQ(p.findKernel("laplace")->argNames,
            std::vector<std::string>({"u", "w", "lap", "grid"}));
  EXPECT_EQ(write(p), text);
}

TEST(LaunchProgramTest, ADescriptionIsAProgramOfOneKernel) {
  const std::string text =
      "# stencil launch description v1, written by stencil-translate\n"
      "version = 1\n"
      "kernel = k\n"
      "ptx = k.ptx\n"
      "rank = 1\n"
      "element_type = f16\n"
      "accumulator = f32\n"
      "offsets = -1;0;1\n"
      "weights = 0.25,0.5,0.25\n"
      "boundary = halo\n"
      "# time steps in the source op: 0\n"
      "tile = 64\n"
      "block = 128,1,1\n"
      "shared_bytes = 0\n"
      "args = out,in,coeffs,sizes\n";
  LaunchProgram p = read(text);
  EXPECT_EQ(p.version, 1);
  EXPECT_EQ(p.rank, 1);
  ASSERT_EQ(p.buffers.size(), 2u);
  EXPECT_EQ(p.buffers[0].name, "in");
  EXPECT_EQ(p.buffers[1].role, BufferRole::State);
  EXPECT_EQ(p.buffers[1].elementType, ElemType::F16);
  ASSERT_EQ(p.kernels.size(), 1u);
  EXPECT_EQ(p.kernels[0].name, "k");
  EXPECT_EQ(p.kernels[0].argNames, p.kernels[0].desc.args);
  ASSERT_EQ(p.launches.size(), 1u);
  using Binding = std::pair<std::string, std::string>;
  EXPECT_EQ(p.launches[0].bindings,
            std::vector<Binding>({{"out", "out"}, {"in", "in"}}));
  EXPECT_EQ(p.rotate, std::vector<std::string>({"in", "out"}));
  // Written back as version 1, byte for byte.
  EXPECT_EQ(write(p), text);
  // The same program from the struct.
  EXPECT_EQ(write(makeSingleKernelProgram(p.kernels[0].desc)), text);
  // A description's own errors, as the description reader says them.
  expectRejected(replace(text, "tile = 64\n", ""),
                 "dir/p.launch: missing required key 'tile'");
  expectRejected(text + "[kernel k]\n", "p.launch:16: a section ('[kernel k]') "
                                        "belongs to a launch program");
}

/// One way to break kWave: `from` becomes `to`, and the reader says
/// `message` (at the line it names).
struct Breakage {
  const char *from, *to, *message;
};

const Breakage kBreakages[] = {
    // The header and the sections.
    {"version = 2", "version = 3",
     ":2: unsupported version '3' (this reader takes versions 1 and 2)"},
    {"rank = 2\n", "", "p.launch: missing required key 'rank'"},
    {"rank = 2", "rank = 4", ":3: rank must be 1, 2 or 3"},
    {"[buffer lap]", "[field lap]",
     ":22: unknown section '[field lap]' (buffer, kernel or launch)"},
    {"[buffer lap]", "[buffer]",
     ":22: expected a section '[kind name]', got '[buffer]'"},
    {"[buffer lap]", "[buffer lap", ":22: expected a section '[kind name]'"},
    {"[buffer lap]", "[buffer u]",
     ":22: duplicate buffer 'u' (first on line 12)"},
    {"[kernel update]", "[kernel laplace]",
     ":39: duplicate kernel 'laplace' (first on line 27)"},
    {"[buffer lap]", "[buffer l,ap]", ":22: bad buffer name 'l,ap'"},
    {"role = temporary\n", "role = temporary\nrole = state\n",
     ":21: duplicate key 'role' (first on line 20)"},
    // Buffers.
    {"[buffer lap]\nelement_type = f32\n", "[buffer lap]\n",
     ":22: buffer 'lap': missing required key 'element_type'"},
    {"element_type = f32\nshape = grid\nrole = temporary\n\n[kernel",
     "element_type = f32\n\n[kernel",
     ":22: buffer 'lap': missing required key 'role'"},
    {"[buffer lap]\nelement_type = f32", "[buffer lap]\nelement_type = i32",
     ":23: unknown element type 'i32'"},
    {"role = temporary\n\n[kernel", "role = scratch\n\n[kernel",
     ":25: unknown role 'scratch' (input, state, output, temporary)"},
    {"[buffer lap]\nelement_type = f32\nshape = grid",
     "[buffer lap]\nelement_type = f32\nshape = 8",
     ":24: shape must be 'grid' or 2 sizes"},
    {"[buffer lap]\nelement_type = f32\nshape = grid",
     "[buffer lap]\nelement_type = f32\nshape = 8,8,8",
     ":24: shape must be 'grid' or 2 sizes"},
    {"[buffer lap]\nelement_type = f32\nshape = grid",
     "[buffer lap]\nelement_type = f32\nshape = 0,8",
     ":24: shape must be 'grid' or 2 sizes"},
    {"[buffer lap]\nelement_type = f32\nshape = grid",
     "[buffer lap]\nelement_type = f32\nshape = 8,2147483648",
     ":24: shape must be 'grid' or 2 sizes"},
    // Kernels.
    {"ptx = wave.ptx\n", "",
     ":26: kernel 'laplace': missing required key 'ptx'"},
    {"tile = 64,4", "tile = 64", ":47: tile must have 2 positive integers"},
    {"args = u:in,lap:out,sizes", "args = u:in,lap:inout,sizes",
     ":37: unknown argument 'lap:inout'"},
    {"args = u:in,lap:out,sizes", "args = u:in,u:out,sizes",
     ":37: argument 'u' listed twice"},
    {"args = u:in,lap:out,sizes", "args = u:in,lap:out",
     ":37: args must contain an argument of role 'sizes'"},
    {"args = u:in,lap:out,sizes", "args = lap:out,sizes",
     ":37: args must contain an argument of role 'in'"},
    {"args = u:in,lap:out,sizes", "args = u:in,lap:out,n:sizes,m:sizes",
     ":37: args has 2 arguments of role 'sizes' (at most one)"},
    {"args = u:in,lap:out,sizes", "args = u:in,l a:out,sizes",
     ":37: bad argument name 'l a'"},
    // Launches.
    {"[launch laplace]", "[launch blur]",
     ":52: launch of an unknown kernel 'blur'"},
    {"lap = lap\n\n", "lap = lap\nv = u\n\n",
     ":55: kernel 'laplace' has no argument 'v'"},
    {"lap = lap\n\n", "lap = lap\nsizes = u\n\n",
     ":55: kernel 'laplace' takes its argument 'sizes' (sizes) from the "
     "runner, not from a buffer"},
    {"lap = lap\n\n", "lap = lapl\n\n", ":54: unknown buffer 'lapl'"},
    {"lap = lap\n\n", "\n",
     ":52: the launch of kernel 'laplace' binds no buffer to its argument "
     "'lap'"},
    // Bindings.
    {"[buffer lap]\nelement_type = f32", "[buffer lap]\nelement_type = f16",
     ":54: buffer 'lap' holds f16, kernel 'laplace' computes on f32"},
    {"[buffer lap]\nelement_type = f32\nshape = grid",
     "[buffer lap]\nelement_type = f32\nshape = 64,64",
     ":54: buffer 'lap' has the shape 64,64, buffer 'u' of the same launch "
     "grid"},
    {"lap = lap\n\n", "lap = u\n\n",
     ":54: buffer 'u' is bound to the arguments 'u' and 'lap' of one launch, "
     "which writes it through one of them"},
    {"role = temporary\n\n[kernel", "role = input\n\n[kernel",
     ":54: buffer 'lap' is an input, which no launch writes"},
    // The Laplacian read before it is computed.
    {"[launch laplace]\nu = u\nlap = lap\n\n[launch update]\nu = u\n"
     "u_prev = u_prev\nlap = lap\nu_next = u_next\n",
     "[launch update]\nu = u\nu_prev = u_prev\nlap = lap\n"
     "u_next = u_next\n\n[launch laplace]\nu = u\nlap = lap\n",
     ":55: buffer 'lap' is read (argument 'lap') before a launch writes it"},
    // Rotation.
    {"rotate = u_prev,u,u_next", "rotate = u_prev,v", ":5: unknown buffer 'v'"},
    {"rotate = u_prev,u,u_next", "rotate = u,u_next,u",
     ":5: buffer 'u' rotates twice"},
    {"rotate = u_prev,u,u_next", "rotate = u",
     ":5: rotate names at least two buffers"},
    {"shape = grid\nrole = state", "shape = grid\nrole = input",
     ":5: buffer 'u_prev' is an input, which does not rotate"},
    // Steps.
    {"tile = 64,4", "steps_per_launch = 2\ntile = 64,4",
     "the launched kernels 'laplace' and 'update' advance a pass by "
     "different steps"},
};

TEST(LaunchProgramTest, RejectsEachInconsistency) {
  for (const Breakage &breakage : kBreakages)
    expectRejected(replace(kWave, breakage.from, breakage.to),
                   breakage.message);
  // A program of nothing but a header.
  expectRejected(std::string(kWave).substr(0, std::string(kWave).find("\n[")),
                 "at least one '[kernel NAME]' and one '[launch");
  // A kernel of another rank than the program's grid.
  std::string oneD = replace(kWave, "kernel = wave_update\n",
                             "kernel = wave_update\nrank = 1\n");
  oneD = replace(replace(oneD, "offsets = 0,0", "offsets = 0"), "tile = 64,4",
                 "tile = 64");
  expectRejected(oneD, ":41: kernel 'update' has rank 1, the program's grid 2");
  // Time levels of two types.
  std::string levels =
      replace(kWave, "rotate = u_prev,u,u_next", "rotate = u_prev,u,u_next,w");
  expectRejected(levels + "\n[buffer w]\nelement_type = f64\nrole = state\n",
                 ":5: buffers 'u_prev' and 'w' differ in type or shape");
  // Two inputs may share a buffer.
  LaunchProgram program;
  EXPECT_EQ(
      readProgram(replace(kWave, "u_prev = u_prev\n", "u_prev = u\n"), program),
      "");
}

TEST(LaunchProgramTest, UnknownKeysAreWarnings) {
  // In the header, and a version in a kernel section (it is the program's).
  std::string text = replace(kWave, "rotate", "colour = blue\nrotate");
  text = replace(text, "kernel = wave_update\n",
                 "kernel = wave_update\nversion = 1\n");
  LaunchProgram program;
  std::vector<std::string> warnings;
  ASSERT_EQ(readProgram(text, program, &warnings), "");
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_NE(warnings[0].find(":5: unknown key 'colour' ignored"),
            std::string::npos);
  EXPECT_NE(warnings[1].find(":42: unknown key 'version' ignored"),
            std::string::npos);
}

TEST(LaunchProgramTest, MangledProgramsAreRejectedOrReadBack) {
  // Every line dropped, doubled or cut in half: an error, or a program
  // whose written text reads back to the same text.
  std::vector<std::string> lines;
  std::istringstream in(kWave);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  for (size_t i = 0; i < lines.size(); ++i)
    for (int how = 0; how < 3; ++how) {
      std::string text;
      for (size_t j = 0; j < lines.size(); ++j) {
        if (j != i || how == 1)
          text += lines[j] + "\n";
        if (j == i && how == 1)
          text += lines[j] + "\n";
        if (j == i && how == 2)
          text += lines[j].substr(0, lines[j].size() / 2) + "\n";
      }
      LaunchProgram program;
      std::string error = readProgram(text, program);
      if (!error.empty()) {
        EXPECT_NE(error.find("dir/p.launch"), std::string::npos) << error;
        continue;
      }
      std::string written = write(program);
      EXPECT_EQ(write(read(written)), written);
    }
}

} // namespace
