//===- CostModel.h - The performance model of "Do We Need TCs?" -*- C++ -*-===//
//
// "Do We Need Tensor Cores for Stencil Computations?" (section 3)
// models a stencil kernel per arithmetic unit by three numbers per output
// point and time step:
//
//   C   = 2 K                       useful flops (K stencil points, one FMA
//                                    each; eq. 6)
//   C_u = (alpha / S) C              flops the unit issues (eq. 3): S in (0, 1]
//                                    is the sparsity factor (the nonzero share
//                                    of the operands the unit multiplies: zero
//                                    padding of a Tensor Core tile), alpha >= 1
//                                    the fusion redundancy (eq. 9: alpha =
//                                    K^(t) / (t K), the halo recomputed when t
//                                    steps are fused; eq. 10 for a box:
//                                    (2 r t + 1)^d / (t (2 r + 1)^d))
//   M   = 2 D / t                    bytes per point and step (one read and one
//                                    write of a D-byte element per launch of t
//                                    fused steps; halo overlap ignored, as the
//                                    paper says it does for conciseness, 3.2.1)
//
// and bounds it by the roofline (eq. 5, 12): with B the bandwidth and P_u the
// unit's peak, the attainable stencil rate is
//
//   G = min(B / M, P_u / C_u)        points per second and step
//
// (eq. 12's (S / alpha) min(P_u, B I_u) divided by C, I_u = C_u / M). Between
// CUDA cores (S = 1, alpha = 1 for a sequential fusion) and a Tensor Core
// unit the four scenarios of section 4.1 follow from which side of its ridge
// each unit is on (classifyScenario); in scenario 4 (both compute-bound) the
// Tensor Core wins iff alpha < S P_TC / P_CU (eq. 19, isInSweetSpot).
//
// The prediction keeps the halo the paper leaves out: a block of output tile
// n_d (per dimension) reads its tile with a halo of t r_d per side, so it
// reads A = Prod_d (n_d + 2 t r_d) / n_d input elements per output and
// launch (Kernel tiles are small in 3-D, where A reaches 3), and
//
//   M' = D (1 + A) / t               (M' = M when A = 1)
//
// Only the first read of an element and the write reach DRAM: the halo a
// block reads again was loaded by its neighbours and mostly comes from L2. The
// memory side takes the slower of the two levels,
//
//   M_eff = max(2 D / t, M' / rho)   rho: L2 over DRAM bandwidth, as the
//                                    halo loads see it (fitted)
//
// Our kernels reach a pipeline-dependent share of these bounds (latency,
// occupancy, operand loads from shared memory), so the prediction scales each
// side by a measured efficiency and lets the two sides overlap partly:
//
//   t_mem = M_eff / (eta_mem B),   t_unit = C_u / (eta_unit o P_u)
//   1 / G_pred = max(t_mem, t_unit) + gamma min(t_mem, t_unit) + t_edge
//
// o = min(1, W / W_sat) is the occupancy: W the warps resident per SM, from
// the kernel's registers and shared memory (ptxas's, when the pass could run
// it: getResidentWarps) against the device's register file and shared
// memory; below W_sat warps (4 per scheduler on sm_80 and sm_90) the unit's
// pipelines are not kept busy (an H100 2-D box of radius 5 on mma.sp keeps 8
// warps per SM at 191 registers and runs at 0.87x of the dense kernel; of
// radius 7, at 167 registers and 12 warps, 1.25x). t_edge is the FFT
// kernel's edge blocks (StencilToFft/FftKernel.cpp): a block with a tile at
// the grid's edge takes T direct steps on its N-point tiles, E = 2 K N / V
// flops per output and step on CUDA cores, and such blocks are a share s of
// the grid's (getEdgeBlockShare), so t_edge = s E / (eta_edge P_fma.f64).
//
// with eta_mem, eta_unit in (0, 1] and gamma in [0, 1] per pipeline
// configuration (the fused steps of the CUDA-core and FFT kernels
// included), element size and rank (getModelConstants; gamma = 0 is the
// roofline, 1 no overlap at all). The constants live in
// lib/Analysis/ModelConstants.cpp next to the run that set them
// (bench/calibrate.py fits them).
//
// The kernel's figures (unit, C_u, t, D) come from its launch record, which
// the conversion that built the kernel wrote (getKernelWork): the model has
// no description of the kernels of its own.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_ANALYSIS_COSTMODEL_H
#define STENCIL_ANALYSIS_COSTMODEL_H

#include "stencil/Analysis/DeviceProfile.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace mlir {
namespace stencil {

//===----------------------------------------------------------------------===//
// The paper's formulas
//===----------------------------------------------------------------------===//

/// Eq. 9: alpha = K^(t) / (t K), the fusion redundancy of a kernel that
/// computes t steps as one stencil of `fusedPoints` points (the t-fold
/// composition of a `points`-point stencil).
double getFusionRedundancy(int64_t fusedPoints, int64_t points, int64_t t);

/// Eq. 10: alpha of a d-dimensional box of radius r fused over t steps,
/// (2 r t + 1)^d / (t (2 r + 1)^d).
double getBoxFusionRedundancy(int64_t radius, int64_t rank, int64_t t);

/// Eq. 5: min(peak, bandwidth * intensity). Units: peak in GFLOP/s,
/// bandwidth in GB/s, intensity in flop/byte; the result in GFLOP/s.
double getRooflineBound(double peakGflops, double bandwidthGBs,
                        double intensity);

/// Eq. 12 in stencil points: the useful rate (GStencil/s) of a unit that
/// issues `unitFlops` flops per point and step at `peakGflops`, with
/// `bytesPerPoint` of memory traffic per point and step.
double getStencilBound(double peakGflops, double bandwidthGBs, double unitFlops,
                       double bytesPerPoint);

/// The scenarios of "Do We Need Tensor Cores?", section 4.1, for a Tensor Core kernel against
/// the CUDA-core kernel of the same stencil and fusion depth.
enum class Scenario {
  /// 1: both memory-bound; equal rates (eq. 14).
  BothMemoryBound = 1,
  /// 2: CUDA cores memory-bound, Tensor Cores compute-bound; TC slower
  /// (eq. 15, 16).
  TensorCoreComputeBound = 2,
  /// 3: CUDA cores compute-bound, Tensor Cores memory-bound; TC faster
  /// (eq. 17).
  CudaCoreComputeBound = 3,
  /// 4: both compute-bound; TC faster iff alpha < S P_TC / P_CU (eq. 18, 19).
  BothComputeBound = 4,
};

/// One Tensor Core kernel against CUDA cores ("Do We Need Tensor Cores?", eq. 13-19).
struct UnitComparison {
  Scenario scenario;
  /// P_TC,actual / P_CU,actual (eq. 13).
  double speedup;
};

/// Compares a Tensor Core unit (peak `tcGflops`, sparsity factor `sparsity`,
/// fusion redundancy `alpha`) with CUDA cores (peak `cuGflops`) on a
/// stencil of `points` points, `elementBytes`-byte elements and `t` fused
/// steps, at `bandwidthGBs` (eq. 8, 11-13).
UnitComparison compareWithCudaCores(double tcGflops, double sparsity,
                                    double alpha, double cuGflops,
                                    double bandwidthGBs, int64_t points,
                                    int64_t elementBytes, int64_t t);

/// Eq. 19: the sweet spot of scenario 4, alpha < S P_TC / P_CU.
bool isInSweetSpot(double alpha, double sparsity, double tcGflops,
                   double cuGflops);

//===----------------------------------------------------------------------===//
// The model of a compiled kernel
//===----------------------------------------------------------------------===//

/// What the model needs of one kernel, from its launch record.
struct KernelWork {
  /// The kernel's name.
  std::string kernel;
  int64_t rank = 0;
  /// D: bytes of one grid element.
  int64_t elementBytes = 0;
  /// t: time steps per launch.
  int64_t stepsPerLaunch = 1;
  /// Time steps of the source op (weights a module's kernels).
  int64_t steps = 1;
  /// The unit that does the arithmetic and C_u, its flops per point and
  /// step (dense-equivalent for mma.sp).
  std::string unit;
  double unitFlopsPerPoint = 0;
  /// The CUDA-core kernels' schedule ("staged", "streamed", "plane-sums",
  /// "rows"; empty for the other pipelines): the row sweep has constants of
  /// its own, the others share the CUDA-core ones.
  std::string schedule;
  /// The plane sums' columns per thread (`vector-width`; 1 otherwise).
  int64_t vectorWidth = 1;
  /// C = 2 K, the useful flops per point and step; 0 for a general body.
  double stencilFlopsPerPoint = 0;
  int64_t sharedBytes = 0;
  int64_t threads = 0;
  /// A: input elements a block reads per output and launch, its halo
  /// included (1 when the record has no pattern to take the radii from).
  double stagedInputsPerPoint = 1;

  /// From ptxas (0: unknown): registers per thread and the static shared
  /// memory per block, beside the dynamic `sharedBytes`.
  int64_t registers = 0;
  int64_t staticSharedBytes = 0;
  /// The record's tile (innermost first) and the pattern's radii (outermost
  /// first).
  SmallVector<int64_t> tile, radii;
  /// FFT kernels: E, the direct path's flops per output and step in an edge
  /// block, on `edgeUnit` (0: no edge path).
  double edgeFlopsPerPoint = 0;
  std::string edgeUnit;
  /// The grid the prediction is for, outermost first (the edge blocks'
  /// share depends on it; empty: not known, no edge term).
  SmallVector<int64_t> gridSizes;
  /// M': bytes per point and step a block reads and writes, D (1 + A) / t.
  double getBytesPerPoint() const;
  /// M_eff = max(2 D / t, M' / rho), the bytes the bandwidth bound divides.
  double getEffectiveBytesPerPoint(double l2BandwidthRatio) const;
  /// alpha / S = C_u / C (0 when C is unknown).
  double getWorkInflation() const;
};

/// Reads one `stencil.launches` record (HostLaunch.h); fails on a record
/// without the unit fields.
FailureOr<KernelWork> getKernelWork(DictionaryAttr record);

/// The measured efficiencies of one pipeline (CostModel.h, top).
struct ModelConstants {
  double memoryEfficiency = 1;
  double unitEfficiency = 1;
  double overlap = 0;
};

/// The constants of `pipeline` ("sptc", "tc", "tc-lowrank", "cuda-core-fT",
/// "cuda-core-rows-fT" for the row sweep, "fft-fT" for T fused steps) on
/// rank-`rank` grids of `elementBytes`-byte elements: the most specific
/// entry of lib/Analysis/ModelConstants.cpp, then those of the next smaller
/// fused depth measured, then of the pipeline without "-fT"; the row sweep
/// without entries takes those of "cuda-core-fT"; the roofline (1, 1, 0)
/// for a pipeline with no entry.
ModelConstants getModelConstants(StringRef pipeline, int64_t rank,
                                 int64_t elementBytes);

/// The constants shared by every pipeline (CostModel.h, top); the defaults
/// leave the paper's roofline: rho = 1, no occupancy and no edge term.
struct ModelGlobals {
  /// rho: L2 over DRAM bandwidth as the halo loads see it.
  double l2BandwidthRatio = 1;
  /// W_sat: resident warps per SM that keep a unit busy (0: ignore).
  double saturatingWarps = 0;
  /// eta_edge: the FFT edge blocks' share of the CUDA-core peak (0: ignore).
  double edgeEfficiency = 0;
};

/// The calibrated globals (lib/Analysis/ModelConstants.cpp).
ModelGlobals getModelGlobals();

/// W: warps of `work`'s kernel resident per SM on `profile`, limited by its
/// registers (allocated per warp in 256-register units) and its shared memory
/// (static + dynamic + 1 KiB the driver reserves per block); 0 when its
/// registers or the profile's register file are unknown.
int64_t getResidentWarps(const KernelWork &work, const DeviceProfile &profile);

/// s: the share of an FFT kernel's blocks that take the direct path on
/// `work.gridSizes`. The kernel's tiles have V_d = tile_d valid points (V of
/// the last dimension is half the record's tile: a block takes two tiles
/// along it), there are J_d = max(1, ceil((n_d - 2 t r_d) / V_d)) of them,
/// and a block is an edge block when one of its tiles is the first or the
/// last along some dimension. 0 without a grid or an edge path.
double getEdgeBlockShare(const KernelWork &work);

/// The model's figures for one kernel on one device.
struct KernelPrediction {
  /// B / M and P_u / C_u, GStencil/s.
  double bandwidthBound = 0;
  double unitBound = 0;
  /// min of the two (eq. 12) and whether the bandwidth binds.
  double bound = 0;
  bool memoryBound = false;
  /// The calibrated prediction, GStencil/s.
  double predicted = 0;
  /// W (0: unknown) and the edge blocks' share.
  int64_t residentWarps = 0;
  double edgeShare = 0;
};

/// Predicts `work` on `profile` with `constants`; fails when the profile has
/// no peak for the kernel's unit (or for its edge path's, when the edge term
/// applies).
FailureOr<KernelPrediction>
predictKernel(const KernelWork &work, const DeviceProfile &profile,
              const ModelConstants &constants,
              const ModelGlobals &globals = ModelGlobals());

} // namespace stencil
} // namespace mlir

#endif // STENCIL_ANALYSIS_COSTMODEL_H
