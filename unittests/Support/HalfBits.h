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

/// The f16 bit pattern of `v`, rounded to nearest even.
inline uint16_t toHalfBits(double v) {
  llvm::APFloat f(v);
  bool losesInfo;
  f.convert(llvm::APFloat::IEEEhalf(), llvm::APFloat::rmNearestTiesToEven,
            &losesInfo);
  return f.bitcastToAPInt().getZExtValue();
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
