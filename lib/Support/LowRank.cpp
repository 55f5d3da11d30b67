//===- LowRank.cpp - Rank decomposition of 2-D stencil weights ------------===//

#include "stencil/Support/LowRank.h"

#include <algorithm>
#include <cmath>
#include <numeric>

using namespace mlir;
using namespace mlir::stencil;

SquareMatrix RankDecomposition::reconstruct(int64_t n) const {
  SquareMatrix w(n);
  for (size_t k = 0; k < u.size(); ++k)
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j)
        w.at(i, j) += u[k][i] * v[k][j];
  return w;
}

namespace {
/// One-sided Jacobi: A V with orthogonal columns, V orthogonal; A = W on
/// entry. Returns the column order by decreasing norm.
struct Jacobi {
  int64_t n;
  std::vector<double> a, v; // column-major: a[col * n + row]
  std::vector<int64_t> order;

  explicit Jacobi(const SquareMatrix &w) : n(w.n), a(n * n), v(n * n, 0.0) {
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j)
        a[j * n + i] = w.at(i, j);
    for (int64_t i = 0; i < n; ++i)
      v[i * n + i] = 1.0;
    for (int sweep = 0; sweep < 60; ++sweep) {
      bool rotated = false;
      for (int64_t p = 0; p < n; ++p)
        for (int64_t q = p + 1; q < n; ++q)
          rotated |= rotate(p, q);
      if (!rotated)
        break;
    }
    order.resize(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int64_t x, int64_t y) {
      return norm(x) > norm(y);
    });
  }

  double dot(const std::vector<double> &m, int64_t x, int64_t y) const {
    double s = 0;
    for (int64_t i = 0; i < n; ++i)
      s += m[x * n + i] * m[y * n + i];
    return s;
  }
  double norm(int64_t col) const { return std::sqrt(dot(a, col, col)); }

  bool rotate(int64_t p, int64_t q) {
    double alpha = dot(a, p, p), beta = dot(a, q, q), gamma = dot(a, p, q);
    if (gamma == 0.0 || std::abs(gamma) <= 1e-15 * std::sqrt(alpha * beta))
      return false;
    double zeta = (beta - alpha) / (2 * gamma);
    double t = (zeta >= 0 ? 1.0 : -1.0) /
               (std::abs(zeta) + std::sqrt(1 + zeta * zeta));
    double c = 1 / std::sqrt(1 + t * t), s = c * t;
    for (std::vector<double> *m : {&a, &v})
      for (int64_t i = 0; i < n; ++i) {
        double xp = (*m)[p * n + i], xq = (*m)[q * n + i];
        (*m)[p * n + i] = c * xp - s * xq;
        (*m)[q * n + i] = s * xp + c * xq;
      }
    return true;
  }
};
} // namespace

std::vector<double> mlir::stencil::singularValues(const SquareMatrix &w) {
  Jacobi jacobi(w);
  std::vector<double> sigma;
  for (int64_t col : jacobi.order)
    sigma.push_back(jacobi.norm(col));
  return sigma;
}

int64_t mlir::stencil::numericalRank(const SquareMatrix &w, double tolerance) {
  std::vector<double> sigma = singularValues(w);
  if (sigma.empty() || sigma.front() == 0.0)
    return 0;
  return std::count_if(sigma.begin(), sigma.end(), [&](double s) {
    return s > tolerance * sigma.front();
  });
}

RankDecomposition mlir::stencil::svdDecomposition(const SquareMatrix &w,
                                                  double tolerance) {
  Jacobi jacobi(w);
  RankDecomposition result;
  double largest = jacobi.n ? jacobi.norm(jacobi.order.front()) : 0.0;
  for (int64_t col : jacobi.order) {
    if (largest == 0.0 || jacobi.norm(col) <= tolerance * largest)
      break;
    // W = A V^T: column col of A (sigma times the left vector) and of V.
    result.u.emplace_back(jacobi.a.begin() + col * jacobi.n,
                          jacobi.a.begin() + (col + 1) * jacobi.n);
    result.v.emplace_back(jacobi.v.begin() + col * jacobi.n,
                          jacobi.v.begin() + (col + 1) * jacobi.n);
  }
  return result;
}

SquareMatrix mlir::stencil::getWeightMatrix(int64_t h,
                                            llvm::ArrayRef<int64_t> offsets,
                                            llvm::ArrayRef<double> weights) {
  SquareMatrix w(2 * h + 1);
  for (size_t i = 0; i < weights.size(); ++i)
    w.at(offsets[2 * i] + h, offsets[2 * i + 1] + h) += weights[i];
  return w;
}

double mlir::stencil::residualAbsSum(const SquareMatrix &w,
                                     const RankDecomposition &terms) {
  SquareMatrix approx = terms.reconstruct(w.n);
  double sum = 0;
  for (int64_t i = 0; i < w.n * w.n; ++i)
    sum += std::abs(w.values[i] - approx.values[i]);
  return sum;
}

RankDecomposition mlir::stencil::svdWithinResidual(const SquareMatrix &w,
                                                   double maxResidualAbsSum) {
  // Every term of a non-zero singular value, largest first; then the
  // shortest prefix within the bound (the residual of a prefix is the
  // sum of the terms after it, so it need not shrink monotonically in this
  // norm: each prefix is checked).
  RankDecomposition all = svdDecomposition(w, /*tolerance=*/0.0);
  RankDecomposition prefix;
  for (int64_t k = 0;; ++k) {
    if (residualAbsSum(w, prefix) <= maxResidualAbsSum || k == all.rank())
      return prefix;
    prefix.u.push_back(all.u[k]);
    prefix.v.push_back(all.v[k]);
  }
}

std::optional<RankDecomposition>
mlir::stencil::pyramidalDecomposition(const SquareMatrix &w,
                                      double tolerance) {
  const int64_t n = w.n;
  double scale = 0;
  for (double x : w.values)
    scale = std::max(scale, std::abs(x));
  const double eps = tolerance * scale;
  SquareMatrix rest = w;
  RankDecomposition result;
  for (int64_t lo = 0, hi = n - 1; lo <= hi; ++lo, --hi) {
    // 1. The border of the window [lo, hi]^2 must be zero after this level.
    bool borderZero = true;
    for (int64_t k = lo; k <= hi; ++k)
      for (double x : {rest.at(lo, k), rest.at(hi, k), rest.at(k, lo),
                       rest.at(k, hi)})
        borderZero &= std::abs(x) <= eps;
    if (borderZero)
      continue;
    double pivot = rest.at(lo, lo);
    if (std::abs(pivot) <= eps)
      return std::nullopt;
    // 2. C = rest[:, lo] rest[lo, :] / pivot on the window (eq. 14):
    // u = column / pivot, v = row.
    std::vector<double> u(n, 0.0), v(n, 0.0);
    for (int64_t k = lo; k <= hi; ++k) {
      u[k] = rest.at(k, lo) / pivot;
      v[k] = rest.at(lo, k);
    }
    for (int64_t i = lo; i <= hi; ++i)
      for (int64_t j = lo; j <= hi; ++j)
        rest.at(i, j) -= u[i] * v[j];
    result.u.push_back(std::move(u));
    result.v.push_back(std::move(v));
    // 3. Row lo and column lo are now zero; radial symmetry makes row hi
    // and column hi zero too.
    for (int64_t k = lo; k <= hi; ++k)
      if (std::abs(rest.at(hi, k)) > eps || std::abs(rest.at(k, hi)) > eps)
        return std::nullopt;
  }
  return result;
}

DenseMatrix mlir::stencil::expandU(const std::vector<double> &u, int64_t m) {
  int64_t n = static_cast<int64_t>(u.size());
  DenseMatrix result(m, m + n - 1);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t k = 0; k < n; ++k)
      result.at(i, i + k) = u[k];
  return result;
}

DenseMatrix mlir::stencil::expandV(const std::vector<double> &v, int64_t m) {
  int64_t n = static_cast<int64_t>(v.size());
  DenseMatrix result(m + n - 1, m);
  for (int64_t j = 0; j < m; ++j)
    for (int64_t k = 0; k < n; ++k)
      result.at(j + k, j) = v[k];
  return result;
}

DenseMatrix mlir::stencil::multiply(const DenseMatrix &a,
                                    const DenseMatrix &b) {
  DenseMatrix c(a.rows, b.cols);
  for (int64_t i = 0; i < a.rows; ++i)
    for (int64_t k = 0; k < a.cols; ++k)
      for (int64_t j = 0; j < b.cols; ++j)
        c.at(i, j) += a.at(i, k) * b.at(k, j);
  return c;
}
