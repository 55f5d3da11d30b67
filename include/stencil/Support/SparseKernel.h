//===- SparseKernel.h - SPIDER kernel matrices for 2:4 SpTC -----*- C++ -*-===//
//
// IR-free math of the SPIDER lowering of a stencil onto Sparse Tensor Cores
// (SPIDER sections 3.1.1, 3.1.2 and 3.2).
//
// Row decomposition (3.1.1). A stencil is split into its kernel rows: the
// weights along the innermost dimension for one fixed offset of the outer
// dimensions. One row w[0..2r] of radius r updates L consecutive points of an
// output row as the product Y = K * X, where K is the L x (2r + L) banded
// matrix K[i][i + j] = w[j], and row k of X is the input point
// (first output - r + k). K is padded with zero columns to 2L columns, the
// shape that the SpTC instruction consumes; with L = 2r + 2 exactly half of
// its entries are structural zeros.
//
// Strided swap (3.1.2). Swapping column j with column j + L for every j of
// one parity in [0, L) makes every aligned group of 4 columns of every row
// hold at most 2 non-zeros (2:4 structured sparsity). Y is unchanged when the
// rows of X are swapped the same way (3.2); that row swap is what a later
// lowering folds into load offsets.
//
// Encoding (3.1.2, stage 3). A 2:4 matrix is stored as the two kept values of
// each group of 4 columns plus their 2-bit positions within the group, in
// strictly increasing order, as the PTX `mma.sp` metadata requires.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_SUPPORT_SPARSEKERNEL_H
#define STENCIL_SUPPORT_SPARSEKERNEL_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace stencil {

//===----------------------------------------------------------------------===//
// Row decomposition (SPIDER 3.1.1)
//===----------------------------------------------------------------------===//

/// A dense row-major matrix of doubles.
struct KernelMatrix {
  int64_t rows = 0;
  int64_t cols = 0;
  std::vector<double> data;

  KernelMatrix() = default;
  KernelMatrix(int64_t rows, int64_t cols)
      : rows(rows), cols(cols), data(rows * cols, 0.0) {}

  double at(int64_t r, int64_t c) const { return data[r * cols + c]; }
  double &at(int64_t r, int64_t c) { return data[r * cols + c]; }
};

/// One kernel row of a stencil: the weights along the innermost dimension,
/// w[j] for dx = j - radius, at the given offset of the outer dimensions
/// (empty for rank 1, {dy} for rank 2, {dz, dy} for rank 3).
struct KernelRow {
  llvm::SmallVector<int64_t, 2> outerOffset;
  llvm::SmallVector<double> weights;
};

/// Splits a stencil given as its dense weight box of side 2 * radius + 1
/// (`rank` dimensions, row-major, first dimension slowest, zeros where the
/// pattern has no point) into its kernel rows, dropping the rows that are all
/// zero: only those cost a matrix product (a star of rank 2 has 2r + 1 rows
/// but only the middle one is full). Rank 1 always yields exactly one row.
/// Returns an empty list when `denseWeights` has the wrong size.
llvm::SmallVector<KernelRow> decomposeIntoRows(unsigned rank, int64_t radius,
                                               llvm::ArrayRef<double> denseWeights);

/// The banded kernel matrix of one kernel row w[0..2r] (`rowWeights` has
/// 2r + 1 entries): K[i][i + j] = w[j] for i in [0, L), j in [0, 2r], of
/// shape L x `paddedCols`, the columns past 2r + L being zero. With
/// `columnShift` s the band starts s columns later: K[i][s + i + j] = w[j]
/// (column c then multiplies input point (first output - r - s + c)).
/// Requires paddedCols >= s + 2r + L.
KernelMatrix buildBandedKernelMatrix(llvm::ArrayRef<double> rowWeights,
                                     int64_t rowsPerBlock, int64_t paddedCols,
                                     int64_t columnShift = 0);

/// The smallest number L of outputs that one kernel matrix of the given
/// radius can compute (padded to 2L columns) and still be 2:4 after the
/// strided swap: 2r + 2.
///
/// L must be at least 2r + 2 for K to be half zeros (3.1.1), and the strided
/// swap of `stridedSwapPermutation` yields 2:4 sparsity for every even
/// L >= 2r + 2, whichever parity is swapped. The non-zeros of row i of K are
/// the columns [i, i + 2r], which span 2r <= L - 2. For even L, c and c + L
/// have the same parity, so a group of 4 positions inside one half reads
/// columns {a, a + 2} (unswapped) and {b, b + 2} (swapped) with
/// |b - a| = L +- 1; the group [L - 2, L + 2) that straddles the halves when
/// L = 2 (mod 4) reads {0, L - 1, L + 1, 2L - 2} (even parity swapped) or
/// {1, L - 2, L, 2L - 1} (odd). In every case any three of the four columns
/// span at least L - 1 > 2r, so at most two are non-zero. Odd L fails (2L is
/// not a multiple of 4), hence the smallest valid L is 2r + 2 itself for
/// every radius (4, 6, 8, ..., 16 for r = 1..7, checked exhaustively by the
/// unit tests). The concern that L = 2 (mod 4) breaks the straddling group
/// does not hold.
int64_t getMinRowsPerBlock(int64_t radius);

/// The L that --stencil-decompose takes by default: the smallest even
/// divisor of `operandRows` (the 16 rows of an m16n8k32 `mma.sp` operand,
/// which stacks 16 / L kernel matrices) that is at least
/// getMinRowsPerBlock(radius); 0 when there is none (r > 7 for 16 rows).
/// L = 2, 4, 8, 8, 16, 16, 16, 16 for r = 0..7.
int64_t chooseRowsPerBlock(int64_t radius, int64_t operandRows = 16);

//===----------------------------------------------------------------------===//
// Strided swap (SPIDER 3.1.2) and row swap (SPIDER 3.2)
//===----------------------------------------------------------------------===//

/// Which columns j in [0, L) the strided swap exchanges with j + L. The paper
/// is inconsistent (3.1.2 says odd j, 3.2 and its offset formula say even j);
/// both give 2:4 sparsity for even L. The default is even, which matches the
/// thread-to-row offset formula of 3.2.
enum class SwapParity { Even = 0, Odd = 1 };

/// The strided swap as a permutation of [0, cols), cols == 2L: perm[p] is the
/// original column stored at position p after swapping column j with j + L
/// for every j in [0, L) of the given parity. The permutation is an
/// involution.
llvm::SmallVector<int64_t>
stridedSwapPermutation(int64_t rowsPerBlock, int64_t cols,
                       SwapParity parity = SwapParity::Even);

/// A variant of the strided swap that moves columns in adjacent pairs (this
/// project's extension, not in SPIDER): the group of 4 positions
/// [4g, 4g + 4), g < L / 2, holds columns (2g, 2g + 1, 2g + L, 2g + L + 1).
/// Any three of those columns span at least L - 1 > 2r, so a band of
/// 2r + 1 <= L - 1 consecutive non-zeros (at any column shift s with
/// s + 2r <= L) meets at most two: 2:4 for every even L >= 2r + 2. Every
/// pair of positions (2m, 2m + 1) holds two adjacent columns (c, c + 1),
/// c even, so the two input points that one 32-bit register of the B
/// operand holds are adjacent in memory: one 32-bit shared-memory load.
llvm::SmallVector<int64_t> pairedSwapPermutation(int64_t rowsPerBlock);

/// The matrix whose column p is column perm[p] of `matrix`.
KernelMatrix permuteColumns(const KernelMatrix &matrix,
                            llvm::ArrayRef<int64_t> perm);

/// The row-major `rows` x `cols` matrix whose row p is row perm[p] of `x`.
/// Applying the column permutation of K to the rows of X keeps K * X.
std::vector<double> permuteRows(llvm::ArrayRef<double> x, int64_t rows,
                                int64_t cols, llvm::ArrayRef<int64_t> perm);

/// For position `row` in [0, 2L) of the row-swapped input matrix, the
/// original input row it holds: row +- L when `row mod L` has the swapped
/// parity, `row` otherwise. Input row k is the point (first output - r + k).
int64_t swappedInputRow(int64_t row, int64_t rowsPerBlock,
                        SwapParity parity = SwapParity::Even);

//===----------------------------------------------------------------------===//
// 2:4 structured sparsity and encoding (SPIDER 3.1.2)
//===----------------------------------------------------------------------===//

/// True when `cols` is a multiple of 4 and every aligned group of 4 columns
/// of every row holds at most 2 non-zeros. Otherwise `why`, if given, names
/// the first offending row and group.
bool satisfies2to4(const KernelMatrix &matrix, std::string *why = nullptr);

/// A 2:4 matrix in the compressed form of the SpTC A operand: for each row
/// and each group of 4 logical columns, two values and their positions within
/// the group (0..3, strictly increasing). Both arrays are row-major,
/// rows x cols / 2.
struct Sparse24Matrix {
  int64_t rows = 0;
  /// Logical (uncompressed) number of columns, a multiple of 4.
  int64_t cols = 0;
  std::vector<double> values;
  std::vector<uint8_t> indices;
};

/// Compresses a 2:4 matrix, or returns std::nullopt if it is not 2:4. Per
/// group of 4: two non-zeros are kept in position order; a single non-zero at
/// position p is kept with a zero placeholder at p + 1 (at 2 when p = 3, the
/// zero coming first), e.g. 0G00 -> values (G, 0), indices (1, 2) as in the
/// paper; an all-zero group keeps two zeros at positions (0, 1).
std::optional<Sparse24Matrix> encode2to4(const KernelMatrix &matrix);

/// Reconstructs the dense matrix of `sparse`.
KernelMatrix decode2to4(const Sparse24Matrix &sparse);

/// Packs up to 16 2-bit indices into one metadata word, least significant
/// bits first: index k occupies bits [2k, 2k + 2), so each group's pair forms
/// one nibble whose low 2 bits are its first index (indices (0, 2) -> 0x8,
/// (1, 2) -> 0x9; the paper's "0010" and "0110" written first-index first).
uint32_t packMetadataNibbles(llvm::ArrayRef<uint8_t> indices);

//===----------------------------------------------------------------------===//
// Reference products
//===----------------------------------------------------------------------===//

/// The dense product K * X, X row-major with K.cols rows and `xCols`
/// columns; the result is row-major K.rows x xCols.
std::vector<double> multiply(const KernelMatrix &k, llvm::ArrayRef<double> x,
                             int64_t xCols);

/// The product A * X computed from the compressed form only, as `mma.sp`
/// does: each kept value multiplies the row of X its metadata selects.
std::vector<double> multiply(const Sparse24Matrix &a, llvm::ArrayRef<double> x,
                             int64_t xCols);

} // namespace stencil
} // namespace mlir

#endif // STENCIL_SUPPORT_SPARSEKERNEL_H
