//===- HostLaunch.h - Host side of the stencil GPU kernels ------*- C++ -*-===//
//
// What every GPU pipeline of the stencil compiler emits around its kernel:
// the `gpu.module` holding the kernels, the host code that replaces a
// stencil op (device coefficients, the halo copy, one launch per time step,
// or per `stepsPerLaunch` fused steps, ping-ponging the two grids, the final
// copy) and the launch record in the module attribute `stencil.launches`
// (docs/LaunchDescription.md).
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_CONVERSION_STENCILGPUCOMMON_HOSTLAUNCH_H
#define STENCIL_CONVERSION_STENCILGPUCOMMON_HOSTLAUNCH_H

#include "stencil/Dialect/Stencil/IR/LaunchRecord.h"
#include "stencil/Dialect/Stencil/IR/StencilDialect.h"
#include "stencil/Support/CoefficientPacking.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir {
namespace stencil {

/// The `gpu.module` named `name` of `module`, created (and the module marked
/// as a GPU container) when missing.
gpu::GPUModuleOp getOrCreateGpuModule(ModuleOp module, SymbolTable &symbols,
                                      StringRef name);

/// The name of the kernel that `op` becomes: `<function>_<suffix>` (e.g.
/// `heat_cuda_core`), or `<function>_<suffix>_<k>` with the smallest k >= 1
/// that keeps it and every name derived from it (`<name>_tail`,
/// `<name>_weights`, ...) apart from the symbols of `gpuModule` and of the
/// enclosing module and from the kernels of its launch records, so that
/// several stencils of one function get kernels of their own.
std::string getUniqueKernelName(Operation *op, StringRef suffix,
                                gpu::GPUModuleOp gpuModule);

/// A kernel with the stencil kernel ABI `(in, out, coeffs, N_0 .. N_{R-1})`
/// (grids and coefficients as 1-D dynamic memrefs) and how to launch it.
struct StencilKernelLaunch {
  gpu::GPUFuncOp kernel;
  /// Outputs per thread block, outermost first: grid dimension x covers the
  /// innermost grid dimension, y the next one, z the outermost (rank 3).
  SmallVector<int64_t> blockTile;
  /// Threads per block (one-dimensional).
  int64_t threads = 0;
  /// Dynamic shared memory per block, in bytes (0: the kernel's shared
  /// buffer is static).
  int64_t sharedBytes = 0;
  /// Time steps one launch of `kernel` computes (temporal blocking).
  int64_t stepsPerLaunch = 1;
  /// The boundary the kernel implements, and a Dirichlet boundary's value.
  BoundaryKind boundary = BoundaryKind::halo;
  double boundaryValue = 0;
  /// The tail kernel (same ABI) of a kernel that fuses steps
  /// (`stepsPerLaunch` > 1): `tailSteps` steps per launch (one, so that a
  /// run of any number of steps S is floor(S / stepsPerLaunch) launches of
  /// `kernel` and then S mod stepsPerLaunch launches of the tail, at
  /// compile time here and at run time in libStencilRuntime); null with one
  /// step per launch. Its tile and threads per block, when they differ from
  /// `kernel`'s (empty, 0: the same, and then also `sharedBytes`; otherwise
  /// its shared memory is static).
  gpu::GPUFuncOp tailKernel;
  int64_t tailSteps = 1;
  SmallVector<int64_t> tailBlockTile;
  int64_t tailThreads = 0;
  /// Fused steps by kernel composition (Support/StepComposition.h): the
  /// kernel of the band's direct steps, launched after `kernel` on the same
  /// buffers with one block per band tile (a one-dimensional grid of
  /// BandTiling::getNumTiles() blocks for its tile and the margins m_d = t
  /// r_d, outermost first), its static shared memory, and `bandThreads`
  /// threads. Null without composition.
  gpu::GPUFuncOp bandKernel;
  SmallVector<int64_t> bandTile, bandMargins;
  int64_t bandThreads = 0;
  /// For a kernel of composed weights W_t: Sum |W_t| and their number, for
  /// the runner's tolerance; 0 otherwise.
  double composedAbsSum = 0;
  int64_t composedPoints = 0;
  /// The accumulation type, for the runner's tolerance ("f32" or "f64").
  StringRef accumulator;
  /// Words of the `coeffs` argument; a one-word zero buffer when empty.
  ArrayRef<int32_t> coefficients;
  /// The unit doing the kernel's arithmetic (`mma.sp.f16`, `mma.f16`,
  /// `mma.f64`, `fma.f32`, `fma.f64`) and the flops it issues there per
  /// output point and time step (dense-equivalent for `mma.sp`), so that
  /// a benchmark can set a measurement against that unit's peak.
  StringRef unit;
  double unitFlopsPerPoint = 0;
  /// How a CUDA-core kernel walks its tile ("staged", "streamed": 3-D rings
  /// of planes, "plane-sums": the 3-D sweep with partial sums of planes,
  /// "rows": the 2-D row sweep), for the cost model, which has constants
  /// per schedule; empty for the other pipelines.
  StringRef schedule;
  /// The plane sums' vector columns (`vector-width`; 1: one column per
  /// thread), for the cost model, which offers W > 1 only on grids whose
  /// rows are a multiple of W.
  int64_t vectorWidth = 1;
  /// For a kernel that rounds an intermediate product to the element type
  /// (the low-rank chain), Sum_k |u_k|_1 |v_k|_1 of its factors, which
  /// scales that rounding in the runner's tolerance; 0 otherwise.
  double chainAbsSum = 0;
  /// For a kernel of transforms (the FFT pipeline), a bound on one launch's
  /// error relative to the largest |value| of its input (getFftErrorBound);
  /// 0 otherwise.
  double fftErrorBound = 0;
  /// For a kernel whose blocks at the grid's edge take another path (the
  /// FFT kernel's direct steps), that path's unit and its flops per output
  /// point and step in such a block; 0 otherwise.
  StringRef edgeUnit;
  double edgeFlopsPerPoint = 0;
  /// How `coefficients` follow from the weights of the source stencil, so
  /// that libStencilRuntime can pack new weights of the same pattern
  /// (Support/CoefficientPacking.h); or, when absent, why not.
  std::optional<RepackRecipe> repack;
  std::string repackUnsupported;
  /// A CUDA-core kernel's weights global (one weight per point of the
  /// source stencil, in the accumulation type), which the runtime
  /// overwrites to replace the weights; empty when the kernel has none.
  std::string weightsGlobal;
};

/// Replaces the stencil op `op` (grids `in` and `out`, `steps` time steps)
/// by host code launching `launch.kernel` (then `launch.bandKernel`, if
/// any, on the same buffers) `steps / launch.stepsPerLaunch` times, then
/// `launch.tailKernel` `(steps mod launch.stepsPerLaunch) /
/// launch.tailSteps` times, and appends the launch record of
/// `launch.kernel` (with its tail's `tail_*` keys) to `launches`. Does not
/// erase `op`.
void emitHostLaunches(Operation *op, Value in, Value out, int64_t steps,
                      const StencilKernelLaunch &launch, SymbolTable &symbols,
                      SmallVectorImpl<Attribute> &launches);

/// Prints the body of `apply` as the expression of a launch description's
/// `body` key (docs/LaunchDescription.md), which the runner's reference
/// evaluates: `a(o_0, ..)` for `stencil.access [o]`, f64 literals for
/// constants, `+ - * /`, unary `-`, `max`, `min`, `abs` and `fma` for the
/// arith/math ops of the same meaning; `arith.extf` is transparent and
/// `arith.truncf` becomes `rnd(x)` (a rounding). Returns the first op that has
/// no such spelling (nullptr when the whole body was printed), or failure when
/// the expression (the body's DAG unfolded into a tree) would exceed 64 KiB
/// or nest more than 256 sub-expressions (the runner's limit).
FailureOr<Operation *> printBodyExpression(ApplyOp apply, raw_ostream &os);

/// Appends the records of `launches` to the module's `stencil.launches`.
void appendLaunchRecords(ModuleOp module, ArrayRef<Attribute> launches);

} // namespace stencil
} // namespace mlir

#endif // STENCIL_CONVERSION_STENCILGPUCOMMON_HOSTLAUNCH_H
