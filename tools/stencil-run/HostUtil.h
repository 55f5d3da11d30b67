//===- HostUtil.h - element types, .npy files, CPU reference ----*- C++ -*-===//
#ifndef STENCIL_RUN_HOSTUTIL_H
#define STENCIL_RUN_HOSTUTIL_H

#include <cstdint>
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

/// values (representable in t) -> little-endian element bytes, and back.
std::vector<uint8_t> packElements(const std::vector<double> &values,
                                  ElemType t);
std::vector<double> unpackElements(const std::vector<uint8_t> &bytes,
                                   ElemType t);

/// NumPy .npy (format 1.0/2.0/3.0), dtypes '<f2', '<f4', '<f8', C order.
bool readNpy(const std::string &path, std::vector<int64_t> &shape,
             std::vector<double> &values, std::string &dtype,
             std::string &error);
/// Writes values in dtype "<f2" / "<f4" / "<f8" (values must be representable;
/// f2 values are encoded as binary16).
bool writeNpy(const std::string &path, const std::vector<int64_t> &shape,
              const std::vector<double> &values, const std::string &dtype,
              std::string &error);
/// NumPy dtype used to save values of type t (bf16 has none: '<f4', exact).
const char *npyDtypeFor(ElemType t);

/// The CPU reference: straightforward f64 stencil, halo boundary.
struct ReferenceStencil {
  int rank = 0;
  std::vector<int64_t> dims; ///< grid, outermost first
  std::vector<std::vector<int64_t>> offsets;
  std::vector<double> weights;
  ElemType elementType = ElemType::F16;
};

/// Lower/upper (inclusive) bounds of the points written by a step, per dim,
/// outermost first: r_d <= i_d < N_d - r_d with r_d = max |o_d|, the
/// dialect's symmetric halo (points whose whole neighbourhood is inside).
void interiorBounds(const ReferenceStencil &s, std::vector<int64_t> &lo,
                    std::vector<int64_t> &hi);

/// Runs `steps` steps from `input` (ping-pong, both buffers start as the
/// input, the halo keeps the input values), rounding to the element type after
/// every step. Returns the final grid; `maxAbs` gets max |value| over the
/// input and every step's result. Uses `threads` threads.
std::vector<double> runReference(const ReferenceStencil &s,
                                 const std::vector<double> &input, int steps,
                                 unsigned threads, double &maxAbs);

} // namespace stencil_run

#endif
