//===- CudaCoreKernel.cpp - The CUDA-core kernel builder ------------------===//
//
// The entry points of the kernel of `--convert-stencil-to-cuda-core`
// (CudaCoreKernel.h): the choice of the tiling, which is described in the
// pass description (Conversion/Passes.td) and whose arithmetic lives in
// Support/CudaCoreTiling.h, and createCudaCoreKernelBuilder, which picks
// the builder of the tiling's schedule (CudaCoreKernelBuilder.h):
//   - the staged tile, the outline below (CudaCoreStagedTile.cpp);
//   - a streamed 3-D block's sweep along z (CudaCorePlaneSweep.cpp) through
//     rings of planes (CudaCoreStreaming.cpp) or with partial sums of the
//     planes, one column or a vector of columns per thread
//     (CudaCorePlaneSums.cpp);
//   - the row sweep of 2-D stencils (CudaCoreRowStream.cpp) and its groups
//     of rows (CudaCoreRowGroups.cpp).
// What they share (staging, indices, the boundary's predicates, stores) is
// CudaCoreKernelBuilder.cpp, the per-point body CudaCorePointBody.cpp.
//
// Kernel outline, for a block whose first output is (z0, y0, x0) and t =
// `fused-steps` time steps per launch (halo h_d = t r_d):
//   1. the block stages in[z0 - h_z .., y0 - h_y .., x0 - h_x ..] (tile plus
//      halo) into shared memory; outside the grid it stages zero (halo
//      boundary: never read by a computed point), the wrapped point
//      (periodic) or the boundary value (Dirichlet);
//   2. with t > 1, steps 1 .. t - 1 each compute their (shrinking) region of
//      the tile from one shared buffer into the other, rounded to the
//      element type; points the boundary does not compute keep their value
//      (the halo: the input's; outside the grid under Dirichlet: the
//      boundary value; periodic computes every position, each being the
//      value of its wrapped grid point) (a barrier after each step);
//   3. each thread computes its outputs of the last step from shared memory:
//      register tiling along y for stencil.linear, the cloned body for
//      stencil.apply;
//   4. every output the boundary computes is stored: the interior
//      r_d <= i_d < N_d - r_d (halo), every grid point (the others).
//
// Band mode (CudaCoreKernelSpec::bandMargins m_d; the band kernel of a
// Tensor Core kernel of t composed steps, Support/StepComposition.h): the
// grid is one-dimensional, block b takes the tile BandTiling::decode(b)
// names (the same arithmetic in IR, bandBlockOrigin), and step 4 stores only
// the interior points outside the exact region [m_d, N_d - m_d), which the
// composed kernel has computed. Steps 1-3 are unchanged: a band point's t
// direct steps read the same tile and halo as in a full-grid launch.
//
//===----------------------------------------------------------------------===//

#include "CudaCoreKernel.h"
#include "CudaCorePlaneSums.h"
#include "CudaCoreRowGroups.h"
#include "CudaCoreStagedTile.h"
#include "CudaCoreStreaming.h"

using namespace mlir;
using namespace mlir::stencil;
using namespace mlir::stencil::detail;

std::unique_ptr<CudaCoreKernelBuilder>
mlir::stencil::detail::createCudaCoreKernelBuilder(
    const CudaCoreKernelSpec &spec, const CudaCoreTiling &tiling) {
  if (tiling.rowGroups())
    return std::make_unique<RowGroupsKernel>(spec, tiling);
  if (tiling.rowStream())
    return std::make_unique<RowSweepKernel>(spec, tiling);
  if (tiling.stream && tiling.planeSums && tiling.vectorWidth > 1)
    return std::make_unique<VectorPlaneSumsKernel>(spec, tiling);
  if (tiling.stream && tiling.planeSums)
    return std::make_unique<PlaneSumsKernel>(spec, tiling);
  if (tiling.stream)
    return std::make_unique<StreamedRingKernel>(spec, tiling);
  return std::make_unique<StagedTileKernel>(spec, tiling);
}

gpu::GPUFuncOp mlir::stencil::buildCudaCoreKernel(
    OpBuilder &moduleBuilder, const CudaCoreKernelSpec &spec,
    const CudaCoreTiling &tiling, StringRef name) {
  assert((spec.linear || spec.apply) && "a kernel computes a stencil");
  assert((spec.bandMargins.empty() || !tiling.stream) &&
         "band kernels stage their tiles");
  assert((spec.bandMargins.empty() ||
          (spec.boundary == BoundaryKind::halo &&
           int64_t(spec.bandMargins.size()) == tiling.rank)) &&
         "band mode is for the halo boundary, one margin per dimension");
  return createCudaCoreKernelBuilder(spec, tiling)->build(moduleBuilder, name);
}

int64_t mlir::stencil::getCudaCoreSharedBytes(const CudaCoreTiling &tiling,
                                              Type elementType) {
  return tiling.sharedElements() * elementType.getIntOrFloatBitWidth() / 8;
}

std::optional<unsigned>
mlir::stencil::findTooWideDimension(ArrayRef<int64_t> radii, int64_t steps,
                                    Type elementType) {
  int64_t elementBytes = elementType.getIntOrFloatBitWidth() / 8;
  for (auto [d, r] : llvm::enumerate(radii))
    if ((2 * steps * r + 1) * elementBytes > kMaxCudaCoreSharedBytes)
      return d;
  return std::nullopt;
}

CudaCoreTiling mlir::stencil::chooseCudaCoreTiling(
    ArrayRef<int64_t> radii, int64_t threadsX, int64_t threadsY,
    int64_t outputsPerThread, int64_t steps, int64_t planes, Type elementType,
    bool stream, bool planeSums, int64_t vectorWidth, int64_t rowPhases) {
  if (stream && radii.size() == 2)
    return CudaCoreTiling(radii, threadsX, threadsY, outputsPerThread, steps,
                          planes == 0 ? kDefaultRowStreamRows : planes,
                          /*stream=*/true, /*planeSums=*/false,
                          /*vectorWidth=*/1, rowPhases);
  stream = stream && radii.size() == 3;
  auto fits = [&](int64_t outputs, int64_t tilePlanes) {
    return getCudaCoreSharedBytes(
               CudaCoreTiling(radii, threadsX, threadsY, outputs, steps,
                              tilePlanes, stream, planeSums, vectorWidth),
               elementType) <= kMaxCudaCoreSharedBytes;
  };
  // A streamed block's planes do not change its shared memory.
  int64_t streamPlanes = planes == 0 ? kDefaultStreamPlanes : planes;
  int64_t outputs = outputsPerThread;
  if (outputs == 0) {
    outputs = 1;
    for (int64_t candidate : {4, 2})
      if (fits(candidate, stream ? streamPlanes : (planes == 0 ? 1 : planes))) {
        outputs = candidate;
        break;
      }
  }
  if (stream)
    return CudaCoreTiling(radii, threadsX, threadsY, outputs, steps,
                          streamPlanes, /*stream=*/true, planeSums,
                          vectorWidth);
  int64_t tilePlanes = planes == 0 ? 1 : planes;
  if (planes == 0 && radii.size() == 3)
    for (int64_t candidate : {8, 4, 2})
      if (fits(outputs, candidate)) {
        tilePlanes = candidate;
        break;
      }
  return CudaCoreTiling(radii, threadsX, threadsY, outputs, steps, tilePlanes);
}
