//===- MmaModelTest.cpp - Dense mma.sync fragment model -------------------===//
//
// The dense fragment layouts cover each matrix exactly once, and two
// m16n8k16 MMAs fed with the B registers of the m16n8k32 mma.sp layout
// (b_0..b_3, then b_4..b_7) compute what the sparse MMA computes from the
// same (2:4) A: the dense Tensor Core kernel can reuse the SpTC kernel's B
// loads unchanged. (The A layouts are used both to fill and to read the
// registers here, so only the GPU kernels can refute them; the B and C
// layouts are checked against the independently written mma.sp model.)
//
//===----------------------------------------------------------------------===//

#include "stencil/Support/MmaModel.h"
#include "stencil/Support/SpTCPacking.h"

#include "gtest/gtest.h"

#include <cstring>
#include <random>
#include <set>

using namespace mlir::stencil;

namespace {

TEST(MmaModel, FragmentsCoverEachMatrixOnce) {
  std::set<std::pair<unsigned, unsigned>> a, b, a64, b64, c64;
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    for (unsigned i = 0; i < 8; ++i) {
      MatrixPos p = getAPosM16N8K16(lane, i);
      EXPECT_TRUE(a.insert({p.row, p.col}).second);
      EXPECT_LT(p.row, 16u);
      EXPECT_LT(p.col, 16u);
    }
    for (unsigned i = 0; i < 4; ++i) {
      MatrixPos p = getBPosM16N8K16(lane, i);
      EXPECT_TRUE(b.insert({p.row, p.col}).second);
      EXPECT_LT(p.row, 16u);
      EXPECT_LT(p.col, 8u);
      // b_i of m16n8k16 is b_i of the m16n8k32 layout (rows 0..15).
      MatrixPos q = getBPos(lane, i);
      EXPECT_EQ(p.row, q.row);
      EXPECT_EQ(p.col, q.col);
    }
    MatrixPos pa = getAPosM8N8K4(lane), pb = getBPosM8N8K4(lane);
    EXPECT_TRUE(a64.insert({pa.row, pa.col}).second);
    EXPECT_TRUE(b64.insert({pb.row, pb.col}).second);
    for (unsigned i = 0; i < 2; ++i) {
      MatrixPos pc = getCPosM8N8K4(lane, i);
      EXPECT_TRUE(c64.insert({pc.row, pc.col}).second);
    }
  }
  EXPECT_EQ(a.size(), 256u);
  EXPECT_EQ(b.size(), 128u);
  EXPECT_EQ(a64.size(), 32u);
  EXPECT_EQ(b64.size(), 32u);
  EXPECT_EQ(c64.size(), 64u);
}

TEST(MmaModel, TwoDenseMmasEqualOneSparseMma) {
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> small(-8, 8);
  for (int trial = 0; trial < 20; ++trial) {
    // A 2:4 dense A (two non-zeros per group of 4), B and C of small
    // integers: every sum is exact in f32, so results compare exactly.
    std::vector<float> denseA(16 * 32, 0.0f), b(32 * 8), c(16 * 8);
    for (unsigned r = 0; r < 16; ++r)
      for (unsigned g = 0; g < 8; ++g) {
        unsigned first = rng() % 4, second = (first + 1 + rng() % 3) % 4;
        denseA[r * 32 + 4 * g + first] = float(small(rng));
        denseA[r * 32 + 4 * g + second] = float(small(rng));
      }
    for (float &x : b)
      x = float(small(rng));
    for (float &x : c)
      x = float(small(rng));

    // The sparse MMA.
    std::vector<float> values;
    std::vector<uint8_t> indices;
    ASSERT_TRUE(compressTwoFour(denseA, values, indices));
    WarpFragmentsM16N8K32 sparse;
    packMmaSpM16N8K32(values, indices, b, c, /*selector=*/0, sparse);
    float dSparse[kWarpSize][4];
    simulateMmaSpM16N8K32(sparse, 0, dSparse);

    // Two dense MMAs: K = 0..15 then 16..31, the second accumulating onto
    // the first; B registers straight from the sparse layout.
    float a0[kWarpSize][8], a1[kWarpSize][8], b0[kWarpSize][4],
        b1[kWarpSize][4], d0[kWarpSize][4], d1[kWarpSize][4];
    for (unsigned lane = 0; lane < kWarpSize; ++lane) {
      for (unsigned i = 0; i < 8; ++i) {
        MatrixPos p = getAPosM16N8K16(lane, i);
        a0[lane][i] = denseA[p.row * 32 + p.col];
        a1[lane][i] = denseA[p.row * 32 + 16 + p.col];
      }
      for (unsigned i = 0; i < 4; ++i) {
        b0[lane][i] = sparse.b[lane][i];
        b1[lane][i] = sparse.b[lane][4 + i];
      }
    }
    simulateMmaM16N8K16(a0, b0, sparse.c, d0);
    simulateMmaM16N8K16(a1, b1, d0, d1);
    for (unsigned lane = 0; lane < kWarpSize; ++lane)
      for (unsigned i = 0; i < 4; ++i)
        EXPECT_EQ(d1[lane][i], dSparse[lane][i]) << "lane " << lane;
  }
}

TEST(MmaModel, M8N8K4Float64) {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  double am[8][4], bm[4][8], a[kWarpSize], b[kWarpSize], c[kWarpSize][2],
      d[kWarpSize][2];
  for (auto &row : am)
    for (double &x : row)
      x = dist(rng);
  for (auto &row : bm)
    for (double &x : row)
      x = dist(rng);
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    MatrixPos pa = getAPosM8N8K4(lane), pb = getBPosM8N8K4(lane);
    a[lane] = am[pa.row][pa.col];
    b[lane] = bm[pb.row][pb.col];
    c[lane][0] = c[lane][1] = 0.5;
  }
  simulateMmaM8N8K4(a, b, c, d);
  for (unsigned lane = 0; lane < kWarpSize; ++lane)
    for (unsigned i = 0; i < 2; ++i) {
      MatrixPos q = getCPosM8N8K4(lane, i);
      double expected = 0.5;
      for (unsigned k = 0; k < 4; ++k)
        expected += am[q.row][k] * bm[k][q.col];
      EXPECT_NEAR(d[lane][i], expected, 1e-15);
    }
}

/// The f64 Tensor Core form (TCF64CoefficientLayout): for two n-tiles of 8
/// outputs, the K-chunks q = 2j + c of the input rows (A, loaded as the
/// kernel loads them) times the packed weights of chunk c (B), accumulated
/// chunk after chunk, equal the 1-D stencil row of asymmetric weights.
TEST(MmaModel, TCF64ChunksComputeTheStencilRow) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  for (int64_t r : {1, 2, 3, 4, 7}) {
    const int64_t numRows = 2, nTiles = 2;
    TCF64CoefficientLayout layout{numRows, r};
    const int64_t chunks = layout.numChunks();
    ASSERT_GE(4 * chunks, 8 + 2 * r);
    std::vector<double> weights(numRows * (2 * r + 1));
    for (double &w : weights)
      w = dist(rng);
    std::vector<uint32_t> words = packTCF64Coefficients(weights, numRows, r);
    ASSERT_EQ(static_cast<int64_t>(words.size()), layout.size());
    // 8 rows of inputs from x_0 - r; the chunks of the last n-tile reach
    // past 8 n-tiles + 2r (those inputs must get zero weight).
    const int64_t width = 8 * (nTiles - 1) + 4 * chunks;
    std::vector<std::vector<double>> in(8, std::vector<double>(width));
    for (auto &row : in)
      for (double &x : row)
        x = dist(rng);
    for (int64_t o = 0; o < numRows; ++o)
      for (int64_t j = 0; j < nTiles; ++j) {
        double c[kWarpSize][2] = {}, d[kWarpSize][2];
        for (int64_t chunk = 0; chunk < chunks; ++chunk) {
          double a[kWarpSize], b[kWarpSize];
          for (unsigned lane = 0; lane < kWarpSize; ++lane) {
            MatrixPos pa = getAPosM8N8K4(lane);
            a[lane] = in[pa.row][4 * (2 * j + chunk) + pa.col];
            uint64_t bits =
                uint64_t(words[layout.word(o, chunk, lane)]) |
                uint64_t(words[layout.word(o, chunk, lane) + 1]) << 32;
            std::memcpy(&b[lane], &bits, sizeof(double));
          }
          simulateMmaM8N8K4(a, b, c, d);
          std::memcpy(c, d, sizeof(c));
        }
        for (unsigned lane = 0; lane < kWarpSize; ++lane)
          for (unsigned i = 0; i < 2; ++i) {
            MatrixPos q = getCPosM8N8K4(lane, i);
            double expected = 0;
            for (int64_t dx = -r; dx <= r; ++dx)
              expected += weights[o * (2 * r + 1) + dx + r] *
                          in[q.row][r + 8 * j + q.col + dx];
            EXPECT_NEAR(c[lane][i], expected, 1e-14)
                << "r " << r << " row " << o << " n-tile " << j << " lane "
                << lane;
          }
      }
  }
}

} // namespace
