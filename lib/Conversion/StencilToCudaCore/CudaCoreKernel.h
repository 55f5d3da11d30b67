//===- CudaCoreKernel.h - The CUDA-core kernel builder ----------*- C++ -*-===//
//
// Private to lib/Conversion/StencilToCudaCore: the kernel of
// `--convert-stencil-to-cuda-core` (its outline is in CudaCoreKernel.cpp)
// and the choice of its tiling, shared by the pass and by
// buildCudaCoreStepKernel (the band and tail kernels of the Tensor Core
// pipelines' fused steps).
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_LIB_CONVERSION_STENCILTOCUDACORE_CUDACOREKERNEL_H
#define STENCIL_LIB_CONVERSION_STENCILTOCUDACORE_CUDACOREKERNEL_H

#include "stencil/Conversion/StencilGPUCommon/KernelABI.h"
#include "stencil/Dialect/Stencil/IR/StencilDialect.h"
#include "stencil/Support/CudaCoreTiling.h"
#include "stencil/Support/GPULimits.h"
#include "stencil/Support/StepComposition.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

#include <optional>

namespace mlir {
namespace stencil {

/// The shared memory of a CUDA-core block: the static limit (GPULimits.h).
inline constexpr int64_t kMaxCudaCoreSharedBytes = kMaxStaticSharedBytes;

/// The z planes a streamed 3-D block sweeps when `planes` is 0: the halo
/// planes staged twice cost 2 t r_z / 32 of the input traffic, and a 256^3
/// grid still has 512 blocks of 32 x 32 outputs.
inline constexpr int64_t kDefaultStreamPlanes = 32;

/// The output rows a row-streamed 2-D block sweeps when `planes` is 0: the
/// 2 t r_y + t rows of its pipeline's fill and drain cost (2 t r_y + t) /
/// 128 of its work, and a 4096^2 grid still has 32 rows of blocks.
inline constexpr int64_t kDefaultRowStreamRows = 128;

/// What one CUDA-core kernel computes.
struct CudaCoreKernelSpec {
  explicit CudaCoreKernelSpec(Location loc) : loc(loc) {}

  /// The location of the kernel's ops (the stencil op's).
  Location loc;
  /// A linear stencil's points and weights; or, when empty, the
  /// `stencil.apply` whose body the kernel clones.
  std::optional<LinearStencil> linear;
  ApplyOp apply;
  Type elementType;
  BoundaryKind boundary = BoundaryKind::halo;
  double boundaryValue = 0; // dirichlet(v) only
  /// Band mode (halo boundary only): the margins m_d of the exact region of
  /// a composed kernel (Support/StepComposition.h). Block b of a
  /// one-dimensional grid of BandTiling::getNumTiles() blocks is band tile b
  /// (BandTiling::decode, done in IR) and stores only the interior points
  /// outside [m_d, N_d - m_d). Empty: block (x, y, z) is tile (z, y, x) and
  /// stores every point the boundary computes.
  SmallVector<int64_t> bandMargins;
  /// The `llvm.mlir.global` (address space 4, `.const` in PTX, external so
  /// that nothing folds its loads) holding a linear stencil's weights in
  /// the accumulation type, one per point: the kernel loads them from there
  /// instead of taking them as instruction immediates, so that
  /// libStencilRuntime can overwrite them (stencil_kernel_set_weights).
  /// Empty: immediates.
  std::string weightsGlobal;
  /// A streamed 3-D sweep of one step per launch (the ring of
  /// CudaCoreStreaming.cpp or the plane sums of CudaCorePlaneSums.cpp)
  /// loads the staging values of input plane i + prefetchDistance into
  /// registers in iteration i, so that the loads overlap the computation
  /// of the planes before it, where a thread stages at most
  /// kMaxPrefetchedStagingValues of a plane.
  bool prefetchPlanes = false;
  /// With prefetchPlanes: iteration i loads the staging values of input
  /// plane i + prefetchDistance, held in registers until their iteration.
  int64_t prefetchDistance = 1;
};

/// The name and type of the weights global of `spec.weightsGlobal`, added
/// to `gpuModule` for `weights` (one per point, as `accType` values).
void createCudaCoreWeightsGlobal(gpu::GPUModuleOp gpuModule, Location loc,
                                 StringRef name, ArrayRef<double> weights,
                                 Type accType);

/// Builds the kernel of `spec` computing `tiling.steps` steps per launch at
/// the end of `moduleBuilder`'s block; a streaming tiling (3-D) gets the
/// plane sweep of CudaCoreStreaming.cpp (not in band mode).
gpu::GPUFuncOp buildCudaCoreKernel(OpBuilder &moduleBuilder,
                                   const CudaCoreKernelSpec &spec,
                                   const CudaCoreTiling &tiling,
                                   StringRef name);

/// Bytes of the shared memory of `tiling` on grids of `elementType`.
int64_t getCudaCoreSharedBytes(const CudaCoreTiling &tiling, Type elementType);

/// The first dimension along which a tile of `steps` steps of a stencil of
/// `radii` spans more points (2 steps r_d + 1) than fit in
/// kMaxCudaCoreSharedBytes of `elementType`, before any tile arithmetic
/// (which would overflow for a radius near 2^31); std::nullopt when none.
std::optional<unsigned> findTooWideDimension(ArrayRef<int64_t> radii,
                                             int64_t steps, Type elementType);

/// The tiling of a kernel of `steps` steps per launch of a stencil of
/// `radii`: `outputsPerThread` 0 means the most of 4, 2, 1 whose tile fits
/// in kMaxCudaCoreSharedBytes (with one plane in 3-D); `planes` 0 then the
/// most of 8, 4, 2 whose tile fits (3-D; else 1). A streamed 3-D kernel
/// (`stream`, CudaCoreTiling::stream) sweeps `planes` planes per block
/// (0: kDefaultStreamPlanes), which its rings' size does not depend on;
/// with `planeSums` (a linear stencil, one step) it accumulates partial sums
/// through a ring of two planes (CudaCoreTiling::planeSums), with
/// `vectorWidth` adjacent columns per thread. A 2-D row sweep takes
/// `rowPhases` (CudaCoreTiling::rowGroups). The result may
/// still not fit (the caller checks getCudaCoreSharedBytes).
CudaCoreTiling chooseCudaCoreTiling(ArrayRef<int64_t> radii, int64_t threadsX,
                                    int64_t threadsY, int64_t outputsPerThread,
                                    int64_t steps, int64_t planes,
                                    Type elementType, bool stream = false,
                                    bool planeSums = false,
                                    int64_t vectorWidth = 1,
                                    int64_t rowPhases = 0);

} // namespace stencil
} // namespace mlir

#endif // STENCIL_LIB_CONVERSION_STENCILTOCUDACORE_CUDACOREKERNEL_H
