//===- Repack.cpp - Repacking recipes of the row-form kernels -------------===//
//
// A row form's kernel matrices hold, in every entry, either one weight of
// the stencil or a structural zero; which entry holds which weight follows
// from the form's structure alone (its op description, StencilOps.td):
//
//  * banded (SPIDER 3.1): entry (i, c) of kernel row o multiplies
//    the input at outer offset `row_offsets[o]` and innermost offset
//    `input_offsets[c] - i` from output i of the block;
//  * gathered (SparStencil 3.1): entry (m, c) of kernel matrix q,
//    m = u r1 + v, multiplies the input at `g_q[c / 2] + (0, -u, c % 2 - v)`
//    from output m (`layout = [r1, r2]`);
//  * in the compressed (2:4) forms the stored value k of row i sits in
//    column c = 4 (k / 2) + indices[i][k];
//  * the f64 form's row weights w_o(dx) are the weight at (row_offsets[o],
//    dx).
//
// An entry whose offset is a point of the stencil holds that point's
// weight, unless another entry of the same output claims the point too
// (gathered forms may read an input twice, once with a zero): then the
// entry with the non-zero compiled value is the weight's slot. The recipe
// is refused, with a reason the launch description records, where this
// cannot be decided from the structure: composed steps (the values are
// products of weights), the low-rank chain (factors of the weight matrix,
// whose rank depends on the weights), a weight that is zero in the operand
// type (the kernel may have dropped its slot), a point some output has no
// slot for. Finally the recipe must reproduce the compiled words from the
// compiled weights bit for bit (repackCoefficients, the runtime's code);
// a mismatch is refused too, never recorded.
//
//===----------------------------------------------------------------------===//

#include "Repack.h"

#include "stencil/Dialect/Stencil/IR/StencilDialect.h"
#include "stencil/Support/StepComposition.h"

#include "llvm/ADT/STLExtras.h"

#include <map>
#include <set>
#include <sstream>

using namespace mlir;
using namespace mlir::stencil;

namespace {
/// One value slot of the packing function's input array.
struct Slot {
  /// The kernel matrix's row (the output within a block or MMA column).
  int64_t output = 0;
  /// The offset of the input it multiplies from that output.
  SmallVector<int64_t> point;
  /// Whether the compiled value is non-zero.
  bool nonZero = false;
};
} // namespace

static std::string formatPoint(ArrayRef<int64_t> point) {
  std::ostringstream os;
  os << "(";
  for (auto [i, v] : llvm::enumerate(point))
    os << (i ? "," : "") << v;
  os << ")";
  return os.str();
}

namespace {
/// The steps of getRepackRecipe, each false with `reason` set where the
/// recipe is refused.
class RecipeBuilder {
public:
  RecipeBuilder(RowFormOpInterface op, std::string &reason)
      : op(op), operation(op.getOperation()), reason(reason) {}

  std::optional<RepackRecipe> build(ArrayRef<int32_t> words) {
    if (!readSource() || !readOperands() || !collectSlots() ||
        !assignWeights() || !checkWords(words))
      return std::nullopt;
    return std::move(recipe);
  }

private:
  /// The source stencil, where the form's values are its weights (not
  /// composed steps nor low-rank factors), and the index of each point.
  bool readSource();
  /// The operand type, the form's sizes, and no weight zero in that type.
  bool readOperands();
  /// The point entry (o, i, c) of the uncompressed kernels multiplies.
  SmallVector<int64_t> pointOf(int64_t o, int64_t i, int64_t c);
  /// The slots of the packing function's input, by the form's kind.
  bool collectSlots();
  /// Each point's slot for each output (recipe.map).
  bool assignWeights();
  /// The runtime's code must give the compiled words back.
  bool checkWords(ArrayRef<int32_t> words);

  RowFormOpInterface op;
  Operation *operation;
  std::string &reason;
  LinearStencil stencil;
  int64_t rank = 0;
  std::map<SmallVector<int64_t>, int64_t> pointIndex;
  RepackRecipe recipe;
  ArrayRef<int64_t> rowOffsets;
  std::optional<ArrayRef<int64_t>> inputOffsets;
  std::optional<ArrayRef<int64_t>> gatherOffsets, layout;
  std::vector<Slot> slots;
};
} // namespace

bool RecipeBuilder::readSource() {
  int64_t t = op.getNumFusedSteps();
  if (t > 1) {
    reason = "its coefficients are the weights of " + std::to_string(t) +
             " composed steps (fused-steps), and its band and tail kernels "
             "hold the weights as constants";
    return false;
  }
  if (op.getColumnRadius() > 0) {
    reason = "it is a low-rank chain: its coefficients are factors of the "
             "weight matrix, whose rank depends on the weights";
    return false;
  }
  auto source = operation->getAttrOfType<DictionaryAttr>(kSourceAttrName);
  auto pattern = source ? source.getAs<PatternAttr>("pattern") : PatternAttr();
  auto sourceWeights =
      source ? source.getAs<DenseF64ArrayAttr>("weights") : DenseF64ArrayAttr();
  if (!pattern || !sourceWeights) {
    reason = "it has no source stencil (stencil.source)";
    return false;
  }
  stencil = getLinearStencil(pattern, sourceWeights.asArrayRef());
  rank = stencil.rank;
  for (unsigned j = 0; j < stencil.getNumPoints(); ++j)
    if (!pointIndex.emplace(SmallVector<int64_t>(stencil.getPoint(j)), j)
             .second) {
      reason = "the pattern lists offset " + formatPoint(stencil.getPoint(j)) +
               " twice";
      return false;
    }
  return true;
}

bool RecipeBuilder::readOperands() {
  Type elementType = op.getGridElementType();
  recipe.type = elementType.isF64()    ? OperandType::f64
                : elementType.isBF16() ? OperandType::bf16
                                       : OperandType::f16;
  recipe.numRows = op.getNumRows();
  recipe.rowsPerBlock = op.getRowsPerBlock();
  recipe.radius = op.getRadius();
  for (double w : stencil.weights)
    if (recipe.type == OperandType::f64
            ? w == 0.0
            : (roundToOperandBits(w, recipe.type) & 0x7fff) == 0) {
      reason = "a weight is zero in the operand type (" +
               std::string(getOperandTypeName(recipe.type)) +
               "), so the kernel may have no slot for it";
      return false;
    }
  rowOffsets = op.getRowOffsets();
  inputOffsets = op.getInputOffsets();
  gatherOffsets = op.getGatherOffsets();
  layout = op.getLayout();
  if (!gatherOffsets && !inputOffsets) {
    reason = "it has no input offsets";
    return false;
  }
  return true;
}

SmallVector<int64_t> RecipeBuilder::pointOf(int64_t o, int64_t i, int64_t c) {
  SmallVector<int64_t> point(rank, 0);
  if (gatherOffsets) {
    ArrayRef<int64_t> g = gatherOffsets->slice((o * 16 + c / 2) * 3, 3);
    int64_t r1 = layout ? (*layout)[0] : 16;
    int64_t u = i / r1, v = i % r1;
    int64_t dz = g[0], dy = g[1] - u, dx = g[2] + c % 2 - v;
    if (rank == 3)
      point = {dz, dy, dx};
    else if (rank == 2)
      point = {dy, dx};
    else
      point = {dx};
    return point;
  }
  for (int64_t d = 0; d + 1 < rank; ++d)
    point[d] = rowOffsets[o * (rank - 1) + d];
  point[rank - 1] = (*inputOffsets)[c] - i;
  return point;
}

bool RecipeBuilder::collectSlots() {
  int64_t l = recipe.rowsPerBlock;
  // The slots are the compressed values of a sparse_row_gemm and the dense
  // kernels of a row_gemm.
  if (auto sparse = dyn_cast<SparseRowGemmOp>(operation)) {
    recipe.kind = RepackKind::sptc;
    SmallVector<uint16_t> bits;
    for (APFloat v : sparse.getValues().getValues<APFloat>())
      bits.push_back(v.bitcastToAPInt().getZExtValue());
    for (int8_t index : sparse.getIndices().getValues<int8_t>())
      recipe.indices.push_back(index);
    for (int64_t o = 0; o < recipe.numRows; ++o)
      for (int64_t i = 0; i < l; ++i)
        for (int64_t k = 0; k < l; ++k) {
          int64_t s = (o * l + i) * l + k;
          int64_t c = 4 * (k / 2) + recipe.indices[s];
          slots.push_back({i, pointOf(o, i, c), (bits[s] & 0x7fff) != 0});
        }
    return true;
  }
  auto dense = cast<RowGemmOp>(operation);
  SmallVector<double> kernels(dense.getKernels().getValues<double>());
  if (recipe.type == OperandType::f64) {
    recipe.kind = RepackKind::tcF64;
    int64_t r = recipe.radius;
    for (int64_t o = 0; o < recipe.numRows; ++o)
      for (int64_t dx = -r; dx <= r; ++dx) {
        // Each (row, dx) is one slot; its output index keeps the slots of
        // different rows apart.
        SmallVector<int64_t> point = pointOf(o, 0, 0);
        point[rank - 1] = dx;
        slots.push_back({o, point, true});
      }
    return true;
  }
  recipe.kind = RepackKind::tc;
  for (int64_t o = 0; o < recipe.numRows; ++o)
    for (int64_t i = 0; i < l; ++i)
      for (int64_t c = 0; c < 2 * l; ++c)
        slots.push_back(
            {i, pointOf(o, i, c), kernels[(o * l + i) * 2 * l + c] != 0.0});
  return true;
}

bool RecipeBuilder::assignWeights() {
  // Group the slots by (output, point).
  recipe.map.assign(slots.size(), -1);
  std::map<std::pair<int64_t, int64_t>, SmallVector<size_t>> claims;
  for (auto [s, slot] : llvm::enumerate(slots)) {
    auto it = pointIndex.find(slot.point);
    if (it == pointIndex.end()) {
      if (slot.nonZero && recipe.kind != RepackKind::tcF64) {
        reason = "internal: a kernel value multiplies offset " +
                 formatPoint(slot.point) + ", which is not in the pattern";
        return false;
      }
      continue;
    }
    claims[{slot.output, it->second}].push_back(s);
  }
  std::set<int64_t> outputs;
  for (const Slot &slot : slots)
    outputs.insert(slot.output);
  for (int64_t output : outputs)
    for (unsigned j = 0; j < stencil.getNumPoints(); ++j) {
      auto it = claims.find({output, int64_t(j)});
      if (it == claims.end()) {
        if (recipe.kind == RepackKind::tcF64)
          continue; // Rows hold only their own outer offset.
        reason = "output " + std::to_string(output) +
                 " of a kernel matrix has no slot for offset " +
                 formatPoint(stencil.getPoint(j));
        return false;
      }
      SmallVector<size_t> nonZero;
      for (size_t s : it->second)
        if (slots[s].nonZero)
          nonZero.push_back(s);
      if (it->second.size() == 1) {
        recipe.map[it->second.front()] = j;
      } else if (nonZero.size() == 1) {
        recipe.map[nonZero.front()] = j;
      } else {
        reason = "offset " + formatPoint(stencil.getPoint(j)) + " has " +
                 std::to_string(nonZero.size()) +
                 " non-zero slots for one output";
        return false;
      }
    }
  return true;
}

bool RecipeBuilder::checkWords(ArrayRef<int32_t> words) {
  std::vector<uint32_t> repacked;
  std::string error;
  if (!repackCoefficients(recipe, stencil.weights, repacked, error)) {
    reason = "internal: " + error;
    return false;
  }
  if (repacked.size() != words.size() ||
      !llvm::equal(repacked, llvm::map_range(words, [](int32_t w) {
                     return uint32_t(w);
                   }))) {
    reason = "internal: the recipe does not give the compiled coefficients "
             "back";
    return false;
  }
  return true;
}

std::optional<RepackRecipe>
mlir::stencil::getRepackRecipe(RowFormOpInterface op, ArrayRef<int32_t> words,
                               std::string &reason) {
  return RecipeBuilder(op, reason).build(words);
}
