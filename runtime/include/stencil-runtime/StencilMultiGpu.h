/*===- StencilMultiGpu.h - One grid over several GPUs -------------*- C -*-===*
 *
 * The C API of libStencilMultiGpu (built when NCCL is found; docs/MultiGPU.md):
 * a compiled stencil run on a grid split along its outermost dimension into
 * one slab per GPU (a rank), each slab a grid of its own with halos of
 * r * steps_per_launch planes that the neighbours refresh over NCCL
 * (ncclSend/ncclRecv in a group) before every launch, while the slab's
 * interior computes; the planes next to a halo are computed after the
 * exchange. The result equals the single GPU's bit for bit.
 *
 * One process driving several GPUs:
 *
 *   int devices[2] = {0, 1};
 *   stencil_multi *m;
 *   stencil_multi_create("heat2d.launch", sizes, 2, devices, 2, 0, &m);
 *   stencil_multi_upload(m, host, 0, sizes[0]);   // the whole grid
 *   stencil_multi_run(m, steps, 0);
 *   stencil_multi_download(m, host, 0, sizes[0]);
 *   stencil_multi_destroy(m);
 *
 * One process per GPU (several nodes): rank 0 makes an id with
 * stencil_multi_unique_id, sends it to the others (e.g. MPI_Bcast), and
 * every process calls stencil_multi_create_rank with it. Uploads and
 * downloads then move the planes this process's rank holds.
 *
 * Errors: a stencil_status and stencil_multi_last_error() (per thread).
 * Host buffers hold whole planes of the global grid, dense and row-major
 * (innermost dimension contiguous), in the kernel's element type.
 *
 *===----------------------------------------------------------------------===*/
#ifndef STENCIL_RUNTIME_STENCILMULTIGPU_H
#define STENCIL_RUNTIME_STENCILMULTIGPU_H

#include "stencil-runtime/StencilRuntime.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct stencil_multi stencil_multi;

/** Bytes of the id of stencil_multi_create_rank (NCCL_UNIQUE_ID_BYTES). */
#define STENCIL_MULTI_ID_BYTES 128

/** stencil_multi_run's flags. */
enum {
  /** Exchange, then compute each slab whole: no overlap. */
  STENCIL_MULTI_NO_OVERLAP = 1u,
  /** For timing only (the result is wrong): the launches without the
   *  exchange, each slab computed whole. */
  STENCIL_MULTI_COMPUTE_ONLY = 2u,
  /** For timing only: the exchanges without the launches. */
  STENCIL_MULTI_EXCHANGE_ONLY = 4u
};

/** The message of the last call on this thread that failed. */
STENCIL_RUNTIME_API const char *stencil_multi_last_error(void);

/** A new id for stencil_multi_create_rank (ncclGetUniqueId), written to
 *  `id` (STENCIL_MULTI_ID_BYTES bytes). */
STENCIL_RUNTIME_API stencil_status stencil_multi_unique_id(void *id);

/** Splits the grid of `rank` `sizes` (outermost first) over the devices
 *  `devices[0 .. num_devices)` of this process, rank i on devices[i]
 *  (ncclCommInitAll), for the kernel of the launch description at
 *  `launch_path`. `alignment` 0 takes the kernel's (a Tensor Core or FFT
 *  kernel's slabs start on multiples of its tile along the outermost
 *  dimension, so that every point keeps its place in a tile); a positive
 *  value overrides it. `devices` may also name one device for all ranks:
 *  a test of the decomposition on one GPU (NCCL refuses two ranks on one
 *  GPU; the halos then move by device copies). Allocates, on each device,
 *  two buffers of its
 *  slab and halos and, for the overlap, two of 3 halos each. Fails for a
 *  grid the kernel cannot run on, or slabs thinner than the halo. */
STENCIL_RUNTIME_API stencil_status stencil_multi_create(
    const char *launch_path, const int64_t *sizes, int rank, const int *devices,
    int num_devices, int64_t alignment, stencil_multi **multi);

/** The same for one rank, `my_rank` of `num_ranks`, on device `device`
 *  (ncclCommInitRank with `id` from stencil_multi_unique_id). Collective:
 *  every rank must call it. */
STENCIL_RUNTIME_API stencil_status stencil_multi_create_rank(
    const char *launch_path, const int64_t *sizes, int rank, int device,
    const void *id, int num_ranks, int my_rank, int64_t alignment,
    stencil_multi **multi);

/** Frees the buffers, streams, kernels and communicators. Null is
 *  allowed. */
STENCIL_RUNTIME_API void stencil_multi_destroy(stencil_multi *multi);

/** Ranks in all, and those this process drives (its first is
 *  stencil_multi_first_rank). */
STENCIL_RUNTIME_API int stencil_multi_num_ranks(const stencil_multi *multi);
STENCIL_RUNTIME_API int stencil_multi_local_ranks(const stencil_multi *multi);
STENCIL_RUNTIME_API int stencil_multi_first_rank(const stencil_multi *multi);

/** Halo planes per side, and rank `rank`'s own planes [own_begin,
 *  own_end) of the global grid and its halos (0 at a global edge without
 *  wrap). Any rank, also of another process. */
STENCIL_RUNTIME_API int64_t stencil_multi_halo(const stencil_multi *multi);
STENCIL_RUNTIME_API stencil_status
stencil_multi_slab(const stencil_multi *multi, int rank, int64_t *own_begin,
                   int64_t *own_end, int64_t *halo_low, int64_t *halo_high);

/** Whether rank `rank` (of this process) overlaps the exchange with its
 *  interior (a slab of at least 2 halos and 2 r + 1 planes). */
STENCIL_RUNTIME_API int stencil_multi_overlaps(const stencil_multi *multi,
                                               int rank);

/** Copies planes [first_plane, first_plane + planes) of the global grid
 *  from `host` to every plane of them that this process's ranks hold
 *  (own and halo), synchronously. Upload the whole grid before the first
 *  run, in one call or several. */
STENCIL_RUNTIME_API stencil_status stencil_multi_upload(stencil_multi *multi,
                                                        const void *host,
                                                        int64_t first_plane,
                                                        int64_t planes);

/** Copies the own planes of this process's ranks within [first_plane,
 *  first_plane + planes) of the current grid to `host` (which holds those
 *  planes), synchronously, after the runs queued so far. */
STENCIL_RUNTIME_API stencil_status stencil_multi_download(stencil_multi *multi,
                                                          void *host,
                                                          int64_t first_plane,
                                                          int64_t planes);

/** Queues `steps` time steps on every rank: floor(steps / F) launches of
 *  the kernel (F = steps_per_launch), then launches of its tail kernel for
 *  the steps left over, each launch after its halo exchange (any `steps`
 *  with a tail kernel; without one, a multiple of F, else
 *  STENCIL_ERROR_STEPS); returns when they are queued. `flags`:
 *  STENCIL_MULTI_*. */
STENCIL_RUNTIME_API stencil_status stencil_multi_run(stencil_multi *multi,
                                                     int64_t steps,
                                                     unsigned flags);

/** Waits for everything queued on this process's ranks. */
STENCIL_RUNTIME_API stencil_status
stencil_multi_synchronize(stencil_multi *multi);

/** This process's rank `rank`: its device ordinal, the buffer holding its
 *  current local grid (halos included, sizes[0] = halo_low + own +
 *  halo_high planes), and the kernel run there. */
STENCIL_RUNTIME_API stencil_status
stencil_multi_local(const stencil_multi *multi, int rank, int *device,
                    CUdeviceptr *grid, stencil_kernel **kernel);

#ifdef __cplusplus
}
#endif

#endif
