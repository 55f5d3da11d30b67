//===- MmaSpModelTest.cpp - Tests of the mma.sp warp data-path model ------===//

#include "stencil/Support/MmaSpModel.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <random>
#include <set>
#include <utility>

using namespace mlir::stencil;

namespace {

/// Small multiples of 1/4: exact in f16, and every sum of products of them in
/// this test is exact in f32, so results can be compared with ==.
float randomValue(std::mt19937 &rng) {
  std::uniform_int_distribution<int> dist(-12, 12);
  int v = 0;
  while (v == 0)
    v = dist(rng);
  return v / 4.0f;
}

/// A random dense 16x32 A with a random 2:4 pattern per chunk: mostly two
/// non-zeros, some chunks with one (a placeholder is then needed) or none.
std::vector<float> randomTwoFourA(std::mt19937 &rng) {
  std::vector<float> a(kMmaSpM * kMmaSpK, 0.0f);
  std::uniform_int_distribution<int> kind(0, 9), pos(0, 3);
  for (unsigned row = 0; row < kMmaSpM; ++row) {
    for (unsigned chunk = 0; chunk < kMmaSpK / 4; ++chunk) {
      int k = kind(rng);
      unsigned nonZeros = k < 6 ? 2 : (k < 8 ? 1 : 0);
      std::set<int> cols;
      while (cols.size() < nonZeros)
        cols.insert(pos(rng));
      for (int col : cols)
        a[row * kMmaSpK + 4 * chunk + col] = randomValue(rng);
    }
  }
  return a;
}

std::vector<float> randomDense(std::mt19937 &rng, unsigned size) {
  std::vector<float> m(size);
  for (float &v : m)
    v = randomValue(rng);
  return m;
}

std::vector<float> referenceMma(const std::vector<float> &a,
                                const std::vector<float> &b,
                                const std::vector<float> &c) {
  std::vector<float> d(kMmaSpM * kMmaSpN);
  for (unsigned m = 0; m < kMmaSpM; ++m)
    for (unsigned n = 0; n < kMmaSpN; ++n) {
      double sum = c[m * kMmaSpN + n];
      for (unsigned k = 0; k < kMmaSpK; ++k)
        sum += double(a[m * kMmaSpK + k]) * b[k * kMmaSpN + n];
      d[m * kMmaSpN + n] = static_cast<float>(sum);
    }
  return d;
}

struct Problem {
  std::vector<float> a, b, c, values;
  std::vector<uint8_t> indices;
};

Problem makeProblem(std::mt19937 &rng) {
  Problem p;
  p.a = randomTwoFourA(rng);
  p.b = randomDense(rng, kMmaSpK * kMmaSpN);
  p.c = randomDense(rng, kMmaSpM * kMmaSpN);
  bool ok = compressTwoFour(p.a, p.values, p.indices);
  EXPECT_TRUE(ok);
  return p;
}

std::vector<float> run(const WarpFragmentsM16N8K32 &frag, unsigned selector) {
  float d[kWarpSize][4];
  simulateMmaSpM16N8K32(frag, selector, d);
  return unpackAccumulatorM16N8K32(d);
}

TEST(MmaSpModel, LayoutsAreBijections) {
  std::set<std::pair<unsigned, unsigned>> a, b, c, meta;
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    for (unsigned i = 0; i < 8; ++i) {
      MatrixPos pa = getACompressedPos(lane, i), pb = getBPos(lane, i);
      EXPECT_TRUE(a.insert({pa.row, pa.col}).second);
      EXPECT_TRUE(b.insert({pb.row, pb.col}).second);
    }
    for (unsigned i = 0; i < 4; ++i) {
      MatrixPos pc = getCPos(lane, i);
      EXPECT_TRUE(c.insert({pc.row, pc.col}).second);
    }
  }
  EXPECT_EQ(a.size(), kMmaSpM * kMmaSpKCompressed);
  EXPECT_EQ(b.size(), kMmaSpK * kMmaSpN);
  EXPECT_EQ(c.size(), kMmaSpM * kMmaSpN);
  for (unsigned selector = 0; selector < 2; ++selector) {
    meta.clear();
    for (unsigned row = 0; row < kMmaSpM; ++row)
      for (unsigned cc = 0; cc < kMmaSpKCompressed; ++cc) {
        MetadataSlot s = getMetadataSlot(row, cc, selector);
        EXPECT_EQ(s.lane % 4 / 2, selector);
        EXPECT_EQ(s.bit % 2, 0u);
        EXPECT_TRUE(meta.insert({s.lane, s.bit}).second);
      }
    // 16 lanes x 16 two-bit slots: the selected pairs' words are full.
    EXPECT_EQ(meta.size(), 16u * 16u);
  }
}

TEST(MmaSpModel, IsaSpotChecks) {
  // Lane 5: groupID 1, threadID_in_group 1.
  MatrixPos a5 = getACompressedPos(5, 5); // row g, dense chunk 4t+16 = 20..23
  EXPECT_EQ(a5.row, 1u);
  EXPECT_EQ(a5.col, 11u); // second kept value of chunk 5
  MatrixPos a6 = getACompressedPos(5, 6);
  EXPECT_EQ(a6.row, 9u);
  EXPECT_EQ(a6.col, 10u);
  MatrixPos b7 = getBPos(5, 7);
  EXPECT_EQ(b7.row, 27u);
  EXPECT_EQ(b7.col, 1u);
  MatrixPos c3 = getCPos(5, 3);
  EXPECT_EQ(c3.row, 9u);
  EXPECT_EQ(c3.col, 3u);
  // Row 9, dense columns 20..23 (chunk 5): selector 1 -> lanes 6/7, second
  // lane (columns 16..31), upper half-word (row g + 8), nibble 1.
  MetadataSlot s = getMetadataSlot(9, 11, 1);
  EXPECT_EQ(s.lane, 7u);
  EXPECT_EQ(s.bit, 16u + 4u + 2u);
}

TEST(MmaSpModel, CompressExpandRoundTrip) {
  std::mt19937 rng(1234);
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<float> a = randomTwoFourA(rng);
    std::vector<float> values;
    std::vector<uint8_t> indices;
    ASSERT_TRUE(compressTwoFour(a, values, indices));
    for (unsigned k = 0; k < indices.size(); k += 2)
      EXPECT_LT(indices[k], indices[k + 1]);
    EXPECT_EQ(expandTwoFour(values, indices), a);
  }
  std::vector<float> tooDense(kMmaSpM * kMmaSpK, 1.0f);
  std::vector<float> values;
  std::vector<uint8_t> indices;
  EXPECT_FALSE(compressTwoFour(tooDense, values, indices));
}

TEST(MmaSpModel, PackSimulateUnpackMatchesDense) {
  std::mt19937 rng(20240607);
  for (unsigned selector = 0; selector < 2; ++selector) {
    for (int trial = 0; trial < 50; ++trial) {
      Problem p = makeProblem(rng);
      WarpFragmentsM16N8K32 frag;
      packMmaSpM16N8K32(p.values, p.indices, p.b, p.c, selector, frag);
      EXPECT_EQ(run(frag, selector), referenceMma(p.a, p.b, p.c))
          << "selector " << selector << " trial " << trial;
      // Increasing indices: the words are valid `::ordered_metadata` too.
      for (unsigned lane = 0; lane < kWarpSize; ++lane) {
        if (lane % 4 / 2 == selector) {
          EXPECT_TRUE(isOrderedMetadataWord(frag.meta[lane]));
        }
      }
    }
  }
}

TEST(MmaSpModel, UnselectedLanesAreIgnored) {
  std::mt19937 rng(7);
  Problem p = makeProblem(rng);
  WarpFragmentsM16N8K32 frag;
  packMmaSpM16N8K32(p.values, p.indices, p.b, p.c, /*selector=*/1, frag);
  std::vector<float> expected = referenceMma(p.a, p.b, p.c);
  for (unsigned lane = 0; lane < kWarpSize; ++lane)
    if (lane % 4 < 2)
      frag.meta[lane] = 0xDEADBEEFu;
  EXPECT_EQ(run(frag, 1), expected);
}

TEST(MmaSpModel, WrongLayoutsAreDetected) {
  std::mt19937 rng(99);
  Problem p = makeProblem(rng);
  std::vector<float> expected = referenceMma(p.a, p.b, p.c);
  WarpFragmentsM16N8K32 good;
  packMmaSpM16N8K32(p.values, p.indices, p.b, p.c, /*selector=*/0, good);
  ASSERT_EQ(run(good, 0), expected);

  // Metadata in the other lane of the pair (columns 0..15 <-> 16..31).
  WarpFragmentsM16N8K32 swappedPair = good;
  for (unsigned g = 0; g < 8; ++g)
    std::swap(swappedPair.meta[4 * g], swappedPair.meta[4 * g + 1]);
  EXPECT_NE(run(swappedPair, 0), expected);

  // Half-words swapped (rows g <-> g + 8).
  WarpFragmentsM16N8K32 swappedRows = good;
  for (uint32_t &w : swappedRows.meta)
    w = (w >> 16) | (w << 16);
  EXPECT_NE(run(swappedRows, 0), expected);

  // The two 2-bit indices of each nibble exchanged (values left in place).
  WarpFragmentsM16N8K32 swappedIdx = good;
  for (uint32_t &w : swappedIdx.meta)
    w = ((w & 0x33333333u) << 2) | ((w >> 2) & 0x33333333u);
  EXPECT_NE(run(swappedIdx, 0), expected);

  // Packed for selector 0 but executed with selector 1 (zero metadata there).
  EXPECT_NE(run(good, 1), expected);

  // A registers with a2/a3 and a4/a5 exchanged (row g + 8 <-> K columns
  // 16..31 mixed up).
  WarpFragmentsM16N8K32 swappedA = good;
  for (auto &lane : swappedA.a) {
    std::swap(lane[2], lane[4]);
    std::swap(lane[3], lane[5]);
  }
  EXPECT_NE(run(swappedA, 0), expected);
}

TEST(MmaSpModel, OrderedMetadataWords) {
  EXPECT_TRUE(isOrderedMetadataWord(0x4444444Eu));
  EXPECT_TRUE(isOrderedMetadataWord(0xEDC984E4u));
  EXPECT_FALSE(isOrderedMetadataWord(0x44444441u)); // 1 then 0: unordered
  EXPECT_FALSE(isOrderedMetadataWord(0x44444440u)); // 0, 0: invalid
  EXPECT_FALSE(isOrderedMetadataWord(0u));
}

} // namespace
