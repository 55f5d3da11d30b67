/*===- StencilRuntime.h - Run compiled stencils on caller buffers -*- C -*-===*
 *
 * The C API of libStencilRuntime: loads a kernel the compiler emitted (a
 * launch description, docs/LaunchDescription.md, and its PTX), says what it
 * computes, and runs T time steps of it on device buffers the caller owns,
 * in the caller's CUDA stream. Plain C; the library uses the CUDA driver
 * API only (no LLVM, no CUDA runtime).
 *
 *   stencil_kernel *k;
 *   if (stencil_kernel_load_file("heat2d.launch", &k) != STENCIL_SUCCESS)
 *     fprintf(stderr, "%s\n", stencil_last_error());
 *   int64_t sizes[2] = {ny, nx};              // outermost first
 *   CUdeviceptr result;
 *   stencil_kernel_run(k, in, out, sizes, 2, steps, stream, 0, &result);
 *   ...
 *   stencil_kernel_destroy(k);
 *
 * Grids are dense and row-major (the innermost dimension contiguous),
 * `sizes` outermost first. A run of S steps is floor(S / F) launches of
 * the kernel (F = steps_per_launch) and then, for the S mod F steps left
 * over, launches of its tail kernel (stencil_kernel_tail_steps each; any S
 * when the kernel has one). The run ping-pongs between `in` and `out`:
 * both are overwritten, and the result is in `out` when the number of
 * launches of both kinds is odd and in `in` when it is even; `*result`
 * says which. With a halo boundary the points of the
 * halo keep their values, so `out` must start with the same halo as `in`:
 * the run copies `in` to `out` on the stream first, unless the caller
 * passes STENCIL_RUN_OUT_INITIALIZED.
 *
 * Every function reports misuse by a status and a message
 * (stencil_last_error, per thread), never by aborting. The kernel's CUDA
 * module is loaded in the context current at the first run; later runs
 * must use the same context. A stencil_kernel may be used from one thread
 * at a time.
 *
 *===----------------------------------------------------------------------===*/
#ifndef STENCIL_RUNTIME_STENCILRUNTIME_H
#define STENCIL_RUNTIME_STENCILRUNTIME_H

#include "stencil-runtime/StencilStatus.h"

#include <cuda.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define STENCIL_RUNTIME_API __attribute__((visibility("default")))
#else
#define STENCIL_RUNTIME_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef enum stencil_element_type {
  STENCIL_F16 = 0,
  STENCIL_BF16 = 1,
  STENCIL_F32 = 2,
  STENCIL_F64 = 3
} stencil_element_type;

typedef enum stencil_boundary {
  /** The halo (within the radius of the grid's edge) keeps its values. */
  STENCIL_BOUNDARY_HALO = 0,
  /** Every point is computed; the grid wraps around. */
  STENCIL_BOUNDARY_PERIODIC = 1,
  /** Every point is computed; points outside the grid hold a constant. */
  STENCIL_BOUNDARY_DIRICHLET = 2
} stencil_boundary;

/** stencil_kernel_run's flags. */
enum {
  /** `out` already holds `in`'s halo: do not copy `in` to `out` first. */
  STENCIL_RUN_OUT_INITIALIZED = 1u
};

typedef struct stencil_kernel stencil_kernel;

/** The message of the last call on this thread that failed (empty after a
 *  success). Valid until the next call on this thread. */
STENCIL_RUNTIME_API const char *stencil_last_error(void);

/** A status's name, e.g. "STENCIL_ERROR_STEPS". */
STENCIL_RUNTIME_API const char *stencil_status_name(stencil_status status);

/** Loads the launch description at `launch_path` and the PTX it names
 *  (relative to the description's folder). No CUDA call is made. */
STENCIL_RUNTIME_API stencil_status
stencil_kernel_load_file(const char *launch_path, stencil_kernel **kernel);

/** The same from memory: the description's text and the PTX (`ptx_size`
 *  bytes, a trailing NUL optional). `name` (may be null) names the kernel
 *  in messages. */
STENCIL_RUNTIME_API stencil_status stencil_kernel_load_memory(
    const char *description, size_t description_size, const char *ptx,
    size_t ptx_size, const char *name, stencil_kernel **kernel);

/** Frees the kernel, its CUDA module and its coefficients (in the context
 *  of its runs, which must still exist). Null is allowed. */
STENCIL_RUNTIME_API void stencil_kernel_destroy(stencil_kernel *kernel);

/** The PTX entry of the kernel. */
STENCIL_RUNTIME_API const char *
stencil_kernel_name(const stencil_kernel *kernel);
/** The grid's rank (1 to 3). */
STENCIL_RUNTIME_API int stencil_kernel_rank(const stencil_kernel *kernel);
/** The element type of the grid. */
STENCIL_RUNTIME_API stencil_element_type
stencil_kernel_element_type(const stencil_kernel *kernel);
/** Bytes per element of `type` (2, 2, 4, 8). */
STENCIL_RUNTIME_API size_t stencil_element_size(stencil_element_type type);
/** The stencil's radius along dimension `dim` (0 = outermost); -1 when
 *  `dim` is out of range. */
STENCIL_RUNTIME_API int64_t stencil_kernel_radius(const stencil_kernel *kernel,
                                                  int dim);
/** Time steps one launch computes (fused steps). */
STENCIL_RUNTIME_API int
stencil_kernel_steps_per_launch(const stencil_kernel *kernel);
/** Steps per launch of the kernel's tail kernel, which does the steps that
 *  launches of the kernel leave over (so that a run takes any number of
 *  steps); 0 when it has none (a description written before tails, or a
 *  kernel of one step per launch): then a run's steps must be a multiple
 *  of stencil_kernel_steps_per_launch. */
STENCIL_RUNTIME_API int
stencil_kernel_tail_steps(const stencil_kernel *kernel);
/** The boundary the kernel implements. */
STENCIL_RUNTIME_API stencil_boundary
stencil_kernel_boundary(const stencil_kernel *kernel);

/** The stencil's points: their number (0 for a general, non-linear body)
 *  and, for point `i` (in the launch description's `offsets` order),
 *  its offset, one component per dimension (outermost first) written to
 *  `offset` (`rank` entries). */
STENCIL_RUNTIME_API int64_t
stencil_kernel_num_points(const stencil_kernel *kernel);
STENCIL_RUNTIME_API stencil_status
stencil_kernel_point(const stencil_kernel *kernel, int64_t i, int64_t *offset);

/** The kernel's weights, one per point: those it was compiled with, or
 *  the last ones set below. Writes `stencil_kernel_num_points` doubles. */
STENCIL_RUNTIME_API stencil_status
stencil_kernel_weights(const stencil_kernel *kernel, double *weights);

/** Replaces the weights with `count` (= stencil_kernel_num_points) new ones
 *  of the same pattern, in the order of the points, without recompiling:
 *  they are packed by the compiler's own packing code
 *  (CoefficientPacking.h) along the recipe the compiler recorded, and the
 *  kernel's coefficients are overwritten by a copy ordered on `stream`
 *  (launches queued on `stream` before it use the old weights, those
 *  after it the new ones; order launches on other streams yourself).
 *  Before the first run or prepare the new weights are just kept for the
 *  upload. The result equals that of a kernel compiled with these weights
 *  (the same words, hence the same bits). STENCIL_ERROR_UNSUPPORTED when the
 *  kernel has no recipe (its message says why: e.g. weights compiled into
 *  the instructions, composed steps, a low-rank factorization);
 *  STENCIL_ERROR_INVALID_ARGUMENT for a wrong count or a weight that is not
 *  finite. */
STENCIL_RUNTIME_API stencil_status
stencil_kernel_set_weights(stencil_kernel *kernel, const double *weights,
                           int64_t count, CUstream stream);

/** Loads the kernel's CUDA module in the current context now (a run does
 *  it on first use): to pay the PTX JIT before timing, or to read the
 *  functions below. */
STENCIL_RUNTIME_API stencil_status
stencil_kernel_prepare(stencil_kernel *kernel);

/** After a prepare or a run: the kernel's CUDA function and that of its
 *  band kernel (null without one), e.g. for cuFuncGetAttribute. */
STENCIL_RUNTIME_API stencil_status
stencil_kernel_functions(const stencil_kernel *kernel, CUfunction *function,
                         CUfunction *band_function);

/** After a prepare or a run: the tail kernel's CUDA function (null
 *  without one). */
STENCIL_RUNTIME_API stencil_status
stencil_kernel_tail_function(const stencil_kernel *kernel,
                             CUfunction *tail_function);

/** After a prepare or a run: the PTX JIT's information log (may be
 *  empty). */
STENCIL_RUNTIME_API const char *
stencil_kernel_jit_log(const stencil_kernel *kernel);

/** Runs `steps` time steps (any number with a tail kernel, else a
 *  multiple of steps_per_launch: STENCIL_ERROR_STEPS, whose message says
 *  how to get a tail) on the grid of `rank` `sizes` (outermost first)
 *  in `in`, ping-ponging with `out` (see above), launched on `stream` (0:
 *  the context's default stream); asynchronous like a kernel launch. The
 *  buffer holding the result is stored in `*result` when `result` is not
 *  null. `steps` = 0 launches nothing (the result is `in`). */
STENCIL_RUNTIME_API stencil_status
stencil_kernel_run(stencil_kernel *kernel, CUdeviceptr in, CUdeviceptr out,
                   const int64_t *sizes, int rank, int64_t steps,
                   CUstream stream, unsigned flags, CUdeviceptr *result);

#ifdef __cplusplus
}
#endif

#endif
