//===- LowRank.h - Rank decomposition of 2-D stencil weights ----*- C++ -*-===//
//
// The math of LoRAStencil (section II-D and III-C), IR-free.
//
// A 2-D stencil of radius h has an n x n weight matrix W (n = 2h + 1, row i
// is the offset dy = i - h, column j the offset dx = j - h). Writing
// W = sum_k u_k v_k^T (eq. 8), one output is
//
//   out[y][x] = sum_{i,j} W[i][j] in[y+i-h][x+j-h]
//             = sum_k sum_i u_k[i] (sum_j v_k[j] in[y+i-h][x+j-h]),
//
// i.e. for a tile the sum of the matrix chains U_k X V_k (eq. 9), U_k and V_k
// the banded expansions of u_k and v_k (eqs. 5-6): a rank-k stencil costs k
// row passes and k column passes instead of n^2 multiply-adds per point.
//
// Two decompositions:
//  * pyramidal (PMA, section III-C): C_1 = W[:,0] W[0,:] / W[0][0] takes the
//    border row and column of W exactly; for a radially symmetric W the
//    remainder is zero on the border and W minus C_1 is again radially
//    symmetric of size n - 2, so recursing gives at most h + 1 terms of
//    decreasing size (eq. 15), each exact. It needs W[0][0] != 0 whenever
//    the border is not zero (otherwise it reports failure);
//  * SVD (eq. 8): one-sided Jacobi on W; u_k = sigma_k a_k, v_k = b_k for
//    the singular values above `tolerance x sigma_max` (the numerical rank).
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_SUPPORT_LOWRANK_H
#define STENCIL_SUPPORT_LOWRANK_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace mlir {
namespace stencil {

/// A row-major n x n matrix.
struct SquareMatrix {
  int64_t n = 0;
  std::vector<double> values;

  explicit SquareMatrix(int64_t n) : n(n), values(n * n, 0.0) {}
  double &at(int64_t i, int64_t j) { return values[i * n + j]; }
  double at(int64_t i, int64_t j) const { return values[i * n + j]; }
};

/// W = sum_k u[k] v[k]^T, every vector of length n (a pyramidal term of
/// size n - 2m is zero on its m outermost entries at both ends).
struct RankDecomposition {
  std::vector<std::vector<double>> u, v;

  int64_t rank() const { return static_cast<int64_t>(u.size()); }
  /// sum_k u[k] v[k]^T.
  SquareMatrix reconstruct(int64_t n) const;
};

/// The n x n weight matrix (n = 2h + 1) of a 2-D stencil whose points are
/// the (dy, dx) pairs of `offsets` (|dy|, |dx| <= h) with `weights`; points
/// that repeat an offset add up.
SquareMatrix getWeightMatrix(int64_t h, llvm::ArrayRef<int64_t> offsets,
                             llvm::ArrayRef<double> weights);
/// The singular values of `w`, largest first (one-sided Jacobi).
std::vector<double> singularValues(const SquareMatrix &w);

/// The number of singular values above `tolerance x sigma_max`.
int64_t numericalRank(const SquareMatrix &w, double tolerance);

/// PMA (section III-C); nullopt when a border is non-zero with a zero
/// corner pivot, or when a remainder is not zero on its border (W is not
/// radially symmetric enough) beyond `tolerance x max |W|`.
std::optional<RankDecomposition> pyramidalDecomposition(const SquareMatrix &w,
                                                        double tolerance);

/// The truncated SVD (eq. 8): the terms of the singular values above
/// `tolerance x sigma_max`.
RankDecomposition svdDecomposition(const SquareMatrix &w, double tolerance);
/// sum_ij |W - sum_k u_k v_k^T|_ij: a stencil of these weights changes no
/// output by more than this times max |input|.
double residualAbsSum(const SquareMatrix &w, const RankDecomposition &terms);
/// The fewest leading SVD terms of `w` (singular values descending) whose
/// residual abs-sum (residualAbsSum) is at most `maxResidualAbsSum`: the
/// bound a caller's error analysis can take (the fused low-rank chain of
/// --stencil-decompose, whose truncation stays within the rounding of the
/// composed weights to the element type). All n terms leave no residual
/// but rounding, so the result always exists.
RankDecomposition svdWithinResidual(const SquareMatrix &w,
                                    double maxResidualAbsSum);

/// A row-major rows x cols matrix.
struct DenseMatrix {
  int64_t rows = 0, cols = 0;
  std::vector<double> values;

  DenseMatrix(int64_t rows, int64_t cols)
      : rows(rows), cols(cols), values(rows * cols, 0.0) {}
  double &at(int64_t i, int64_t j) { return values[i * cols + j]; }
  double at(int64_t i, int64_t j) const { return values[i * cols + j]; }
};

/// Eq. 5: the m x (m + 2h) expansion of u (n = 2h + 1 entries),
/// U[i][j] = u[j - i] for i <= j <= i + 2h.
DenseMatrix expandU(const std::vector<double> &u, int64_t m);
/// Eq. 6: the (m + 2h) x m expansion of v, V[i][j] = v[i - j] for
/// j <= i <= j + 2h.
DenseMatrix expandV(const std::vector<double> &v, int64_t m);
/// A * B.
DenseMatrix multiply(const DenseMatrix &a, const DenseMatrix &b);

} // namespace stencil
} // namespace mlir

#endif // STENCIL_SUPPORT_LOWRANK_H
