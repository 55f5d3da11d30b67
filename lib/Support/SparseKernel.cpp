//===- SparseKernel.cpp - SPIDER kernel matrices for 2:4 SpTC -------------===//

#include "stencil/Support/SparseKernel.h"

#include "mlir/Support/LLVM.h"

#include <cassert>

using namespace mlir;
using namespace mlir::stencil;

//===----------------------------------------------------------------------===//
// Row decomposition
//===----------------------------------------------------------------------===//

SmallVector<KernelRow>
mlir::stencil::decomposeIntoRows(unsigned rank, int64_t radius,
                                 ArrayRef<double> denseWeights) {
  SmallVector<KernelRow> rows;
  if (rank == 0 || radius < 0)
    return rows;
  int64_t side = 2 * radius + 1;
  int64_t numRows = 1;
  for (unsigned d = 1; d < rank; ++d)
    numRows *= side;
  if (static_cast<int64_t>(denseWeights.size()) != numRows * side)
    return rows;

  for (int64_t row = 0; row < numRows; ++row) {
    ArrayRef<double> weights = denseWeights.slice(row * side, side);
    if (rank > 1 && llvm::all_of(weights, [](double w) { return w == 0.0; }))
      continue;
    KernelRow kernelRow;
    // Outer offsets of the flattened row index, first dimension slowest.
    kernelRow.outerOffset.resize(rank - 1);
    int64_t rest = row;
    for (int d = rank - 2; d >= 0; --d) {
      kernelRow.outerOffset[d] = rest % side - radius;
      rest /= side;
    }
    kernelRow.weights.assign(weights.begin(), weights.end());
    rows.push_back(std::move(kernelRow));
  }
  return rows;
}

KernelMatrix mlir::stencil::buildBandedKernelMatrix(ArrayRef<double> rowWeights,
                                                    int64_t rowsPerBlock,
                                                    int64_t paddedCols,
                                                    int64_t columnShift) {
  int64_t width = rowWeights.size();
  assert(width % 2 == 1 && "a kernel row has 2r + 1 weights");
  assert(columnShift >= 0 &&
         paddedCols >= columnShift + width - 1 + rowsPerBlock &&
         "too few columns");
  KernelMatrix k(rowsPerBlock, paddedCols);
  for (int64_t i = 0; i < rowsPerBlock; ++i)
    for (int64_t j = 0; j < width; ++j)
      k.at(i, columnShift + i + j) = rowWeights[j];
  return k;
}

int64_t mlir::stencil::getMinRowsPerBlock(int64_t radius) {
  assert(radius >= 0 && "negative radius");
  return 2 * radius + 2;
}

int64_t mlir::stencil::chooseRowsPerBlock(int64_t radius,
                                          int64_t operandRows) {
  for (int64_t l = 2; l <= operandRows; l += 2)
    if (operandRows % l == 0 && l >= getMinRowsPerBlock(radius))
      return l;
  return 0;
}

//===----------------------------------------------------------------------===//
// Strided swap and row swap
//===----------------------------------------------------------------------===//

SmallVector<int64_t>
mlir::stencil::stridedSwapPermutation(int64_t rowsPerBlock, int64_t cols,
                                      SwapParity parity) {
  assert(cols == 2 * rowsPerBlock && "the strided swap pairs the two halves");
  SmallVector<int64_t> perm;
  perm.reserve(cols);
  for (int64_t p = 0; p < cols; ++p)
    perm.push_back(swappedInputRow(p, rowsPerBlock, parity));
  return perm;
}

SmallVector<int64_t>
mlir::stencil::pairedSwapPermutation(int64_t rowsPerBlock) {
  const int64_t l = rowsPerBlock;
  assert(l % 2 == 0 && "the paired swap needs an even L");
  SmallVector<int64_t> perm;
  perm.reserve(2 * l);
  for (int64_t g = 0; g < l / 2; ++g)
    perm.append({2 * g, 2 * g + 1, 2 * g + l, 2 * g + l + 1});
  return perm;
}

int64_t mlir::stencil::swappedInputRow(int64_t row, int64_t rowsPerBlock,
                                       SwapParity parity) {
  assert(row >= 0 && row < 2 * rowsPerBlock && "row outside the block");
  int64_t j = row % rowsPerBlock;
  if (j % 2 != static_cast<int64_t>(parity))
    return row;
  return row < rowsPerBlock ? row + rowsPerBlock : row - rowsPerBlock;
}

KernelMatrix mlir::stencil::permuteColumns(const KernelMatrix &matrix,
                                           ArrayRef<int64_t> perm) {
  assert(static_cast<int64_t>(perm.size()) == matrix.cols && "bad perm");
  KernelMatrix result(matrix.rows, matrix.cols);
  for (int64_t r = 0; r < matrix.rows; ++r)
    for (int64_t p = 0; p < matrix.cols; ++p)
      result.at(r, p) = matrix.at(r, perm[p]);
  return result;
}

std::vector<double> mlir::stencil::permuteRows(ArrayRef<double> x, int64_t rows,
                                               int64_t cols,
                                               ArrayRef<int64_t> perm) {
  assert(static_cast<int64_t>(x.size()) == rows * cols && "bad matrix size");
  assert(static_cast<int64_t>(perm.size()) == rows && "bad perm");
  std::vector<double> result(rows * cols);
  for (int64_t p = 0; p < rows; ++p)
    llvm::copy(x.slice(perm[p] * cols, cols), result.begin() + p * cols);
  return result;
}

//===----------------------------------------------------------------------===//
// 2:4 sparsity and encoding
//===----------------------------------------------------------------------===//

bool mlir::stencil::satisfies2to4(const KernelMatrix &matrix,
                                  std::string *why) {
  if (matrix.cols % 4 != 0) {
    if (why)
      *why = "column count " + std::to_string(matrix.cols) +
             " is not a multiple of 4";
    return false;
  }
  for (int64_t r = 0; r < matrix.rows; ++r) {
    for (int64_t g = 0; g < matrix.cols / 4; ++g) {
      int nonZeros = 0;
      for (int64_t p = 0; p < 4; ++p)
        nonZeros += matrix.at(r, 4 * g + p) != 0.0;
      if (nonZeros <= 2)
        continue;
      if (why)
        *why = "row " + std::to_string(r) + " group " + std::to_string(g) +
               " (columns " + std::to_string(4 * g) + ".." +
               std::to_string(4 * g + 3) + ") has " +
               std::to_string(nonZeros) + " non-zeros";
      return false;
    }
  }
  return true;
}

std::optional<Sparse24Matrix>
mlir::stencil::encode2to4(const KernelMatrix &matrix) {
  if (!satisfies2to4(matrix))
    return std::nullopt;
  Sparse24Matrix sparse;
  sparse.rows = matrix.rows;
  sparse.cols = matrix.cols;
  sparse.values.reserve(matrix.rows * matrix.cols / 2);
  sparse.indices.reserve(matrix.rows * matrix.cols / 2);
  for (int64_t r = 0; r < matrix.rows; ++r) {
    for (int64_t g = 0; g < matrix.cols / 4; ++g) {
      SmallVector<uint8_t, 2> kept;
      for (uint8_t p = 0; p < 4; ++p)
        if (matrix.at(r, 4 * g + p) != 0.0)
          kept.push_back(p);
      // Placeholders keep the two positions strictly increasing.
      if (kept.empty())
        kept = {0, 1};
      else if (kept.size() == 1)
        kept = kept[0] == 3 ? SmallVector<uint8_t, 2>{2, 3}
                            : SmallVector<uint8_t, 2>{kept[0],
                                                      uint8_t(kept[0] + 1)};
      for (uint8_t p : kept) {
        sparse.values.push_back(matrix.at(r, 4 * g + p));
        sparse.indices.push_back(p);
      }
    }
  }
  return sparse;
}

KernelMatrix mlir::stencil::decode2to4(const Sparse24Matrix &sparse) {
  KernelMatrix matrix(sparse.rows, sparse.cols);
  int64_t half = sparse.cols / 2;
  for (int64_t r = 0; r < sparse.rows; ++r)
    for (int64_t k = 0; k < half; ++k)
      matrix.at(r, 4 * (k / 2) + sparse.indices[r * half + k]) +=
          sparse.values[r * half + k];
  return matrix;
}

uint32_t mlir::stencil::packMetadataNibbles(ArrayRef<uint8_t> indices) {
  assert(indices.size() <= 16 && "a metadata word holds 16 indices");
  uint32_t word = 0;
  for (auto [k, index] : llvm::enumerate(indices)) {
    assert(index < 4 && "a 2-bit index");
    word |= static_cast<uint32_t>(index) << (2 * k);
  }
  return word;
}

//===----------------------------------------------------------------------===//
// Reference products
//===----------------------------------------------------------------------===//

std::vector<double> mlir::stencil::multiply(const KernelMatrix &k,
                                            ArrayRef<double> x, int64_t xCols) {
  assert(static_cast<int64_t>(x.size()) == k.cols * xCols && "bad X size");
  std::vector<double> y(k.rows * xCols, 0.0);
  for (int64_t i = 0; i < k.rows; ++i)
    for (int64_t j = 0; j < k.cols; ++j)
      if (double w = k.at(i, j); w != 0.0)
        for (int64_t c = 0; c < xCols; ++c)
          y[i * xCols + c] += w * x[j * xCols + c];
  return y;
}

std::vector<double> mlir::stencil::multiply(const Sparse24Matrix &a,
                                            ArrayRef<double> x, int64_t xCols) {
  assert(static_cast<int64_t>(x.size()) == a.cols * xCols && "bad X size");
  int64_t half = a.cols / 2;
  std::vector<double> y(a.rows * xCols, 0.0);
  for (int64_t i = 0; i < a.rows; ++i) {
    for (int64_t k = 0; k < half; ++k) {
      double w = a.values[i * half + k];
      int64_t row = 4 * (k / 2) + a.indices[i * half + k];
      for (int64_t c = 0; c < xCols; ++c)
        y[i * xCols + c] += w * x[row * xCols + c];
    }
  }
  return y;
}
