//===- Decomposition.h - Slabs of a grid over several GPUs ------*- C++ -*-===//
//
// Several GPUs, host side: a grid split along its outermost dimension into one
// slab per GPU (rank), each slab a grid of its own that the unchanged
// kernels run on, with halo planes that neighbours refresh after every
// launch.
//
// A kernel of F steps per launch (steps_per_launch) and outermost radius r
// makes a point's value after a launch depend on the planes within h = r F
// of it. A rank holding its own planes [b, e) plus h planes on each side
// where a neighbour is, computes its own planes exactly: whatever its local
// edges do (the kernel's boundary semantics applied there) reaches at most
// h planes inside, the halo planes. After each launch the halos are stale;
// each rank sends its first h own planes to the neighbour below (which
// stores them as its upper halo) and its last h to the one above.
//
// Global edges: with the halo and Dirichlet boundaries the first rank has
// no lower halo and the last no upper one: their local edge is the grid's,
// where the kernel's semantics is the global one. With the periodic
// boundary every rank has both (the first and the last are neighbours);
// the kernel's own wrap along the outermost dimension then only touches
// halo planes, while the other dimensions, which every slab spans whole,
// wrap as on one GPU. So every rank runs exactly the arithmetic the single
// grid runs on its own planes, and the result is the same bit for bit
// (checked on a CPU simulation of N ranks in unittests/Runtime).
//
// `alignment` A > 1 (e.g. a kernel whose arithmetic depends on a point's
// position in its tile along the outermost dimension, the FFT kernels)
// makes every slab's first held plane a multiple of A: own bounds and the
// halo width are rounded up to multiples of A.
//
// Plain C++17, no CUDA.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_RUNTIME_DECOMPOSITION_H
#define STENCIL_RUNTIME_DECOMPOSITION_H

#include "LaunchDescription.h"

#include <cstdint>
#include <string>
#include <vector>

namespace stencil_runtime {

/// One rank's part of the grid along the outermost dimension (planes).
struct Slab {
  /// The planes it computes: [ownBegin, ownEnd) of the global grid.
  int64_t ownBegin = 0, ownEnd = 0;
  /// Halo planes held below and above them (0 at a global edge without
  /// wrap).
  int64_t haloLow = 0, haloHigh = 0;
  /// The ranks that fill those halos (-1: none).
  int lowNeighbor = -1, highNeighbor = -1;

  int64_t ownPlanes() const { return ownEnd - ownBegin; }
  /// Planes of the local grid: own and halos.
  int64_t localPlanes() const { return haloLow + ownPlanes() + haloHigh; }
  /// The global plane held at local plane `i` (wrapped modulo `n` for the
  /// periodic boundary's halos).
  int64_t globalPlane(int64_t i, int64_t n) const {
    int64_t g = ownBegin - haloLow + i;
    return ((g % n) + n) % n;
  }
};

/// One copy of the exchange after a launch: `planes` planes from local
/// plane `srcPlane` of rank `src` to local plane `dstPlane` of rank `dst`.
struct Transfer {
  int src = 0, dst = 0;
  int64_t srcPlane = 0, dstPlane = 0, planes = 0;
};

struct Decomposition {
  /// The halo width h = r F (rounded up to the alignment).
  int64_t halo = 0;
  bool periodic = false;
  std::vector<Slab> slabs;
};

/// One rank's launches for a launch of the whole grid when the exchange
/// overlaps the compute (docs/MultiGPU.md, "Overlap"). The exchange comes
/// first: it refreshes the halos of the input buffer from the neighbours'
/// own planes, which no launch of this step writes. Meanwhile the interior
/// launch runs on the local planes [interiorBegin, interiorEnd) as a grid
/// of its own (the own planes, reaching the local edge where there is no
/// neighbour), reading no halo plane and writing the output buffer at the
/// same planes; those within `halo` planes of a cut edge come out wrong.
/// After the exchange each boundary window, `3 h` planes around a cut edge
/// (h halo planes, the h own planes next to them, h more), runs as a grid
/// of its own into a temporary buffer of its planes, where planes [h, 2h)
/// are exact; they are copied over the wrong ones of the output. A kernel
/// may write every point of its grid (periodic, Dirichlet, the band kernel
/// of composed steps): the windows' writes never reach the output buffer.
struct BoundaryWindow {
  /// Local planes the window's launch runs on.
  int64_t begin = 0, planes = 0;
  /// The temporary's exact planes [copyFrom, copyFrom + copyPlanes) go to
  /// local planes [copyTo, copyTo + copyPlanes) of the output.
  int64_t copyFrom = 0, copyTo = 0, copyPlanes = 0;
};

struct RankLaunches {
  /// False: no overlap; the exchange runs first and then one launch on the
  /// whole local grid (a slab too thin for the windows, no halo, or asked
  /// for).
  bool overlap = false;
  int64_t interiorBegin = 0, interiorEnd = 0;
  /// The lower window (where there is a lower neighbour) first.
  std::vector<BoundaryWindow> windows;
};

/// The launches of rank `rank` (see RankLaunches) for a kernel whose grid
/// needs at least `minPlanes` (2 r + 1) planes along the outermost
/// dimension. Overlaps when the halo is positive and the slab owns at least
/// 2 h and `minPlanes` planes; otherwise `overlap` is false.
RankLaunches planRankLaunches(const Decomposition &d, int rank,
                              int64_t minPlanes);

/// The alignment a kernel's slabs need so that every point is computed
/// by the same arithmetic as on the single grid: 1 for the CUDA-core
/// kernels (unit fma.*), whose arithmetic for a point is one fixed
/// expression of its neighbours wherever it lies; otherwise the tile along
/// the outermost dimension, because a Tensor Core or FFT kernel's rounding
/// of a point may depend on its place in the tile (which products share an
/// MMA or a transform), and aligned slabs keep every point's place.
int64_t getSlabAlignment(const stencil_run::LaunchDescription &desc);

/// The least halo a kernel's slabs need beyond r F: for an FFT kernel
/// (fft_error_bound), whose first and last tile along a grid's dimension
/// take the direct path (lib/Conversion/StencilToFft/FftKernel.cpp) and
/// whose tiles' valid regions start at the margin F r, V + F r with V its
/// tile along the outermost dimension: then no own plane lies in a local
/// grid's first or last tile, and every own plane's tile takes the
/// transform path it takes on the single grid; 0 for other kernels.
int64_t getSlabMinHalo(const stencil_run::LaunchDescription &desc);

/// Splits `planes` (the outermost size) over `ranks` for a kernel of
/// outermost radius `radius` and `stepsPerLaunch` steps per launch
/// (`periodic`: the boundary wraps). Slabs are as even as the alignment
/// allows; the halo is at least `minHalo` (getSlabMinHalo). Fails, with a
/// message, for ranks < 1, a negative radius, steps
/// per launch < 1, alignment < 1, or (with more than one rank) a slab with
/// fewer own planes than the halo, whose halo would then need planes of a
/// rank beyond its neighbour.
bool planDecomposition(int64_t planes, int64_t radius, int64_t stepsPerLaunch,
                       bool periodic, int ranks, int64_t alignment,
                       Decomposition &out, std::string &error,
                       int64_t minHalo = 0);

/// The exchange after every launch: for each rank and neighbour, its first
/// (last) `halo` own planes into the neighbour's upper (lower) halo. In a
/// fixed order: by rank, the lower neighbour first.
std::vector<Transfer> getExchangeSchedule(const Decomposition &d);

} // namespace stencil_runtime

#endif // STENCIL_RUNTIME_DECOMPOSITION_H
