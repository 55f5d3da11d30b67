//===- SpTCPackingTest.cpp - Packed coefficients through the mma.sp model -===//
//
// The CPU model of the warp-level mma.sp data path (MmaSpModel.h) is fed with
// the coefficient words the compiler packs, and with B operands gathered
// through getStackedInputOffset, exactly as the GPU kernel loads them; the
// accumulators must equal the 1-D stencil rows computed directly.
//
//===----------------------------------------------------------------------===//

#include "stencil/Support/MmaModel.h"
#include "stencil/Support/MmaSpModel.h"
#include "stencil/Support/SpTCPacking.h"
#include "stencil/Support/SparseKernel.h"

#include "HalfBits.h"
#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <random>

using namespace mlir::stencil;
using mlir::stencil::test::fromHalfBits;
using mlir::stencil::test::toHalfBits;

namespace {

/// The smallest even divisor of 16 that is at least 2r + 2 (the default of
/// --stencil-decompose).
int64_t rowsPerBlockFor(int64_t r) {
  for (int64_t l = 2; l <= 16; l *= 2)
    if (l >= 2 * r + 2)
      return l;
  return 0;
}

/// One kernel row, swapped and encoded as --stencil-encode-2to4 does.
struct EncodedRow {
  std::vector<double> weights; // f16-exact
  std::vector<uint16_t> values;
  std::vector<uint8_t> indices;
};

EncodedRow encodeRow(std::mt19937 &rng, int64_t r, int64_t l,
                     llvm::ArrayRef<int64_t> perm) {
  std::uniform_int_distribution<int> dist(-64, 64);
  EncodedRow row;
  for (int64_t j = 0; j <= 2 * r; ++j)
    row.weights.push_back(dist(rng) / 64.0);
  KernelMatrix k = permuteColumns(buildBandedKernelMatrix(row.weights, l, 2 * l),
                                  perm);
  std::optional<Sparse24Matrix> sparse = encode2to4(k);
  EXPECT_TRUE(sparse.has_value());
  for (double v : sparse->values)
    row.values.push_back(toHalfBits(v));
  row.indices = sparse->indices;
  return row;
}

TEST(SpTCPacking, PackedKernelThroughMmaSpModel) {
  std::mt19937 rng(1234);
  std::uniform_int_distribution<int> inputDist(-128, 128);
  for (int64_t r = 1; r <= 7; ++r) {
    int64_t l = rowsPerBlockFor(r);
    llvm::SmallVector<int64_t> perm = stridedSwapPermutation(l, 2 * l);
    std::vector<int64_t> inputOffsets;
    for (int64_t p : perm)
      inputOffsets.push_back(p - r);

    // Two kernel rows, so both sparsity selectors and the shared metadata
    // word are exercised.
    EncodedRow rows[2] = {encodeRow(rng, r, l, perm),
                          encodeRow(rng, r, l, perm)};
    std::vector<uint16_t> values(rows[0].values);
    values.insert(values.end(), rows[1].values.begin(), rows[1].values.end());
    std::vector<uint8_t> indices(rows[0].indices);
    indices.insert(indices.end(), rows[1].indices.begin(),
                   rows[1].indices.end());
    std::vector<uint32_t> words = packSpTCCoefficients(values, indices, 2, l);
    SpTCCoefficientLayout layout{2};
    ASSERT_EQ(static_cast<int64_t>(words.size()), layout.size());

    for (int64_t o = 0; o < 2; ++o) {
      // Eight independent input rows (the MMA's N columns), with a halo of
      // r + 2L on both sides, f16-exact values.
      const int64_t pad = r + 2 * l;
      std::vector<std::vector<double>> x(8);
      for (auto &row : x)
        for (int64_t i = 0; i < 16 + 2 * pad; ++i)
          row.push_back(inputDist(rng) / 128.0);

      WarpFragmentsM16N8K32 frag = {};
      for (unsigned lane = 0; lane < kWarpSize; ++lane) {
        for (unsigned i = 0; i < 8; ++i) {
          uint32_t word = words[SpTCCoefficientLayout::valueWord(o, lane, i / 2)];
          frag.a[lane][i] = fromHalfBits(word >> (16 * (i % 2)));
          MatrixPos b = getBPos(lane, i);
          int64_t offset = getStackedInputOffset(b.row, l, inputOffsets);
          frag.b[lane][i] = x[b.col][pad + offset];
        }
        frag.meta[lane] = words[layout.metadataWord(o, lane)];
      }
      for (unsigned lane = 0; lane < kWarpSize; ++lane)
        EXPECT_TRUE(isOrderedMetadataWord(frag.meta[lane]))
            << "r=" << r << " lane " << lane;

      float d[kWarpSize][4];
      simulateMmaSpM16N8K32(frag, o % 2, d);
      std::vector<float> out = unpackAccumulatorM16N8K32(d);
      for (int64_t m = 0; m < 16; ++m) {
        for (int64_t n = 0; n < 8; ++n) {
          double expected = 0.0, scale = 0.0;
          for (int64_t j = 0; j <= 2 * r; ++j) {
            double term = rows[o].weights[j] * x[n][pad + m - r + j];
            expected += term;
            scale += std::fabs(term);
          }
          EXPECT_NEAR(out[m * 8 + n], expected, 1e-6 * (scale + 1e-30))
              << "r=" << r << " kernel row " << o << " output " << m
              << " column " << n;
        }
      }
    }
  }
}

TEST(SpTCPacking, DenseKernelThroughMmaModel) {
  // The dense Tensor Core form (--lower-to-tc): unswapped banded kernels,
  // packed for two m16n8k16 MMAs fed with the B registers of the m16n8k32
  // layout, reproduce the stencil rows exactly (f16-exact data).
  std::mt19937 rng(99);
  std::uniform_int_distribution<int> dist(-64, 64), inputDist(-128, 128);
  for (int64_t r = 1; r <= 7; ++r) {
    int64_t l = rowsPerBlockFor(r);
    std::vector<double> weights[2];
    std::vector<uint16_t> bits;
    for (auto &row : weights) {
      for (int64_t j = 0; j <= 2 * r; ++j)
        row.push_back(dist(rng) / 64.0);
      KernelMatrix k = buildBandedKernelMatrix(row, l, 2 * l);
      for (double v : k.data)
        bits.push_back(toHalfBits(v));
    }
    std::vector<uint32_t> words = packTCCoefficients(bits, 2, l);
    ASSERT_EQ(static_cast<int64_t>(words.size()), TCCoefficientLayout::size(2));
    std::vector<int64_t> identity;
    for (int64_t c = 0; c < 2 * l; ++c)
      identity.push_back(c - r);

    for (int64_t o = 0; o < 2; ++o) {
      const int64_t pad = r + 2 * l;
      std::vector<std::vector<double>> x(8);
      for (auto &row : x)
        for (int64_t i = 0; i < 16 + 2 * pad; ++i)
          row.push_back(inputDist(rng) / 128.0);
      float a[2][kWarpSize][8], b[2][kWarpSize][4], zero[kWarpSize][4] = {},
                                                      d0[kWarpSize][4],
                                                      d1[kWarpSize][4];
      for (unsigned lane = 0; lane < kWarpSize; ++lane)
        for (unsigned i = 0; i < 8; ++i) {
          for (unsigned half = 0; half < 2; ++half) {
            uint32_t word =
                words[TCCoefficientLayout::word(o, lane, half, i / 2)];
            a[half][lane][i] = fromHalfBits(word >> (16 * (i % 2)));
          }
          // b_i of the m16n8k32 layout: b_0..b_3 feed the first MMA,
          // b_4..b_7 the second.
          MatrixPos p = getBPos(lane, i);
          b[i / 4][lane][i % 4] =
              x[p.col][pad + getStackedInputOffset(p.row, l, identity)];
        }
      simulateMmaM16N8K16(a[0], b[0], zero, d0);
      simulateMmaM16N8K16(a[1], b[1], d0, d1);
      std::vector<float> out = unpackAccumulatorM16N8K32(d1);
      for (int64_t m = 0; m < 16; ++m)
        for (int64_t n = 0; n < 8; ++n) {
          double expected = 0.0;
          for (int64_t j = 0; j <= 2 * r; ++j)
            expected += weights[o][j] * x[n][pad + m - r + j];
          EXPECT_NEAR(out[m * 8 + n], expected, 1e-6 * (std::fabs(expected) + 1))
              << "r=" << r << " row " << o << " output " << m << " column "
              << n;
        }
    }
  }
}

TEST(SpTCPacking, StackedOperandIsBlockDiagonal) {
  // L = 4: four 4 x 8 blocks on the diagonal of the 16 x 32 operand.
  std::vector<uint16_t> values(16, 0);
  std::vector<uint8_t> indices(16, 0);
  for (int i = 0; i < 16; ++i) {
    values[i] = 100 + i;
    indices[i] = i % 2 ? 3 : 1;
  }
  std::vector<uint16_t> stacked;
  std::vector<uint8_t> stackedIndices;
  buildStackedOperand(values, indices, 0, 4, stacked, stackedIndices);
  for (int block = 0; block < 4; ++block)
    for (int i = 0; i < 4; ++i)
      for (int cc = 0; cc < 16; ++cc) {
        int row = block * 4 + i;
        bool inside = cc >= block * 4 && cc < block * 4 + 4;
        uint16_t expected = inside ? 100 + i * 4 + (cc - block * 4) : 0;
        EXPECT_EQ(stacked[row * 16 + cc], expected);
        EXPECT_EQ(stackedIndices[row * 16 + cc],
                  inside ? (cc % 2 ? 3 : 1) : cc % 2);
      }
}

TEST(SpTCPacking, InputOffsets) {
  // L = 4, r = 1, even swap: perm = [4, 1, 6, 3, 0, 5, 2, 7].
  std::vector<int64_t> offsets = {3, 0, 5, 2, -1, 4, 1, 6};
  EXPECT_EQ(getStackedInputOffset(0, 4, offsets), 3);
  EXPECT_EQ(getStackedInputOffset(4, 4, offsets), -1);
  EXPECT_EQ(getStackedInputOffset(8, 4, offsets), 4 + 3);
  EXPECT_EQ(getStackedInputOffset(31, 4, offsets), 12 + 6);
}

TEST(SpTCPacking, BOperandPlan) {
  for (int64_t r = 1; r <= 7; ++r) {
    int64_t l = rowsPerBlockFor(r);
    for (bool paired : {true, false}) {
      // The decomposition --stencil-decompose and --stencil-strided-swap
      // produce: the paired swap with the band shifted by r mod 2, or
      // SPIDER's element-wise swap unshifted.
      int64_t shift = paired ? r % 2 : 0;
      llvm::SmallVector<int64_t> perm =
          paired ? pairedSwapPermutation(l) : stridedSwapPermutation(l, 2 * l);
      std::vector<int64_t> offsets;
      for (int64_t p : perm)
        offsets.push_back(p - r - shift);
      for (int64_t rank = 1; rank <= 3; ++rank) {
        const int64_t tile = rank == 1 ? 2048 : 64;
        SpTCBOperandPlan plan = planSpTCBOperand(offsets, l, rank, tile);
        EXPECT_EQ(plan.paired, paired) << "r=" << r;
        EXPECT_EQ(plan.pad % 8, 0);
        EXPECT_EQ(plan.pitch % 8, 0);
        // The real band [-r, 15 + r] is inside the row.
        EXPECT_GE(plan.pad, r);
        int64_t dxMax = 0;
        for (unsigned i = 0; i < 8; ++i)
          for (unsigned t = 0; t < 4; ++t) {
            int64_t dx = plan.dx[i][t];
            dxMax = std::max(dxMax, dx);
            EXPECT_EQ(dx, getStackedInputOffset(getBPos(t, i).row, l, offsets));
            // Every read of the first and the last MMA stays in the row.
            EXPECT_GE(plan.pad + dx, 0) << "r=" << r;
            EXPECT_LT(plan.pad + tile - 16 + dx, plan.pitch) << "r=" << r;
          }
        if (rank >= 2) {
          // The chosen pitch conflicts no more than the narrowest one.
          int64_t minPitch = (plan.pad + tile - 16 + dxMax + 1 + 7) / 8 * 8;
          EXPECT_GE(plan.pitch, minPitch);
          SpTCBOperandPlan plain = plan;
          plain.swizzleBit = 0;
          EXPECT_LE(countSpTCBankConflicts(plan, plan.pitch, rank),
                    countSpTCBankConflicts(plain, minPitch, rank));
          // With paired loads (four per warp, four warps) the swizzle
          // removes every bank conflict.
          if (paired) {
            EXPECT_EQ(countSpTCBankConflicts(plan, plan.pitch, rank), 16)
                << "r=" << r << " rank=" << rank;
          }
          // The swizzle keeps pairs adjacent and columns in their row.
          for (int64_t c = 0; c < plan.pitch; c += 2) {
            int64_t s = SpTCBOperandPlan::swizzle(c, plan.swizzleBit);
            EXPECT_EQ(s % 2, 0);
            EXPECT_EQ(SpTCBOperandPlan::swizzle(c + 1, plan.swizzleBit), s + 1);
            EXPECT_LT(s, plan.pitch);
            EXPECT_EQ(s / 8, c / 8);
          }
        }
      }
    }
  }
}

} // namespace

namespace {
float roundToHalf(float v) { return fromHalfBits(toHalfBits(v)); }
} // namespace

TEST(SpTCPacking, LowRankChainThroughMmaModel) {
  // The low-rank chain (LowRankColumnLayout): stage 1, the dense row form of
  // v_k on T-tiles p and p + 1 (8 input rows each, from y_0 - h), rounded
  // to f16; stage 2, one m16n8k16 with A = those accumulators in place and
  // B = the packed u_k. Sum_k of it is the 2-D stencil of W = Sum u_k v_k^T.
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> dist(-64, 64), inputDist(-128, 128);
  // The fragment identity the kernel relies on: a_i of m16n8k16 is c_{i%4}
  // of T-tile i / 4, the T rows being A's columns.
  for (unsigned lane = 0; lane < kWarpSize; ++lane)
    for (unsigned i = 0; i < 8; ++i) {
      MatrixPos a = getAPosM16N8K16(lane, i), c = getCPos(lane, i % 4);
      EXPECT_EQ(a.row, c.row);
      EXPECT_EQ(a.col, c.col + 8 * (i / 4));
    }
  for (int64_t h = 1; h <= LowRankColumnLayout::kMaxRadius; ++h) {
    const int64_t terms = 2, n = 2 * h + 1, l = rowsPerBlockFor(h);
    std::vector<double> u(terms * n), v(terms * n);
    for (double &w : u)
      w = dist(rng) / 64.0;
    for (double &w : v)
      w = dist(rng) / 64.0;
    std::vector<uint16_t> rowBits, uBits;
    for (int64_t k = 0; k < terms; ++k) {
      KernelMatrix m = buildBandedKernelMatrix(
          llvm::ArrayRef<double>(v).slice(k * n, n), l, 2 * l);
      for (double w : m.data)
        rowBits.push_back(toHalfBits(w));
    }
    for (double w : u)
      uBits.push_back(toHalfBits(w));
    std::vector<uint32_t> words = packTCCoefficients(rowBits, terms, l);
    std::vector<uint32_t> columnWords =
        packLowRankColumnWeights(uBits, terms, h);
    words.insert(words.end(), columnWords.begin(), columnWords.end());
    LowRankColumnLayout layout{terms};
    ASSERT_EQ(static_cast<int64_t>(words.size()), layout.size());
    std::vector<int64_t> identity;
    for (int64_t c = 0; c < 2 * l; ++c)
      identity.push_back(c - h);

    // 16 input rows from y_0 - h (two T-tiles), padded columns.
    const int64_t pad = h + 2 * l;
    std::vector<std::vector<double>> x(16);
    for (auto &row : x)
      for (int64_t i = 0; i < 16 + 2 * pad; ++i)
        row.push_back(inputDist(rng) / 128.0);

    float acc[kWarpSize][4] = {};
    double scale[16][8] = {};
    for (int64_t k = 0; k < terms; ++k) {
      // Stage 1 on T-tiles 0 and 1.
      float t[2][kWarpSize][4];
      for (int64_t p = 0; p < 2; ++p) {
        float a[2][kWarpSize][8], b[2][kWarpSize][4], zero[kWarpSize][4] = {},
                                                        d0[kWarpSize][4];
        for (unsigned lane = 0; lane < kWarpSize; ++lane)
          for (unsigned i = 0; i < 8; ++i) {
            for (unsigned half = 0; half < 2; ++half) {
              uint32_t word =
                  words[TCCoefficientLayout::word(k, lane, half, i / 2)];
              a[half][lane][i] = fromHalfBits(word >> (16 * (i % 2)));
            }
            MatrixPos pos = getBPos(lane, i);
            b[i / 4][lane][i % 4] = x[8 * p + pos.col]
                                     [pad + getStackedInputOffset(pos.row, l,
                                                                  identity)];
          }
        simulateMmaM16N8K16(a[0], b[0], zero, d0);
        simulateMmaM16N8K16(a[1], b[1], d0, t[p]);
      }
      // Stage 2: A = T in place, rounded to f16.
      float a2[kWarpSize][8], b2[kWarpSize][4], d[kWarpSize][4];
      for (unsigned lane = 0; lane < kWarpSize; ++lane) {
        for (unsigned i = 0; i < 8; ++i)
          a2[lane][i] = roundToHalf(t[i / 4][lane][i % 4]);
        for (unsigned i = 0; i < 4; ++i)
          b2[lane][i] =
              fromHalfBits(words[layout.word(k, lane, i / 2)] >> (16 * (i % 2)));
      }
      simulateMmaM16N8K16(a2, b2, acc, d);
      std::memcpy(acc, d, sizeof(acc));
      for (int64_t m = 0; m < 16; ++m)
        for (int64_t col = 0; col < 8; ++col)
          for (int64_t i = 0; i < n; ++i)
            for (int64_t j = 0; j < n; ++j)
              scale[m][col] += std::fabs(u[k * n + i] * v[k * n + j] *
                                         x[col + i][pad + m - h + j]);
    }
    std::vector<float> out = unpackAccumulatorM16N8K32(acc);
    for (int64_t m = 0; m < 16; ++m)
      for (int64_t col = 0; col < 8; ++col) {
        // Output row y_0 + col, column x_0 + m: the 2-D stencil of W.
        double expected = 0.0;
        for (int64_t i = 0; i < n; ++i)
          for (int64_t j = 0; j < n; ++j) {
            double w = 0.0;
            for (int64_t k = 0; k < terms; ++k)
              w += u[k * n + i] * v[k * n + j];
            expected += w * x[col + i][pad + m - h + j];
          }
        // T rounded to f16 once: at most 2^-11 of Sum_k |u_k| |T_k|.
        EXPECT_NEAR(out[m * 8 + col], expected,
                    std::ldexp(1.0, -11) * scale[m][col] + 1e-6)
            << "h=" << h << " output " << m << " row " << col;
      }
  }
}
