//===- HalfBits.h - f16 bit patterns for the unit tests ---------*- C++ -*-===//
//
// The f16 conversions the packing tests use to feed the MMA models with the
// words the compiler packs.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_UNITTESTS_SUPPORT_HALFBITS_H
#define STENCIL_UNITTESTS_SUPPORT_HALFBITS_H

#include "llvm/ADT/APFloat.h"

#include <cstdint>

namespace mlir {
namespace stencil {
namespace test {

/// The bit pattern of `v` in the 16-bit format `semantics` (IEEEhalf or
/// BFloat), rounded to nearest even by APFloat.
inline uint16_t toBits16(double v, const llvm::fltSemantics &semantics) {
  llvm::APFloat f(v);
  bool losesInfo;
  f.convert(semantics, llvm::APFloat::rmNearestTiesToEven, &losesInfo);
  return f.bitcastToAPInt().getZExtValue();
}

/// The f16 bit pattern of `v`, rounded to nearest even.
inline uint16_t toHalfBits(double v) {
  return toBits16(v, llvm::APFloat::IEEEhalf());
}

/// The value of the f16 in the low 16 bits of `bits`.
inline float fromHalfBits(uint32_t bits) {
  llvm::APFloat f(llvm::APFloat::IEEEhalf(), llvm::APInt(16, bits & 0xffff));
  bool losesInfo;
  f.convert(llvm::APFloat::IEEEsingle(), llvm::APFloat::rmNearestTiesToEven,
            &losesInfo);
  return f.convertToFloat();
}

} // namespace test
} // namespace stencil
} // namespace mlir

#endif // STENCIL_UNITTESTS_SUPPORT_HALFBITS_H
