//===- MultiGpu.cpp - One grid over several GPUs with NCCL ----------------===//
//
// libStencilMultiGpu (include/stencil-runtime/StencilMultiGpu.h,
// docs/MultiGPU.md): the slabs of Decomposition.h, each a grid of its own on
// which libStencilRuntime runs the kernel unchanged, and the halo exchange
// over NCCL.
//
// Each launch (F = steps_per_launch steps), for every rank, from the input
// buffer `in` to the output buffer `out` (planRankLaunches):
//
//   compute stream  | interior launch: own planes of `in` -> `out`
//   exchange stream | ncclSend own planes of `in` / ncclRecv into the halos
//                   | of `in` (one group); boundary windows: 3 h planes of
//                   | `in` -> temporaries; after the interior: their exact
//                   | planes -> `out`
//
// The interior launch reads no halo plane and the exchange writes only
// halo planes of `in`, so they run concurrently; the windows follow the
// exchange on its stream. The next launch's interior waits for the
// exchange stream's work of this one. Without the overlap (a thin slab,
// STENCIL_MULTI_NO_OVERLAP) the exchange comes first and one launch covers
// the whole local grid.
//
// NCCL ordering: a rank posts its sends to the lower then the upper
// neighbour and its receives from the upper then the lower one, so that
// the two messages between the same pair of ranks (two ranks with the
// periodic wrap are each other's both neighbours) match in order.
//
//===----------------------------------------------------------------------===//

#include "stencil-runtime/StencilMultiGpu.h"

#include "Decomposition.h"
#include "HostUtil.h"
#include "LaunchDescription.h"
#include "LaunchPlan.h"
#include "ReturnOnFailure.h"

#include <cuda.h>
#include <nccl.h>

#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

using namespace stencil_runtime;
using namespace stencil_run;

static_assert(STENCIL_MULTI_ID_BYTES == NCCL_UNIQUE_ID_BYTES,
              "the id must hold an ncclUniqueId");

namespace {

thread_local std::string lastError;

stencil_status fail(stencil_status status, std::string message) {
  lastError = std::move(message);
  return status;
}

stencil_status cudaFailure(CUresult result, const char *call) {
  const char *name = nullptr;
  if (cuGetErrorName(result, &name) != CUDA_SUCCESS || !name)
    name = "unknown CUresult";
  return fail(STENCIL_ERROR_CUDA, std::string(call) + " failed: " + name +
                                      " (" + std::to_string(int(result)) + ")");
}

stencil_status ncclFailure(ncclResult_t result, const char *call) {
  return fail(STENCIL_ERROR_CUDA,
              std::string(call) + " failed: " + ncclGetErrorString(result));
}

stencil_status runtimeFailure(stencil_status status, const char *call) {
  return fail(status, std::string(call) + ": " + stencil_last_error());
}

#define MULTI_CU(expr)                                                         \
  STENCIL_RETURN_ON_FAILURE(CUresult, expr, CUDA_SUCCESS, cudaFailure, #expr)
#define MULTI_NCCL(expr)                                                       \
  STENCIL_RETURN_ON_FAILURE(ncclResult_t, expr, ncclSuccess, ncclFailure, #expr)
#define MULTI_RUNTIME(expr)                                                    \
  STENCIL_RETURN_ON_FAILURE(stencil_status, expr, STENCIL_SUCCESS,             \
                            runtimeFailure, #expr)

/// One rank this process drives.
struct LocalRank {
  int rank = 0;
  int device = 0;
  CUdevice dev = 0;
  CUcontext ctx = nullptr;
  stencil_kernel *kernel = nullptr;
  ncclComm_t comm = nullptr;
  CUstream compute = nullptr, exchange = nullptr;
  /// Recorded after the interior launch, and after all of a launch's work
  /// on the exchange stream.
  CUevent interiorDone = nullptr, launchDone = nullptr;
  /// Recorded after its copies of an exchange between ranks of one device.
  CUevent sent = nullptr;
  CUdeviceptr buf[2] = {0, 0};
  std::vector<CUdeviceptr> temps; // one per boundary window
  RankLaunches plan;
};

} // namespace

struct stencil_multi {
  LaunchDescription desc;
  std::vector<int64_t> sizes;
  Decomposition decomposition;
  int numRanks = 0;
  int64_t planePoints = 1;
  size_t planeBytes = 0;
  /// The buffer holding the current grid.
  int current = 0;
  /// All ranks on one device (a test of the decomposition on one GPU):
  /// NCCL refuses two ranks of a GPU, so the planes move by copies.
  bool oneDevice = false;
  /// Set by an upload: the second buffer and the temporaries must be
  /// initialized from the first before the next launch (a halo boundary
  /// leaves points unwritten that must hold the input).
  bool fresh = true;
  std::vector<LocalRank> ranks;

  const Slab &slab(const LocalRank &r) const {
    return decomposition.slabs[r.rank];
  }
  std::vector<int64_t> gridOf(int64_t planes) const {
    std::vector<int64_t> g = sizes;
    g[0] = planes;
    return g;
  }
};

namespace {

/// Parses the description, plans the slabs of `numRanks` ranks and checks
/// that the kernel runs on the global and every local grid.
stencil_status plan(stencil_multi &m, const char *launchPath,
                    const int64_t *sizes, int rank, int numRanks,
                    int64_t alignment) {
  if (!launchPath || !sizes || rank < 1 || rank > 3 || numRanks < 1 ||
      alignment < 0)
    return fail(STENCIL_ERROR_INVALID_ARGUMENT,
                "stencil_multi: null description path or sizes, a rank "
                "outside 1..3, no ranks, or a negative alignment");
  // Only to tell a missing file from a malformed one: the parser reads it
  // (within its size bound), as stencil_kernel_load_file does.
  if (!std::ifstream(launchPath))
    return fail(STENCIL_ERROR_IO, std::string("cannot read the launch "
                                              "description '") +
                                      launchPath + "'");
  std::string error;
  std::vector<std::string> warnings;
  if (!parseLaunchDescription(launchPath, m.desc, error, warnings))
    return fail(STENCIL_ERROR_INVALID_DESCRIPTION, error);
  m.sizes.assign(sizes, sizes + rank);
  LaunchPlan launches;
  if (stencil_status s = planLaunches(m.desc, m.sizes, 0, launches, error);
      s != STENCIL_SUCCESS)
    return fail(s, error);
  const int64_t radius = getRadii(m.desc)[0];
  if (!planDecomposition(m.sizes[0], radius, m.desc.stepsPerLaunch,
                         m.desc.boundary == Boundary::Periodic, numRanks,
                         alignment ? alignment : getSlabAlignment(m.desc),
                         m.decomposition, error, getSlabMinHalo(m.desc)))
    return fail(STENCIL_ERROR_GRID_TOO_SMALL, error);
  for (const Slab &s : m.decomposition.slabs)
    if (stencil_status st =
            planLaunches(m.desc, m.gridOf(s.localPlanes()), 0, launches, error);
        st != STENCIL_SUCCESS)
      return fail(st, "a slab of " + std::to_string(s.localPlanes()) +
                          " planes: " + error);
  m.numRanks = numRanks;
  for (int k = 1; k < rank; ++k)
    m.planePoints *= m.sizes[k];
  m.planeBytes = size_t(m.planePoints) * elemTypeBytes(m.desc.elementType);
  return STENCIL_SUCCESS;
}

/// Context, kernel, streams, events and buffers of `r`.
stencil_status setUpRank(stencil_multi &m, LocalRank &r) {
  MULTI_CU(cuDeviceGet(&r.dev, r.device));
  MULTI_CU(cuDevicePrimaryCtxRetain(&r.ctx, r.dev));
  MULTI_CU(cuCtxSetCurrent(r.ctx));
  MULTI_RUNTIME(stencil_kernel_load_file(m.desc.path.c_str(), &r.kernel));
  MULTI_RUNTIME(stencil_kernel_prepare(r.kernel));
  MULTI_CU(cuStreamCreate(&r.compute, CU_STREAM_NON_BLOCKING));
  MULTI_CU(cuStreamCreate(&r.exchange, CU_STREAM_NON_BLOCKING));
  MULTI_CU(cuEventCreate(&r.interiorDone, CU_EVENT_DISABLE_TIMING));
  MULTI_CU(cuEventCreate(&r.launchDone, CU_EVENT_DISABLE_TIMING));
  MULTI_CU(cuEventCreate(&r.sent, CU_EVENT_DISABLE_TIMING));
  const Slab &s = m.slab(r);
  const int64_t radius = getRadii(m.desc)[0];
  r.plan = planRankLaunches(m.decomposition, r.rank, 2 * radius + 1);
  for (CUdeviceptr &b : r.buf)
    MULTI_CU(cuMemAlloc(&b, size_t(s.localPlanes()) * m.planeBytes));
  for (const BoundaryWindow &w : r.plan.windows) {
    r.temps.push_back(0);
    MULTI_CU(cuMemAlloc(&r.temps.back(), size_t(w.planes) * m.planeBytes));
  }
  return STENCIL_SUCCESS;
}

void release(stencil_multi &m) {
  for (LocalRank &r : m.ranks) {
    if (!r.ctx)
      continue;
    cuCtxSetCurrent(r.ctx);
    cuCtxSynchronize();
    if (r.comm)
      ncclCommDestroy(r.comm);
    for (CUdeviceptr b : r.buf)
      if (b)
        cuMemFree(b);
    for (CUdeviceptr t : r.temps)
      if (t)
        cuMemFree(t);
    for (CUstream s : {r.compute, r.exchange})
      if (s)
        cuStreamDestroy(s);
    for (CUevent e : {r.interiorDone, r.launchDone, r.sent})
      if (e)
        cuEventDestroy(e);
    stencil_kernel_destroy(r.kernel);
    cuDevicePrimaryCtxRelease(r.dev);
  }
  m.ranks.clear();
}

stencil_status create(const char *launchPath, const int64_t *sizes, int rank,
                      const int *devices, int numLocal, int numRanks,
                      int firstRank, const void *id, int64_t alignment,
                      stencil_multi **out) {
  if (!out)
    return fail(STENCIL_ERROR_INVALID_ARGUMENT,
                "stencil_multi: null result pointer");
  *out = nullptr;
  auto m = std::make_unique<stencil_multi>();
  if (stencil_status s = plan(*m, launchPath, sizes, rank, numRanks, alignment))
    return s;
  MULTI_CU(cuInit(0));
  int count = 0;
  MULTI_CU(cuDeviceGetCount(&count));
  for (int i = 0; i < numLocal; ++i) {
    if (devices[i] < 0 || devices[i] >= count)
      return fail(STENCIL_ERROR_INVALID_ARGUMENT,
                  "device " + std::to_string(devices[i]) + " but only " +
                      std::to_string(count) + " CUDA device(s)");
    for (int j = 0; j < i; ++j)
      if (devices[j] == devices[i] && devices[i] != devices[0])
        return fail(STENCIL_ERROR_INVALID_ARGUMENT,
                    "device " + std::to_string(devices[i]) +
                        " given twice: one rank per device, or all ranks on "
                        "one device (a test on one GPU)");
  }
  m->oneDevice = !id && numLocal > 1;
  for (int i = 1; i < numLocal; ++i)
    m->oneDevice &= devices[i] == devices[0];
  m->ranks.resize(numLocal);
  stencil_status status = STENCIL_SUCCESS;
  for (int i = 0; i < numLocal && !status; ++i) {
    m->ranks[i].rank = firstRank + i;
    m->ranks[i].device = devices[i];
    status = setUpRank(*m, m->ranks[i]);
  }
  // NCCL's communicators (none for one rank: nothing to exchange).
  if (!status && numRanks > 1 && !m->oneDevice) {
    ncclResult_t r = ncclSuccess;
    const char *call = "";
    if (id) {
      ncclUniqueId uid;
      std::memcpy(&uid, id, sizeof(uid));
      cuCtxSetCurrent(m->ranks[0].ctx);
      call = "ncclCommInitRank";
      r = ncclCommInitRank(&m->ranks[0].comm, numRanks, uid, firstRank);
    } else {
      std::vector<ncclComm_t> comms(numLocal);
      call = "ncclCommInitAll";
      r = ncclCommInitAll(comms.data(), numLocal, devices);
      if (r == ncclSuccess)
        for (int i = 0; i < numLocal; ++i)
          m->ranks[i].comm = comms[i];
    }
    if (r != ncclSuccess)
      status = ncclFailure(r, call);
  }
  if (status) {
    std::string message = lastError;
    release(*m);
    lastError = message;
    return status;
  }
  *out = m.release();
  lastError.clear();
  return STENCIL_SUCCESS;
}

/// The exchange between ranks of one device (see stencil_multi::oneDevice):
/// each rank copies its first and last own planes of buffer `b` into its
/// neighbours' halos on its exchange stream, after the neighbours' previous
/// launch (which read and wrote their buffers); each rank's exchange
/// stream then waits for its neighbours' copies.
stencil_status exchangeOnOneDevice(stencil_multi &m, int b) {
  const int64_t h = m.decomposition.halo;
  const size_t bytes = size_t(h) * m.planeBytes;
  MULTI_CU(cuCtxSetCurrent(m.ranks[0].ctx));
  for (LocalRank &r : m.ranks) {
    const Slab &s = m.slab(r);
    for (int n : {s.lowNeighbor, s.highNeighbor})
      if (n >= 0)
        MULTI_CU(cuStreamWaitEvent(r.exchange, m.ranks[n].launchDone, 0));
    if (s.lowNeighbor >= 0) {
      const LocalRank &low = m.ranks[s.lowNeighbor];
      const Slab &ls = m.slab(low);
      MULTI_CU(cuMemcpyDtoDAsync(
          low.buf[b] + size_t(ls.haloLow + ls.ownPlanes()) * m.planeBytes,
          r.buf[b] + size_t(s.haloLow) * m.planeBytes, bytes, r.exchange));
    }
    if (s.highNeighbor >= 0)
      MULTI_CU(cuMemcpyDtoDAsync(
          m.ranks[s.highNeighbor].buf[b],
          r.buf[b] + size_t(s.haloLow + s.ownPlanes() - h) * m.planeBytes,
          bytes, r.exchange));
    MULTI_CU(cuEventRecord(r.sent, r.exchange));
  }
  for (LocalRank &r : m.ranks) {
    const Slab &s = m.slab(r);
    for (int n : {s.lowNeighbor, s.highNeighbor})
      if (n >= 0)
        MULTI_CU(cuStreamWaitEvent(r.exchange, m.ranks[n].sent, 0));
  }
  return STENCIL_SUCCESS;
}

/// The exchange into the halos of buffer `b` of every local rank, on the
/// exchange streams, as one NCCL group.
stencil_status exchange(stencil_multi &m, int b) {
  const int64_t h = m.decomposition.halo;
  if (h == 0 || m.numRanks == 1)
    return STENCIL_SUCCESS;
  const size_t bytes = size_t(h) * m.planeBytes;
  if (m.oneDevice)
    return exchangeOnOneDevice(m, b);
  MULTI_NCCL(ncclGroupStart());
  for (LocalRank &r : m.ranks) {
    const Slab &s = m.slab(r);
    CUdeviceptr base = r.buf[b];
    auto at = [&](int64_t plane) {
      return reinterpret_cast<void *>(base + size_t(plane) * m.planeBytes);
    };
    cudaStream_t stream = reinterpret_cast<cudaStream_t>(r.exchange);
    // Sends first (lower, upper), then receives (upper, lower): the order
    // in which the neighbours' messages are posted.
    if (s.lowNeighbor >= 0)
      MULTI_NCCL(ncclSend(at(s.haloLow), bytes, ncclUint8, s.lowNeighbor,
                          r.comm, stream));
    if (s.highNeighbor >= 0)
      MULTI_NCCL(ncclSend(at(s.haloLow + s.ownPlanes() - h), bytes, ncclUint8,
                          s.highNeighbor, r.comm, stream));
    if (s.highNeighbor >= 0)
      MULTI_NCCL(ncclRecv(at(s.haloLow + s.ownPlanes()), bytes, ncclUint8,
                          s.highNeighbor, r.comm, stream));
    if (s.lowNeighbor >= 0)
      MULTI_NCCL(
          ncclRecv(at(0), bytes, ncclUint8, s.lowNeighbor, r.comm, stream));
  }
  MULTI_NCCL(ncclGroupEnd());
  return STENCIL_SUCCESS;
}

/// One launch of `steps` steps (the kernel's steps_per_launch, or the tail
/// kernel's steps: one launch of either) on local planes [begin, begin +
/// planes) of `in` as a grid, into `out` at its plane `outPlane`.
stencil_status launchOn(stencil_multi &m, LocalRank &r, CUdeviceptr in,
                        int64_t begin, int64_t planes, CUdeviceptr out,
                        CUstream stream, int steps) {
  std::vector<int64_t> grid = m.gridOf(planes);
  MULTI_RUNTIME(stencil_kernel_run(r.kernel, in + size_t(begin) * m.planeBytes,
                                   out, grid.data(), int(grid.size()), steps,
                                   stream,
                                   STENCIL_RUN_OUT_INITIALIZED, nullptr));
  return STENCIL_SUCCESS;
}

/// The second buffer and the windows' temporaries from the current one.
stencil_status initialize(stencil_multi &m) {
  for (LocalRank &r : m.ranks) {
    MULTI_CU(cuCtxSetCurrent(r.ctx));
    CUdeviceptr cur = r.buf[m.current];
    MULTI_CU(cuMemcpyDtoDAsync(r.buf[1 - m.current], cur,
                               size_t(m.slab(r).localPlanes()) * m.planeBytes,
                               r.exchange));
    for (size_t w = 0; w < r.plan.windows.size(); ++w)
      MULTI_CU(cuMemcpyDtoDAsync(
          r.temps[w], cur + size_t(r.plan.windows[w].begin) * m.planeBytes,
          size_t(r.plan.windows[w].planes) * m.planeBytes, r.exchange));
    MULTI_CU(cuEventRecord(r.launchDone, r.exchange));
  }
  m.fresh = false;
  return STENCIL_SUCCESS;
}

/// One launch of `steps` steps on every rank (see launchOn). A tail launch
/// (fewer steps than steps_per_launch) runs in the same layout: its halo
/// of r planes per side lies within the h = r F the exchange refreshes,
/// and every plane an F-step launch gets exactly right, the interior's and
/// the windows' exact planes, a launch of fewer steps gets right too.
stencil_status launch(stencil_multi &m, unsigned flags, int steps) {
  const int in = m.current, out = 1 - m.current;
  if (flags & STENCIL_MULTI_EXCHANGE_ONLY)
    return exchange(m, in);
  const bool computeOnly = flags & STENCIL_MULTI_COMPUTE_ONLY;
  const bool overlap =
      !(flags & (STENCIL_MULTI_NO_OVERLAP | STENCIL_MULTI_COMPUTE_ONLY));
  // The interiors, on the compute streams.
  for (LocalRank &r : m.ranks) {
    if (!overlap || !r.plan.overlap)
      continue;
    MULTI_CU(cuCtxSetCurrent(r.ctx));
    MULTI_CU(cuStreamWaitEvent(r.compute, r.launchDone, 0));
    const int64_t begin = r.plan.interiorBegin;
    if (stencil_status s =
            launchOn(m, r, r.buf[in], begin, r.plan.interiorEnd - begin,
                     r.buf[out] + size_t(begin) * m.planeBytes, r.compute,
                     steps))
      return s;
    MULTI_CU(cuEventRecord(r.interiorDone, r.compute));
  }
  if (!computeOnly)
    if (stencil_status s = exchange(m, in))
      return s;
  // The windows and their copies, or the whole slab.
  for (LocalRank &r : m.ranks) {
    MULTI_CU(cuCtxSetCurrent(r.ctx));
    if (overlap && r.plan.overlap) {
      for (size_t w = 0; w < r.plan.windows.size(); ++w)
        if (stencil_status s =
                launchOn(m, r, r.buf[in], r.plan.windows[w].begin,
                         r.plan.windows[w].planes, r.temps[w], r.exchange,
                         steps))
          return s;
      MULTI_CU(cuStreamWaitEvent(r.exchange, r.interiorDone, 0));
      for (size_t w = 0; w < r.plan.windows.size(); ++w) {
        const BoundaryWindow &win = r.plan.windows[w];
        MULTI_CU(cuMemcpyDtoDAsync(
            r.buf[out] + size_t(win.copyTo) * m.planeBytes,
            r.temps[w] + size_t(win.copyFrom) * m.planeBytes,
            size_t(win.copyPlanes) * m.planeBytes, r.exchange));
      }
    } else {
      if (stencil_status s =
              launchOn(m, r, r.buf[in], 0, m.slab(r).localPlanes(), r.buf[out],
                       r.exchange, steps))
        return s;
    }
    MULTI_CU(cuEventRecord(r.launchDone, r.exchange));
  }
  m.current = out;
  return STENCIL_SUCCESS;
}

LocalRank *findLocal(stencil_multi &m, int rank) {
  for (LocalRank &r : m.ranks)
    if (r.rank == rank)
      return &r;
  return nullptr;
}

stencil_status checkPlanes(const stencil_multi &m, const void *host,
                           int64_t first, int64_t planes, const char *what) {
  if (!host || first < 0 || planes < 0 || first > m.sizes[0] ||
      planes > m.sizes[0] - first)
    return fail(STENCIL_ERROR_INVALID_ARGUMENT,
                std::string(what) + ": null host buffer, or planes [" +
                    std::to_string(first) + ", " +
                    std::to_string(first + planes) + ") outside the grid's " +
                    std::to_string(m.sizes[0]));
  return STENCIL_SUCCESS;
}

/// Calls `copy(localPlane, globalPlane, count)` for every run of
/// consecutive local planes in [begin, end) of `r` whose global planes are
/// consecutive and within [first, first + planes).
template <typename F>
stencil_status forEachRun(const stencil_multi &m, const LocalRank &r,
                          int64_t begin, int64_t end, int64_t first,
                          int64_t planes, F copy) {
  const Slab &s = m.slab(r);
  int64_t i = begin;
  while (i < end) {
    int64_t g = s.globalPlane(i, m.sizes[0]);
    if (g < first || g >= first + planes) {
      ++i;
      continue;
    }
    int64_t n = 1;
    while (i + n < end && s.globalPlane(i + n, m.sizes[0]) == g + n &&
           g + n < first + planes)
      ++n;
    if (stencil_status st = copy(i, g, n))
      return st;
    i += n;
  }
  return STENCIL_SUCCESS;
}

/// Copies the host's planes [first, first + planes) to (`upload`) or from
/// every local rank's current buffer, on the rank's context once its work
/// is done: `copy(device, hostOffset, bytes)` for each run of planes the
/// rank holds, all of its local planes for an upload (its halo too), its
/// own planes for a download. `what` names the call in messages.
template <typename F>
stencil_status copyHostPlanes(stencil_multi *multi, const void *host,
                              int64_t first, int64_t planes, bool upload,
                              const char *what, F copy) {
  if (!multi)
    return fail(STENCIL_ERROR_INVALID_ARGUMENT, std::string(what) + ": null");
  stencil_multi &m = *multi;
  if (stencil_status s = checkPlanes(m, host, first, planes, what))
    return s;
  for (LocalRank &r : m.ranks) {
    MULTI_CU(cuCtxSetCurrent(r.ctx));
    MULTI_CU(cuCtxSynchronize());
    const Slab &s = m.slab(r);
    int64_t begin = upload ? 0 : s.haloLow;
    int64_t end = upload ? s.localPlanes() : s.haloLow + s.ownPlanes();
    if (stencil_status st = forEachRun(
            m, r, begin, end, first, planes,
            [&](int64_t local, int64_t global, int64_t n) {
              return copy(r.buf[m.current] + size_t(local) * m.planeBytes,
                          size_t(global - first) * m.planeBytes,
                          size_t(n) * m.planeBytes);
            }))
      return st;
  }
  m.fresh = m.fresh || upload;
  lastError.clear();
  return STENCIL_SUCCESS;
}

} // namespace

extern "C" {

const char *stencil_multi_last_error(void) { return lastError.c_str(); }

stencil_status stencil_multi_unique_id(void *id) {
  if (!id)
    return fail(STENCIL_ERROR_INVALID_ARGUMENT,
                "stencil_multi_unique_id: null id");
  ncclUniqueId uid;
  MULTI_NCCL(ncclGetUniqueId(&uid));
  std::memcpy(id, &uid, sizeof(uid));
  lastError.clear();
  return STENCIL_SUCCESS;
}

stencil_status stencil_multi_create(const char *launch_path,
                                    const int64_t *sizes, int rank,
                                    const int *devices, int num_devices,
                                    int64_t alignment, stencil_multi **multi) {
  if (!devices || num_devices < 1)
    return fail(STENCIL_ERROR_INVALID_ARGUMENT,
                "stencil_multi_create: no devices");
  return create(launch_path, sizes, rank, devices, num_devices, num_devices, 0,
                nullptr, alignment, multi);
}

stencil_status stencil_multi_create_rank(const char *launch_path,
                                         const int64_t *sizes, int rank,
                                         int device, const void *id,
                                         int num_ranks, int my_rank,
                                         int64_t alignment,
                                         stencil_multi **multi) {
  if (!id || num_ranks < 1 || my_rank < 0 || my_rank >= num_ranks)
    return fail(STENCIL_ERROR_INVALID_ARGUMENT,
                "stencil_multi_create_rank: null id, or rank " +
                    std::to_string(my_rank) + " not in 0.." +
                    std::to_string(num_ranks - 1));
  return create(launch_path, sizes, rank, &device, 1, num_ranks, my_rank, id,
                alignment, multi);
}

void stencil_multi_destroy(stencil_multi *multi) {
  if (!multi)
    return;
  release(*multi);
  delete multi;
}

int stencil_multi_num_ranks(const stencil_multi *multi) {
  return multi ? multi->numRanks : 0;
}

int stencil_multi_local_ranks(const stencil_multi *multi) {
  return multi ? int(multi->ranks.size()) : 0;
}

int stencil_multi_first_rank(const stencil_multi *multi) {
  return multi && !multi->ranks.empty() ? multi->ranks[0].rank : -1;
}

int64_t stencil_multi_halo(const stencil_multi *multi) {
  return multi ? multi->decomposition.halo : -1;
}

stencil_status stencil_multi_slab(const stencil_multi *multi, int rank,
                                  int64_t *own_begin, int64_t *own_end,
                                  int64_t *halo_low, int64_t *halo_high) {
  if (!multi || rank < 0 || rank >= multi->numRanks)
    return fail(STENCIL_ERROR_INVALID_ARGUMENT,
                "stencil_multi_slab: no such rank");
  const Slab &s = multi->decomposition.slabs[rank];
  if (own_begin)
    *own_begin = s.ownBegin;
  if (own_end)
    *own_end = s.ownEnd;
  if (halo_low)
    *halo_low = s.haloLow;
  if (halo_high)
    *halo_high = s.haloHigh;
  return STENCIL_SUCCESS;
}

int stencil_multi_overlaps(const stencil_multi *multi, int rank) {
  if (!multi)
    return 0;
  LocalRank *r = findLocal(*const_cast<stencil_multi *>(multi), rank);
  return r && r->plan.overlap;
}

stencil_status stencil_multi_upload(stencil_multi *multi, const void *host,
                                    int64_t first_plane, int64_t planes) {
  const auto *src = static_cast<const uint8_t *>(host);
  return copyHostPlanes(multi, host, first_plane, planes, /*upload=*/true,
                        "stencil_multi_upload",
                        [&](CUdeviceptr device, size_t offset, size_t bytes) {
                          MULTI_CU(cuMemcpyHtoD(device, src + offset, bytes));
                          return STENCIL_SUCCESS;
                        });
}

stencil_status stencil_multi_download(stencil_multi *multi, void *host,
                                      int64_t first_plane, int64_t planes) {
  auto *dst = static_cast<uint8_t *>(host);
  return copyHostPlanes(multi, host, first_plane, planes, /*upload=*/false,
                        "stencil_multi_download",
                        [&](CUdeviceptr device, size_t offset, size_t bytes) {
                          MULTI_CU(cuMemcpyDtoH(dst + offset, device, bytes));
                          return STENCIL_SUCCESS;
                        });
}

stencil_status stencil_multi_run(stencil_multi *multi, int64_t steps,
                                 unsigned flags) {
  if (!multi)
    return fail(STENCIL_ERROR_INVALID_ARGUMENT, "stencil_multi_run: null");
  stencil_multi &m = *multi;
  const unsigned known = STENCIL_MULTI_NO_OVERLAP | STENCIL_MULTI_COMPUTE_ONLY |
                         STENCIL_MULTI_EXCHANGE_ONLY;
  if ((flags & ~known) || ((flags & STENCIL_MULTI_COMPUTE_ONLY) &&
                           (flags & STENCIL_MULTI_EXCHANGE_ONLY)))
    return fail(STENCIL_ERROR_INVALID_ARGUMENT,
                "stencil_multi_run: unknown or contradictory flags " +
                    std::to_string(flags));
  // floor(steps / F) launches of the kernel, then the tail kernel's for
  // the steps left over (planSteps: as a single GPU's run).
  int64_t launches = 0, tailLaunches = 0;
  std::string error;
  if (stencil_status st =
          planSteps(m.desc, steps, launches, tailLaunches, error);
      st != STENCIL_SUCCESS)
    return fail(st == STENCIL_ERROR_STEPS ? STENCIL_ERROR_STEPS
                                          : STENCIL_ERROR_INVALID_ARGUMENT,
                "stencil_multi_run: " + error);
  if (m.fresh && steps > 0)
    if (stencil_status s = initialize(m))
      return s;
  for (int64_t l = 0; l < launches; ++l)
    if (stencil_status s = launch(m, flags, m.desc.stepsPerLaunch))
      return s;
  for (int64_t l = 0; l < tailLaunches; ++l)
    if (stencil_status s = launch(m, flags, m.desc.tailSteps))
      return s;
  lastError.clear();
  return STENCIL_SUCCESS;
}

stencil_status stencil_multi_synchronize(stencil_multi *multi) {
  if (!multi)
    return fail(STENCIL_ERROR_INVALID_ARGUMENT,
                "stencil_multi_synchronize: null");
  for (LocalRank &r : multi->ranks) {
    MULTI_CU(cuCtxSetCurrent(r.ctx));
    MULTI_CU(cuCtxSynchronize());
  }
  lastError.clear();
  return STENCIL_SUCCESS;
}

stencil_status stencil_multi_local(const stencil_multi *multi, int rank,
                                   int *device, CUdeviceptr *grid,
                                   stencil_kernel **kernel) {
  LocalRank *r =
      multi ? findLocal(*const_cast<stencil_multi *>(multi), rank) : nullptr;
  if (!r)
    return fail(STENCIL_ERROR_INVALID_ARGUMENT,
                "stencil_multi_local: rank " + std::to_string(rank) +
                    " is not one of this process");
  if (device)
    *device = r->device;
  if (grid)
    *grid = r->buf[multi->current];
  if (kernel)
    *kernel = r->kernel;
  return STENCIL_SUCCESS;
}

} // extern "C"
