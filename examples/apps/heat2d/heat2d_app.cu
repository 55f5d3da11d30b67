// A heat-equation solver that uses a compiled stencil as one part of its own
// CUDA program (docs/Runtime.md): the time steps are the kernel of
// `heat2d.h` (stencil-translate --to-c-header: the PTX is compiled in), run
// through libStencilRuntime on this program's buffers and stream; between
// chunks of steps the program's own kernels add a heat source and measure
// the total heat.
//
//   heat2d_app solve N0 N1 STEPS CHUNK    the solver (prints the heat)
//   heat2d_app check IN.npy OUT.npy STEPS the kernel alone on a grid from a
//                                         .npy file ('<f2', C order; e.g.
//                                         stencil-run --save-input), result
//                                         to OUT.npy, for a bit-for-bit
//                                         comparison with stencil-run
//
// Build (bench/run-apps.sh does): nvcc -std=c++17 -I<dir of heat2d.h>
//   -I<prefix>/include heat2d_app.cu -L<prefix>/lib -lStencilRuntime -lcuda
#include "heat2d.h"

#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#define CHECK_CUDA(call)                                                       \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess) {                                                   \
      std::fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(e_));         \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

#define CHECK_STENCIL(call)                                                    \
  do {                                                                         \
    stencil_status s_ = (call);                                                \
    if (s_ != STENCIL_SUCCESS) {                                               \
      std::fprintf(stderr, "%s: %s: %s\n", #call, stencil_status_name(s_),     \
                   stencil_last_error());                                      \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

// The program's own kernels.
__global__ void addSource(__half *u, int64_t n0, int64_t n1, float heat) {
  int64_t i = n0 / 2 - 2 + threadIdx.y, j = n1 / 2 - 2 + threadIdx.x;
  if (i >= 0 && i < n0 && j >= 0 && j < n1)
    u[i * n1 + j] = __float2half(__half2float(u[i * n1 + j]) + heat);
}

__global__ void sumHeat(const __half *u, int64_t n, double *total) {
  double s = 0;
  for (int64_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x)
    s += __half2float(u[i]);
  atomicAdd(total, s);
}

// Minimal .npy I/O: version 1.0, '<f2', C order, 2-D.
static bool readNpy(const char *path, std::vector<__half> &data, int64_t &n0,
                    int64_t &n1) {
  std::ifstream f(path, std::ios::binary);
  char magic[8];
  if (!f.read(magic, 8) || std::memcmp(magic, "\x93NUMPY", 6) != 0)
    return false;
  unsigned len = 0;
  if (magic[6] == 1) {
    unsigned char b[2];
    f.read(reinterpret_cast<char *>(b), 2);
    len = b[0] | (b[1] << 8);
  } else {
    unsigned char b[4];
    f.read(reinterpret_cast<char *>(b), 4);
    len = b[0] | (b[1] << 8) | (b[2] << 16) | (unsigned(b[3]) << 24);
  }
  std::string header(len, '\0');
  f.read(&header[0], len);
  if (header.find("'<f2'") == std::string::npos ||
      header.find("'fortran_order': False") == std::string::npos)
    return false;
  size_t shape = header.find("'shape': (");
  if (shape == std::string::npos ||
      std::sscanf(header.c_str() + shape, "'shape': (%ld, %ld)", &n0, &n1) != 2)
    return false;
  data.resize(size_t(n0 * n1));
  return bool(f.read(reinterpret_cast<char *>(data.data()),
                     data.size() * sizeof(__half)));
}

static bool writeNpy(const char *path, const std::vector<__half> &data,
                     int64_t n0, int64_t n1) {
  std::string header = "{'descr': '<f2', 'fortran_order': False, 'shape': (" +
                       std::to_string(n0) + ", " + std::to_string(n1) + "), }";
  while ((10 + header.size() + 1) % 64)
    header += ' ';
  header += '\n';
  std::ofstream f(path, std::ios::binary);
  f.write("\x93NUMPY\x01\x00", 8);
  unsigned char len[2] = {static_cast<unsigned char>(header.size() & 0xff),
                          static_cast<unsigned char>(header.size() >> 8)};
  f.write(reinterpret_cast<char *>(len), 2);
  f << header;
  f.write(reinterpret_cast<const char *>(data.data()),
          data.size() * sizeof(__half));
  return bool(f);
}

int main(int argc, char **argv) {
  if (argc == 5 && std::string(argv[1]) == "check") {
    std::vector<__half> grid;
    int64_t n0, n1;
    if (!readNpy(argv[2], grid, n0, n1)) {
      std::fprintf(stderr, "cannot read '%s' ('<f2', C order, 2-D)\n", argv[2]);
      return 1;
    }
    int64_t steps = std::atoll(argv[4]);
    size_t bytes = grid.size() * sizeof(__half);
    __half *a, *b, *result;
    CHECK_CUDA(cudaMalloc(&a, bytes));
    CHECK_CUDA(cudaMalloc(&b, bytes));
    CHECK_CUDA(cudaMemcpy(a, grid.data(), bytes, cudaMemcpyHostToDevice));
    // `b` is filled by the runtime (the halo copied from `a`).
    CHECK_STENCIL(
        stencil_kernels::heat2d(a, b, n0, n1, steps, nullptr, &result));
    CHECK_CUDA(cudaMemcpy(grid.data(), result, bytes, cudaMemcpyDeviceToHost));
    if (!writeNpy(argv[3], grid, n0, n1))
      return 1;
    std::printf("check: %ld steps on %ldx%ld written to %s\n", long(steps),
                long(n0), long(n1), argv[3]);
    return 0;
  }
  if (argc != 6 || std::string(argv[1]) != "solve") {
    std::fprintf(stderr, "usage: heat2d_app solve N0 N1 STEPS CHUNK\n"
                         "       heat2d_app check IN.npy OUT.npy STEPS\n");
    return 2;
  }
  int64_t n0 = std::atoll(argv[2]), n1 = std::atoll(argv[3]);
  int64_t steps = std::atoll(argv[4]), chunk = std::atoll(argv[5]);
  size_t bytes = size_t(n0 * n1) * sizeof(__half);
  __half *u, *v;
  double *total;
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreate(&stream));
  CHECK_CUDA(cudaMalloc(&u, bytes));
  CHECK_CUDA(cudaMalloc(&v, bytes));
  CHECK_CUDA(cudaMalloc(&total, sizeof(double)));
  CHECK_CUDA(cudaMemsetAsync(u, 0, bytes, stream));
  CHECK_CUDA(cudaMemsetAsync(v, 0, bytes, stream)); // the same (zero) halo
  cudaEvent_t start, stop;
  CHECK_CUDA(cudaEventCreate(&start));
  CHECK_CUDA(cudaEventCreate(&stop));
  CHECK_CUDA(cudaEventRecord(start, stream));
  for (int64_t done = 0; done < steps; done += chunk) {
    addSource<<<1, dim3(4, 4), 0, stream>>>(u, n0, n1, 1.0f);
    __half *result;
    // Both buffers keep the zero halo: no copy needed.
    CHECK_STENCIL(stencil_kernels::heat2d(u, v, n0, n1, chunk, stream, &result,
                                          STENCIL_RUN_OUT_INITIALIZED));
    if (result != u)
      std::swap(u, v);
  }
  CHECK_CUDA(cudaEventRecord(stop, stream));
  CHECK_CUDA(cudaMemsetAsync(total, 0, sizeof(double), stream));
  sumHeat<<<264, 256, 0, stream>>>(u, n0 * n1, total);
  double heat = 0;
  CHECK_CUDA(cudaMemcpyAsync(&heat, total, sizeof(double),
                             cudaMemcpyDeviceToHost, stream));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  float ms = 0;
  CHECK_CUDA(cudaEventElapsedTime(&ms, start, stop));
  std::printf("solve: %ldx%ld, %ld steps in chunks of %ld: %.3f ms, total "
              "heat %.6g (sources added: %ld)\n",
              long(n0), long(n1), long(steps), long(chunk), ms, heat,
              long(16 * ((steps + chunk - 1) / chunk)));
  return 0;
}
