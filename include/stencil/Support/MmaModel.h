//===- MmaModel.h - CPU model of dense mma.sync fragments -------*- C++ -*-===//
//
// IR-free model of the dense warp-level MMAs the Tensor Core pipeline
// (`--lower-to-tc`) issues, written from the PTX ISA fragment
// tables ("Matrix Fragments for mma.m16n8k16 with floating point type" and
// "mma.m8n8k4 with .f64 floating point type"), like MmaSpModel.h for
// `mma.sp`:
//
//  * `mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32`: lane L, g = L >> 2,
//    t = L % 4. a_i (i < 8) is A[g + 8 ((i >> 1) & 1)][2t + (i & 1) + 8 (i >> 2)]
//    (16 x 16), b_i (i < 4) is B[2t + (i & 1) + 8 (i >> 1)][g] (16 x 8),
//    c_i as for mma.sp: C[g + 8 (i >> 1)][2t + (i & 1)].
//  * `mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64`: a_0 = A[g][t]
//    (8 x 4), b_0 = B[t][g] (4 x 8), c_i = C[g][2t + i] (8 x 8).
//
// The dense Tensor Core form of a kernel row keeps SPIDER's 16 x 32 operand
// (MmaSpModel.h, SpTCPacking.h) and splits K into two m16n8k16 MMAs: B rows
// 0..15 are b_0..b_3 of the m16n8k32 layout and rows 16..31 are b_4..b_7, so
// the sparse kernel's B registers feed the dense MMAs unchanged.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_SUPPORT_MMAMODEL_H
#define STENCIL_SUPPORT_MMAMODEL_H

#include "stencil/Support/MmaSpModel.h"

namespace mlir {
namespace stencil {

/// Position of a_i (i < 8) of `lane` in the 16 x 16 A of m16n8k16.
MatrixPos getAPosM16N8K16(unsigned lane, unsigned i);
/// Position of b_i (i < 4) of `lane` in the 16 x 8 B of m16n8k16.
MatrixPos getBPosM16N8K16(unsigned lane, unsigned i);

/// D = A * B + C for m16n8k16 from the warp's registers: a[L][8], b[L][4],
/// c[L][4] (f16 inputs as floats, f32 accumulation summed in double and
/// rounded once); d[L][i] at getCPos(L, i).
void simulateMmaM16N8K16(const float a[kWarpSize][8],
                         const float b[kWarpSize][4],
                         const float c[kWarpSize][4], float d[kWarpSize][4]);

/// Positions for m8n8k4 f64: a_0, b_0 and c_i (i < 2) of `lane`.
MatrixPos getAPosM8N8K4(unsigned lane);
MatrixPos getBPosM8N8K4(unsigned lane);
MatrixPos getCPosM8N8K4(unsigned lane, unsigned i);

/// D = A * B + C for m8n8k4 f64 from the warp's registers (summed in the
/// order of K).
void simulateMmaM8N8K4(const double a[kWarpSize], const double b[kWarpSize],
                       const double c[kWarpSize][2], double d[kWarpSize][2]);

/// Position of a_i (i < 2) of `lane` in the 16 x 4 A of m16n8k4 f64
/// (`mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64`, sm_90): a_0 = A[g][t],
/// a_1 = A[g + 8][t]; b_0 is as for m8n8k4 and c_i (i < 4) as getCPos.
MatrixPos getAPosM16N8K4(unsigned lane, unsigned i);

/// D = A * B + C for m16n8k4 f64 from the warp's registers: a[L][2], b[L],
/// c[L][4] (summed in the order of K).
void simulateMmaM16N8K4(const double a[kWarpSize][2],
                        const double b[kWarpSize],
                        const double c[kWarpSize][4], double d[kWarpSize][4]);

} // namespace stencil
} // namespace mlir

#endif // STENCIL_SUPPORT_MMAMODEL_H
