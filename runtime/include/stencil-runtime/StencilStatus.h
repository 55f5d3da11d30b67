/*===- StencilStatus.h - The runtime's status codes ---------------*- C -*-===*
 *
 * What every function of the C API (StencilRuntime.h, StencilMultiGpu.h)
 * returns, in a header of its own without cuda.h: the runtime's host-side
 * planning (runtime/lib/LaunchPlan.h), which builds and is unit-tested
 * without the CUDA toolkit, returns the same codes. The values are fixed.
 *
 *===----------------------------------------------------------------------===*/
#ifndef STENCIL_RUNTIME_STENCILSTATUS_H
#define STENCIL_RUNTIME_STENCILSTATUS_H

typedef enum stencil_status {
  STENCIL_SUCCESS = 0,
  /** A null pointer, a negative count, `in` equal to `out`. */
  STENCIL_ERROR_INVALID_ARGUMENT = 1,
  /** A file that cannot be read. */
  STENCIL_ERROR_IO = 2,
  /** A malformed or unsupported launch description. */
  STENCIL_ERROR_INVALID_DESCRIPTION = 3,
  /** The grid's rank is not the kernel's. */
  STENCIL_ERROR_RANK_MISMATCH = 4,
  /** A grid dimension smaller than the stencil (2 r + 1 points). */
  STENCIL_ERROR_GRID_TOO_SMALL = 5,
  /** A launch grid beyond CUDA's limits. */
  STENCIL_ERROR_GRID_TOO_LARGE = 6,
  /** Steps that are not whole launches: not a multiple of the kernel's
   *  steps per launch, for a kernel without a tail kernel. */
  STENCIL_ERROR_STEPS = 7,
  /** No current CUDA context, or another one than the kernel's. */
  STENCIL_ERROR_CONTEXT = 8,
  /** A CUDA driver call failed (the message names it and its error). */
  STENCIL_ERROR_CUDA = 9,
  /** The kernel cannot do what was asked (e.g. take new weights); the
   *  message says why. */
  STENCIL_ERROR_UNSUPPORTED = 10
} stencil_status;

#endif
