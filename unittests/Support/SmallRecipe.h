//===- SmallRecipe.h - A small repacking recipe for the tests ---*- C++ -*-===//
//
// One sptc recipe (CoefficientPacking.h) the packing, description-parser
// and C API tests share: one kernel row, L = 2, slots (i, k) holding weight
// i + k of a 1-D stencil of three points (-1, 0, 1), 2:4 positions
// (0, 1) and (1, 2); and its launch-description text.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_UNITTESTS_SUPPORT_SMALLRECIPE_H
#define STENCIL_UNITTESTS_SUPPORT_SMALLRECIPE_H

#include "stencil/Support/CoefficientPacking.h"

#include "gtest/gtest.h"

#include <cstdio>
#include <string>
#include <vector>

namespace mlir {
namespace stencil {
namespace test {

inline RepackRecipe smallRecipe() {
  RepackRecipe recipe;
  recipe.kind = RepackKind::sptc;
  recipe.type = OperandType::f16;
  recipe.numRows = 1;
  recipe.rowsPerBlock = 2;
  recipe.indices = {0, 1, 1, 2};
  recipe.map = {0, 1, 1, 2};
  return recipe;
}

/// The `coefficients` line of a description whose weights are `weights`
/// under smallRecipe(), without the newline.
inline std::string smallRecipeCoefficients(const std::vector<double> &weights) {
  std::vector<uint32_t> words;
  std::string error;
  EXPECT_TRUE(repackCoefficients(smallRecipe(), weights, words, error))
      << error;
  std::string line = "coefficients = ";
  for (size_t i = 0; i < words.size(); ++i) {
    char buf[16];
    std::snprintf(buf, sizeof(buf), "%s%08x", i ? "," : "", words[i]);
    line += buf;
  }
  return line;
}

/// smallRecipe() as the `repack*` lines of a description.
inline const char *kSmallRecipeKeys =
    "repack = sptc\nrepack_type = f16\nrepack_rows = 1\n"
    "repack_rows_per_block = 2\nrepack_radius = 1\n"
    "repack_indices = 0112\nrepack_map = 0,1,1,2\n";

} // namespace test
} // namespace stencil
} // namespace mlir

#endif // STENCIL_UNITTESTS_SUPPORT_SMALLRECIPE_H
