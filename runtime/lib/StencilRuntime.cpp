//===- StencilRuntime.cpp - The C API of libStencilRuntime ----------------===//
//
// See include/stencil-runtime/StencilRuntime.h. The description is parsed by
// the launch description reader (LaunchDescription.h), the launches
// planned by LaunchPlan.h, and run through the CUDA driver API.
//
//===----------------------------------------------------------------------===//

#include "stencil-runtime/StencilRuntime.h"

#include "HostUtil.h"
#include "LaunchDescription.h"
#include "LaunchPlan.h"
#include "ReturnOnFailure.h"

#include <dlfcn.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using namespace stencil_run;
using namespace stencil_runtime;

struct stencil_kernel {
  LaunchDescription desc;
  std::string ptx;
  std::vector<int64_t> radii;
  // Set at the first run, in the context current then.
  CUcontext context = nullptr;
  CUmodule module = nullptr;
  CUfunction function = nullptr, bandFunction = nullptr,
             tailFunction = nullptr;
  CUdeviceptr coeffs = 0;
  uint64_t numCoeffs = 0;
  // Weights set before the module was loaded, for a kernel with a weights
  // global (written at the load).
  bool weightsReplaced = false;
  std::string jitLog;
  // The last run's arguments, reused while its grid and buffers repeat (two
  // parities: launch l reads buffer l % 2).
  std::vector<int64_t> sizes;
  CUdeviceptr buffers[2] = {0, 0};
  std::vector<uint64_t> words[2];
  std::vector<void *> params[2];
};

namespace {
thread_local std::string lastError;

// The CUDA driver, opened at the first call that needs it (libcuda.so.1 by
// dlopen), so that the library loads, parses and checks arguments on a
// machine without a driver (the unit tests, CI) and reports its absence as
// an error instead of failing to load. Each entry point is looked up under
// the name cuda.h maps it to (e.g. cuMemAlloc -> cuMemAlloc_v2).
#define STENCIL_DRIVER_FUNCTIONS(X)                                            \
  X(cuGetErrorName)                                                            \
  X(cuGetErrorString)                                                          \
  X(cuCtxGetCurrent)                                                           \
  X(cuCtxPushCurrent)                                                          \
  X(cuCtxPopCurrent)                                                           \
  X(cuModuleLoadDataEx)                                                        \
  X(cuModuleGetFunction)                                                       \
  X(cuModuleGetGlobal)                                                         \
  X(cuModuleUnload)                                                            \
  X(cuFuncSetAttribute)                                                        \
  X(cuFuncGetAttribute)                                                        \
  X(cuMemAlloc)                                                                \
  X(cuMemFree)                                                                 \
  X(cuMemcpyHtoD)                                                              \
  X(cuMemcpyHtoDAsync)                                                         \
  X(cuMemsetD32)                                                               \
  X(cuMemcpyDtoDAsync)                                                         \
  X(cuLaunchKernel)

#define STENCIL_STRINGIFY_(x) #x
#define STENCIL_STRINGIFY(x) STENCIL_STRINGIFY_(x)

struct Driver {
#define X(f) decltype(&::f) f = nullptr;
  STENCIL_DRIVER_FUNCTIONS(X)
#undef X
  std::string error; ///< why it is not available; empty when it is
};

const Driver &getDriver() {
  static Driver driver;
  static std::once_flag once;
  std::call_once(once, [] {
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      const char *why = dlerror();
      driver.error = std::string("the CUDA driver library libcuda.so.1 "
                                 "cannot be loaded (") +
                     (why ? why : "?") + "): is an NVIDIA driver installed?";
      return;
    }
#define X(f)                                                                   \
  driver.f =                                                                   \
      reinterpret_cast<decltype(&::f)>(dlsym(lib, STENCIL_STRINGIFY(f)));      \
  if (!driver.f && driver.error.empty())                                       \
    driver.error = "the CUDA driver has no " STENCIL_STRINGIFY(f);
    STENCIL_DRIVER_FUNCTIONS(X)
#undef X
  });
  return driver;
}

stencil_status fail(stencil_status status, std::string message) {
  lastError = std::move(message);
  return status;
}

/// A C API function given a null pointer it needs, as a status and message.
stencil_status failNullArgument(const char *function) {
  return fail(STENCIL_ERROR_INVALID_ARGUMENT,
              std::string(function) + ": null argument");
}

stencil_status succeed() {
  lastError.clear();
  return STENCIL_SUCCESS;
}

/// A failed driver call as a status and message.
stencil_status cudaFailure(CUresult result, const char *call) {
  const char *name = nullptr, *text = nullptr;
  getDriver().cuGetErrorName(result, &name);
  getDriver().cuGetErrorString(result, &text);
  return fail(STENCIL_ERROR_CUDA,
              std::string(call) + " failed: " +
                  (name ? name : "CUDA error " + std::to_string(result)) +
                  (text ? std::string(" (") + text + ")" : ""));
}

#define STENCIL_CU(call)                                                       \
  STENCIL_RETURN_ON_FAILURE(CUresult, call, CUDA_SUCCESS, cudaFailure, #call)

/// Fails unless `function` takes the threads of `block` on this device;
/// the message calls it `role` (kernel, tail kernel) `name`.
stencil_status checkThreads(CUfunction function, const unsigned (&block)[3],
                            const char *role, const std::string &name) {
  int maxThreads = 0;
  STENCIL_CU(getDriver().cuFuncGetAttribute(
      &maxThreads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, function));
  unsigned threads = block[0] * block[1] * block[2];
  if (threads > unsigned(maxThreads))
    return fail(STENCIL_ERROR_CUDA,
                std::string(role) + " '" + name + "' takes at most " +
                    std::to_string(maxThreads) +
                    " threads per block on this device, its description " +
                    std::to_string(threads));
  return STENCIL_SUCCESS;
}

/// Frees the kernel's module and coefficients (what loadModule made, all
/// or part), in the current context.
void releaseModule(stencil_kernel &k) {
  if (k.coeffs)
    getDriver().cuMemFree(k.coeffs);
  if (k.module)
    getDriver().cuModuleUnload(k.module);
  k.coeffs = 0;
  k.module = nullptr;
  k.function = k.bandFunction = k.tailFunction = nullptr;
  k.context = nullptr;
}

/// Loads the module, its functions and the coefficients in `current`;
/// on failure the caller releases what was made (releaseModule).
stencil_status loadModule(stencil_kernel &k, CUcontext current) {
  std::vector<char> log(1 << 16, '\0'), info(1 << 16, '\0');
  CUjit_option options[] = {
      CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
      CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
      CU_JIT_LOG_VERBOSE};
  void *values[] = {log.data(), reinterpret_cast<void *>(log.size() - 1),
                    info.data(), reinterpret_cast<void *>(info.size() - 1),
                    reinterpret_cast<void *>(uintptr_t(1))};
  CUresult r = getDriver().cuModuleLoadDataEx(&k.module, k.ptx.c_str(), 5,
                                              options, values);
  if (r != CUDA_SUCCESS) {
    k.module = nullptr;
    stencil_status s = cudaFailure(r, "cuModuleLoadDataEx");
    lastError = "loading the PTX of kernel '" + k.desc.kernel +
                "': " + lastError +
                (log[0] ? std::string("\n") + log.data() : "");
    return s;
  }
  k.context = current;
  k.jitLog = info.data();
  r = getDriver().cuModuleGetFunction(&k.function, k.module,
                                      k.desc.kernel.c_str());
  const std::string *missing = &k.desc.kernel;
  if (r == CUDA_SUCCESS && !k.desc.bandKernel.empty()) {
    missing = &k.desc.bandKernel;
    r = getDriver().cuModuleGetFunction(&k.bandFunction, k.module,
                                        k.desc.bandKernel.c_str());
  }
  if (r == CUDA_SUCCESS && !k.desc.tailKernel.empty()) {
    missing = &k.desc.tailKernel;
    r = getDriver().cuModuleGetFunction(&k.tailFunction, k.module,
                                        k.desc.tailKernel.c_str());
  }
  if (r != CUDA_SUCCESS)
    return fail(STENCIL_ERROR_INVALID_DESCRIPTION,
                "the PTX of '" + k.desc.path + "' has no kernel '" + *missing +
                    "'");
  if (k.desc.sharedBytes > 0)
    STENCIL_CU(getDriver().cuFuncSetAttribute(
        k.function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
        int(k.desc.sharedBytes)));
  if (k.tailFunction && k.desc.tailSharedBytes > 0)
    STENCIL_CU(getDriver().cuFuncSetAttribute(
        k.tailFunction, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
        int(k.desc.tailSharedBytes)));
  if (stencil_status s =
          checkThreads(k.function, k.desc.block, "kernel", k.desc.kernel))
    return s;
  if (k.tailFunction)
    if (stencil_status s = checkThreads(k.tailFunction, k.desc.tailBlock,
                                        "tail kernel", k.desc.tailKernel))
      return s;
  // The packed coefficients, uploaded once (a word when there are none: the
  // kernels take a coeffs memref either way).
  k.numCoeffs = k.desc.hasCoefficients ? k.desc.coefficients.size() : 1;
  STENCIL_CU(getDriver().cuMemAlloc(&k.coeffs, k.numCoeffs * sizeof(uint32_t)));
  if (k.desc.hasCoefficients)
    STENCIL_CU(getDriver().cuMemcpyHtoD(k.coeffs, k.desc.coefficients.data(),
                                        k.numCoeffs * sizeof(uint32_t)));
  else
    STENCIL_CU(getDriver().cuMemsetD32(k.coeffs, 0, 1));
  return STENCIL_SUCCESS;
}

/// Writes the kernel's weights (desc.weights, in the accumulator type) to
/// its weights global, ordered on `stream`.
stencil_status uploadWeightsGlobal(stencil_kernel &k, CUstream stream) {
  CUdeviceptr global = 0;
  size_t bytes = 0;
  STENCIL_CU(getDriver().cuModuleGetGlobal(&global, &bytes, k.module,
                                           k.desc.weightsGlobal.c_str()));
  std::vector<uint8_t> data;
  for (double w : k.desc.weights) {
    uint8_t buffer[8];
    size_t size = 8;
    if (k.desc.accumulator == ElemType::F64) {
      std::memcpy(buffer, &w, 8);
    } else {
      float f = static_cast<float>(w); // round to nearest, as the compiler
      std::memcpy(buffer, &f, 4);
      size = 4;
    }
    data.insert(data.end(), buffer, buffer + size);
  }
  if (data.size() != bytes)
    return fail(STENCIL_ERROR_INVALID_DESCRIPTION,
                "kernel '" + k.desc.kernel + "': its weights global '" +
                    k.desc.weightsGlobal + "' has " + std::to_string(bytes) +
                    " bytes, not the " + std::to_string(data.size()) +
                    " of its weights");
  STENCIL_CU(getDriver().cuMemcpyHtoDAsync(global, data.data(), bytes, stream));
  return STENCIL_SUCCESS;
}

/// Loads the module, its functions and coefficients in the current context.
stencil_status prepare(stencil_kernel &k) {
  if (!getDriver().error.empty())
    return fail(STENCIL_ERROR_CUDA, getDriver().error);
  CUcontext current = nullptr;
  CUresult r = getDriver().cuCtxGetCurrent(&current);
  if (r == CUDA_ERROR_NOT_INITIALIZED || (r == CUDA_SUCCESS && !current))
    return fail(STENCIL_ERROR_CONTEXT,
                "no current CUDA context: make the context of the buffers "
                "current before running kernel '" +
                    k.desc.kernel + "'");
  if (r != CUDA_SUCCESS)
    return cudaFailure(r, "cuCtxGetCurrent");
  if (k.module) {
    if (current != k.context)
      return fail(STENCIL_ERROR_CONTEXT,
                  "kernel '" + k.desc.kernel +
                      "' was loaded in another CUDA context; run it in the "
                      "context of its first run (or load it again)");
    return STENCIL_SUCCESS;
  }
  stencil_status s = loadModule(k, current);
  if (s == STENCIL_SUCCESS && k.weightsReplaced)
    s = uploadWeightsGlobal(k, nullptr);
  if (s != STENCIL_SUCCESS)
    releaseModule(k);
  return s;
}

/// The kernel of a parsed description and its PTX (read from the
/// description's `ptx` entry when `ptxFromDescription`).
stencil_status load(LaunchDescription desc, std::string ptx,
                    bool ptxFromDescription, stencil_kernel **out) {
  if (ptxFromDescription) {
    std::ifstream f(desc.ptxPath, std::ios::binary);
    if (!f)
      return fail(STENCIL_ERROR_IO, "cannot read the PTX '" + desc.ptxPath +
                                        "' of '" + desc.path + "'");
    std::ostringstream s;
    s << f.rdbuf();
    ptx = s.str();
  }
  if (ptx.find('\0') != std::string::npos)
    ptx.resize(ptx.find('\0'));
  if (ptx.empty())
    return fail(STENCIL_ERROR_INVALID_ARGUMENT,
                "the PTX of '" + desc.path + "' is empty");
  auto k = std::make_unique<stencil_kernel>();
  k->radii = getRadii(desc);
  k->desc = std::move(desc);
  k->ptx = std::move(ptx);
  *out = k.release();
  return succeed();
}

/// The C API's spellings of the element types and boundaries.
const std::pair<ElemType, stencil_element_type> kElementTypes[] = {
    {ElemType::F16, STENCIL_F16},
    {ElemType::BF16, STENCIL_BF16},
    {ElemType::F32, STENCIL_F32},
    {ElemType::F64, STENCIL_F64},
};
const std::pair<Boundary, stencil_boundary> kBoundaries[] = {
    {Boundary::Halo, STENCIL_BOUNDARY_HALO},
    {Boundary::Periodic, STENCIL_BOUNDARY_PERIODIC},
    {Boundary::Dirichlet, STENCIL_BOUNDARY_DIRICHLET},
};
} // namespace

extern "C" {

const char *stencil_last_error(void) { return lastError.c_str(); }

const char *stencil_status_name(stencil_status status) {
  // Indexed by value (the header fixes them: 0 to 10).
  static const char *const kNames[] = {
      "STENCIL_SUCCESS",
      "STENCIL_ERROR_INVALID_ARGUMENT",
      "STENCIL_ERROR_IO",
      "STENCIL_ERROR_INVALID_DESCRIPTION",
      "STENCIL_ERROR_RANK_MISMATCH",
      "STENCIL_ERROR_GRID_TOO_SMALL",
      "STENCIL_ERROR_GRID_TOO_LARGE",
      "STENCIL_ERROR_STEPS",
      "STENCIL_ERROR_CONTEXT",
      "STENCIL_ERROR_CUDA",
      "STENCIL_ERROR_UNSUPPORTED",
  };
  size_t index = size_t(status);
  return index < sizeof(kNames) / sizeof(kNames[0]) ? kNames[index]
                                                    : "unknown stencil_status";
}

stencil_status stencil_kernel_load_file(const char *launchPath,
                                        stencil_kernel **kernel) {
  if (!launchPath || !kernel)
    return failNullArgument("stencil_kernel_load_file");
  *kernel = nullptr;
  // Only to tell a missing file from a malformed one: the parser reads it.
  if (!std::ifstream(launchPath))
    return fail(STENCIL_ERROR_IO,
                std::string("cannot read the launch description '") +
                    launchPath + "'");
  LaunchDescription desc;
  std::string error;
  std::vector<std::string> warnings;
  if (!parseLaunchDescription(launchPath, desc, error, warnings))
    return fail(STENCIL_ERROR_INVALID_DESCRIPTION, error);
  return load(std::move(desc), "", /*ptxFromDescription=*/true, kernel);
}

stencil_status stencil_kernel_load_memory(const char *description,
                                          size_t descriptionSize,
                                          const char *ptx, size_t ptxSize,
                                          const char *name,
                                          stencil_kernel **kernel) {
  if (!description || !ptx || !kernel)
    return failNullArgument("stencil_kernel_load_memory");
  *kernel = nullptr;
  if (descriptionSize > kMaxLaunchDescriptionBytes)
    return fail(STENCIL_ERROR_INVALID_DESCRIPTION,
                "the launch description is larger than " +
                    std::to_string(kMaxLaunchDescriptionBytes) + " bytes");
  LaunchDescription desc;
  std::string error;
  std::vector<std::string> warnings;
  if (!parseLaunchDescriptionText(std::string(description, descriptionSize),
                                  name ? name : "<memory>", desc, error,
                                  warnings))
    return fail(STENCIL_ERROR_INVALID_DESCRIPTION, error);
  return load(std::move(desc), std::string(ptx, ptxSize),
              /*ptxFromDescription=*/false, kernel);
}

void stencil_kernel_destroy(stencil_kernel *kernel) {
  if (!kernel)
    return;
  if (kernel->module) {
    // The context must be current for the frees; push it if it is not.
    CUcontext current = nullptr;
    getDriver().cuCtxGetCurrent(&current);
    bool pushed = current != kernel->context &&
                  getDriver().cuCtxPushCurrent(kernel->context) == CUDA_SUCCESS;
    releaseModule(*kernel);
    if (pushed)
      getDriver().cuCtxPopCurrent(&current);
  }
  delete kernel;
}

const char *stencil_kernel_name(const stencil_kernel *kernel) {
  return kernel ? kernel->desc.kernel.c_str() : "";
}

int stencil_kernel_rank(const stencil_kernel *kernel) {
  return kernel ? kernel->desc.rank : 0;
}

stencil_element_type stencil_kernel_element_type(const stencil_kernel *kernel) {
  ElemType type = kernel ? kernel->desc.elementType : ElemType::F16;
  for (const auto &[value, c] : kElementTypes)
    if (value == type)
      return c;
  return STENCIL_F16;
}

size_t stencil_element_size(stencil_element_type type) {
  for (const auto &[value, c] : kElementTypes)
    if (c == type)
      return elemTypeBytes(value);
  return 0;
}

int64_t stencil_kernel_radius(const stencil_kernel *kernel, int dim) {
  if (!kernel || dim < 0 || dim >= kernel->desc.rank)
    return -1;
  return kernel->radii[dim];
}

int stencil_kernel_steps_per_launch(const stencil_kernel *kernel) {
  return kernel ? kernel->desc.stepsPerLaunch : 0;
}

int stencil_kernel_tail_steps(const stencil_kernel *kernel) {
  return kernel && !kernel->desc.tailKernel.empty() ? kernel->desc.tailSteps
                                                    : 0;
}

stencil_boundary stencil_kernel_boundary(const stencil_kernel *kernel) {
  for (const auto &[value, c] : kBoundaries)
    if (kernel && value == kernel->desc.boundary)
      return c;
  return STENCIL_BOUNDARY_HALO;
}

int64_t stencil_kernel_num_points(const stencil_kernel *kernel) {
  if (!kernel || kernel->desc.hasBody)
    return 0;
  return int64_t(kernel->desc.offsets.size());
}

stencil_status stencil_kernel_point(const stencil_kernel *kernel, int64_t i,
                                    int64_t *offset) {
  if (!kernel || !offset)
    return failNullArgument("stencil_kernel_point");
  int64_t n = stencil_kernel_num_points(kernel);
  if (i < 0 || i >= n)
    return fail(STENCIL_ERROR_INVALID_ARGUMENT,
                "stencil_kernel_point: point " + std::to_string(i) +
                    " of kernel '" + kernel->desc.kernel + "', which has " +
                    std::to_string(n));
  const std::vector<int64_t> &point = kernel->desc.offsets[i];
  std::copy(point.begin(), point.end(), offset);
  return succeed();
}

stencil_status stencil_kernel_weights(const stencil_kernel *kernel,
                                      double *weights) {
  if (!kernel || !weights)
    return failNullArgument("stencil_kernel_weights");
  if (kernel->desc.hasBody)
    return fail(STENCIL_ERROR_UNSUPPORTED,
                "kernel '" + kernel->desc.kernel +
                    "' computes a general body, which has no weights");
  std::copy(kernel->desc.weights.begin(), kernel->desc.weights.end(), weights);
  return succeed();
}

stencil_status stencil_kernel_set_weights(stencil_kernel *kernel,
                                          const double *weights, int64_t count,
                                          CUstream stream) {
  if (!kernel || (!weights && count > 0))
    return failNullArgument("stencil_kernel_set_weights");
  stencil_kernel &k = *kernel;
  if (!k.desc.repack && k.desc.weightsGlobal.empty())
    return fail(STENCIL_ERROR_UNSUPPORTED,
                "kernel '" + k.desc.kernel + "' cannot take new weights: " +
                    (k.desc.repackUnsupported.empty()
                         ? std::string("its description has neither a "
                                       "repacking recipe nor a weights "
                                       "global")
                         : k.desc.repackUnsupported) +
                    "; compile it with the new weights instead");
  if (count != int64_t(k.desc.weights.size()))
    return fail(STENCIL_ERROR_INVALID_ARGUMENT,
                "kernel '" + k.desc.kernel + "' has " +
                    std::to_string(k.desc.weights.size()) +
                    " weights (one per point), not " + std::to_string(count));
  for (int64_t j = 0; j < count; ++j)
    if (!std::isfinite(weights[j]))
      return fail(STENCIL_ERROR_INVALID_ARGUMENT,
                  "kernel '" + k.desc.kernel + "': weight " +
                      std::to_string(j) + " is not finite");
  // The type the kernel holds its weights in: the recipe's operand type, or
  // the weights global's accumulation type. A weight that overflows it
  // would make every result infinite.
  ElemType held = k.desc.accumulator;
  if (k.desc.repack)
    held = k.desc.repack->type == mlir::stencil::OperandType::f16  ? ElemType::F16
           : k.desc.repack->type == mlir::stencil::OperandType::bf16 ? ElemType::BF16
                                                                   : ElemType::F64;
  for (int64_t j = 0; j < count; ++j)
    if (!std::isfinite(roundTo(held, weights[j]))) {
      char value[32];
      std::snprintf(value, sizeof(value), "%.17g", weights[j]);
      return fail(STENCIL_ERROR_INVALID_ARGUMENT,
                  "kernel '" + k.desc.kernel + "': weight " +
                      std::to_string(j) + " (" + value + ") overflows the " +
                      elemTypeName(held) + " the kernel holds its weights in");
    }
  if (!k.desc.weightsGlobal.empty()) {
    std::vector<double> old = k.desc.weights;
    k.desc.weights.assign(weights, weights + count);
    if (k.module) {
      stencil_status s = prepare(k);
      if (s == STENCIL_SUCCESS)
        s = uploadWeightsGlobal(k, stream);
      if (s != STENCIL_SUCCESS) {
        k.desc.weights = std::move(old);
        return s;
      }
    }
    // Written again at every load of the module.
    k.weightsReplaced = true;
    return succeed();
  }
  std::vector<uint32_t> words;
  std::string error;
  if (!mlir::stencil::repackCoefficients(
          *k.desc.repack, mlir::stencil::ArraySpan<double>(weights, count),
          words, error))
    return fail(STENCIL_ERROR_INVALID_ARGUMENT,
                "kernel '" + k.desc.kernel + "': " + error);
  if (words.size() != k.desc.coefficients.size())
    return fail(STENCIL_ERROR_INVALID_DESCRIPTION,
                "kernel '" + k.desc.kernel + "': the recipe packs " +
                    std::to_string(words.size()) + " words, the kernel has " +
                    std::to_string(k.desc.coefficients.size()));
  if (k.module) {
    // The upload goes to the context the kernel was loaded in.
    if (stencil_status s = prepare(k))
      return s;
    // From pageable memory the copy takes the words before it returns.
    STENCIL_CU(getDriver().cuMemcpyHtoDAsync(
        k.coeffs, words.data(), words.size() * sizeof(uint32_t), stream));
  }
  k.desc.coefficients = std::move(words);
  k.desc.weights.assign(weights, weights + count);
  return succeed();
}

stencil_status stencil_kernel_prepare(stencil_kernel *kernel) {
  if (!kernel)
    return fail(STENCIL_ERROR_INVALID_ARGUMENT,
                "stencil_kernel_prepare: null kernel");
  if (stencil_status s = prepare(*kernel))
    return s;
  return succeed();
}

/// The error of a query that needs the kernel's module loaded.
static stencil_status failNotLoaded(const stencil_kernel *kernel) {
  return fail(STENCIL_ERROR_CONTEXT,
              "kernel '" + kernel->desc.kernel +
                  "' is not loaded yet: call stencil_kernel_prepare or run "
                  "it first");
}

stencil_status stencil_kernel_functions(const stencil_kernel *kernel,
                                        CUfunction *function,
                                        CUfunction *bandFunction) {
  if (!kernel || !function)
    return failNullArgument("stencil_kernel_functions");
  if (!kernel->module)
    return failNotLoaded(kernel);
  *function = kernel->function;
  if (bandFunction)
    *bandFunction = kernel->bandFunction;
  return succeed();
}

stencil_status stencil_kernel_tail_function(const stencil_kernel *kernel,
                                            CUfunction *tailFunction) {
  if (!kernel || !tailFunction)
    return failNullArgument("stencil_kernel_tail_function");
  if (!kernel->module)
    return failNotLoaded(kernel);
  *tailFunction = kernel->tailFunction;
  return succeed();
}

const char *stencil_kernel_jit_log(const stencil_kernel *kernel) {
  return kernel ? kernel->jitLog.c_str() : "";
}

stencil_status stencil_kernel_run(stencil_kernel *kernel, CUdeviceptr in,
                                  CUdeviceptr out, const int64_t *sizes,
                                  int rank, int64_t steps, CUstream stream,
                                  unsigned flags, CUdeviceptr *result) {
  if (!kernel || !sizes || rank < 1)
    return fail(STENCIL_ERROR_INVALID_ARGUMENT,
                "stencil_kernel_run: null kernel or sizes, or rank < 1");
  if (!in || !out || in == out)
    return fail(STENCIL_ERROR_INVALID_ARGUMENT,
                "stencil_kernel_run: `in` and `out` must be two distinct "
                "device buffers");
  if (flags & ~unsigned(STENCIL_RUN_OUT_INITIALIZED))
    return fail(STENCIL_ERROR_INVALID_ARGUMENT,
                "stencil_kernel_run: unknown flags " + std::to_string(flags));
  stencil_kernel &k = *kernel;
  std::vector<int64_t> grid(sizes, sizes + rank);
  std::string error;
  LaunchPlan plan;
  if (stencil_status s = planLaunches(k.desc, grid, steps, plan, error);
      s != STENCIL_SUCCESS)
    return fail(s, error);
  if (grid != k.sizes) {
    k.sizes = grid;
    k.buffers[0] = k.buffers[1] = 0;
  }
  if (stencil_status s = prepare(k))
    return s;
  if (k.buffers[0] != in || k.buffers[1] != out) {
    for (int parity = 0; parity < 2; ++parity) {
      k.words[parity] =
          getKernelArguments(k.desc, parity ? out : in, parity ? in : out,
                             k.coeffs, k.numCoeffs, k.sizes);
      k.params[parity].clear();
      for (uint64_t &w : k.words[parity])
        k.params[parity].push_back(&w);
    }
    k.buffers[0] = in;
    k.buffers[1] = out;
  }
  int64_t launches = plan.launches;
  // Only the halo boundary leaves points unwritten.
  if (plan.totalLaunches() > 0 && k.desc.boundary == Boundary::Halo &&
      !(flags & STENCIL_RUN_OUT_INITIALIZED))
    STENCIL_CU(getDriver().cuMemcpyDtoDAsync(
        out, in, plan.points * elemTypeBytes(k.desc.elementType), stream));
  const LaunchPlan &p = plan;
  for (int64_t l = 0; l < launches; ++l) {
    void **params = k.params[l % 2].data();
    STENCIL_CU(getDriver().cuLaunchKernel(
        k.function, p.grid[0], p.grid[1], p.grid[2], p.block[0], p.block[1],
        p.block[2], p.sharedBytes, stream, params, nullptr));
    if (k.bandFunction)
      STENCIL_CU(getDriver().cuLaunchKernel(
          k.bandFunction, p.bandBlocks, 1, 1, p.bandBlock[0], p.bandBlock[1],
          p.bandBlock[2], 0, stream, params, nullptr));
  }
  // The steps left over: the tail kernel's launches, ping-ponging on.
  for (int64_t l = launches; l < plan.totalLaunches(); ++l)
    STENCIL_CU(getDriver().cuLaunchKernel(
        k.tailFunction, p.tailGrid[0], p.tailGrid[1], p.tailGrid[2],
        p.tailBlock[0], p.tailBlock[1], p.tailBlock[2], p.tailSharedBytes,
        stream, k.params[l % 2].data(), nullptr));
  if (result)
    *result = plan.resultInOut() ? out : in;
  return succeed();
}

} // extern "C"
