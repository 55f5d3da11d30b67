// The host cost of one launch through libStencilRuntime against a bare
// cuLaunchKernel of the same function with the same arguments (issue 18's
// goal: under 2 microseconds more). For a kernel without a band kernel or
// coefficients (a CUDA-core one):
//
//   runtime-overhead DESC.launch N0 N1 [CALLS]
//
// Both loops queue CALLS launches of one step on a stream of a 2-D grid of
// N0 x N1 (small: the GPU must not be the limit while the host queues) and
// report the host time per call, median of 5 repetitions; then the stream is
// drained. Build: nvcc -std=c++17 -I<runtime include> runtime-overhead.cu
// -L<lib> -lStencilRuntime -lcuda (bench/run-apps.sh).
#include <stencil-runtime/StencilRuntime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#define CU(call)                                                               \
  do {                                                                         \
    CUresult r_ = (call);                                                      \
    if (r_ != CUDA_SUCCESS) {                                                  \
      std::fprintf(stderr, "%s failed: %d\n", #call, int(r_));                 \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

static std::string entry(const std::string &text, const std::string &key) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.rfind(key + " = ", 0) == 0)
      return line.substr(key.size() + 3);
  return "";
}

static std::vector<long> numbers(const std::string &s) {
  std::vector<long> v;
  std::istringstream in(s);
  for (std::string x; std::getline(in, x, ',');)
    v.push_back(std::atol(x.c_str()));
  return v;
}

int main(int argc, char **argv) {
  if (argc < 4)
    return 2;
  int64_t n0 = std::atoll(argv[2]), n1 = std::atoll(argv[3]);
  int calls = argc > 4 ? std::atoi(argv[4]) : 20000;
  std::ifstream f(argv[1]);
  std::stringstream ss;
  ss << f.rdbuf();
  std::string text = ss.str();
  if (!entry(text, "band_kernel").empty() ||
      !entry(text, "coefficients").empty() ||
      entry(text, "args") != "in,out,coeffs,sizes") {
    std::fprintf(stderr, "needs a kernel without band kernel or "
                         "coefficients, args in,out,coeffs,sizes\n");
    return 2;
  }
  CU(cuInit(0));
  CUdevice dev;
  CU(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CU(cuDevicePrimaryCtxRetain(&ctx, dev));
  CU(cuCtxSetCurrent(ctx));
  CUstream stream;
  CU(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));

  stencil_kernel *k;
  if (stencil_kernel_load_file(argv[1], &k) != STENCIL_SUCCESS ||
      stencil_kernel_prepare(k) != STENCIL_SUCCESS) {
    std::fprintf(stderr, "%s\n", stencil_last_error());
    return 1;
  }
  size_t bytes =
      size_t(n0 * n1) * stencil_element_size(stencil_kernel_element_type(k));
  CUdeviceptr in, out, coeffs;
  CU(cuMemAlloc(&in, bytes));
  CU(cuMemAlloc(&out, bytes));
  CU(cuMemAlloc(&coeffs, 4));
  CU(cuMemsetD8(in, 0, bytes));
  CU(cuMemsetD8(out, 0, bytes));
  int64_t sizes[2] = {n0, n1};

  // The bare launch: the description's geometry and arguments
  // (docs/LaunchDescription.md).
  CUfunction fn;
  stencil_kernel_functions(k, &fn, nullptr);
  std::vector<long> tile = numbers(entry(text, "tile")),
                    block = numbers(entry(text, "block"));
  unsigned gx = unsigned((n1 + tile[0] - 1) / tile[0]),
           gy = unsigned((n0 + tile[1] - 1) / tile[1]);
  uint64_t n = uint64_t(n0 * n1);
  uint64_t words[] = {
      in, in,     0,      n, 1, out, out,          0,           n,
      1,  coeffs, coeffs, 0, 1, 1,   uint64_t(n0), uint64_t(n1)};
  std::vector<void *> params;
  for (uint64_t &w : words)
    params.push_back(&w);

  using clock = std::chrono::steady_clock;
  auto perCall = [&](auto &&launch) {
    std::vector<double> reps;
    for (int r = 0; r < 5; ++r) {
      CU(cuStreamSynchronize(stream));
      auto t0 = clock::now();
      for (int c = 0; c < calls; ++c)
        launch();
      auto t1 = clock::now();
      CU(cuStreamSynchronize(stream));
      reps.push_back(
          std::chrono::duration<double, std::micro>(t1 - t0).count() / calls);
    }
    std::sort(reps.begin(), reps.end());
    return reps[2];
  };
  double bare = perCall([&] {
    CU(cuLaunchKernel(fn, gx, gy, 1, unsigned(block[0]), unsigned(block[1]),
                      unsigned(block[2]), 0, stream, params.data(), nullptr));
  });
  double runtime = perCall([&] {
    if (stencil_kernel_run(k, in, out, sizes, 2, 1, stream,
                           STENCIL_RUN_OUT_INITIALIZED,
                           nullptr) != STENCIL_SUCCESS) {
      std::fprintf(stderr, "%s\n", stencil_last_error());
      std::exit(1);
    }
  });
  std::printf("OVERHEAD kernel=%s grid=%ldx%ld calls=%d bare_us=%.3f "
              "runtime_us=%.3f extra_us=%.3f\n",
              stencil_kernel_name(k), long(n0), long(n1), calls, bare, runtime,
              runtime - bare);
  stencil_kernel_destroy(k);
  return 0;
}
