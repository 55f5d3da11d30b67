//===- MultiRun.cpp - stencil-run over several GPUs -----------------------===//
//
// See MultiRun.h.
//
//===----------------------------------------------------------------------===//

#include "MultiRun.h"

#include "stencil-runtime/StencilMultiGpu.h"

#include <algorithm>
#include <chrono>

using namespace stencil_run;

MultiGpuRun::MultiGpuRun(const std::string &descPath,
                         const std::vector<int64_t> &dims, int gpus,
                         int oneDevice, std::string &error)
    : dims(dims) {
  std::vector<int> devices(gpus);
  for (int i = 0; i < gpus; ++i)
    devices[i] = oneDevice >= 0 ? oneDevice : i;
  if (stencil_multi_create(descPath.c_str(), dims.data(), int(dims.size()),
                           devices.data(), gpus, 0,
                           &multi) != STENCIL_SUCCESS) {
    error = stencil_multi_last_error();
    multi = nullptr;
    return;
  }
  stencil_kernel *kernel = nullptr;
  stencil_multi_local(multi, 0, nullptr, nullptr, &kernel);
  planeBytes = stencil_element_size(stencil_kernel_element_type(kernel));
  for (size_t k = 1; k < dims.size(); ++k)
    planeBytes *= size_t(dims[k]);
}

MultiGpuRun::~MultiGpuRun() { stencil_multi_destroy(multi); }

bool MultiGpuRun::upload(const void *host, int64_t first, int64_t count,
                         std::string &error) {
  if (stencil_multi_upload(multi, host, first, count) != STENCIL_SUCCESS) {
    error = stencil_multi_last_error();
    return false;
  }
  return true;
}

bool MultiGpuRun::upload(
    const std::function<std::vector<uint8_t>(int64_t, int64_t)> &planes,
    int64_t chunkPlanes, std::string &error) {
  for (int64_t first = 0; first < dims[0]; first += chunkPlanes) {
    int64_t count = std::min(chunkPlanes, dims[0] - first);
    if (!upload(planes(first, count).data(), first, count, error))
      return false;
  }
  return true;
}

bool MultiGpuRun::run(int64_t steps, unsigned flags, double &ms,
                      std::string &error) {
  if (stencil_multi_synchronize(multi) != STENCIL_SUCCESS) {
    error = stencil_multi_last_error();
    return false;
  }
  auto start = std::chrono::steady_clock::now();
  if (stencil_multi_run(multi, steps, flags) != STENCIL_SUCCESS ||
      stencil_multi_synchronize(multi) != STENCIL_SUCCESS) {
    error = stencil_multi_last_error();
    return false;
  }
  ms = std::chrono::duration<double, std::milli>(
           std::chrono::steady_clock::now() - start)
           .count();
  return true;
}

bool MultiGpuRun::download(int64_t first, int64_t count,
                           std::vector<uint8_t> &out, std::string &error) {
  out.resize(size_t(count) * planeBytes);
  if (stencil_multi_download(multi, out.data(), first, count) !=
      STENCIL_SUCCESS) {
    error = stencil_multi_last_error();
    return false;
  }
  return true;
}

std::string MultiGpuRun::describe() const {
  std::string s;
  for (int r = 0; r < stencil_multi_num_ranks(multi); ++r) {
    int64_t b = 0, e = 0, lo = 0, hi = 0;
    stencil_multi_slab(multi, r, &b, &e, &lo, &hi);
    int device = -1;
    stencil_multi_local(multi, r, &device, nullptr, nullptr);
    s += "  rank " + std::to_string(r) + " (device " + std::to_string(device) +
         "): planes [" + std::to_string(b) + ", " + std::to_string(e) +
         "), halos " + std::to_string(lo) + " + " + std::to_string(hi) +
         (stencil_multi_overlaps(multi, r) ? ", exchange overlapped"
                                           : ", no overlap") +
         "\n";
  }
  return s;
}

int64_t MultiGpuRun::halo() const { return stencil_multi_halo(multi); }

std::vector<int64_t> MultiGpuRun::slabStarts() const {
  std::vector<int64_t> starts;
  for (int r = 0; r < stencil_multi_num_ranks(multi); ++r) {
    int64_t b = 0;
    stencil_multi_slab(multi, r, &b, nullptr, nullptr, nullptr);
    starts.push_back(b);
  }
  return starts;
}
