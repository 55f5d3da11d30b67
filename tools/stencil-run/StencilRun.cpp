//===- StencilRun.cpp - run compiled stencil PTX on the GPU ---------------===//
//
// stencil-run loads the PTX of one stencil time step (or of
// `steps_per_launch` fused steps) through libStencilRuntime (its C API,
// runtime/include/stencil-runtime/StencilRuntime.h), runs T steps
// (ping-pong; halo, periodic or Dirichlet boundary), times them with CUDA
// events, and checks the result against an independent f64 CPU
// implementation of the stencil (from the description's offsets/weights or
// general body, never from its coefficients).
// See docs/LaunchDescription.md and bench/README.md.
//
// Plain C++17 + CUDA driver API: no LLVM/MLIR dependency.
//
//===----------------------------------------------------------------------===//

#include "HostUtil.h"
#include "LaunchDescription.h"
#include "LaunchPlan.h"
#include "RunDriver.h"
#include "stencil-runtime/StencilRuntime.h"
#ifdef STENCIL_RUN_HAVE_MULTI_GPU
#include "MultiRun.h"
#endif
#ifdef STENCIL_RUN_HAVE_ROOFLINE
#include "Roofline.h"
#endif

#include <cuda.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using namespace stencil_run;

// The helpers RunDriver.h declares.

[[noreturn]] void stencil_run::fatal(const std::string &msg) {
  std::fprintf(stderr, "stencil-run: error: %s\n", msg.c_str());
  std::exit(2);
}

void stencil_run::checkCu(CUresult res, const char *expr, const char *file,
                          int line) {
  if (res == CUDA_SUCCESS)
    return;
  const char *name = nullptr, *str = nullptr;
  if (cuGetErrorName(res, &name) != CUDA_SUCCESS || !name)
    name = res == 34 ? "CUDA_ERROR_STUB_LIBRARY (the stub libcuda was "
                       "loaded: no NVIDIA driver on this machine?)"
                     : "unknown CUresult";
  if (cuGetErrorString(res, &str) != CUDA_SUCCESS || !str)
    str = "";
  std::fprintf(stderr, "stencil-run: error: %s failed: %s (%d): %s [%s:%d]\n",
               expr, name, static_cast<int>(res), str, file, line);
  std::exit(2);
}

std::string stencil_run::gridText(const std::vector<int64_t> &g) {
  std::string s;
  for (size_t i = 0; i < g.size(); ++i)
    s += (i ? "x" : "") + std::to_string(g[i]);
  return s;
}

/// Threads of the host work (input, packing, the reference): --threads, or
/// all.
unsigned stencil_run::hostThreads(const Options &opts) {
  return opts.threads ? opts.threads
                      : std::max(1u, std::thread::hardware_concurrency());
}

namespace {

[[noreturn]] void usageError(const std::string &msg) {
  std::fprintf(stderr, "stencil-run: error: %s\n(see stencil-run --help)\n",
               msg.c_str());
  std::exit(2);
}

const char *kHelp = R"(usage:
  stencil-run DESC.launch --grid N0,N1[,N2] [options]
  stencil-run --roofline [--device D] [--copy-bytes B] [--profile-out FILE]

Runs the PTX kernel of one stencil time step described by DESC.launch
(docs/LaunchDescription.md) for T steps on a dense row-major grid
(ping-pong; with the halo boundary the halo keeps the input values;
periodic and dirichlet(v) compute every point), reports time and
GStencil/s, and checks the result against an f64 CPU implementation of the
description's offsets/weights or general body. A
kernel fusing steps (steps_per_launch = F in the description) runs
floor(T / F) launches of F steps each, then T mod F launches of its
one-step tail kernel (tail_kernel; a description without one needs T a
multiple of F).

options:
  --grid N0,N1[,N2]    grid size, OUTERMOST dimension first (like the .npy
                       shape); the count must equal the description's rank
  --steps T            timed time steps (default 10); without a tail kernel
                       a multiple of steps_per_launch (the default rounded
                       up to one)
  --warmup W           warm-up steps before timing (default 1, rounded up to
                       whole launches); they run on the same buffers, which
                       are then re-initialized
  --input X.npy        input grid ('<f2', '<f4' or '<f8', C order, shape =
                       --grid); rounded to the element type
  --seed S             seed of the random input, uniform in [-1, 1) rounded to
                       the element type (default 1)
  --save-input X.npy   write the (rounded) input grid
  --save-output Y.npy  write the result after the T timed steps (bf16 is
                       saved as '<f4', exactly)
  --no-check           skip the CPU check
  --check-steps K      steps of the separate check run when checking the full
                       T steps would cost more than --check-limit (default 2,
                       without a tail kernel rounded up to a multiple of
                       steps_per_launch)
  --check-limit OPS    largest T * points * P (stencil points) checked
                       directly against the timed result (default 2e10)
  --threads N          CPU threads of the host work: input, packing, the
                       reference (default: all)
  --device D           CUDA device ordinal (default 0)
  --ptx FILE           use FILE instead of the description's 'ptx'
  --weights W0,W1,...  run with these weights instead of the compiled ones
                       (one per offset of the description, same order):
                       libStencilRuntime packs them as the compiler would
                       (stencil_kernel_set_weights) and the check uses them;
                       an error for kernels without a repacking recipe
  --verbose            print the PTX JIT log and kernel attributes
  --gpus N             also run the grid split over GPUs 0 .. N-1 along its
                       outermost dimension (libStencilMultiGpu, NCCL halo
                       exchange overlapped with the interior; docs/MultiGPU.md)
                       and check that its result equals the 1-GPU result bit
                       for bit; times it with the overlap, without it, and
                       the compute and the exchange alone ('MULTI' line)
  --same-device        with --gpus: all ranks on --device (a test of the
                       decomposition on one GPU; the halos move by device
                       copies, NCCL refusing two ranks on one GPU)
  --no-single          with --gpus: skip the 1-GPU run (a grid larger than one
                       GPU): the random input is made and uploaded in chunks
                       of planes, and the check compares a separate
                       --check-steps run with the CPU reference on windows of
                       planes around every slab boundary, the grid's edges and
                       a few random planes
  --roofline           measure device bandwidth (1 GiB cuMemcpyDtoD, read +
                       write bytes) and the peak TFLOP/s of mma.sync m16n8k16
                       / mma.sp m16n8k32 f16->f32 (sparse counted
                       dense-equivalent), mma.sync m8n8k4 f64 (sm_90: also
                       m16n8k4/k8/k16 f64), fma.rn.f32 and fma.rn.f64; one
                       'ROOFLINE unit=... gbs=|tflops=...' line per figure
  --copy-bytes B       bytes copied by the roofline bandwidth test (1 GiB)
  --profile-out FILE   with --roofline: also write the figures and the
                       device's limits as a device profile for the compiler's
                       device-profile= option (docs/DeviceProfile.md)

throughput: GStencil/s = T * (all grid points, halo included) / s / 1e9.

check tolerance (M = max |value| of the reference over the input and every
step, S = sum |w_i|, P = number of stencil points, u = unit roundoff of the
element type (f16 2^-11, bf16 2^-8, f32 2^-24, f64 2^-53), u_acc = that of the
accumulator, eta = subnormal spacing of the element type):
  per step  d   = S*M*(2u + u + 2*P*u_acc + P*2^-53) + eta
            (both results rounded once: 2u; weights possibly rounded to the
             element type: u; accumulation: 2*P*u_acc; CPU f64 sum: P*2^-53)
            + C*M*(3u + 2*P*u_acc) for a chain rounding an intermediate
            product (launch description field chain_abs_sum = C)
  step t    e_t = S*e_{t-1} + d,  e_0 = 0
  tol_T     = d * (1 + S + ... + S^(T-1))
general body (description key 'body'): a running error analysis of the body
per point (runtime/lib/BodyExpr.h), every operation rounded with
u + 2^-53 (+ 2^-24 for f16/bf16, which may compute in f32), each step
starting from the previous step's bound; tol_T = that bound after T steps
composed launches (description keys 'composed_abs_sum' = S_c,
'composed_points' = P_c, steps_per_launch = F; the band kernel's direct
steps near the edge):
  per launch  d_F = S_c*M*(3u + 2*P_c*u_acc + P_c*2^-53) + eta
                    + d*(1 + S + ... + S^(F-1))
  tol_T     = d_F * (1 + S^F + ... + S^(F(T/F - 1)))
FFT launches (description key 'fft_error_bound' = E, steps_per_launch = F):
  per launch  d_F = E*M + d*(1 + S + ... + S^(F-1))  (the transforms'
            documented bound, plus F steps of per-step rounding: the
            reference's, or the direct steps at the grid's edge)
  tol_T     = d_F * (1 + S^F + ... + S^(F(T/F - 1)))
PASS when every point's |gpu - cpu| <= tol_T (NaN/Inf fails).

exit status: 0 ok/PASS, 1 check FAIL, 2 usage, file or CUDA error.
)";

long long parseIntArg(const std::string &opt, const std::string &v,
                      long long min) {
  char *end = nullptr;
  errno = 0;
  long long x = std::strtoll(v.c_str(), &end, 10);
  if (v.empty() || errno || *end != '\0' || x < min)
    usageError(opt + " expects an integer >= " + std::to_string(min) +
               ", got '" + v + "'");
  return x;
}

/// `v` as a number (strtod), when that is the whole of it.
bool parseNumberArg(const std::string &v, double &x) {
  char *end = nullptr;
  x = std::strtod(v.c_str(), &end);
  return !v.empty() && *end == '\0';
}

/// The options that set one field: a flag, a text, or an integer of at
/// least a bound (the others are parseArgs' own). False for any other `a`.
bool parseFieldOption(const std::string &a,
                      const std::function<std::string()> &value, Options &o) {
  struct Flag {
    const char *name;
    bool Options::*field;
    bool value;
  };
  static const Flag flags[] = {
      {"--no-check", &Options::check, false},
      {"--same-device", &Options::sameDevice, true},
      {"--no-single", &Options::noSingle, true},
      {"--verbose", &Options::verbose, true},
      {"-v", &Options::verbose, true},
      {"--roofline", &Options::roofline, true},
  };
  static const std::pair<const char *, std::string Options::*> texts[] = {
      {"--input", &Options::input},
      {"--save-input", &Options::saveInput},
      {"--save-output", &Options::saveOutput},
      {"--ptx", &Options::ptxOverride},
      {"--profile-out", &Options::profileOut},
  };
  struct Integer {
    const char *name;
    long long min;
    void (*set)(Options &, long long);
  };
  static const Integer integers[] = {
      {"--steps", 1,
       [](Options &o, long long v) {
         o.steps = int(v);
         o.stepsGiven = true;
       }},
      {"--warmup", 0, [](Options &o, long long v) { o.warmup = int(v); }},
      {"--seed", 0, [](Options &o, long long v) { o.seed = uint64_t(v); }},
      {"--check-steps", 1,
       [](Options &o, long long v) { o.checkSteps = int(v); }},
      {"--threads", 1,
       [](Options &o, long long v) { o.threads = unsigned(v); }},
      {"--device", 0, [](Options &o, long long v) { o.device = int(v); }},
      {"--gpus", 1, [](Options &o, long long v) { o.gpus = int(v); }},
      {"--copy-bytes", 1 << 20,
       [](Options &o, long long v) { o.copyBytes = size_t(v); }},
  };
  for (const Flag &flag : flags)
    if (a == flag.name) {
      o.*flag.field = flag.value;
      return true;
    }
  for (const auto &[name, field] : texts)
    if (a == name) {
      o.*field = value();
      return true;
    }
  for (const Integer &integer : integers)
    if (a == integer.name) {
      integer.set(o, parseIntArg(a, value(), integer.min));
      return true;
    }
  return false;
}

Options parseArgs(int argc, char **argv) {
  // "--opt=value" -> "--opt", "value".
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    size_t eq = a.find('=');
    if (a.rfind("--", 0) == 0 && eq != std::string::npos) {
      args.push_back(a.substr(0, eq));
      args.push_back(a.substr(eq + 1));
    } else {
      args.push_back(a);
    }
  }
  Options o;
  size_t i = 0;
  auto value = [&]() -> std::string {
    if (i + 1 >= args.size())
      usageError(args[i] + " needs a value");
    return args[++i];
  };
  for (; i < args.size(); ++i) {
    const std::string a = args[i];
    if (a == "-h" || a == "--help") {
      std::fputs(kHelp, stdout);
      std::exit(0);
    } else if (a == "--grid") {
      std::string v = value();
      o.grid.clear();
      std::stringstream ss(v);
      std::string item;
      while (std::getline(ss, item, ','))
        o.grid.push_back(parseIntArg("--grid", item, 1));
      if (o.grid.empty() || o.grid.size() > 3)
        usageError("--grid expects 1 to 3 comma-separated sizes");
    } else if (a == "--check-limit") {
      std::string v = value();
      if (!parseNumberArg(v, o.checkLimit) || !(o.checkLimit >= 0))
        usageError("--check-limit expects a number >= 0, got '" + v + "'");
    } else if (a == "--weights") {
      std::string list = value();
      size_t start = 0;
      while (true) {
        size_t comma = list.find(',', start);
        std::string item =
            list.substr(start, comma == std::string::npos ? std::string::npos
                                                          : comma - start);
        double w;
        if (!parseNumberArg(item, w) || !std::isfinite(w))
          usageError("--weights: '" + item + "' is not a finite number");
        o.weights.push_back(w);
        if (comma == std::string::npos)
          break;
        start = comma + 1;
      }
    } else if (parseFieldOption(a, value, o)) {
      // A flag, a text or an integer: set.
    } else if (!a.empty() && a[0] == '-') {
      usageError("unknown option '" + a + "'");
    } else if (o.descPath.empty()) {
      o.descPath = a;
    } else {
      usageError("more than one launch description ('" + o.descPath +
                 "', '" + a + "')");
    }
  }
  return o;
}

/// The kernel (libStencilRuntime) and the two grid buffers of a run.
struct GpuStencil {
  stencil_kernel *kernel = nullptr;
  std::vector<int64_t> dims;
  CUdeviceptr buf[2] = {0, 0};
  size_t bytes = 0;

  /// `steps` steps on `stream` (whole launches: those of the kernel, then
  /// of its tail kernel), launch l reading buf[l % 2] and writing buf[(l +
  /// 1) % 2], both buffers holding the grid's halo already; returns the
  /// index of the buffer holding the result.
  int launch(int steps, CUstream stream) {
    if (steps == 0)
      return 0;
    CUdeviceptr result = 0;
    stencil_status s = stencil_kernel_run(
        kernel, buf[0], buf[1], dims.data(), static_cast<int>(dims.size()),
        static_cast<int64_t>(steps), stream, STENCIL_RUN_OUT_INITIALIZED,
        &result);
    if (s != STENCIL_SUCCESS)
      fatal(stencil_last_error());
    return result == buf[1] ? 1 : 0;
  }

  void upload(const std::vector<uint8_t> &host) {
    CU(cuMemcpyHtoD(buf[0], host.data(), bytes));
    CU(cuMemcpyHtoD(buf[1], host.data(), bytes));
  }

  /// Runs `steps` steps from `host`; returns the last-written buffer.
  std::vector<uint8_t> run(const std::vector<uint8_t> &host, int steps) {
    upload(host);
    int last = launch(steps, nullptr);
    CU(cuCtxSynchronize());
    std::vector<uint8_t> out(bytes);
    CU(cuMemcpyDtoH(out.data(), buf[last], bytes));
    return out;
  }
};

CheckResult compare(const std::vector<int64_t> &dims,
                    const std::vector<double> &cpu,
                    const std::vector<double> &gpu, CheckResult r,
                    int64_t planeBegin, int64_t planeEnd);

} // namespace

/// Compares `gpu` with `steps` steps of the CPU reference on the grid
/// `dims` from `input`; only planes [planeBegin, planeEnd) of the
/// outermost dimension (all for planeEnd < 0), which `gpu` holds.
CheckResult stencil_run::check(const LaunchDescription &desc,
                               const Options &opts,
                               const std::vector<int64_t> &dims,
                               const std::vector<double> &input,
                               const std::vector<double> &gpu, int steps,
                               int64_t planeBegin, int64_t planeEnd) {
  if (planeEnd < 0)
    planeEnd = dims[0];
  ReferenceStencil ref;
  ref.rank = desc.rank;
  ref.dims = dims;
  ref.offsets = desc.offsets;
  ref.weights = desc.weights;
  ref.body = desc.hasBody ? &desc.body : nullptr;
  ref.elementType = desc.elementType;
  ref.boundary = desc.boundary;
  ref.dirichletValue = roundTo(desc.elementType, desc.dirichletValue);
  unsigned threads = hostThreads(opts);
  CheckResult r;
  double u = unitRoundoff(desc.elementType);
  if (desc.hasBody) {
    // The body runs in the element type; f16/bf16 operations may be done in
    // f32 and rounded again (u + 2^-24); the reference's own f64 evaluation
    // adds 2^-53 per operation.
    BodyRounding rounding;
    rounding.u = u + std::ldexp(1.0, -53) +
                 (elemTypeBytes(desc.elementType) < 4 ? std::ldexp(1.0, -24)
                                                      : 0.0);
    rounding.eta = subnormalSpacing(desc.elementType);
    std::vector<double> cpu = runReference(ref, input, steps, threads,
                                           r.maxAbs, rounding, &r.tol);
    return compare(dims, cpu, gpu, r, planeBegin, planeEnd);
  }
  std::vector<double> cpu = runReference(ref, input, steps, threads, r.maxAbs);

  double S = 0;
  for (double w : desc.weights)
    S += std::fabs(w);
  double P = static_cast<double>(desc.weights.size());
  double uAcc = unitRoundoff(desc.accumulator);
  double d = S * r.maxAbs *
                 (2 * u + u + 2 * P * uAcc + P * std::ldexp(1.0, -53)) +
             subnormalSpacing(desc.elementType);
  // A chain rounding T_k = X V_k to the element type, its factors u_k and
  // v_k rounded separately: u + 2u + the accumulation of both stages, scaled
  // by C = Sum_k |u_k|_1 |v_k|_1 (>= S).
  d += desc.chainAbsSum * r.maxAbs * (3 * u + 2 * P * uAcc);
  double geometric = 0, power = 1;
  for (int t = 0; t < steps; ++t) {
    geometric += power;
    power *= S;
  }
  r.tol = d * geometric;
  // A launch of F fused steps whose own error is `launchError` (times M):
  // per launch that plus what F steps of the reference's per-step rounding
  // d (1 + S + ... + S^(F-1)) may differ by; the error of earlier launches
  // grows by at most S^F per launch. Then the tail kernel's launches (g =
  // tail_steps steps each, for the S mod F steps left over) likewise, with
  // their own error `tailError` (0 for direct steps, which d covers).
  auto fusedLaunchTolerance = [&](double launchError, double tailError) {
    auto launches = [&](int each, int count, double ownError, double tol) {
      double direct = 0, power = 1;
      for (int t = 0; t < each; ++t) {
        direct += power;
        power *= S;
      }
      for (int l = 0; l < count; ++l)
        tol = tol * power + ownError + d * direct;
      return tol;
    };
    int fused = desc.stepsPerLaunch;
    double tol = launches(fused, steps / fused, launchError, 0);
    if (steps % fused != 0 && desc.tailSteps > 0)
      tol = launches(desc.tailSteps, (steps % fused) / desc.tailSteps,
                     tailError, tol);
    return tol;
  };
  if (desc.composedPoints > 0) {
    // Composed weights W (Sum |W| = S_c, P_c points) on the exact region, F
    // direct steps in the band: the composed sum against the exact F steps,
    // S_c M (2u + u + 2 P_c u_acc + P_c 2^-53) + eta (both results rounded,
    // W rounded to the element type, the accumulation, W's own f64
    // composition); d (1 + ... + S^(F-1)) also bounds the band's direct
    // steps.
    double Pc = static_cast<double>(desc.composedPoints);
    // The tail kernel's steps are direct.
    r.tol = fusedLaunchTolerance(
        desc.composedAbsSum * r.maxAbs *
                (3 * u + 2 * Pc * uAcc + Pc * std::ldexp(1.0, -53)) +
            subnormalSpacing(desc.elementType),
        0);
  }
  if (desc.fftErrorBound > 0) {
    // Transforms: their error fft_error_bound * M (d covers the reference's
    // rounding, or the direct steps at the grid's edge).
    // fft_error_bound bounds the tail kernel's transforms too.
    r.tol = fusedLaunchTolerance(desc.fftErrorBound * r.maxAbs,
                                 desc.fftErrorBound * r.maxAbs);
  }
  return compare(dims, cpu, gpu, r, planeBegin, planeEnd);
}

namespace {

/// Compares `gpu` (planes [planeBegin, planeEnd) of the grid) with the
/// same planes of the reference `cpu` within `r.tol`; fills the rest of
/// `r`.
CheckResult compare(const std::vector<int64_t> &allDims,
                    const std::vector<double> &allCpu,
                    const std::vector<double> &gpu, CheckResult r,
                    int64_t planeBegin, int64_t planeEnd) {
  std::vector<int64_t> dims = allDims;
  dims[0] = planeEnd - planeBegin;
  const size_t plane = allCpu.size() / size_t(allDims[0]);
  std::vector<double> cpu(allCpu.begin() + planeBegin * plane,
                          allCpu.begin() + planeEnd * plane);
  if (gpu.size() != cpu.size())
    fatal("internal error: comparing " + std::to_string(gpu.size()) +
          " values with " + std::to_string(cpu.size()));
  bool finite = true;
  for (size_t i = 0; i < cpu.size(); ++i) {
    double e = std::fabs(gpu[i] - cpu[i]);
    if (!std::isfinite(gpu[i]) || !std::isfinite(cpu[i])) {
      finite = false; // the first such point becomes the worst
      e = std::numeric_limits<double>::infinity();
    }
    if (e > r.tol)
      ++r.bad;
    if (e > r.maxErr) {
      r.maxErr = e;
      r.worst = i;
    }
  }
  r.pass = finite && r.bad == 0;
  if (!r.pass) {
    // Where: the worst point's coordinates, and its values.
    std::vector<int64_t> c(dims.size());
    size_t lin = r.worst;
    for (int dIdx = static_cast<int>(dims.size()) - 1; dIdx >= 0; --dIdx) {
      c[dIdx] = static_cast<int64_t>(lin % dims[dIdx]);
      lin /= dims[dIdx];
    }
    std::string at;
    c[0] += planeBegin;
    for (size_t k = 0; k < c.size(); ++k)
      at += (k ? "," : "") + std::to_string(c[k]);
    std::printf("  worst point (%s): gpu %.9g, cpu %.9g; %zu of %zu points "
                "over the tolerance\n",
                at.c_str(), gpu[r.worst], cpu[r.worst], r.bad, cpu.size());
  }
  return r;
}

std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    fatal("cannot open PTX file '" + path + "'");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

} // namespace

namespace {
/// The option combinations parseArgs cannot check alone (the roofline
/// aside).
void checkRunOptions(const Options &opts) {
  if (opts.descPath.empty())
    usageError("no launch description given");
  if (opts.grid.empty())
    usageError("--grid is required");
  if ((opts.noSingle || opts.sameDevice) && opts.gpus < 2)
    usageError(std::string(opts.noSingle ? "--no-single" : "--same-device") +
               " needs --gpus 2 or more");
  if (opts.gpus > 1 && (!opts.ptxOverride.empty() || !opts.weights.empty()))
    usageError("--gpus runs the description's PTX and weights: no --ptx or "
               "--weights");
  if (opts.noSingle && (!opts.input.empty() || !opts.saveInput.empty() ||
                        !opts.saveOutput.empty()))
    usageError("--no-single makes its random input in chunks: no --input, "
               "--save-input or --save-output");
#ifndef STENCIL_RUN_HAVE_MULTI_GPU
  if (opts.gpus > 1)
    fatal("--gpus: this stencil-run was built without NCCL "
          "(libStencilMultiGpu); rebuild with NCCL found by CMake "
          "(STENCIL_NCCL_ROOT, or python3's nvidia-nccl-cu13 wheel)");
#endif
}

/// The description (its warnings printed, --ptx applied), checked against
/// --grid; --steps rounded up to whole launches when not given, and
/// checked against them when given.
LaunchDescription readDescription(Options &opts) {
  LaunchDescription desc;
  std::string error;
  std::vector<std::string> warnings;
  if (!parseLaunchDescription(opts.descPath, desc, error, warnings))
    fatal(error);
  for (const std::string &w : warnings)
    std::fprintf(stderr, "stencil-run: warning: %s\n", w.c_str());
  if (!opts.ptxOverride.empty())
    desc.ptxPath = opts.ptxOverride;
  if (static_cast<int>(opts.grid.size()) != desc.rank)
    usageError("--grid has " + std::to_string(opts.grid.size()) +
               " sizes but the stencil has rank " + std::to_string(desc.rank));
  // A launch computes steps_per_launch steps, a tail launch tail_steps: T
  // must be whole launches (any T with a one-step tail kernel).
  if (!opts.stepsGiven)
    opts.steps = static_cast<int>(
        stencil_runtime::roundUpToWholeLaunches(desc, opts.steps));
  int64_t launches = 0, tailLaunches = 0;
  if (stencil_runtime::planSteps(desc, opts.steps, launches, tailLaunches,
                                 error) != STENCIL_SUCCESS)
    usageError("--steps: " + error);
  return desc;
}

/// The input grid: --input (rounded to the element type, and said so), or
/// random values; saved to --save-input when asked.
std::vector<double> makeInput(const Options &opts, ElemType et, size_t points,
                              unsigned threads) {
  std::vector<double> input;
  std::string error;
  if (!opts.input.empty()) {
    std::vector<int64_t> shape;
    std::string dtype;
    if (!readNpy(opts.input, shape, input, dtype, error))
      fatal(error);
    if (shape != opts.grid)
      fatal("--input '" + opts.input + "' has shape " + gridText(shape) +
            ", --grid is " + gridText(opts.grid));
    size_t changed = 0;
    for (double &v : input) {
      double r = roundTo(et, v);
      changed += (r != v);
      v = r;
    }
    if (changed)
      std::printf("input: %s (%s), %zu values rounded to %s\n",
                  opts.input.c_str(), dtype.c_str(), changed,
                  elemTypeName(et));
    else
      std::printf("input: %s (%s)\n", opts.input.c_str(), dtype.c_str());
  } else {
    input = randomInput(points, et, opts.seed, threads);
    std::printf("input: random uniform [-1, 1), seed %llu, rounded to %s\n",
                static_cast<unsigned long long>(opts.seed), elemTypeName(et));
  }
  if (!opts.saveInput.empty() &&
      !writeNpy(opts.saveInput, opts.grid, input, npyDtypeFor(et), error))
    fatal(error);
  return input;
}

/// The --device GPU, its primary context current.
struct Device {
  CUdevice dev = 0;
  int count = 0;
  char name[256] = {0};
  int ccMajor = 0, ccMinor = 0;
};
Device openDevice(const Options &opts) {
  Device d;
  CU(cuInit(0));
  CU(cuDeviceGetCount(&d.count));
  if (opts.device >= d.count)
    fatal("--device " + std::to_string(opts.device) + " but only " +
          std::to_string(d.count) + " CUDA device(s)");
  CU(cuDeviceGet(&d.dev, opts.device));
  CU(cuDeviceGetName(d.name, sizeof(d.name) - 1, d.dev));
  CU(cuDeviceGetAttribute(&d.ccMajor,
                          CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, d.dev));
  CU(cuDeviceGetAttribute(&d.ccMinor,
                          CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, d.dev));
  CUcontext ctx;
  CU(cuDevicePrimaryCtxRetain(&ctx, d.dev));
  CU(cuCtxSetCurrent(ctx));
  return d;
}

/// The kernel, through libStencilRuntime (its description again, with the
/// --ptx override when given), with the --weights replaced; `desc` gets
/// them too, for the reference.
void loadKernel(const Options &opts, const Device &device,
                LaunchDescription &desc, GpuStencil &g) {
  stencil_status loaded =
      opts.ptxOverride.empty()
          ? stencil_kernel_load_file(opts.descPath.c_str(), &g.kernel)
          : [&] {
              std::string text = readFile(opts.descPath);
              std::string ptx = readFile(opts.ptxOverride);
              return stencil_kernel_load_memory(
                  text.data(), text.size(), ptx.data(), ptx.size(),
                  opts.descPath.c_str(), &g.kernel);
            }();
  if (loaded != STENCIL_SUCCESS)
    fatal(stencil_last_error());
  if (!opts.weights.empty()) {
    // Replaced weights: packed by the runtime, and the reference's.
    if (stencil_kernel_set_weights(g.kernel, opts.weights.data(),
                                   int64_t(opts.weights.size()),
                                   nullptr) != STENCIL_SUCCESS)
      fatal(std::string("--weights: ") + stencil_last_error());
    desc.weights = opts.weights;
    std::printf("weights: %zu replaced at run time (repacked by "
                "libStencilRuntime)\n",
                opts.weights.size());
  }
  if (stencil_kernel_prepare(g.kernel) != STENCIL_SUCCESS)
    fatal("loading PTX '" + desc.ptxPath + "' for sm_" +
          std::to_string(device.ccMajor) + std::to_string(device.ccMinor) +
          ": " + stencil_last_error());
  if (opts.verbose && *stencil_kernel_jit_log(g.kernel))
    std::printf("JIT log:\n%s\n", stencil_kernel_jit_log(g.kernel));
}

/// The device, the kernel's resources and the launch geometry the runtime
/// uses.
void printSetup(const LaunchDescription &desc, const Device &device,
                const GpuStencil &g, const stencil_runtime::LaunchPlan &plan,
                size_t points) {
  CUfunction fn = nullptr, bandFn = nullptr;
  if (stencil_kernel_functions(g.kernel, &fn, &bandFn) != STENCIL_SUCCESS)
    fatal(stencil_last_error());
  int regs = 0, localBytes = 0, staticShared = 0;
  CU(cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, fn));
  CU(cuFuncGetAttribute(&localBytes, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, fn));
  CU(cuFuncGetAttribute(&staticShared, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES,
                        fn));
  std::printf("device: %s (sm_%d%d)\n", device.name, device.ccMajor,
              device.ccMinor);
  std::printf("kernel: %s from %s (%d registers, %d B local, %d B static + "
              "%u B dynamic shared)\n",
              desc.kernel.c_str(), desc.ptxPath.c_str(), regs, localBytes,
              staticShared, plan.sharedBytes);
  std::printf("grid: %s %s (%zu points), stencil %zu points; launch %ux%ux%u "
              "blocks of %ux%ux%u threads\n",
              gridText(g.dims).c_str(), elemTypeName(desc.elementType), points,
              desc.offsets.size(), plan.grid[0], plan.grid[1], plan.grid[2],
              plan.block[0], plan.block[1], plan.block[2]);
  if (bandFn)
    std::printf("band kernel: %s, %u blocks of %ux%ux%u threads after each "
                "launch\n",
                desc.bandKernel.c_str(), plan.bandBlocks, plan.bandBlock[0],
                plan.bandBlock[1], plan.bandBlock[2]);
  if (plan.tailLaunches > 0)
    std::printf("tail kernel: %s, %ux%ux%u blocks of %ux%ux%u threads, %lld "
                "launch(es) of %d step(s) after the fused ones\n",
                desc.tailKernel.c_str(), plan.tailGrid[0], plan.tailGrid[1],
                plan.tailGrid[2], plan.tailBlock[0], plan.tailBlock[1],
                plan.tailBlock[2], static_cast<long long>(plan.tailLaunches),
                desc.tailSteps);
  if (localBytes > 0)
    std::printf("warning: kernel uses %d B of local memory per thread "
                "(register spills?)\n",
                localBytes);
}

/// The warm-up (whole launches), then the timed run of --steps from
/// `hostInput` in both buffers: its milliseconds, its result in `result`.
float timeRun(const Options &opts, const LaunchDescription &desc, GpuStencil &g,
              const std::vector<uint8_t> &hostInput,
              std::vector<uint8_t> &result) {
  if (opts.warmup > 0) {
    g.upload(hostInput);
    g.launch(static_cast<int>(
                 stencil_runtime::roundUpToWholeLaunches(desc, opts.warmup)),
             nullptr);
    CU(cuCtxSynchronize());
  }
  g.upload(hostInput);
  CU(cuCtxSynchronize());
  CUevent start, stop;
  CU(cuEventCreate(&start, CU_EVENT_DEFAULT));
  CU(cuEventCreate(&stop, CU_EVENT_DEFAULT));
  CU(cuEventRecord(start, nullptr));
  const int last = g.launch(opts.steps, nullptr);
  CU(cuEventRecord(stop, nullptr));
  CU(cuEventSynchronize(stop));
  float ms = 0;
  CU(cuEventElapsedTime(&ms, start, stop));
  result.resize(g.bytes);
  CU(cuMemcpyDtoH(result.data(), g.buf[last], g.bytes));
  CU(cuEventDestroy(start));
  CU(cuEventDestroy(stop));
  return ms;
}

/// The steps, the time and the throughput of the timed run.
void printTiming(const Options &opts, const LaunchDescription &desc,
                 size_t points, float ms, double gstencils) {
  const int fused = desc.stepsPerLaunch;
  const int launches = opts.steps / fused;
  const int tailLaunches =
      desc.tailSteps > 0 ? (opts.steps % fused) / desc.tailSteps : 0;
  std::printf("steps: %d (after %d warm-up)", opts.steps, opts.warmup);
  if (fused > 1)
    std::printf(", %d launches of %d fused steps", launches, fused);
  if (tailLaunches > 0)
    std::printf(" and %d tail launch(es) of %d step(s)", tailLaunches,
                desc.tailSteps);
  std::printf("\n");
  std::printf("time: %.4f ms total, %.4f ms/step\n", ms, ms / opts.steps);
  std::printf("throughput: %.3f GStencil/s (all grid points counted), "
              "%.1f GB/s effective (1 read + 1 write per point)\n",
              gstencils,
              2.0 * elemTypeBytes(desc.elementType) * opts.steps * points /
                  (ms * 1e-3) / 1e9);
}

/// The check against the f64 reference: of the timed run's `gpuOut`, or,
/// above --check-limit operations, of a separate run of --check-steps
/// (whole launches) from the same input.
CheckResult checkRun(const Options &opts, const LaunchDescription &desc,
                     GpuStencil &g, const std::vector<double> &input,
                     const std::vector<uint8_t> &hostInput,
                     const std::vector<double> &gpuOut, size_t points,
                     unsigned threads, int &checkSteps) {
  double work = static_cast<double>(opts.steps) * points *
                static_cast<double>(desc.offsets.size());
  checkSteps = opts.steps;
  std::vector<double> checked = gpuOut;
  if (work > opts.checkLimit) {
    // Whole launches (T is): rounded up to them, at most T.
    checkSteps =
        std::min(static_cast<int>(stencil_runtime::roundUpToWholeLaunches(
                     desc, opts.checkSteps)),
                 opts.steps);
    std::printf("check: full %d-step check would cost %.3g > %.3g "
                "operations (--check-limit); checking a separate %d-step "
                "run from the same input instead (--check-steps)\n",
                opts.steps, work, opts.checkLimit, checkSteps);
    checked =
        unpackElements(g.run(hostInput, checkSteps), desc.elementType, threads);
  }
  return check(desc, opts, opts.grid, input, checked, checkSteps);
}
} // namespace

int main(int argc, char **argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  Options opts = parseArgs(argc, argv);
  if (!opts.profileOut.empty() && !opts.roofline)
    usageError("--profile-out needs --roofline");
  if (opts.roofline) {
#ifdef STENCIL_RUN_HAVE_ROOFLINE
    CU(cuInit(0));
    return runRoofline(opts.device, opts.copyBytes,
                       opts.profileOut.empty() ? nullptr
                                               : opts.profileOut.c_str());
#else
    fatal("this stencil-run was built without a CUDA compiler; --roofline "
          "is unavailable (rebuild with nvcc found by CMake)");
#endif
  }
  checkRunOptions(opts);
  LaunchDescription desc = readDescription(opts);
#ifdef STENCIL_RUN_HAVE_MULTI_GPU
  if (opts.noSingle)
    return runMultiOnly(desc, opts);
#endif
  const std::vector<int64_t> &dims = opts.grid;
  size_t points = 1;
  for (int64_t d : dims)
    points *= static_cast<size_t>(d);
  const ElemType et = desc.elementType;
  // Host work (input, packing, the reference) on --threads threads.
  const unsigned threads = hostThreads(opts);
  std::vector<double> input = makeInput(opts, et, points, threads);
  std::vector<uint8_t> hostInput = packElements(input, et, threads);

  Device device = openDevice(opts);
  GpuStencil g;
  g.dims = dims;
  loadKernel(opts, device, desc, g);
  stencil_runtime::LaunchPlan plan;
  std::string error;
  if (stencil_runtime::planLaunches(desc, dims, opts.steps, plan, error) !=
      STENCIL_SUCCESS)
    fatal(error);
  g.bytes = points * elemTypeBytes(et);
  CU(cuMemAlloc(&g.buf[0], g.bytes));
  CU(cuMemAlloc(&g.buf[1], g.bytes));
  printSetup(desc, device, g, plan, points);

  std::vector<uint8_t> result;
  float ms = timeRun(opts, desc, g, hostInput, result);
  double gstencils =
      static_cast<double>(opts.steps) * points / (ms * 1e-3) / 1e9;
  printTiming(opts, desc, points, ms, gstencils);
  std::vector<double> gpuOut = unpackElements(result, et, threads);
  if (!opts.saveOutput.empty() &&
      !writeNpy(opts.saveOutput, dims, gpuOut, npyDtypeFor(et), error))
    fatal(error);

  int exitCode = 0;
  std::string checkWord = "SKIPPED";
  double maxErr = 0, tol = 0;
  if (opts.check) {
    int checkSteps = 0;
    CheckResult r = checkRun(opts, desc, g, input, hostInput, gpuOut, points,
                             threads, checkSteps);
    maxErr = r.maxErr;
    tol = r.tol;
    checkWord = r.pass ? "PASS" : "FAIL";
    std::printf("check: %d steps vs f64 CPU reference: max abs error %.6g, "
                "tolerance %.6g (max |value| %.6g): %s\n",
                checkSteps, r.maxErr, r.tol, r.maxAbs, checkWord.c_str());
    if (!r.pass)
      exitCode = 1;
  }
#ifdef STENCIL_RUN_HAVE_MULTI_GPU
  if (opts.gpus > 1 &&
      runMultiAfterSingle(desc, opts, device.count, hostInput, result, ms,
                          checkWord, maxErr, tol) != 0)
    exitCode = 1;
#endif
  // One machine-readable line for bench scripts.
  std::printf("RESULT kernel=%s device=\"%s\" grid=%s type=%s steps=%d "
              "ms=%.6f gstencil_s=%.6f check=%s max_err=%.6g tol=%.6g\n",
              desc.kernel.c_str(), device.name, gridText(dims).c_str(),
              elemTypeName(et), opts.steps, ms, gstencils, checkWord.c_str(),
              maxErr, tol);
  CU(cuMemFree(g.buf[0]));
  CU(cuMemFree(g.buf[1]));
  stencil_kernel_destroy(g.kernel);
  CU(cuDevicePrimaryCtxRelease(device.dev));
  return exitCode;
}
