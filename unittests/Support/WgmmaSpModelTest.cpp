//===- WgmmaSpModelTest.cpp - The wgmma.sp model and the warpgroup tile ---===//
//
// The model of `wgmma.mma_async.sp` m64nNk32 (WgmmaSpModel.h) against a
// dense product, then the warpgroup tile of the SpTC kernel
// (WgmmaSpTiling.h) through it: the coefficient words the compiler packs,
// the input staged in the y-phase layout and one descriptor per shift must
// reproduce a 2-D or 3-D stencil computed directly in f64; a mutated
// metadata word or descriptor must not. The same for the dense
// m64nNk16 on the dense row form's packing, and the store staging through
// the model of stmatrix.
//
//===----------------------------------------------------------------------===//

#include "stencil/Support/WgmmaSpModel.h"
#include "stencil/Support/SpTCPacking.h"
#include "stencil/Support/SparseKernel.h"
#include "stencil/Support/WgmmaSpTiling.h"

#include "HalfBits.h"
#include "gtest/gtest.h"

#include <cmath>
#include <map>
#include <random>
#include <set>

using namespace mlir::stencil;
using mlir::stencil::test::fromHalfBits;
using mlir::stencil::test::toHalfBits;

namespace {

TEST(WgmmaSpModel, DescriptorFields) {
  WgmmaDescriptor d;
  d.startAddress = 0x3a50;
  d.leadingByteOffset = 4352;
  d.strideByteOffset = 128;
  std::optional<uint64_t> bits = d.encode();
  ASSERT_TRUE(bits);
  // start >> 4 in [0, 14), LBO >> 4 in [16, 30), SBO >> 4 in [32, 46).
  EXPECT_EQ(*bits, uint64_t(0x3a5) | uint64_t(272) << 16 | uint64_t(8) << 32);
  WgmmaDescriptor back = WgmmaDescriptor::decode(*bits);
  EXPECT_EQ(back.startAddress, d.startAddress);
  EXPECT_EQ(back.leadingByteOffset, d.leadingByteOffset);
  EXPECT_EQ(back.strideByteOffset, d.strideByteOffset);
  EXPECT_EQ(back.swizzle, WgmmaSwizzle::None);
  // Fields that do not fit.
  d.startAddress = 8;
  EXPECT_FALSE(d.encode());
  d.startAddress = 1 << 18;
  EXPECT_FALSE(d.encode());
  d.startAddress = 0;
  d.baseOffset = 8;
  EXPECT_FALSE(d.encode());
  // A swizzled descriptor is not modelled.
  d.baseOffset = 0;
  d.swizzle = WgmmaSwizzle::B128;
  EXPECT_FALSE(getWgmmaKMajorAddress(*d.encode(), 0, 0));
}

TEST(WgmmaSpModel, IsaSpotChecks) {
  // K-major, no swizzle: element (k = 19, n = 10) is in K-chunk 2, column
  // group 1, row 2 of its core matrix, element 3.
  WgmmaDescriptor d;
  d.startAddress = 1024;
  d.leadingByteOffset = 512;
  d.strideByteOffset = 128;
  EXPECT_EQ(getWgmmaKMajorAddress(*d.encode(), 19, 10),
            1024u + 2 * 16 + 1 * 128 + 3 * 2 + 2 * 512);
  // Thread 37: warp 1, lane 5 (g = 1, t = 1); d_6 is n-tile 1, c_2.
  MatrixPos p = getWgmmaDPos(37, 6);
  EXPECT_EQ(p.row, 16u + 1u + 8u);
  EXPECT_EQ(p.col, 8u + 2u);
  // The accumulators of a warpgroup cover 64 x N once.
  std::set<std::pair<unsigned, unsigned>> seen;
  for (unsigned tid = 0; tid < kWarpgroupSize; ++tid)
    for (unsigned i = 0; i < 24 / 2; ++i) {
      MatrixPos q = getWgmmaDPos(tid, i);
      EXPECT_TRUE(seen.insert({q.row, q.col}).second);
    }
  EXPECT_EQ(seen.size(), 64u * 24u);
}

/// A random 2:4 64 x 32 A (compressed), B in shared memory through a
/// descriptor with padding between core matrices, against the dense product.
TEST(WgmmaSpModel, MatchesDenseProduct) {
  std::mt19937 rng(77);
  std::uniform_int_distribution<int> dist(-32, 32);
  for (unsigned n : {8u, 24u, 64u, 256u})
    for (unsigned selector = 0; selector < 2; ++selector) {
      // Dense A with two non-zeros at random positions of every chunk.
      std::vector<float> a(64 * 32, 0.0f);
      for (unsigned row = 0; row < 64; ++row)
        for (unsigned chunk = 0; chunk < 8; ++chunk) {
          unsigned first = rng() % 4, second = (first + 1 + rng() % 3) % 4;
          a[row * 32 + 4 * chunk + first] = dist(rng) / 32.0f;
          a[row * 32 + 4 * chunk + second] = dist(rng) / 32.0f;
        }
      WarpgroupFragmentsSpM64K32 frag;
      ASSERT_TRUE(packWgmmaSpA(a, selector, frag));
      WgmmaDescriptor desc;
      desc.startAddress = 256;
      desc.strideByteOffset = 160; // 32 bytes of padding per column group
      desc.leadingByteOffset = 160 * (n / 8) + 48;
      uint64_t bits = *desc.encode();
      std::vector<float> smem((256 + 4 * desc.leadingByteOffset) / 2, NAN);
      std::vector<float> b(32 * n);
      for (unsigned k = 0; k < 32; ++k)
        for (unsigned col = 0; col < n; ++col) {
          b[k * n + col] = dist(rng) / 16.0f;
          smem[*getWgmmaKMajorAddress(bits, k, col) / 2] = b[k * n + col];
        }
      std::vector<float> d(kWarpgroupSize * n / 2, 0.5f);
      ASSERT_TRUE(simulateWgmmaSpM64NK32(frag, smem, bits, selector, n,
                                         /*scaleD=*/true, d));
      for (unsigned tid = 0; tid < kWarpgroupSize; ++tid)
        for (unsigned i = 0; i < n / 2; ++i) {
          MatrixPos p = getWgmmaDPos(tid, i);
          double expected = 0.5;
          for (unsigned k = 0; k < 32; ++k)
            expected += double(a[p.row * 32 + k]) * b[k * n + p.col];
          EXPECT_EQ(d[tid * n / 2 + i], float(expected))
              << "n=" << n << " tid " << tid << " d_" << i;
        }
      // An address outside shared memory is reported, not read.
      desc.leadingByteOffset += 4096;
      EXPECT_FALSE(simulateWgmmaSpM64NK32(frag, smem, *desc.encode(), selector,
                                          n, true, d));
    }
}

TEST(WgmmaModel, DenseMatchesProduct) {
  // The dense m64nNk16: warp w's a_i at getAPosM16N8K16 + 16 w rows.
  std::mt19937 rng(78);
  std::uniform_int_distribution<int> dist(-32, 32);
  for (unsigned n : {8u, 40u, 256u}) {
    std::vector<float> a(64 * 16);
    for (float &v : a)
      v = dist(rng) / 32.0f;
    WarpgroupFragmentsM64K16 frag;
    for (unsigned tid = 0; tid < kWarpgroupSize; ++tid)
      for (unsigned i = 0; i < 8; ++i) {
        MatrixPos p = getAPosM16N8K16(tid % 32, i);
        frag.a[tid][i] = a[(16 * (tid / 32) + p.row) * 16 + p.col];
      }
    WgmmaDescriptor desc;
    desc.startAddress = 128;
    desc.strideByteOffset = 144;
    desc.leadingByteOffset = 144 * (n / 8) + 16;
    uint64_t bits = *desc.encode();
    std::vector<float> smem((128 + 2 * desc.leadingByteOffset) / 2, NAN);
    std::vector<float> b(16 * n);
    for (unsigned k = 0; k < 16; ++k)
      for (unsigned col = 0; col < n; ++col) {
        b[k * n + col] = dist(rng) / 16.0f;
        smem[*getWgmmaKMajorAddress(bits, k, col) / 2] = b[k * n + col];
      }
    std::vector<float> d(kWarpgroupSize * n / 2, -0.25f);
    ASSERT_TRUE(simulateWgmmaM64NK16(frag, smem, bits, n, /*scaleD=*/true, d));
    for (unsigned tid = 0; tid < kWarpgroupSize; ++tid)
      for (unsigned i = 0; i < n / 2; ++i) {
        MatrixPos p = getWgmmaDPos(tid, i);
        double expected = -0.25;
        for (unsigned k = 0; k < 16; ++k)
          expected += double(a[p.row * 16 + k]) * b[k * n + p.col];
        EXPECT_EQ(d[tid * n / 2 + i], float(expected))
            << "n=" << n << " tid " << tid << " d_" << i;
      }
    desc.leadingByteOffset += 8192;
    EXPECT_FALSE(simulateWgmmaM64NK16(frag, smem, *desc.encode(), n, true, d));
  }
}

//===----------------------------------------------------------------------===//
// The warpgroup tile
//===----------------------------------------------------------------------===//

/// A random stencil of radius r (rank 2 or 3) with some kernel rows empty,
/// lowered as the SpTC passes do (decompose, paired swap, 2:4 encode,
/// packing), staged and multiplied as the warpgroup kernel does.
struct TileCase {
  int64_t rank, r, n;
  uint32_t seed;
  int64_t strips = 1;
  /// The dense row form (--lower-to-tc): natural input order, the 16 x 32
  /// stacked kernel row as two dense m64nNk16 halves.
  bool dense = false;
};

/// What to break before simulating.
enum class Mutation { None, MetadataBit, DescriptorLBO, DescriptorStart };

/// The largest relative error of the tile's outputs against the f64
/// stencil, or infinity when the model refuses an operand.
double runTile(const TileCase &tc, Mutation mutation) {
  std::mt19937 rng(tc.seed);
  std::uniform_int_distribution<int> dist(-64, 64);
  int64_t r = tc.r, rank = tc.rank, side = 2 * r + 1;
  // L divides 16 for the stacked operand, as --stencil-decompose takes it.
  int64_t l = chooseRowsPerBlock(r);
  int64_t shift = r % 2;
  llvm::SmallVector<int64_t> perm = pairedSwapPermutation(l);
  if (tc.dense)
    for (int64_t p = 0; p < 2 * l; ++p)
      perm[p] = p;
  std::vector<int64_t> inputOffsets;
  for (int64_t p : perm)
    inputOffsets.push_back(p - r - shift);

  // Weights: a dense box, every third kernel row dropped (a row of zeros).
  int64_t boxSize = rank == 3 ? side * side * side : side * side;
  std::vector<double> box(boxSize);
  for (int64_t i = 0; i < boxSize; ++i)
    box[i] = (i / side) % 3 == 1 ? 0.0 : dist(rng) / 64.0;
  llvm::SmallVector<KernelRow> rows = decomposeIntoRows(rank, r, box);
  std::vector<int64_t> rowOffsets;
  std::vector<uint16_t> valueBits, kernelBits;
  std::vector<uint8_t> indices;
  for (const KernelRow &row : rows) {
    rowOffsets.insert(rowOffsets.end(), row.outerOffset.begin(),
                      row.outerOffset.end());
    KernelMatrix k = permuteColumns(
        buildBandedKernelMatrix(row.weights, l, 2 * l, shift), perm);
    for (double v : k.data)
      kernelBits.push_back(toHalfBits(v));
    if (tc.dense)
      continue;
    std::optional<Sparse24Matrix> sparse = encode2to4(k);
    if (!sparse)
      return INFINITY;
    for (double v : sparse->values)
      valueBits.push_back(toHalfBits(v));
    indices.insert(indices.end(), sparse->indices.begin(),
                   sparse->indices.end());
  }
  int64_t numRows = rows.size();
  std::vector<uint32_t> words =
      tc.dense ? packTCCoefficients(kernelBits, numRows, l)
               : packSpTCCoefficients(valueBits, indices, numRows, l);
  SpTCCoefficientLayout layout{numRows};

  WgmmaSpGeometry geo;
  geo.rank = rank;
  geo.n = tc.n;
  geo.radiusY = r;
  geo.radiusZ = rank == 3 ? r : 0;
  geo.strips = tc.strips;

  // The input around the tile (f16-exact), indexed (z, y, x) from the
  // first output minus the radius.
  int64_t ny = geo.tileRows() + 2 * r + 8, nx = geo.blockWidth() + 2 * 16;
  int64_t nz = rank == 3 ? 2 * r + 1 : 1;
  std::vector<double> in(nz * ny * nx);
  for (double &v : in)
    v = dist(rng) / 64.0;
  int64_t oz = rank == 3 ? r : 0, oy = r + 4, ox = 16;
  auto input = [&](int64_t dz, int64_t y, int64_t x) {
    return in[((oz + dz) * ny + oy + y) * nx + ox + x];
  };

  // Staging: entry j of phase p is input row 4 j + p (relative to Y_0).
  std::vector<float> smem(geo.smemBytes() / 2, NAN);
  // B row k of strip k / 32 holds input x = 16 (k / 32) + off(k % 32).
  for (int64_t q = 0; q < geo.planes(); ++q)
    for (int64_t k = 0; k < geo.stagedK(); ++k)
      for (int64_t p = 0; p < 4; ++p)
        for (int64_t j = -geo.haloEntries(); j < geo.n + geo.haloEntries();
             ++j) {
          int64_t x =
              16 * (k / 32) + getStackedInputOffset(k % 32, l, inputOffsets);
          int64_t y = 4 * j + p;
          smem[geo.byteOffset(q, k, p, j) / 2] =
              std::abs(y) <= geo.tileRows() + r ? input(q - geo.radiusZ, y, x)
                                                : 0.0;
        }

  // The MMAs, accumulated as the kernel issues them, strip by strip.
  std::vector<std::vector<float>> d(
      geo.strips, std::vector<float>(kWarpgroupSize * tc.n / 2, 0.0f));
  bool mutated = false;
  for (int64_t q = 0; q < geo.planes(); ++q)
    for (int64_t s = geo.firstShift(); s < geo.firstShift() + geo.numShifts();
         ++s)
      for (int64_t strip = 0; strip < geo.strips; ++strip) {
        if (tc.dense) {
          // Two k16 halves: A words 4 h .. 4 h + 3, B from row 16 h.
          for (unsigned half = 0; half < 2; ++half) {
            WarpgroupFragmentsM64K16 frag = {};
            for (unsigned tid = 0; tid < kWarpgroupSize; ++tid) {
              unsigned warp = tid / 32, lane = tid % 32;
              int64_t o =
                  findKernelRow(rowOffsets, rank, q - geo.radiusZ, s - warp);
              for (unsigned i = 0; o >= 0 && i < 8; ++i)
                frag.a[tid][i] = fromHalfBits(
                    words[TCCoefficientLayout::word(o, lane, half, i / 2)] >>
                    (16 * (i % 2)));
            }
            WgmmaDescriptor desc = geo.getDescriptor(q, s, 0, strip, 16 * half);
            if (!mutated && s == 0 && strip == geo.strips - 1 && half == 1) {
              mutated = true;
              if (mutation == Mutation::DescriptorLBO)
                desc.leadingByteOffset += 16;
              if (mutation == Mutation::DescriptorStart)
                desc.startAddress += 16;
            }
            std::optional<uint64_t> bits = desc.encode();
            if (!bits || !simulateWgmmaM64NK16(frag, smem, *bits, tc.n,
                                               /*scaleD=*/true, d[strip]))
              return INFINITY;
          }
          continue;
        }
        WarpgroupFragmentsSpM64K32 frag = {};
        for (unsigned tid = 0; tid < kWarpgroupSize; ++tid) {
          unsigned warp = tid / 32, lane = tid % 32;
          int64_t o =
              findKernelRow(rowOffsets, rank, q - geo.radiusZ, s - warp);
          if (o < 0) {
            frag.meta[tid] = 0x44444444; // zeros at indices (0, 1)
            continue;
          }
          for (unsigned i = 0; i < 8; ++i)
            frag.a[tid][i] = fromHalfBits(
                words[SpTCCoefficientLayout::valueWord(o, lane, i / 2)] >>
                (16 * (i % 2)));
          frag.meta[tid] =
              words[layout.metadataWord(o, getSelectorZeroSourceLane(o, lane))];
        }
        WgmmaDescriptor desc = geo.getDescriptor(q, s, 0, strip);
        if (!mutated && s == 0 && strip == geo.strips - 1) {
          mutated = true;
          // Warp 1's first index of chunks 0 and 4 in rows g and g + 8.
          if (mutation == Mutation::MetadataBit)
            for (unsigned tid = 32; tid < 64; ++tid)
              frag.meta[tid] ^= 0x00010001u;
          if (mutation == Mutation::DescriptorLBO)
            desc.leadingByteOffset += 16;
          if (mutation == Mutation::DescriptorStart)
            desc.startAddress += 16;
        }
        std::optional<uint64_t> bits = desc.encode();
        if (!bits || !simulateWgmmaSpM64NK32(frag, smem, *bits, 0, tc.n,
                                             /*scaleD=*/true, d[strip]))
          return INFINITY;
      }

  // Warp w, D row i, column c of strip s: output (4 c + w, 16 s + i).
  double worst = 0;
  for (int64_t strip = 0; strip < geo.strips; ++strip)
    for (unsigned tid = 0; tid < kWarpgroupSize; ++tid)
      for (unsigned i = 0; i < tc.n / 2; ++i) {
        MatrixPos p = getWgmmaDPos(tid, i);
        int64_t y = 4 * p.col + tid / 32, x = 16 * strip + p.row % 16;
        double expected = 0, scale = 1e-30;
        for (int64_t dz = -geo.radiusZ; dz <= geo.radiusZ; ++dz)
          for (int64_t dy = -r; dy <= r; ++dy)
            for (int64_t dx = -r; dx <= r; ++dx) {
              int64_t at =
                  ((rank == 3 ? (dz + r) * side : 0) + dy + r) * side + dx + r;
              double term = box[at] * input(dz, y + dy, x + dx);
              expected += term;
              scale += std::fabs(term);
            }
        worst = std::max(
            worst, std::fabs(d[strip][tid * tc.n / 2 + i] - expected) / scale);
      }
  return worst;
}

TEST(WgmmaSpTiling, TileReproducesStencil) {
  // f32 accumulation of f16-exact products: a few f32 ulps of the absolute
  // sum.
  for (int64_t r = 1; r <= 7; ++r)
    for (int64_t n : {8, 64})
      EXPECT_LT(runTile({2, r, n, uint32_t(100 + r)}, Mutation::None), 1e-6)
          << "2-D r=" << r << " n=" << n;
  for (int64_t r = 1; r <= 2; ++r)
    EXPECT_LT(runTile({3, r, 16, uint32_t(200 + r)}, Mutation::None), 1e-6)
        << "3-D r=" << r;
  // Wider blocks: strip s reads B rows 32 s .. 32 s + 31.
  for (int64_t r : {1, 3, 7})
    for (int64_t strips : {2, 4})
      EXPECT_LT(runTile({2, r, 16, uint32_t(400 + r), strips}, Mutation::None),
                1e-6)
          << "2-D r=" << r << " strips=" << strips;
  EXPECT_LT(runTile({3, 1, 8, 501u, 2}, Mutation::None), 1e-6) << "3-D";
}

TEST(WgmmaSpTiling, DenseTileReproducesStencil) {
  // The dense row form on the same staged tile: the packed m16n8k16 A
  // words of --lower-to-tc are the warps' m64nNk16 A, two halves per
  // (plane, shift), the second from B row 16.
  for (int64_t r = 1; r <= 7; ++r)
    for (int64_t strips : {1, 2})
      EXPECT_LT(runTile({2, r, 16, uint32_t(600 + r), strips, /*dense=*/true},
                        Mutation::None),
                1e-6)
          << "2-D r=" << r << " strips=" << strips;
  EXPECT_LT(runTile({3, 1, 8, 701u, 1, /*dense=*/true}, Mutation::None), 1e-6)
      << "3-D";
  for (Mutation m : {Mutation::DescriptorLBO, Mutation::DescriptorStart})
    EXPECT_GT(runTile({2, 3, 16, 750u, 2, /*dense=*/true}, m), 1e-3)
        << "mutation " << int(m);
}

TEST(WgmmaSpTiling, MutationsAreCaught) {
  for (int64_t r : {1, 4, 7})
    for (Mutation m : {Mutation::MetadataBit, Mutation::DescriptorLBO,
                       Mutation::DescriptorStart})
      EXPECT_GT(runTile({2, r, 16, uint32_t(300 + r)}, m), 1e-3)
          << "r=" << r << " mutation " << int(m);
  // The last strip's descriptor broken.
  for (Mutation m : {Mutation::DescriptorLBO, Mutation::DescriptorStart})
    EXPECT_GT(runTile({2, 3, 16, 350u, 4}, m), 1e-3) << "mutation " << int(m);
}

/// The store staging (WgmmaSpTiling.h) as WgmmaSpKernel.cpp writes it: each
/// warp's accumulators of n-tiles j, j + 1 of strip s, paired into f16x2,
/// by one stmatrix .x4 .trans (.x2 for a last odd n-tile), lane l giving
/// the row c = 8 (j + (l / 8) / 2) + l % 8, x = 16 s + 8 ((l / 8) % 2). Every
/// output (c, x) must land at outputByteOffset(w, c, x), the 8 rows of each
/// matrix on distinct 16-byte bank groups, and nothing overlap the ring.
TEST(WgmmaSpTiling, StoreStagingPlacesEveryOutput) {
  for (int64_t n : {8, 16, 24, 32})
    for (int64_t strips : {1, 2, 4, 8}) {
      WgmmaSpGeometry geo;
      geo.n = n;
      geo.radiusY = 2;
      geo.strips = strips;
      // An output's code: its warp, grid row c and x in the block.
      auto code = [&](int64_t w, int64_t c, int64_t x) {
        return uint16_t((w * n + c) * geo.blockWidth() + x);
      };
      std::vector<uint16_t> smem(geo.smemBytes() / 2, 0xffff);
      for (int64_t w = 0; w < 4; ++w)
        for (int64_t strip = 0; strip < strips; ++strip)
          for (int64_t j = 0; j < n / 8; j += 2) {
            unsigned num = std::min<int64_t>(2, n / 8 - j) * 2;
            uint32_t regs[kWarpSize][4] = {};
            std::vector<uint64_t> addresses;
            for (unsigned lane = 0; lane < kWarpSize; ++lane) {
              // d_i of n-tile j + m / 2: (x = g + 8 ((i >> 1) & 1), c).
              for (unsigned m = 0; m < num; ++m) {
                int64_t i = 4 * (j + m / 2) + 2 * (m % 2);
                uint32_t packed = 0;
                for (int64_t e = 0; e < 2; ++e) {
                  MatrixPos p = getWgmmaDPos(32 * w + lane, i + e);
                  packed |= uint32_t(code(w, p.col, 16 * strip + p.row % 16))
                            << (16 * e);
                }
                regs[lane][m] = packed;
              }
              unsigned matrix = lane / 8;
              int64_t c = 8 * (j + matrix / 2) + lane % 8;
              addresses.push_back(geo.outputByteOffset(
                  w, std::min(c, n - 1), 16 * strip + 8 * (matrix % 2)));
            }
            ASSERT_TRUE(
                simulateStMatrix(regs, num, /*trans=*/true, addresses, smem));
            for (unsigned m = 0; m < num; ++m) {
              std::set<uint64_t> banks;
              for (unsigned row = 0; row < 8; ++row)
                banks.insert(addresses[8 * m + row] / 16 % 8);
              EXPECT_EQ(banks.size(), 8u) << "n=" << n << " strips=" << strips;
            }
          }
      for (int64_t i = 0; i < geo.outputBase() / 2; ++i)
        ASSERT_EQ(smem[i], 0xffff) << "the store staging overlaps the ring";
      for (int64_t w = 0; w < 4; ++w)
        for (int64_t c = 0; c < n; ++c)
          for (int64_t x = 0; x < geo.blockWidth(); ++x)
            ASSERT_EQ(smem[geo.outputByteOffset(w, c, x) / 2], code(w, c, x))
                << "n=" << n << " strips=" << strips << " w=" << w << " c=" << c
                << " x=" << x;
    }
}

TEST(WgmmaSpTiling, Geometry) {
  WgmmaSpGeometry geo;
  geo.n = 64;
  geo.radiusY = 7; // H = 2, J = 68
  EXPECT_EQ(geo.haloEntries(), 2);
  EXPECT_EQ(geo.phaseEntries(), 68);
  EXPECT_EQ(geo.numShifts(), 18);
  // Four chunks of 4 x 68 entries of 16 bytes, padded by 32 bytes each.
  EXPECT_EQ(geo.chunkBytes(), 4 * 68 * 16 + 32);
  EXPECT_EQ(geo.chunkBytes() % 128, 32);
  EXPECT_EQ(geo.tileBytes(), 4 * geo.chunkBytes());
  // The ring, then 4 x 64 output rows of 16 + 2 x 16 bytes.
  EXPECT_EQ(geo.outputPitch(), 48);
  EXPECT_EQ(geo.smemBytes(), 2 * geo.tileBytes() + 4 * 64 * 48);
  EXPECT_EQ(WgmmaSpGeometry::splitShift(-7),
            std::make_pair(int64_t(1), int64_t(-2)));
  EXPECT_EQ(WgmmaSpGeometry::splitShift(10),
            std::make_pair(int64_t(2), int64_t(2)));
  // Shift 5 starts at entry 1 of phase 1: byte (1 * 68 + 1 + 2) * 16.
  WgmmaDescriptor d = geo.getDescriptor(0, 5, 1024);
  EXPECT_EQ(d.startAddress, 1024u + (68 + 3) * 16);
  EXPECT_EQ(d.leadingByteOffset, 4u * 68 * 16 + 32);
  // Strip 2 of shift 5: 8 chunks further.
  EXPECT_EQ(geo.getDescriptor(0, 5, 1024, 2).startAddress,
            1024u + 8 * (4 * 68 * 16 + 32) + (68 + 3) * 16);
  // Two (four) buffers of 4 x (4 x (n + 4) x 16 + 32) bytes and 4 n rows
  // of 48 bytes.
  EXPECT_EQ(chooseWgmmaN(2, 7, 0, 256, 48 * 1024, 2, 1), 64);
  EXPECT_EQ(chooseWgmmaN(2, 7, 0, 256, 48 * 1024, 4, 1), 32);
  // Four strips: 16 chunks a plane, rows of 144 bytes.
  EXPECT_EQ(chooseWgmmaN(2, 7, 0, 256, 100 * 1024, 2, 4), 32);
  // 3-D r = 3: two buffers of 7 planes of 4 x (4 x (n + 2) x 16 + 32) bytes.
  EXPECT_EQ(chooseWgmmaN(3, 3, 3, 256, 48 * 1024, 2, 1), 8);
  EXPECT_EQ(getSelectorZeroSourceLane(3, 9), 11u);
  EXPECT_EQ(getSelectorZeroSourceLane(4, 11), 9u);
}

} // namespace
