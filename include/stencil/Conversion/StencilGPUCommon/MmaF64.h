//===- MmaF64.h - f64 warp MMAs of the GPU kernels --------------*- C++ -*-===//
//
// The f64 Tensor Core instructions the dense kernels issue (PTX ISA, "Matrix
// Fragments for mma.m8n8k4 with .f64 floating point type" and "for
// mma.m16n8k4"; Support/MmaModel.h models both): lane (g, t) holds
//   m8n8k4 (sm_80):  a_0 = A[g][t], b_0 = B[t][g], c_i = C[g][2t + i];
//   m16n8k4 (sm_90): a_0 = A[g][t], a_1 = A[g + 8][t], b_0 as above,
//                    c_{0,1} = C[g][2t + i], c_{2,3} = C[g + 8][2t + i].
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_CONVERSION_STENCILGPUCOMMON_MMAF64_H
#define STENCIL_CONVERSION_STENCILGPUCOMMON_MMAF64_H

#include "mlir/IR/ImplicitLocOpBuilder.h"

namespace mlir {
namespace stencil {

/// D = A B + C for the warp: `mma.sync.aligned.m8n8k4.row.col.f64` when `a`
/// has one value (c two), `m16n8k4` when it has two (c four). Returns D's
/// values in the order of c.
SmallVector<Value, 4> createMmaF64(ImplicitLocOpBuilder &b, ArrayRef<Value> a,
                                   Value bValue, ArrayRef<Value> c);

} // namespace stencil
} // namespace mlir

#endif // STENCIL_CONVERSION_STENCILGPUCOMMON_MMAF64_H
