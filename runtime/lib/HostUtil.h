//===- HostUtil.h - element types, .npy files, CPU reference ----*- C++ -*-===//
#ifndef STENCIL_RUN_HOSTUTIL_H
#define STENCIL_RUN_HOSTUTIL_H

#include "BodyExpr.h"

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

namespace stencil_run {

enum class ElemType { F16, BF16, F32, F64 };

/// "f16", "bf16", "f32", "f64" -> type; false if unknown.
bool parseElemType(const std::string &s, ElemType &t);
const char *elemTypeName(ElemType t);
unsigned elemTypeBytes(ElemType t);
/// Unit roundoff 2^-p of round-to-nearest (f16 2^-11, bf16 2^-8, f32 2^-24,
/// f64 2^-53).
double unitRoundoff(ElemType t);
/// Spacing of the subnormals (absolute rounding granularity near zero):
/// f16 2^-24, bf16 2^-133, f32 2^-149, f64 2^-1074.
double subnormalSpacing(ElemType t);

/// Rounds x to the nearest value of type t, ties to even, with gradual
/// underflow and overflow to infinity (direct from f64: no double rounding).
double roundTo(ElemType t, double x);
/// IEEE binary16 / bfloat16 bit patterns of an (already representable) value.
uint16_t encodeF16(double v);
double decodeF16(uint16_t bits);
uint16_t encodeBF16(double v);
double decodeBF16(uint16_t bits);

/// values (representable in t) -> little-endian element bytes, and back;
/// `threads` threads share the work.
std::vector<uint8_t> packElements(const std::vector<double> &values, ElemType t,
                                  unsigned threads = 1);
std::vector<double> unpackElements(const std::vector<uint8_t> &bytes,
                                   ElemType t, unsigned threads = 1);

/// Runs fn(begin, end) on up to `threads` threads over consecutive ranges
/// of [0, n), each of at least `minPerThread` items (on the calling thread
/// when that leaves one range).
void parallelRanges(size_t n, unsigned threads,
                    const std::function<void(size_t, size_t)> &fn,
                    size_t minPerThread = size_t(1) << 16);

/// n values uniform in [-1, 1) rounded to t. Point i takes the
/// (i mod 2^16)-th draw of a mt19937_64 seeded with seed + (i >> 16) *
/// 0x9E3779B97F4A7C15 (53 random bits each), so the grid depends on the
/// seed only, not on `threads`.
std::vector<double> randomInput(size_t n, ElemType t, uint64_t seed,
                                unsigned threads);

/// Values [first, first + count) of randomInput's grid (of any size beyond
/// them), without the rest: the planes of a grid too large for the host.
std::vector<double> randomInputRange(size_t first, size_t count, ElemType t,
                                     uint64_t seed, unsigned threads);

/// The blocks of a band kernel (docs/LaunchDescription.md, band_kernel):
/// the tiles of `tile` points (outermost first, like `dims`) that reach
/// outside the exact region [m_d, N_d - m_d), prod n_d - prod (hi_d - lo_d)
/// with n_d = ceil(N_d / T_d), lo_d = min(n_d, ceil(m_d / T_d)), hi_d =
/// max(lo_d, floor((N_d - m_d) / T_d)) (0 when N_d < m_d; n_d when m_d = 0).
/// The compiler's Support/StepComposition.h BandTiling counts the same (a
/// unit test compares them; stencil-run does not link the compiler).
int64_t countBandTiles(const std::vector<int64_t> &dims,
                       const std::vector<int64_t> &tile,
                       const std::vector<int64_t> &margins);

/// Largest .npy header readNpy accepts (NumPy writes a few hundred bytes;
/// the format allows 4 GiB).
constexpr uint32_t kMaxNpyHeaderBytes = uint32_t(1) << 20;

/// NumPy .npy (format 1.0/2.0/3.0), dtypes '<f2', '<f4', '<f8', C order.
/// Opens `path` and calls the stream version.
bool readNpy(const std::string &path, std::vector<int64_t> &shape,
             std::vector<double> &values, std::string &dtype,
             std::string &error);
/// The same from the current position of `in` (`path` names it in
/// messages). Any input is safe: a malformed or hostile one (bad magic or
/// version, a header longer than kMaxNpyHeaderBytes or than the stream, a
/// missing or unquoted field, an unsupported dtype, Fortran order, a shape
/// with garbage, negative or overflowing dimensions, fewer data bytes than
/// the shape needs) gives false and a message, never a crash; memory is
/// allocated only for data actually present (a seekable stream is measured
/// first, another one is read in chunks). On success values.size() is the
/// product of `shape` (1 for the scalar shape ()); bytes after the data are
/// ignored, as NumPy does.
bool readNpy(std::istream &in, const std::string &path,
             std::vector<int64_t> &shape, std::vector<double> &values,
             std::string &dtype, std::string &error);
/// Writes values in dtype "<f2" / "<f4" / "<f8" (values must be representable;
/// f2 values are encoded as binary16).
bool writeNpy(const std::string &path, const std::vector<int64_t> &shape,
              const std::vector<double> &values, const std::string &dtype,
              std::string &error);
/// NumPy dtype used to save values of type t (bf16 has none: '<f4', exact).
const char *npyDtypeFor(ElemType t);

/// The boundary conditions of docs/Rationale.md.
enum class Boundary {
  Halo,     ///< only interior points are computed; the halo keeps its values
  Periodic, ///< every point is computed; neighbour indices wrap
  Dirichlet ///< every point is computed; neighbours outside read a constant
};

/// The CPU reference: a straightforward f64 stencil, linear (offsets and
/// weights) or general (a body expression over its accesses).
struct ReferenceStencil {
  int rank = 0;
  std::vector<int64_t> dims; ///< grid, outermost first
  /// Linear stencil: the points and one weight each. General body: the
  /// body's accesses (BodyExpr::accesses()) and no weights.
  std::vector<std::vector<int64_t>> offsets;
  std::vector<double> weights;
  const BodyExpr *body = nullptr;
  ElemType elementType = ElemType::F16;
  Boundary boundary = Boundary::Halo;
  /// The value a Dirichlet boundary reads outside the grid (representable
  /// in the element type).
  double dirichletValue = 0;
};

/// Lower/upper (inclusive) bounds of the points written by a step, per dim,
/// outermost first: r_d <= i_d < N_d - r_d with r_d = max |o_d|, the
/// dialect's symmetric halo (points whose whole neighbourhood is inside),
/// for the halo boundary; every point for the others.
void interiorBounds(const ReferenceStencil &s, std::vector<int64_t> &lo,
                    std::vector<int64_t> &hi);

/// For a general body: the unit roundoff and absolute floor of each rounded
/// operation of the GPU's evaluation, for BodyExpr::evaluateWithBound.
struct BodyRounding {
  double u = 0;
  double eta = 0;
};

/// Runs `steps` steps from `input` (ping-pong, both buffers start as the
/// input; with the halo boundary the halo keeps the input values), rounding
/// to the element type after every step. Returns the final grid; `maxAbs`
/// gets max |value| over the input, every step's result and the Dirichlet
/// value. For a general body, `bodyBound` (if given) gets the bound of the
/// running error analysis on |GPU - reference| after the last step: each
/// step starts from the previous step's bound (0 for the input) and adds the
/// body's rounding (`rounding`) and the reference's own rounding of the
/// result to the element type. Uses `threads` threads.
std::vector<double> runReference(const ReferenceStencil &s,
                                 const std::vector<double> &input, int steps,
                                 unsigned threads, double &maxAbs,
                                 const BodyRounding &rounding = {},
                                 double *bodyBound = nullptr);

} // namespace stencil_run

#endif
