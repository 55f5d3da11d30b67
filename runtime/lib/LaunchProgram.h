//===- LaunchProgram.h - a launch program of kernels and buffers -*- C++
//-*-===//
//
// The program form of the launch description (docs/LaunchDescription.md,
// version 2): named buffers on the grid, the kernels (each what a version 1
// description says of one kernel), and the sequence of launches that binds
// buffers to the kernels' arguments, with the time levels that rotate
// between passes of the sequence. A version 1 description reads as a
// program of one kernel, whose buffers (`in`, `out`), launch and rotation
// (the ping-pong) it implies, and is written back as version 1, byte for
// byte. Part of the one codec (LaunchDescription.h); plain C++17.
//
//===----------------------------------------------------------------------===//
#ifndef STENCIL_RUN_LAUNCHPROGRAM_H
#define STENCIL_RUN_LAUNCHPROGRAM_H

#include "LaunchDescription.h"

#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

namespace stencil_run {

/// What a buffer holds for the program's caller.
enum class BufferRole {
  Input,     ///< given by the caller and only read (a velocity, a source)
  State,     ///< given by the caller and given back (the time levels)
  Output,    ///< written by the program and given back
  Temporary, ///< written and read by the program's launches only
};

/// `input`, `state`, `output`, `temporary`.
const char *getBufferRoleName(BufferRole role);
bool parseBufferRole(const std::string &text, BufferRole &role);

/// A named buffer: a field of the grid, dense and row-major.
struct ProgramBuffer {
  std::string name;
  ElemType elementType = ElemType::F32;
  /// Its sizes, outermost first; empty: the grid's, given at run time.
  std::vector<int64_t> shape;
  BufferRole role = BufferRole::State;
};

/// One kernel of a program.
struct ProgramKernel {
  std::string name; ///< the program's name for it (`[kernel NAME]`)
  /// Everything a version 1 description says of the kernel (its PTX
  /// entry, pattern, tile, block, band and tail kernels, coefficients,
  /// recipe...); `desc.args` are its arguments' roles.
  LaunchDescription desc;
  /// Each argument's name, in the order of `desc.args` (the role itself
  /// for an unnamed argument).
  std::vector<std::string> argNames;
};

/// One launch of the sequence.
struct ProgramLaunch {
  std::string kernel; ///< a ProgramKernel's name
  /// (argument, buffer) for each `in` and `out` argument of the kernel, in
  /// the kernel's argument order.
  std::vector<std::pair<std::string, std::string>> bindings;
};

/// A program: one pass of `launches`, in order, advances it by the kernels'
/// `steps_per_launch` steps; after each pass the buffers of `rotate` pass
/// their storage on (each name takes the next one's, the last the first's).
struct LaunchProgram {
  std::string path; ///< the file
  /// 2, or 1 for a description of one kernel: then `kernels` holds it, and
  /// the buffers `in` and `out` (state, the grid's shape), one launch and
  /// `rotate = in,out` are implied.
  int version = 2;
  int rank = 0;    ///< the grid's rank, every kernel's
  std::string ptx; ///< the kernels' PTX where they name none; may be empty
  std::vector<ProgramBuffer> buffers;
  std::vector<ProgramKernel> kernels;
  std::vector<ProgramLaunch> launches;
  std::vector<std::string> rotate;

  /// The buffer or kernel of that name; null when there is none.
  const ProgramBuffer *findBuffer(const std::string &name) const;
  const ProgramKernel *findKernel(const std::string &name) const;
};

/// `desc` as a program of one kernel (version 1): the buffers, the launch
/// and the rotation it implies.
LaunchProgram makeSingleKernelProgram(const LaunchDescription &desc);

/// Reads and checks a program (version 2) or a description of one kernel
/// (version 1, as makeSingleKernelProgram), with parseLaunchDescription's
/// limits and guarantees: any text is safe, an error is `path:line: ` and a
/// message, unknown keys are `warnings`. On success every kernel satisfies
/// what parseLaunchDescriptionText checks, and the program is consistent:
/// distinct buffer and kernel names; each launch names a kernel and binds
/// a known buffer to each of its `in` and `out` arguments (and nothing
/// else), of the kernel's element type and one shape, never an `input`
/// buffer to an `out` argument, never one buffer to an `in` and an `out`
/// argument or to two `out` arguments, never an `output` or `temporary`
/// buffer to an `in` argument before an earlier launch wrote it; the
/// rotated buffers are distinct, at least two, of one type and shape and
/// not `input`; the launched kernels fuse as many steps, and have tail
/// kernels of as many steps or none.
bool parseLaunchProgram(const std::string &path, LaunchProgram &program,
                        std::string &error, std::vector<std::string> &warnings);
bool parseLaunchProgramText(const std::string &text, const std::string &path,
                            LaunchProgram &program, std::string &error,
                            std::vector<std::string> &warnings);

/// Writes `program` in the format parseLaunchProgramText reads: version 1
/// as writeLaunchDescription writes its kernel, version 2 as the header,
/// the buffers, the kernels and the launches. Reading the text back gives
/// `program` again (the resolved `ptxPath`s aside). `program` must satisfy
/// what the reader checks.
void writeLaunchProgram(const LaunchProgram &program, std::ostream &os,
                        const LaunchDescriptionNotes &notes = {});

} // namespace stencil_run

#endif
