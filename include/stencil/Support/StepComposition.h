//===- StepComposition.h - Fused time steps by composed weights -*- C++ -*-===//
//
// Kernel composition, LoRAStencil's route to temporal fusion
// (section III-A: three steps of a 3 x 3 stencil become one 7 x 7 stencil):
// t steps of a linear stencil with weights w on offsets O are one step of
// the stencil with the t-fold composed weights
//
//     W_t = w * w * ... * w   (t-fold convolution over offsets),
//     W_t(o) = Sum_{o_1 + ... + o_t = o} w(o_1) ... w(o_t),
//
// on the Minkowski sum O + ... + O, of radius t r_d along dimension d
// (r_d = max |o_d| over O). They are computed once, in f64, at compile time.
//
// Exactness under the `halo` boundary (docs/Rationale.md: only the interior
// [r_d, N_d - r_d) is computed, the halo keeps its values at every step).
// u_t(p) expands into the input at p + o_1 + ... + o_t only while every
// intermediate point p + o_1 + ... + o_k (k < t) is interior, i.e. within
// (t - 1) r_d of p it stays in [r_d, N_d - r_d). Hence one composed step
// equals t steps exactly on the *exact region*
//
//     [t r_d, N_d - t r_d)   for every d,
//
// and nowhere else in general: the band of the interior within t r_d of
// the grid's edge must be computed by t direct steps (the halo applied at
// each). `periodic` needs no band (the composition of circulant operators
// is circulant: exact everywhere); `dirichlet(v)` is not a composition near
// the edge (its outside stays v, not the composed image of v) and takes the
// band too, over the whole grid's edge.
//
// Floating point. With S = Sum |w|, K = |O| points, K_t = |O_t| and
// gamma_n = n u / (1 - n u) (u the unit roundoff of the arithmetic), t
// direct steps and the composed step, both evaluated in that arithmetic,
// differ from the exact t steps by at most t gamma_K S^t M and
// (gamma_{(t-1)K} + gamma_{K_t}) S^t M (M = max |input|; the composed
// weights' own rounding is bounded by the convolution of |w|, which sums to
// S^t), so they differ from each other by at most
//
//     (t gamma_K + gamma_{(t-1)K} + gamma_{K_t}) S^t M
//
// (getCompositionErrorBound). The GPU runner's tolerance for a composed
// kernel (docs/LaunchDescription.md, `composed_abs_sum`) adds the element
// type's rounding of the composed weights, u_e Sum |W_t| M.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_SUPPORT_STEPCOMPOSITION_H
#define STENCIL_SUPPORT_STEPCOMPOSITION_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>

namespace mlir {
namespace stencil {

/// A linear stencil: `rank` components per offset (outermost first,
/// flattened point after point) and one weight per offset.
struct LinearStencil {
  unsigned rank = 0;
  llvm::SmallVector<int64_t> offsets;
  llvm::SmallVector<double> weights;

  unsigned getNumPoints() const {
    return rank == 0 ? 0 : offsets.size() / rank;
  }
  llvm::ArrayRef<int64_t> getPoint(unsigned i) const {
    return llvm::ArrayRef<int64_t>(offsets).slice(i * rank, rank);
  }
  /// max |o_d| over the points, per dimension (outermost first).
  llvm::SmallVector<int64_t> getRadii() const;
};

/// The most fused steps a composition takes (the dialect's `fused_steps`
/// bound of the CUDA-core pipeline).
constexpr int64_t kMaxComposedSteps = 64;

/// The t-fold composition of `step` (t >= 1), or nullopt when its box of
/// radius t r_d would hold more than kMaxPatternPoints offsets (checked
/// before any allocation). The offsets are the composed box's points with a
/// non-zero weight, in lexicographic order (first dimension slowest);
/// duplicate offsets of `step` add up. The weights are summed in a fixed
/// order, so the result is deterministic.
std::optional<LinearStencil> composeSteps(const LinearStencil &step, int64_t t);

/// The per-dimension margin of the exact region of a t-step composition
/// under the halo boundary: t r_d.
llvm::SmallVector<int64_t> getComposedMargins(const LinearStencil &step,
                                              int64_t t);

/// (t gamma_K + gamma_{(t-1)K} + gamma_{K_t}) S^t: times max |input|, a
/// bound on |composed step - t direct steps| when both are evaluated in an
/// arithmetic of unit roundoff `u` (see the file comment).
double getCompositionErrorBound(const LinearStencil &step, int64_t t,
                                int64_t composedPoints, double u);

//===----------------------------------------------------------------------===//
// The band's tiles
//===----------------------------------------------------------------------===//

/// The tiles (of `tile` points along each dimension) of a grid that reach
/// the band outside the exact region [m_d, N_d - m_d), enumerated so that a
/// kernel of the band's direct steps launches one block per such tile and
/// none for the others. Along d, tiles j < lo_d = min(n_d, ceil(m_d / T_d))
/// start in the band, tiles j >= hi_d = max(lo_d, floor((N_d - m_d) / T_d))
/// end in it (n_d = ceil(N_d / T_d); hi_d = n_d when m_d = 0); a tile is inner
/// when lo_d <= j_d < hi_d along every d. Band tile b decodes dimension by
/// dimension (outermost first): the e_d = n_d - (hi_d - lo_d) edge slabs of the
/// remaining sub-grid come first, all their tiles row-major; then the inner
/// slabs, each holding the band tiles of the sub-grid of the next dimensions.
/// The kernel does the same arithmetic in IR (StencilToCudaCore's band mode);
/// the host and stencil-run count the tiles with getNumTiles' formula,
/// prod n_d - prod (hi_d - lo_d).
struct BandTiling {
  llvm::SmallVector<int64_t> counts, lo, hi; // n_d, lo_d, hi_d

  static BandTiling get(llvm::ArrayRef<int64_t> dims,
                        llvm::ArrayRef<int64_t> tile,
                        llvm::ArrayRef<int64_t> margins);
  /// The number of band tiles.
  int64_t getNumTiles() const;
  /// The tile indices (outermost first) of band tile `b` < getNumTiles().
  llvm::SmallVector<int64_t> decode(int64_t b) const;
};

//===----------------------------------------------------------------------===//
// CPU model of a fused launch (what the GPU kernels compute, for tests)
//===----------------------------------------------------------------------===//

/// Rounds a value to the arithmetic of a model (identity for f64).
using RoundFn = llvm::function_ref<double(double)>;

/// `steps` steps of `s` on the row-major grid `grid` of `dims` (outermost
/// first) under the halo boundary, each point's sum computed in f64 in the
/// order of the offsets and passed through `round` (the element type), the
/// halo kept.
llvm::SmallVector<double> applyHaloSteps(const LinearStencil &s,
                                         llvm::ArrayRef<int64_t> dims,
                                         llvm::ArrayRef<double> grid,
                                         int64_t steps, RoundFn round);

/// One fused launch of t steps by composition, as the GPU computes it: the
/// composed stencil `composed` (weights already in the kernel's precision)
/// on the exact region [t r_d, N_d - t r_d), t direct steps of `step` on the
/// rest of the interior, the halo kept.
llvm::SmallVector<double>
applyComposedLaunch(const LinearStencil &step, const LinearStencil &composed,
                    int64_t t, llvm::ArrayRef<int64_t> dims,
                    llvm::ArrayRef<double> grid, RoundFn round);

} // namespace stencil
} // namespace mlir

#endif // STENCIL_SUPPORT_STEPCOMPOSITION_H
