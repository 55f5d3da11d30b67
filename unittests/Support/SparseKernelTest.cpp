//===- SparseKernelTest.cpp - Tests of the SPIDER kernel math -------------===//

#include "stencil/Support/SparseKernel.h"

#include "gtest/gtest.h"

#include <cmath>
#include <random>

using namespace mlir::stencil;

namespace {

constexpr int64_t kMaxRadius = 7;

std::vector<double> randomVector(size_t size, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  std::vector<double> v(size);
  for (double &x : v)
    x = dist(gen);
  return v;
}

/// Tolerance for a sum of `terms` products of magnitude <= `scale`.
double tolerance(double scale) { return 1e-12 * std::max(1.0, scale); }

double absSum(llvm::ArrayRef<double> v) {
  double sum = 0.0;
  for (double x : v)
    sum += std::abs(x);
  return sum;
}

/// The input X of a kernel row: `cols` rows of `xCols` random values, the
/// rows from 2r + L on (the padding) zero.
std::vector<double> randomInput(int64_t used, int64_t cols, int64_t xCols,
                                unsigned seed) {
  std::vector<double> x = randomVector(cols * xCols, seed);
  std::fill(x.begin() + used * xCols, x.end(), 0.0);
  return x;
}

TEST(SparseKernel, BandedMatrixIsOneDimensionalStencil) {
  for (int64_t r = 1; r <= kMaxRadius; ++r) {
    int64_t l = 2 * r + 2, cols = 2 * l, xCols = 5;
    std::vector<double> w = randomVector(2 * r + 1, 100 + r);
    KernelMatrix k = buildBandedKernelMatrix(w, l, cols);
    ASSERT_EQ(k.rows, l);
    ASSERT_EQ(k.cols, cols);
    // Padding columns are zero.
    for (int64_t i = 0; i < l; ++i)
      for (int64_t c = 2 * r + l; c < cols; ++c)
        EXPECT_EQ(k.at(i, c), 0.0);

    std::vector<double> x = randomInput(2 * r + l, cols, xCols, 200 + r);
    std::vector<double> y = multiply(k, x, xCols);
    for (int64_t i = 0; i < l; ++i) {
      for (int64_t c = 0; c < xCols; ++c) {
        double expected = 0.0;
        for (int64_t j = 0; j <= 2 * r; ++j)
          expected += w[j] * x[(i + j) * xCols + c];
        EXPECT_NEAR(y[i * xCols + c], expected, tolerance(absSum(w)))
            << "r=" << r << " i=" << i << " c=" << c;
      }
    }
  }
}

TEST(SparseKernel, MinRowsPerBlockIsTwoRPlusTwo) {
  for (int64_t r = 0; r <= kMaxRadius; ++r)
    EXPECT_EQ(getMinRowsPerBlock(r), 2 * r + 2);
}

// The default L divides the 16 rows of the mma.sp operand: the smallest
// even divisor at least 2r + 2 (so 8 for r = 2, where 2r + 2 = 6 does not
// divide 16), none above r = 7.
TEST(SparseKernel, ChooseRowsPerBlockDividesTheOperand) {
  const int64_t expected[] = {2, 4, 8, 8, 16, 16, 16, 16};
  for (int64_t r = 0; r <= 7; ++r) {
    int64_t l = chooseRowsPerBlock(r);
    EXPECT_EQ(l, expected[r]) << "r = " << r;
    EXPECT_EQ(16 % l, 0);
    EXPECT_GE(l, getMinRowsPerBlock(r));
  }
  EXPECT_EQ(chooseRowsPerBlock(8), 0);
  EXPECT_EQ(chooseRowsPerBlock(2, /*operandRows=*/12), 6);
}

/// Exhaustive check of which L and parity the strided swap turns into 2:4:
/// every even L >= 2r + 2 with either parity, so L = 2r + 2 for every radius.
TEST(SparseKernel, StridedSwapGives2to4ForEveryEvenL) {
  for (int64_t r = 1; r <= kMaxRadius; ++r) {
    std::vector<double> w = randomVector(2 * r + 1, 300 + r);
    for (int64_t l = 2 * r + 2; l <= 2 * r + 12; l += 2) {
      for (SwapParity parity : {SwapParity::Even, SwapParity::Odd}) {
        KernelMatrix k = buildBandedKernelMatrix(w, l, 2 * l);
        KernelMatrix swapped =
            permuteColumns(k, stridedSwapPermutation(l, 2 * l, parity));
        std::string why;
        EXPECT_TRUE(satisfies2to4(swapped, &why))
            << "r=" << r << " L=" << l << " parity=" << int(parity) << ": "
            << why;
      }
    }
    // Below 2r + 2 the matrix is denser than half and cannot be 2:4.
    int64_t l = 2 * r;
    KernelMatrix k = buildBandedKernelMatrix(w, l, 2 * l);
    EXPECT_FALSE(satisfies2to4(
        permuteColumns(k, stridedSwapPermutation(l, 2 * l))));
  }
}

TEST(SparseKernel, PermutationIsStridedInvolution) {
  // L = 6 (r = 2), even parity: columns 0, 2, 4 swap with 6, 8, 10.
  llvm::SmallVector<int64_t> perm = stridedSwapPermutation(6, 12);
  std::vector<int64_t> expected = {6, 1, 8, 3, 10, 5, 0, 7, 2, 9, 4, 11};
  EXPECT_EQ(std::vector<int64_t>(perm.begin(), perm.end()), expected);
  llvm::SmallVector<int64_t> odd = stridedSwapPermutation(6, 12,
                                                          SwapParity::Odd);
  std::vector<int64_t> expectedOdd = {0, 7, 2, 9, 4, 11, 6, 1, 8, 3, 10, 5};
  EXPECT_EQ(std::vector<int64_t>(odd.begin(), odd.end()), expectedOdd);
  for (int64_t r = 1; r <= kMaxRadius; ++r) {
    int64_t l = getMinRowsPerBlock(r);
    llvm::SmallVector<int64_t> p = stridedSwapPermutation(l, 2 * l);
    for (int64_t i = 0; i < 2 * l; ++i) {
      EXPECT_EQ(p[p[i]], i);
      EXPECT_EQ(swappedInputRow(i, l), p[i]);
    }
  }
}

TEST(SparseKernel, SwapEncodeDecodeKeepsProduct) {
  for (int64_t r = 1; r <= kMaxRadius; ++r) {
    int64_t l = getMinRowsPerBlock(r), cols = 2 * l, xCols = 8;
    std::vector<double> w = randomVector(2 * r + 1, 400 + r);
    KernelMatrix k = buildBandedKernelMatrix(w, l, cols);
    llvm::SmallVector<int64_t> perm = stridedSwapPermutation(l, cols);
    KernelMatrix swapped = permuteColumns(k, perm);
    ASSERT_TRUE(satisfies2to4(swapped)) << "r=" << r;

    // Swapping the rows of X the same way keeps K * X.
    std::vector<double> x = randomInput(2 * r + l, cols, xCols, 500 + r);
    std::vector<double> xSwapped = permuteRows(x, cols, xCols, perm);
    std::vector<double> y = multiply(k, x, xCols);
    std::vector<double> ySwapped = multiply(swapped, xSwapped, xCols);
    for (size_t i = 0; i < y.size(); ++i)
      EXPECT_NEAR(ySwapped[i], y[i], tolerance(absSum(w))) << "r=" << r;

    std::optional<Sparse24Matrix> sparse = encode2to4(swapped);
    ASSERT_TRUE(sparse.has_value()) << "r=" << r;
    EXPECT_EQ(sparse->rows, l);
    EXPECT_EQ(sparse->cols, cols);
    ASSERT_EQ(sparse->values.size(), size_t(l * cols / 2));
    ASSERT_EQ(sparse->indices.size(), size_t(l * cols / 2));
    for (size_t k = 0; k < sparse->indices.size(); k += 2) {
      EXPECT_LT(sparse->indices[k], sparse->indices[k + 1]);
      EXPECT_LT(sparse->indices[k + 1], 4);
    }
    // Every non-zero is kept: the compressed product matches.
    KernelMatrix decoded = decode2to4(*sparse);
    EXPECT_EQ(decoded.rows, swapped.rows);
    EXPECT_EQ(decoded.cols, swapped.cols);
    EXPECT_EQ(decoded.data, swapped.data) << "r=" << r;
    std::vector<double> ySparse = multiply(*sparse, xSwapped, xCols);
    for (size_t i = 0; i < y.size(); ++i)
      EXPECT_NEAR(ySparse[i], y[i], tolerance(absSum(w))) << "r=" << r;
  }
}

TEST(SparseKernel, EncodePlaceholders) {
  // One row, four groups: E0G0, 0G00, 000H, 0000, and one with two at 1, 3.
  KernelMatrix m(1, 20);
  m.at(0, 0) = 5.0;  // E
  m.at(0, 2) = 7.0;  // G
  m.at(0, 5) = 7.0;  // 0G00
  m.at(0, 11) = 8.0; // 000H
  m.at(0, 17) = 1.0;
  m.at(0, 19) = 2.0;
  std::optional<Sparse24Matrix> s = encode2to4(m);
  ASSERT_TRUE(s.has_value());
  std::vector<double> values = {5, 7, 7, 0, 0, 8, 0, 0, 1, 2};
  std::vector<uint8_t> indices = {0, 2, 1, 2, 2, 3, 0, 1, 1, 3};
  EXPECT_EQ(s->values, values);
  EXPECT_EQ(s->indices, indices);
  EXPECT_EQ(decode2to4(*s).data, m.data);

  // Low bits first: (0,2) -> 0x8, (1,2) -> 0x9, (2,3) -> 0xE, (0,1) -> 0x4,
  // (1,3) -> 0xD.
  EXPECT_EQ(packMetadataNibbles({0, 2}), 0x8u);
  EXPECT_EQ(packMetadataNibbles({1, 2}), 0x9u);
  EXPECT_EQ(packMetadataNibbles(indices), 0xD4E98u);
  std::vector<uint8_t> full(16, 3);
  EXPECT_EQ(packMetadataNibbles(full), 0xFFFFFFFFu);
}

TEST(SparseKernel, NotTwoToFour) {
  // Without the strided swap the band is too dense in its first groups.
  int64_t r = 3, l = getMinRowsPerBlock(r);
  KernelMatrix k = buildBandedKernelMatrix(randomVector(2 * r + 1, 7), l,
                                           2 * l);
  std::string why;
  EXPECT_FALSE(satisfies2to4(k, &why));
  EXPECT_EQ(why, "row 0 group 0 (columns 0..3) has 4 non-zeros");
  EXPECT_FALSE(encode2to4(k).has_value());

  // L = 2r + 1 is odd: 2L columns are not whole groups.
  KernelMatrix odd = buildBandedKernelMatrix(randomVector(2 * r + 1, 8),
                                             2 * r + 1, 4 * r + 2);
  EXPECT_FALSE(satisfies2to4(odd, &why));
  EXPECT_EQ(why, "column count 14 is not a multiple of 4");
  EXPECT_FALSE(encode2to4(odd).has_value());
}

TEST(SparseKernel, DecomposeIntoRows) {
  // Rank 1: one row even when zero.
  auto rows1 = decomposeIntoRows(1, 1, {0.0, 0.0, 0.0});
  ASSERT_EQ(rows1.size(), 1u);
  EXPECT_TRUE(rows1[0].outerOffset.empty());

  // Star-2D r=2: rows dy = -2, -1, 1, 2 hold one point, dy = 0 is full.
  std::vector<double> star(25, 0.0);
  for (int64_t d = -2; d <= 2; ++d) {
    star[(d + 2) * 5 + 2] = 1.0 + d;
    star[2 * 5 + (d + 2)] = 10.0 + d;
  }
  auto rows2 = decomposeIntoRows(2, 2, star);
  ASSERT_EQ(rows2.size(), 4u); // dy = -1 has weight 0 at its single point.
  EXPECT_EQ(rows2[0].outerOffset[0], -2);
  EXPECT_EQ(rows2[1].outerOffset[0], 0);
  std::vector<double> middle = {8, 9, 10, 11, 12};
  EXPECT_EQ(std::vector<double>(rows2[1].weights.begin(),
                                rows2[1].weights.end()),
            middle);

  // Rank 3: rows indexed (dz, dy).
  std::vector<double> box3(27, 0.0);
  box3[(0 * 3 + 2) * 3 + 1] = 1.0;
  box3[(2 * 3 + 1) * 3 + 0] = 2.0;
  auto rows3 = decomposeIntoRows(3, 1, box3);
  ASSERT_EQ(rows3.size(), 2u);
  EXPECT_EQ(rows3[0].outerOffset[0], -1);
  EXPECT_EQ(rows3[0].outerOffset[1], 1);
  EXPECT_EQ(rows3[1].outerOffset[0], 1);
  EXPECT_EQ(rows3[1].outerOffset[1], 0);

  EXPECT_TRUE(decomposeIntoRows(2, 1, {1.0, 2.0}).empty());
}

//===----------------------------------------------------------------------===//
// End to end: a whole stencil through SPIDER's sparse products.
//===----------------------------------------------------------------------===//

/// Applies the stencil `dense` (rank 2 or 3, radius r) to a random grid whose
/// extents are `extents` (innermost last) both directly and through SPIDER:
/// per kernel row, the swapped and encoded banded matrix times the row-swapped
/// input tile, accumulated over rows. Compares every interior point.
void checkEndToEnd(unsigned rank, int64_t r, llvm::ArrayRef<double> dense,
                   llvm::ArrayRef<int64_t> extents, unsigned seed) {
  int64_t l = getMinRowsPerBlock(r), cols = 2 * l;
  int64_t nx = extents.back(), outer = 1;
  for (int64_t e : extents.drop_back())
    outer *= e;
  ASSERT_EQ((nx - 2 * r) % l, 0) << "whole tiles along x";
  std::vector<double> grid = randomVector(outer * nx, seed);
  auto flatOuter = [&](llvm::ArrayRef<int64_t> pos) {
    int64_t index = 0;
    for (size_t d = 0; d < pos.size(); ++d)
      index = index * extents[d] + pos[d];
    return index;
  };

  // The interior outer positions are the columns of X and Y.
  std::vector<llvm::SmallVector<int64_t, 2>> outerPoints;
  llvm::SmallVector<int64_t, 2> pos(rank - 1, r);
  while (true) {
    outerPoints.push_back(pos);
    int d = rank - 2;
    while (d >= 0 && pos[d] == extents[d] - r - 1)
      pos[d--] = r;
    if (d < 0)
      break;
    ++pos[d];
  }
  int64_t xCols = outerPoints.size();

  llvm::SmallVector<KernelRow> rows = decomposeIntoRows(rank, r, dense);
  ASSERT_FALSE(rows.empty());
  llvm::SmallVector<int64_t> perm = stridedSwapPermutation(l, cols);
  std::vector<Sparse24Matrix> sparse;
  for (const KernelRow &row : rows) {
    std::optional<Sparse24Matrix> s = encode2to4(
        permuteColumns(buildBandedKernelMatrix(row.weights, l, cols), perm));
    ASSERT_TRUE(s.has_value());
    // Compute through the decoded form once more: it must be the same.
    ASSERT_EQ(encode2to4(decode2to4(*s))->values, s->values);
    sparse.push_back(*s);
  }

  double scale = absSum(dense);
  for (int64_t x0 = r; x0 + l <= nx - r; x0 += l) {
    std::vector<double> y(l * xCols, 0.0);
    for (auto [rowIndex, row] : llvm::enumerate(rows)) {
      // Gather the row-swapped input directly, as a lowering would through
      // `swappedInputRow`; padded rows stay zero.
      std::vector<double> x(cols * xCols, 0.0);
      for (int64_t p = 0; p < cols; ++p) {
        int64_t k = swappedInputRow(p, l);
        if (k >= 2 * r + l)
          continue;
        for (int64_t c = 0; c < xCols; ++c) {
          llvm::SmallVector<int64_t, 2> src = outerPoints[c];
          for (size_t d = 0; d < src.size(); ++d)
            src[d] += row.outerOffset[d];
          x[p * xCols + c] = grid[flatOuter(src) * nx + x0 - r + k];
        }
      }
      std::vector<double> part = multiply(sparse[rowIndex], x, xCols);
      for (size_t i = 0; i < y.size(); ++i)
        y[i] += part[i];
    }

    // Direct evaluation.
    int64_t side = 2 * r + 1;
    for (int64_t i = 0; i < l; ++i) {
      for (int64_t c = 0; c < xCols; ++c) {
        double expected = 0.0;
        for (size_t w = 0; w < dense.size(); ++w) {
          int64_t rest = w;
          int64_t dx = rest % side - r;
          rest /= side;
          llvm::SmallVector<int64_t, 2> src = outerPoints[c];
          for (int d = rank - 2; d >= 0; --d) {
            src[d] += rest % side - r;
            rest /= side;
          }
          expected += dense[w] * grid[flatOuter(src) * nx + x0 + i + dx];
        }
        EXPECT_NEAR(y[i * xCols + c], expected, tolerance(scale))
            << "rank=" << rank << " r=" << r << " x=" << x0 + i << " c=" << c;
      }
    }
  }
}

TEST(SparseKernel, EndToEndBox2D) {
  for (int64_t r = 1; r <= kMaxRadius; ++r) {
    int64_t side = 2 * r + 1, l = getMinRowsPerBlock(r);
    std::vector<double> dense = randomVector(side * side, 600 + r);
    checkEndToEnd(2, r, dense, {2 * r + 5, 2 * r + 3 * l}, 700 + r);
  }
}

TEST(SparseKernel, EndToEndStar2D) {
  for (int64_t r = 1; r <= kMaxRadius; ++r) {
    int64_t side = 2 * r + 1, l = getMinRowsPerBlock(r);
    std::vector<double> random = randomVector(side * side, 800 + r);
    std::vector<double> dense(side * side, 0.0);
    for (int64_t a = 0; a < side; ++a)
      for (int64_t b = 0; b < side; ++b)
        if (a == r || b == r)
          dense[a * side + b] = random[a * side + b];
    EXPECT_EQ(decomposeIntoRows(2, r, dense).size(), size_t(side));
    checkEndToEnd(2, r, dense, {2 * r + 4, 2 * r + 2 * l}, 900 + r);
  }
}

TEST(SparseKernel, EndToEndBox3D) {
  std::vector<double> dense = randomVector(27, 1000);
  checkEndToEnd(3, 1, dense, {5, 6, 2 + 2 * getMinRowsPerBlock(1)}, 1001);
}

TEST(SparseKernel, EndToEndIrregular2D) {
  // Radius 3, a scattered asymmetric pattern with an empty row (dy = 1).
  int64_t r = 3, side = 7;
  std::vector<double> random = randomVector(side * side, 1100);
  std::vector<double> dense(side * side, 0.0);
  for (auto [dy, dx] : std::vector<std::pair<int, int>>{
           {-3, 2}, {-2, -3}, {-2, 0}, {0, 0}, {0, 3}, {0, -1}, {2, 1},
           {3, -3}, {3, 3}, {-1, -2}})
    dense[(dy + r) * side + dx + r] = random[(dy + r) * side + dx + r];
  EXPECT_EQ(decomposeIntoRows(2, r, dense).size(), 6u);
  checkEndToEnd(2, r, dense, {11, 2 * r + 3 * getMinRowsPerBlock(r)}, 1101);
}

} // namespace

namespace {
TEST(SparseKernel, PairedSwapGives2to4AndAdjacentPairs) {
  std::mt19937 rng(77);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  for (int64_t r = 0; r <= 7; ++r) {
    for (int64_t l = 2 * r + 2; l <= 16; l += 2) {
      llvm::SmallVector<int64_t> perm = pairedSwapPermutation(l);
      ASSERT_EQ(static_cast<int64_t>(perm.size()), 2 * l);
      // A permutation whose position pairs hold adjacent, even-aligned
      // columns.
      std::vector<bool> seen(2 * l, false);
      for (int64_t p = 0; p < 2 * l; ++p) {
        ASSERT_FALSE(seen[perm[p]]);
        seen[perm[p]] = true;
        if (p % 2 == 0) {
          EXPECT_EQ(perm[p] % 2, 0);
          EXPECT_EQ(perm[p + 1], perm[p] + 1);
        }
      }
      // 2:4 for both band shifts that fit.
      for (int64_t shift = 0; shift <= 1 && shift + 2 * r <= l; ++shift) {
        std::vector<double> w;
        for (int64_t j = 0; j <= 2 * r; ++j)
          w.push_back(dist(rng));
        KernelMatrix k = buildBandedKernelMatrix(w, l, 2 * l, shift);
        std::string why;
        EXPECT_TRUE(satisfies2to4(permuteColumns(k, perm), &why))
            << "r=" << r << " L=" << l << " shift=" << shift << ": " << why;
      }
    }
  }
}

TEST(SparseKernel, ShiftedBandMultipliesShiftedInput) {
  // K[i][s + i + j] = w[j]: column c multiplies input (first - r - s + c).
  std::vector<double> w = {1.0, -2.0, 3.0};
  KernelMatrix k = buildBandedKernelMatrix(w, 4, 8, /*columnShift=*/1);
  EXPECT_EQ(k.at(0, 0), 0.0);
  EXPECT_EQ(k.at(0, 1), 1.0);
  EXPECT_EQ(k.at(3, 6), 3.0);
}
} // namespace
