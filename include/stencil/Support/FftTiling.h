//===- FftTiling.h - FFT stencil tiles: tailoring, PFA maps, spectra -*- C++ -*-===//
//
// IR-free math of the FFT pipeline (`--lower-to-fft`), after
// FlashFFTStencil: the tile a thread block transforms, the
// prime-factor (Good-Thomas) index maps that make each tile dimension's DFT a
// product of small dense DFTs with no twiddle factors, the dense DFT matrices
// packed as Tensor Core fragments, the kernel spectrum raised to the number of
// fused steps, and an error bound for the whole tile pipeline (its CPU model
// is FftTileModel.h).
//
// Convention. A stencil maps a grid a to
//     b[x] = Sum_o w_o a[x + o]                                        (1)
// (correlation with offsets o; FlashFFTStencil eq. (2) writes the same sum as a
// convolution with the flipped kernel). On a tile of N_0 x .. x N_{R-1}
// points taken periodically (circular), the DFT
//     A^[k] = Sum_x a[x] exp(-2 pi i Sum_d k_d x_d / N_d)
// turns (1) into a pointwise product:
//     B^[k] = H[k] A^[k],   H[k] = Sum_o w_o exp(+2 pi i Sum_d k_d o_d / N_d),
// and T steps of (1) into one product by H[k]^T (FlashFFTStencil eq. (10)). Here
// H^T is computed at compile time in long double (binary powering, one
// rounding to f64 at the end), with the inverse DFT's 1 / prod N_d folded in:
//     S[k] = H[k]^T / prod_d N_d.                                         (2)
// Why at compile time: S depends only on the weights, T and the tile, all
// compile-time constants; computing it in a setup kernel would add a launch
// and f64 sin/cos on the GPU for no gain, and the compiler's long double
// powering keeps S accurate to about 1 ulp even for T in the hundreds.
//
// Kernel tailoring (FlashFFTStencil section 3.1: split / fuse / stitch). A tile of
// N_d points per dimension holds the input at [s_d, s_d + N_d); after T
// circular steps the points at distance >= T r_d from the tile's edges equal
// T steps of the true stencil (their dependence cone of radius T r_d stays in
// the tile), so tiles are placed every V_d = N_d - 2 T r_d points and their
// valid regions stitch the grid (eq. (3)-(7), generalised to T steps and R
// dimensions). Section 3.1's L = a T (T - 1) (T the fragment size) becomes
// here: N_d is a product of pairwise coprime factors, each factor's axis
// padded to a multiple of 8 (the MMA granularity), chosen to minimise the
// padded Tensor Core work per valid point update within a shared-memory
// budget.
//
// Prime-factor reshaping (FlashFFTStencil section 3.2.1, eq. (8)). For N = prod_j f_j
// with pairwise coprime f_j, M_j = N / f_j, the input is stored at the CRT
// ("diagonal", section 3.2.2) position n_j = n mod f_j and the spectrum is read
// at the Ruritanian position k = Sum_j k_j M_j mod N. Since M_j n = M_j n_j
// (mod N),
//     exp(-2 pi i n k / N) = prod_j exp(-2 pi i n_j k_j / f_j),
// so the length-N DFT is the R'-dimensional DFT of the f_0 x f_1 x .. array:
// one small dense DFT per factor axis, no twiddles. The same maps serve the
// inverse transform. A tile's array has one axis per factor of every
// dimension ("axes", outermost dimension first, factors in order), each of
// padded extent P_j = roundup(f_j, 8); padded entries hold zero, and the
// padded rows and columns of the DFT matrices are zero.
//
// DFT as GEMM (FlashFFTStencil section 3.3, Algorithm 1). Along axis j with the other
// axes as a batch of "fibers", out[fiber][k] = Sum_n in[fiber][n] F[k][n]:
// the data is the A operand (M = fibers, K = n), the matrix F^T the B operand
// (K = n, N = k), complex as four real MMAs (Re += Ar Br, Re += Ai (-Bi),
// Im += Ar Bi, Im += Ai Br). With m8n8k4 (sm_80) a fragment covers 8 fibers,
// with m16n8k4 (sm_90) 16; B is the same 4 x 8 fragment in both, so the
// packed matrices serve both shapes. B chunk c (K rows 4c..4c+3) of k-tile kt
// (N columns 8kt..8kt+7) of lane (g, t) is F[8 kt + g][4 c + t].
//
// Fragment swizzling (FlashFFTStencil section 3.3, "Swizzling Fragments"). After the
// last forward axis, lane (g, t) holds C[fiber][8 kt + 2t + i] (i < 2). It
// multiplies them by S and feeds them, unchanged, as A to the inverse DFT of
// the same axis: A chunk (kt, i) of lane (g, t) is A[fiber][t] := C[fiber][8 kt
// + 2t + i], so that chunk's B rows are the inverse matrix's columns
// 8 kt + 2t + i, t < 4 (packed so, "swizzled"). No shared-memory round trip
// between the last forward transform, the product by S and the first inverse
// transform.
//
// Double-layer filling (FlashFFTStencil section 3.2.3). The stencil is real and
// linear, so one complex tile carries two real tiles: the real part one, the
// imaginary part the other; both results come out of one transform.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_SUPPORT_FFTTILING_H
#define STENCIL_SUPPORT_FFTTILING_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <complex>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace stencil {

/// The padded extent of a factor axis: the next multiple of 8.
int64_t getFftPaddedExtent(int64_t factor);

/// Whether `factors` are pairwise coprime and each in [2, 64].
bool arePfaFactors(llvm::ArrayRef<int64_t> factors);

/// The MMA the DFT stages issue: m8n8k4 (sm_80) or m16n8k4 (sm_90).
enum class FftMmaShape { M8N8K4, M16N8K4 };

/// One tile of the FFT pipeline.
struct FftTilePlan {
  /// Time steps one tile computes (T).
  int64_t fusedSteps = 1;
  /// A radix-8 Cooley-Tukey tile (see "Cooley-Tukey tiles" below): the
  /// factors are digits of 8 with twiddles between them, not PFA factors.
  bool cooleyTukey = false;
  /// Stencil radius r_d per dimension, outermost first.
  llvm::SmallVector<int64_t, 3> radii;
  /// PFA factors of N_d per dimension, outermost first.
  llvm::SmallVector<llvm::SmallVector<int64_t, 3>, 3> factors;

  int64_t getRank() const { return radii.size(); }
  /// Whether the factors have a Cooley-Tukey tile's shape: 64 x 64 (2-D,
  /// digits [8, 8] per dimension) or 4096 (1-D, digits [8, 8, 8, 8]).
  bool hasCooleyTukeyShape() const;
  /// N_d, the tile's points along dimension d.
  int64_t getTileSize(int64_t d) const;
  /// V_d = N_d - 2 T r_d, the valid points along dimension d.
  int64_t getValidSize(int64_t d) const;
  /// The factors of all dimensions, outermost dimension first.
  llvm::SmallVector<int64_t> getAxisFactors() const;
  /// The dimension each axis belongs to.
  llvm::SmallVector<int64_t> getAxisDims() const;
  /// Padded extents P_j of the axes.
  llvm::SmallVector<int64_t> getAxisExtents() const;
  /// Elements of the padded (complex) array, prod_j P_j.
  int64_t getNumArrayElements() const;
  /// Real MACs the Tensor Cores issue per complex tile (forward and inverse
  /// DFT over every axis, padding included): 4 prod P * Sum_j P_j per
  /// direction.
  int64_t getMacsPerTile() const;
  /// Point updates a complex tile yields (two real tiles): 2 T prod V_d.
  int64_t getUpdatesPerTile() const;
};

/// The tailoring cost of a tile, in f64 Tensor Core MAC-equivalents per point
/// update: max(MACs, kFftMacsPerByte * HBM bytes) per tile over the updates
/// per tile (plus 1e-3 MACs per update to prefer less work among equally
/// bound tiles), where a tile pair reads and writes 2 prod V_d f64 values
/// from HBM (the overlapping halos come from L2). kFftMacsPerByte = 10 is the
/// machine balance of an H100 (33.5 f64 TC TMAC/s over 3.35 TB/s; the H200's
/// 4.8 TB/s gives 7): at small T every tile is memory-bound.
constexpr double kFftMacsPerByte = 10.0;
double getFftTileCost(const FftTilePlan &plan);

/// Kernel tailoring: the tile (factors per dimension) of least
/// getFftTileCost for `radii` and `fusedSteps`, with at most
/// `maxArrayElements` complex elements in shared memory. Candidate sizes
/// are products of pairwise coprime factors from {3, 5, 7, 8, 9, 11, 13, 16}.
/// Returns nullopt and sets `whyNot` when no tile has a valid region.
/// With `allowCooleyTukey`, the Cooley-Tukey tile (1-D 4096, 2-D 64 x 64)
/// is a candidate too and wins ties.
std::optional<FftTilePlan> chooseFftTile(llvm::ArrayRef<int64_t> radii,
                                         int64_t fusedSteps,
                                         int64_t maxArrayElements,
                                         std::string *whyNot = nullptr,
                                         bool allowCooleyTukey = true);

/// The CRT load map: for every tile point (row-major over N_0 x .. x
/// N_{R-1}), the row-major index of its element in the padded array (axis j
/// index n_d mod f_j).
std::vector<int64_t> getFftLoadMap(const FftTilePlan &plan);

/// The Ruritanian frequency of array position (k_j) along dimension d:
/// Sum_j k_j (N_d / f_j) mod N_d, or -1 when some k_j is padding (>= f_j).
int64_t getFftFrequency(const FftTilePlan &plan, int64_t dim,
                        llvm::ArrayRef<int64_t> axisIndices);

/// The spectrum (2) over the padded array (row-major over the axes), zero at
/// padded positions, for the stencil `offsets` (rank-major, outermost first)
/// and `weights`.
std::vector<std::complex<double>>
computeFftSpectrum(const FftTilePlan &plan, llvm::ArrayRef<int64_t> offsets,
                   llvm::ArrayRef<double> weights);

/// The dense DFT matrix of a factor, P x P (P = getFftPaddedExtent(f)),
/// row-major: F[k][n] = exp(-+2 pi i k n / f) for k, n < f (minus sign
/// forward, plus inverse, unnormalised), zero elsewhere. Entries are computed
/// in long double and rounded once.
std::vector<std::complex<double>> getDftMatrix(int64_t factor, bool inverse);

/// The B fragments of a DFT stage: for k-tile kt < P / 8, chunk c < P / 4 and
/// lane L, the complex B value b = F[8 kt + g][row(c, t)] of lane (g, t) at
/// index (kt * (P / 4) + c) * 32 + L. Unswizzled, row(c, t) = 4 c + t (the
/// stages whose A comes from shared memory); swizzled, chunk c = 2 kt' + i
/// takes the rows 8 kt' + 2t + i (the inverse stage fed by the accumulators
/// of the same axis).
std::vector<std::complex<double>> packDftFragments(int64_t factor,
                                                   bool inverse,
                                                   bool swizzled);

/// The DFT row (K index) that B chunk `chunk` gives lane `lane`.
int64_t getDftFragmentRow(int64_t chunk, unsigned lane, bool swizzled);

/// The XOR that axis digit `digit` adds to the low three bits of an element's
/// shared-memory slot in the FFT kernel's conflict-free layout (FftKernel.cpp):
/// F(v) = 5 v mod 8 of the digit's low three bits. The kernel builds the same
/// function in IR; unittests/Support/FftTilingTest.cpp checks that it makes
/// every stage's quarter-warp accesses hit 8 distinct 16-byte slots.
inline int64_t getFftSlotSwizzle(int64_t digit) { return (5 * (digit & 7)) & 7; }

/// A bound on |computed - exact| at any point of a tile after the pipeline,
/// relative to the largest |re| or |im| of the tile's input, in f64 (unit
/// roundoff u = 2^-53), to first order in u:
///     sqrt(2 N) * (N max_k |S[k]|) * (2 E + 4 u),   N = prod_d N_d,
///     E = Sum_axes sqrt(f_j) (3 f_j + 2) u  (one transform's normwise error);
/// N max |S| = max |H|^T. The derivation is in FftTiling.cpp.
double getFftErrorBound(const FftTilePlan &plan,
                        llvm::ArrayRef<std::complex<double>> spectrum);


//===----------------------------------------------------------------------===//
// Cooley-Tukey tiles (radix 8, four digits, the two of an axis chained in
// registers)
//===----------------------------------------------------------------------===//
//
// The PFA tiles above pay for coprimality: 7 x 8 = 56 points padded to 64,
// and one shared-memory pass per factor. A Cooley-Tukey tile (FlashFFTStencil
// section 3.3 notes that twiddles are the price of non-coprime factors) is a
// 64 x 64 array, 2-D (64 x 64 points) or 1-D (4096 points, the four-step
// split 4096 = 64 x 64 with a twiddle between the two axes), and runs each
// 64-point DFT as two radix-8 stages chained in registers, with the twiddle
// W_64 in between:
//     X[k1 + 8 k2] = Sum_n2 W_8^{n2 k2} W_64^{n2 k1} Sum_n1 W_8^{n1 k1}
//                    x[8 n1 + n2]                                        (C1)
// (W_N = exp(-2 pi i / N)). The 64 points of one line (a "unit", one warp)
// are an 8 x 8 matrix. The first stage uses the data as the B operand
// (K = n1) and the DFT matrix as A: Y[k1][n2] = Sum_n1 F[k1][n1] x[n1][n2],
// whose accumulators, lane (g, t) holding Y[g][2t + i], are then the A
// operand (K = n2, chunk i = columns 2t + i) of the second stage with B rows
// permuted to match: Z[k1][k2] = Sum_n2 Y[k1][n2] F[n2][k2]. Complex data
// as real MMAs: with data as B, A = [F_re; F_im] (16 x 4 for m16n8k4, two
// m8n8k4 otherwise) times B = x_re and x_im gives P = [F_re x_re; F_im x_re],
// Q = [F_re x_im; F_im x_im], and Re = P_top - Q_bot, Im = Q_top + P_bot in
// each lane; with data as A = [Z_re; Z_im] and B = F_re, F_im likewise.
// Inverse stages use the conjugate matrices through the signs of these sums.
//
// Positions along a 64-point line, for lane (g, t):
//   load layout  (forward input, chunk c < 2):     8 (4c + t) + g
//   accumulator layout (forward output, inverse input and output, e < 2):
//                                                 8 (2t + e) + g
// The forward chain's output is in the accumulator layout and is the inverse
// chain's input as is (its first stage takes the accumulators as B, chunk e
// = rows 2t + e), so the product by S and the whole inverse of the last axis
// stay in registers. Per tile, three shared-memory passes: (1) forward
// along axis 1 for each row p0, (2) along axis 0 for each column p1: forward,
// product by S, inverse, (3) inverse along axis 1 (2-D: stored to the grid
// from the registers; 1-D: to shared memory, then copied out).
//
// 1-D four-step. Tile point n = nL + 64 nH sits at (p0, p1) = (nL, nH); pass
// 1 transforms nH into kL, the twiddle W_4096^{p0 p1} follows, pass 2
// transforms nL into kH, so position (p0, p1) holds frequency 64 p0 + p1;
// the inverse mirrors it (W_4096^{-p0 p1} before pass 3). 2-D: (p0, p1) =
// (c0, c1), frequency (p0, p1). In both, the array index 64 p0 + p1 is the
// frequency's natural row-major index.
//
// Conflict-free layout: element (p0, p1) with p0 = 8 ya + yb, p1 = 8 xa + xb
// is stored at 64 p0 + 8 xa + (xb ^ yb ^ G(xa) ^ G(ya)),
// G(v) = 2 (v0 ^ v2) + 4 v1 (bits v_i of v). Every quarter warp of the load
// and accumulator layouts along either axis, and of the grid loads (8
// consecutive p1, or in 1-D 8 consecutive p0), touches 8 distinct 16-byte
// slots (unittests/Support/FftTilingTest.cpp).

/// The position along a 64-point line of chunk `chunk` (< 2) of `lane`: the
/// load layout 8 (4c + t) + g, or the accumulator layout 8 (2t + c) + g.
int64_t getFftCtPosition(unsigned lane, int64_t chunk, bool accumulatorLayout);

/// The shared-memory element (0 .. 4095) of array position (p0, p1).
int64_t getFftCtSlot(int64_t p0, int64_t p1);

/// The per-lane constants of the chained stages, 6 complex values per lane
/// at index v * 32 + lane: v = c < 2, the A fragment of the first stage,
/// W_8^{g (4c + t)} (a_0 = Re, a_1 = Im); v = 2 + i, the B fragment of the
/// second stage (and of both inverse stages, conjugated by the signs),
/// W_8^{(2t + i) g}; v = 4 + i, the twiddle W_64^{(2t + i) g}.
std::vector<std::complex<double>> packFftCtFragments();

/// The spectrum (row-major over the 64 x 64 array) in the order pass 2
/// reads it: index (p1 * 2 + e) * 32 + lane holds S at (getFftCtPosition(
/// lane, e, true), p1).
std::vector<std::complex<double>>
packFftCtSpectrum(llvm::ArrayRef<std::complex<double>> spectrum);

/// The 1-D four-step twiddles in the order pass 2 uses them: index
/// (p1 * 4 + v) * 32 + lane holds, for v = c < 2, W_4096^{p0 p1} at p0 =
/// getFftCtPosition(lane, c, false) (before the forward chain), and for
/// v = 2 + e, W_4096^{-p0 p1} at p0 = getFftCtPosition(lane, e, true) (after
/// the inverse chain).
std::vector<std::complex<double>> packFftCtTwiddles();

} // namespace stencil
} // namespace mlir

#endif // STENCIL_SUPPORT_FFTTILING_H
