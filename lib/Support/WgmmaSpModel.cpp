//===- WgmmaSpModel.cpp - CPU model of the wgmma.sp warpgroup path --------===//

#include "stencil/Support/WgmmaSpModel.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <cassert>

using namespace mlir;
using namespace mlir::stencil;

bool mlir::stencil::packWgmmaSpA(llvm::ArrayRef<float> a, unsigned selector,
                                 WarpgroupFragmentsSpM64K32 &frag) {
  assert(a.size() == 64 * 32 && "a dense 64 x 32 A");
  // B and C only fill registers the warpgroup MMA does not take from here.
  std::vector<float> b(32 * 8, 0.0f), c(16 * 8, 0.0f);
  for (unsigned warp = 0; warp < 4; ++warp) {
    std::vector<float> values;
    std::vector<uint8_t> indices;
    if (!compressTwoFour(a.slice(warp * 16 * 32, 16 * 32), values, indices))
      return false;
    WarpFragmentsM16N8K32 w;
    packMmaSpM16N8K32(values, indices, b, c, selector, w);
    for (unsigned lane = 0; lane < kWarpSize; ++lane) {
      for (unsigned i = 0; i < 8; ++i)
        frag.a[warp * kWarpSize + lane][i] = w.a[lane][i];
      frag.meta[warp * kWarpSize + lane] = w.meta[lane];
    }
  }
  return true;
}

/// Descriptor fields hold bits [4, 18) of a byte count.
static constexpr uint64_t kFieldMask = (1u << 14) - 1;

std::optional<uint64_t> WgmmaDescriptor::encode() const {
  auto field = [](uint64_t bytes) -> std::optional<uint64_t> {
    if (bytes % 16 != 0 || (bytes >> 4) > kFieldMask)
      return std::nullopt;
    return bytes >> 4;
  };
  std::optional<uint64_t> start = field(startAddress),
                          leading = field(leadingByteOffset),
                          stride = field(strideByteOffset);
  if (!start || !leading || !stride || baseOffset > 7)
    return std::nullopt;
  return *start | *leading << 16 | *stride << 32 | uint64_t(baseOffset) << 49 |
         uint64_t(swizzle) << 62;
}

WgmmaDescriptor WgmmaDescriptor::decode(uint64_t descriptor) {
  WgmmaDescriptor d;
  d.startAddress = (descriptor & kFieldMask) << 4;
  d.leadingByteOffset = ((descriptor >> 16) & kFieldMask) << 4;
  d.strideByteOffset = ((descriptor >> 32) & kFieldMask) << 4;
  d.baseOffset = (descriptor >> 49) & 7;
  d.swizzle = static_cast<WgmmaSwizzle>(descriptor >> 62);
  return d;
}

std::optional<uint64_t>
mlir::stencil::getWgmmaKMajorAddress(uint64_t descriptor, unsigned k,
                                     unsigned n) {
  WgmmaDescriptor d = WgmmaDescriptor::decode(descriptor);
  if (d.swizzle != WgmmaSwizzle::None)
    return std::nullopt;
  return uint64_t(d.startAddress) + (n % 8) * 16 +
         uint64_t(n / 8) * d.strideByteOffset + (k % 8) * 2 +
         uint64_t(k / 8) * d.leadingByteOffset;
}

MatrixPos mlir::stencil::getWgmmaDPos(unsigned tid, unsigned i) {
  assert(tid < kWarpgroupSize && i < kWgmmaMaxN / 2 && "no such D element");
  MatrixPos c = getCPos(tid % kWarpSize, i % 4);
  return {16 * (tid / kWarpSize) + c.row, 8 * (i / 4) + c.col};
}

/// Checks the shape of a warpgroup MMA (N, and D when it is accumulated),
/// then reads its K x N operand B through `bDescriptor` into `b` (row-major),
/// every address checked before anything is computed; false on a bad shape
/// or an address outside `smem` or not on an element.
static bool readWgmmaB(llvm::ArrayRef<float> smem, uint64_t bDescriptor,
                       unsigned k, unsigned n, bool scaleD,
                       const std::vector<float> &d, std::vector<float> &b) {
  if (n < 8 || n > kWgmmaMaxN || n % 8 != 0 ||
      (scaleD && d.size() != kWarpgroupSize * (n / 2)))
    return false;
  b.assign(k * n, 0.0f);
  for (unsigned row = 0; row < k; ++row)
    for (unsigned col = 0; col < n; ++col) {
      std::optional<uint64_t> address =
          getWgmmaKMajorAddress(bDescriptor, row, col);
      if (!address || *address % 2 != 0 || *address / 2 >= smem.size())
        return false;
      b[row * n + col] = smem[*address / 2];
    }
  return true;
}

/// One warp's 16 x 8 tile of C or D, fragments as getCPos.
using WarpTile = float[kWarpSize][4];

/// Runs a warpgroup MMA of K = k and N = n as 4 warps x n / 8 warp-level
/// tiles: reads B (readWgmmaB; false when it fails), then for every warp and
/// n-tile `mmaTile(warp, tile, b, c, out)` computes the tile's D `out` from
/// B (K x n, row-major) and the tile's C `c` (its part of `d`, or zeros
/// without `scaleD`); the tiles then replace `d`.
static bool
runWarpTiles(llvm::ArrayRef<float> smem, uint64_t bDescriptor, unsigned k,
             unsigned n, bool scaleD, std::vector<float> &d,
             llvm::function_ref<void(unsigned warp, unsigned tile,
                                     llvm::ArrayRef<float> b, const WarpTile &c,
                                     WarpTile &out)>
                 mmaTile) {
  std::vector<float> b;
  if (!readWgmmaB(smem, bDescriptor, k, n, scaleD, d, b))
    return false;
  std::vector<float> result(kWarpgroupSize * (n / 2));
  for (unsigned warp = 0; warp < 4; ++warp)
    for (unsigned tile = 0; tile < n / 8; ++tile) {
      WarpTile c, out;
      for (unsigned lane = 0; lane < kWarpSize; ++lane)
        for (unsigned i = 0; i < 4; ++i) {
          unsigned tid = warp * kWarpSize + lane;
          c[lane][i] = scaleD ? d[tid * (n / 2) + 4 * tile + i] : 0.0f;
        }
      mmaTile(warp, tile, b, c, out);
      for (unsigned lane = 0; lane < kWarpSize; ++lane)
        for (unsigned i = 0; i < 4; ++i)
          result[(warp * kWarpSize + lane) * (n / 2) + 4 * tile + i] =
              out[lane][i];
    }
  d = std::move(result);
  return true;
}

bool mlir::stencil::simulateWgmmaSpM64NK32(
    const WarpgroupFragmentsSpM64K32 &frag, llvm::ArrayRef<float> smem,
    uint64_t bDescriptor, unsigned selector, unsigned n, bool scaleD,
    std::vector<float> &d) {
  // Every warp's rows, one m16n8k32 per n-tile, on the warp-level model.
  auto mmaTile = [&](unsigned warp, unsigned tile, llvm::ArrayRef<float> b,
                     const WarpTile &c, WarpTile &out) {
    WarpFragmentsM16N8K32 f = {};
    for (unsigned lane = 0; lane < kWarpSize; ++lane) {
      unsigned tid = warp * kWarpSize + lane;
      for (unsigned i = 0; i < 8; ++i) {
        f.a[lane][i] = frag.a[tid][i];
        MatrixPos p = getBPos(lane, i);
        f.b[lane][i] = b[p.row * n + 8 * tile + p.col];
      }
      for (unsigned i = 0; i < 4; ++i)
        f.c[lane][i] = c[lane][i];
      f.meta[lane] = frag.meta[tid];
    }
    simulateMmaSpM16N8K32(f, selector, out);
  };
  return runWarpTiles(smem, bDescriptor, kWgmmaSpK, n, scaleD, d, mmaTile);
}

bool mlir::stencil::simulateWgmmaM64NK16(const WarpgroupFragmentsM64K16 &frag,
                                         llvm::ArrayRef<float> smem,
                                         uint64_t bDescriptor, unsigned n,
                                         bool scaleD, std::vector<float> &d) {
  // Every warp's rows, one m16n8k16 per n-tile, on the warp-level model.
  auto mmaTile = [&](unsigned warp, unsigned tile, llvm::ArrayRef<float> b,
                     const WarpTile &c, WarpTile &out) {
    // The warp's A fragments are its threads' rows of frag.a.
    float bf[kWarpSize][4];
    for (unsigned lane = 0; lane < kWarpSize; ++lane)
      for (unsigned i = 0; i < 4; ++i) {
        MatrixPos p = getBPosM16N8K16(lane, i);
        bf[lane][i] = b[p.row * n + 8 * tile + p.col];
      }
    simulateMmaM16N8K16(frag.a + warp * kWarpSize, bf, c, out);
  };
  return runWarpTiles(smem, bDescriptor, kWgmmaK, n, scaleD, d, mmaTile);
}
