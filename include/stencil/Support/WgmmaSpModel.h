//===- WgmmaSpModel.h - CPU model of the wgmma.sp warpgroup path -*- C++
//-*-===//
//
// IR-free model of
//   wgmma.mma_async.sp.sync.aligned.m64nNk32.f32.f16.f16
//       d, a, b-desc, sp-meta, sp-sel, scale-d, 1, 1, 0
// (sm_90a): a warpgroup of four warps multiplies the 2:4 sparse 64 x 32 A,
// held compressed in registers, by the dense 32 x N B, read from shared
// memory through a 64-bit matrix descriptor, and accumulates into the 64 x N
// f32 D in registers. Written from the PTX ISA, "Asynchronous Warpgroup
// Level Matrix Multiply-Accumulate Instructions": the register fragments of
// sparse wgmma (A and the metadata), the matrix descriptor format, and the
// canonical shared-memory layout of a K-major operand without swizzling.
//
// Registers. Warp w (thread tid, w = tid / 32, lane = tid % 32) holds rows
// 16 w .. 16 w + 15 of A, D and the metadata, in the layouts of the
// warp-level m16n8k32 mma.sp (MmaSpModel.h) with every row moved by 16 w:
// a_i at getACompressedPos(lane, i) of the compressed 64 x 16 A, the
// metadata of the lane pair the sparsity selector picks, and
//     d_i at (16 w + g + 8 ((i >> 1) & 1), 8 (i >> 2) + 2 t + (i & 1)),
// g = lane >> 2, t = lane % 4, i < N / 2: the m16n8 C fragment of n-tile
// i >> 2. So one wgmma m64nNk32 is four warps' N / 8 m16n8k32 mma.sp each,
// sharing B; this model computes it that way, on the warp-level model.
//
// Descriptor (64 bits): start address >> 4 in bits [0, 14), leading
// dimension byte offset (LBO) >> 4 in [16, 30), stride dimension byte offset
// (SBO) >> 4 in [32, 46), base offset in [49, 52), swizzle mode in [62, 64)
// (0: none, 1: 128-byte, 2: 64-byte, 3: 32-byte). Without swizzling, a
// K-major operand (imm-trans-b = 0) is made of "core matrices" of 8 rows
// (the N index) by 16 bytes (8 f16 along K), each 128 contiguous bytes; core
// matrices follow each other at LBO along K and at SBO along N:
//     address(k, n) = start + (n % 8) 16 + (n / 8) SBO + (k % 8) 2
//                     + (k / 8) LBO.
// Only this layout is modelled; a descriptor with a swizzle mode is
// reported as not modelled rather than guessed.
//
// The dense `wgmma.mma_async.sync.aligned.m64nNk16.f32.f16.f16` with A in
// registers (for a Hopper path of the dense Tensor Core pipeline) is
// modelled the same way: warp w holds rows 16 w .. 16 w + 15 of the dense
// 64 x 16 A in the m16n8k16 A layout of MmaModel.h, B (16 x N) comes
// through the same descriptor, D has the layout above. (Not yet checked on
// the GPU by bench/wgmma-probe.)
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_SUPPORT_WGMMASPMODEL_H
#define STENCIL_SUPPORT_WGMMASPMODEL_H

#include "stencil/Support/MmaModel.h"
#include "stencil/Support/MmaSpModel.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace mlir {
namespace stencil {

/// The modelled instruction: M = 64, K = 32 (sparse f16), N in 8..256 by 8.
constexpr unsigned kWgmmaM = 64, kWgmmaSpK = 32, kWarpgroupSize = 128;
constexpr unsigned kWgmmaMaxN = 256;

/// The swizzle field of a matrix descriptor.
enum class WgmmaSwizzle : uint8_t { None = 0, B128 = 1, B64 = 2, B32 = 3 };

/// The fields of a shared-memory matrix descriptor, in bytes.
struct WgmmaDescriptor {
  uint32_t startAddress = 0;
  uint32_t leadingByteOffset = 0;
  uint32_t strideByteOffset = 0;
  unsigned baseOffset = 0;
  WgmmaSwizzle swizzle = WgmmaSwizzle::None;

  /// The 64-bit descriptor; nullopt when a field does not fit (an address or
  /// offset not a multiple of 16 or past 2^18 bytes, a base offset above 7).
  std::optional<uint64_t> encode() const;
  static WgmmaDescriptor decode(uint64_t descriptor);
};

/// The byte address of element (k, n) (f16) of a K-major operand without
/// swizzling (layout above); nullopt for a swizzled descriptor.
std::optional<uint64_t> getWgmmaKMajorAddress(uint64_t descriptor, unsigned k,
                                              unsigned n);

/// The registers of a warpgroup for one m64nNk32 f16 `wgmma.mma_async.sp`
/// with A in registers: a[tid][i] is a_i (four .f16x2 registers, low half
/// first) and meta[tid] the metadata register of thread tid.
struct WarpgroupFragmentsSpM64K32 {
  float a[kWarpgroupSize][8];
  uint32_t meta[kWarpgroupSize];
};

/// The warpgroup's A registers for a dense 64 x 32 A (row-major) with at
/// most two non-zeros in every aligned group of four: warp w holds rows
/// 16 w .. 16 w + 15 as the m16n8k32 `mma.sp` A of MmaSpModel.h, metadata in
/// the lane pair of `selector` (the other lanes' words are 0). False, leaving
/// `frag` undefined, where A is not 2:4.
bool packWgmmaSpA(llvm::ArrayRef<float> a, unsigned selector,
                  WarpgroupFragmentsSpM64K32 &frag);

/// The registers of a warpgroup for one dense m64nNk16 f16 `wgmma.mma_async`
/// with A in registers: a[tid][i] is a_i of thread tid (four .f16x2
/// registers, low half first), at getAPosM16N8K16(lane, i) + 16 w.
constexpr unsigned kWgmmaK = 16;
struct WarpgroupFragmentsM64K16 {
  float a[kWarpgroupSize][8];
};

/// D = A * B + D (scaleD) or A * B for the dense m64nNk16, B (16 x n) read
/// through `bDescriptor` as for simulateWgmmaSpM64NK32 (same conventions and
/// failures).
bool simulateWgmmaM64NK16(const WarpgroupFragmentsM64K16 &frag,
                          llvm::ArrayRef<float> smem, uint64_t bDescriptor,
                          unsigned n, bool scaleD, std::vector<float> &d);

/// Position of accumulator d_i of thread `tid` in the 64 x N D.
MatrixPos getWgmmaDPos(unsigned tid, unsigned i);

/// D = A * B + D (scaleD) or A * B, with B read from `smem` (f16 values as
/// floats, one per 2 bytes: element e is at byte address 2 e) through
/// `bDescriptor`; `d` holds kWarpgroupSize rows of n / 2 accumulators
/// (d[tid * n / 2 + i] is d_i of thread tid). Returns false, leaving `d`
/// alone, when n is not a multiple of 8 in [8, 256], the descriptor is not
/// modelled, or an address falls outside `smem` or is odd.
bool simulateWgmmaSpM64NK32(const WarpgroupFragmentsSpM64K32 &frag,
                            llvm::ArrayRef<float> smem, uint64_t bDescriptor,
                            unsigned selector, unsigned n, bool scaleD,
                            std::vector<float> &d);

} // namespace stencil
} // namespace mlir

#endif // STENCIL_SUPPORT_WGMMASPMODEL_H
