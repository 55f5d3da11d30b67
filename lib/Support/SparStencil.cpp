//===- SparStencil.cpp - Flatten-and-crush and 2:4 matching ---------------===//
//
// The math is in the header. Edmonds' maximum matching comes from Boost
// Graph (header-only; not part of the installed headers' interface).
//
//===----------------------------------------------------------------------===//

#include "stencil/Support/SparStencil.h"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/max_cardinality_matching.hpp>

#include <algorithm>
#include <map>

using namespace mlir;
using namespace mlir::stencil;
using llvm::ArrayRef;
using llvm::SmallVector;

SmallVector<FlattenLayout> mlir::stencil::getFlattenLayouts(int64_t rank) {
  if (rank == 1)
    return {{16, 1}};
  return {{16, 1}, {8, 2}, {4, 4}, {2, 8}};
}

/// Floor division for possibly negative numerators.
static int64_t floorDiv(int64_t a, int64_t b) {
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/// The two columns of each unit, per row, in unit order.
using UnitColumns =
    std::map<GatherUnit, std::array<std::array<double, 2>, 16>>;

/// The flattened kernel of `units`: sorted units, A' column 2k + e from
/// column e of unit k.
static FlattenedKernel assembleUnits(int64_t rank, FlattenLayout layout,
                                     const UnitColumns &units) {
  FlattenedKernel result;
  result.rank = rank;
  result.layout = layout;
  result.matrix = KernelMatrix(16, 2 * units.size());
  for (const auto &[unit, values] : units) {
    int64_t k = result.units.size();
    result.units.push_back(unit);
    for (int64_t m = 0; m < 16; ++m)
      for (int64_t e = 0; e < 2; ++e)
        result.matrix.at(m, 2 * k + e) = values[m][e];
  }
  return result;
}

std::optional<FlattenedKernel>
mlir::stencil::flattenAndCrush(int64_t rank, ArrayRef<int64_t> offsets,
                               ArrayRef<double> weights, FlattenLayout layout,
                               std::string *why) {
  auto fail =
      [&](const std::string &message) -> std::optional<FlattenedKernel> {
    if (why)
      *why = message;
    return std::nullopt;
  };
  if (rank < 1 || rank > 3)
    return fail("rank must be 1, 2 or 3");
  if (layout.r1 < 1 || layout.r2 < 1 || layout.r1 * layout.r2 != 16)
    return fail("layout (r1, r2) needs r1 * r2 = 16");
  if (layout.r1 % 2)
    return fail("layout r1 must be even (inputs are loaded in pairs)");
  if (rank == 1 && layout.r2 != 1)
    return fail("a 1-D stencil takes layout (16, 1) only");
  if (int64_t(offsets.size()) != rank * int64_t(weights.size()))
    return fail("offsets and weights disagree");

  // The units: every input point the r2 x r1 block reads (crushed: one
  // column per distinct point) in aligned pairs along x, with its weight in
  // each row.
  UnitColumns units;
  for (int64_t p = 0, e = weights.size(); p < e; ++p) {
    if (weights[p] == 0.0)
      continue;
    ArrayRef<int64_t> o = offsets.slice(p * rank, rank);
    int64_t dz = rank == 3 ? o[0] : 0;
    int64_t dy = rank >= 2 ? o[rank - 2] : 0;
    for (int64_t u = 0; u < layout.r2; ++u)
      for (int64_t v = 0; v < layout.r1; ++v) {
        int64_t x = o[rank - 1] + v, base = 2 * floorDiv(x, 2);
        units[GatherUnit{dz, dy + u, base}][u * layout.r1 + v][x - base] +=
            weights[p];
      }
  }
  return assembleUnits(rank, layout, units);
}

FlattenedKernel mlir::stencil::collectUnits(int64_t rank, FlattenLayout layout,
                                            ArrayRef<double> kernels,
                                            ArrayRef<int64_t> gather) {
  int64_t numRows = gather.size() / (16 * 3);
  UnitColumns units;
  for (int64_t q = 0; q < numRows; ++q)
    for (int64_t slot = 0; slot < 16; ++slot) {
      bool used = false;
      for (int64_t m = 0; m < 16; ++m)
        for (int64_t e = 0; e < 2; ++e)
          used |= kernels[(q * 16 + m) * 32 + 2 * slot + e] != 0.0;
      if (!used)
        continue;
      ArrayRef<int64_t> g = gather.slice((q * 16 + slot) * 3, 3);
      auto &unit = units[GatherUnit{g[0], g[1], g[2]}];
      for (int64_t m = 0; m < 16; ++m)
        for (int64_t e = 0; e < 2; ++e)
          unit[m][e] += kernels[(q * 16 + m) * 32 + 2 * slot + e];
    }
  return assembleUnits(rank, layout, units);
}

/// nnz_m of unit k in every row.
static std::array<int, 16> countUnitNonZeros(const FlattenedKernel &kernel,
                                             int64_t k) {
  std::array<int, 16> nnz{};
  for (int64_t m = 0; m < 16; ++m)
    nnz[m] = (kernel.matrix.at(m, 2 * k) != 0.0) +
             (kernel.matrix.at(m, 2 * k + 1) != 0.0);
  return nnz;
}

namespace {
/// The conflict test on precomputed per-row counts.
struct ConflictTable {
  std::vector<std::array<int, 16>> nnz;
  explicit ConflictTable(const FlattenedKernel &kernel) {
    for (int64_t k = 0, e = kernel.units.size(); k < e; ++k)
      nnz.push_back(countUnitNonZeros(kernel, k));
  }
  bool conflict(int64_t p, int64_t q) const {
    for (int64_t m = 0; m < 16; ++m)
      if (nnz[p][m] + nnz[q][m] > 2)
        return true;
    return false;
  }
};
} // namespace

std::vector<std::pair<int64_t, int64_t>>
mlir::stencil::buildConflictGraph(const FlattenedKernel &kernel) {
  ConflictTable table(kernel);
  std::vector<std::pair<int64_t, int64_t>> edges;
  int64_t n = kernel.units.size();
  for (int64_t p = 0; p < n; ++p)
    for (int64_t q = p + 1; q < n; ++q)
      if (table.conflict(p, q))
        edges.push_back({p, q});
  return edges;
}

/// Edmonds' maximum matching of the compatibility graph (Boost Graph); mate
/// of every unit, -1 when unmatched.
static std::vector<int64_t> maximumMatching(const FlattenedKernel &kernel,
                                            const ConflictTable &table) {
  using Graph =
      boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;
  int64_t n = kernel.units.size();
  Graph graph(n);
  for (int64_t p = 0; p < n; ++p)
    for (int64_t q = p + 1; q < n; ++q)
      if (!table.conflict(p, q))
        boost::add_edge(p, q, graph);
  std::vector<boost::graph_traits<Graph>::vertex_descriptor> mate(n);
  boost::edmonds_maximum_cardinality_matching(graph, &mate[0]);
  std::vector<int64_t> result(n, -1);
  for (int64_t p = 0; p < n; ++p)
    if (mate[p] != boost::graph_traits<Graph>::null_vertex())
      result[p] = mate[p];
  return result;
}

/// Algorithm 1 (header comment); mate of every unit, -1 when left to a zero
/// unit.
static std::vector<int64_t> twoLevelMatching(const FlattenedKernel &kernel,
                                             const ConflictTable &table) {
  int64_t n = kernel.units.size();
  std::vector<int64_t> mate(n, -1);
  // The blocks: runs of units of one input row (units are sorted).
  std::vector<std::pair<int64_t, int64_t>> blocks; // [begin, end)
  for (int64_t k = 0; k < n; ++k) {
    if (k == 0 || kernel.units[k].dz != kernel.units[k - 1].dz ||
        kernel.units[k].dy != kernel.units[k - 1].dy)
      blocks.push_back({k, k});
    blocks.back().second = k + 1;
  }
  int64_t m = blocks.size();

  // Level 1: block i with block i + s1, unit t with unit t.
  int64_t s1 = std::max<int64_t>(m / 2, 1);
  std::vector<bool> blockMatched(m, false);
  for (int64_t i = 0; i + s1 < m; ++i) {
    int64_t j = i + s1;
    if (blockMatched[i] || blockMatched[j])
      continue;
    auto [bi, ei] = blocks[i];
    auto [bj, ej] = blocks[j];
    if (ei - bi != ej - bj)
      continue;
    bool ok = true;
    for (int64_t t = 0; t < ei - bi && ok; ++t)
      ok = !table.conflict(bi + t, bj + t);
    if (!ok)
      continue;
    blockMatched[i] = blockMatched[j] = true;
    for (int64_t t = 0; t < ei - bi; ++t) {
      mate[bi + t] = bj + t;
      mate[bj + t] = bi + t;
    }
  }

  // Level 2: inside each remaining block, u with u + s2.
  for (int64_t i = 0; i < m; ++i) {
    if (blockMatched[i])
      continue;
    auto [begin, end] = blocks[i];
    int64_t g = end - begin;
    int64_t s2 = std::max<int64_t>((g + 1) / 2, 1);
    for (int64_t u = 0; u < g; ++u) {
      int64_t v = u + s2;
      if (mate[begin + u] != -1 || v >= g || mate[begin + v] != -1)
        continue;
      if (table.conflict(begin + u, begin + v))
        continue;
      mate[begin + u] = begin + v;
      mate[begin + v] = begin + u;
    }
  }
  return mate;
}

/// The groups of a mate vector, in unit order.
static std::vector<std::pair<int64_t, int64_t>>
groupsOf(const std::vector<int64_t> &mate) {
  std::vector<std::pair<int64_t, int64_t>> groups;
  for (int64_t k = 0, n = mate.size(); k < n; ++k) {
    if (mate[k] == -1)
      groups.push_back({k, -1});
    else if (mate[k] > k)
      groups.push_back({k, mate[k]});
  }
  return groups;
}

static int64_t countPairs(const std::vector<int64_t> &mate) {
  int64_t pairs = 0;
  for (int64_t k = 0, n = mate.size(); k < n; ++k)
    pairs += mate[k] > k;
  return pairs;
}

UnitMatching mlir::stencil::matchUnitsTwoLevel(const FlattenedKernel &kernel) {
  ConflictTable table(kernel);
  std::vector<int64_t> mate = twoLevelMatching(kernel, table);
  UnitMatching result;
  result.groups = groupsOf(mate);
  result.method = MatchingMethod::TwoLevel;
  result.twoLevelPairs = countPairs(mate);
  result.maximumPairs = result.twoLevelPairs;
  return result;
}

UnitMatching mlir::stencil::matchUnits(const FlattenedKernel &kernel) {
  ConflictTable table(kernel);
  std::vector<int64_t> heuristic = twoLevelMatching(kernel, table);
  std::vector<int64_t> maximum = maximumMatching(kernel, table);
  UnitMatching result;
  result.twoLevelPairs = countPairs(heuristic);
  result.maximumPairs = countPairs(maximum);
  if (result.twoLevelPairs >= result.maximumPairs) {
    result.groups = groupsOf(heuristic);
    result.method = MatchingMethod::TwoLevel;
  } else {
    result.groups = groupsOf(maximum);
    result.method = MatchingMethod::Blossom;
  }
  return result;
}

KernelMatrix MatchedKernel::getKernel(int64_t mma) const {
  KernelMatrix k(16, 32);
  std::copy(kernels.begin() + mma * 512, kernels.begin() + (mma + 1) * 512,
            k.data.begin());
  return k;
}

std::vector<int64_t> MatchedKernel::getGatherOffsets() const {
  std::vector<int64_t> offsets;
  for (const std::optional<GatherUnit> &slot : slots) {
    GatherUnit unit = slot ? *slot : GatherUnit{};
    offsets.insert(offsets.end(), {unit.dz, unit.dy, unit.dx});
  }
  return offsets;
}

MatchedKernel mlir::stencil::buildMatchedKernel(const FlattenedKernel &kernel,
                                                const UnitMatching &matching) {
  MatchedKernel result;
  result.rank = kernel.rank;
  result.layout = kernel.layout;
  int64_t groups = matching.groups.size();
  int64_t mmas = std::max<int64_t>((groups + 7) / 8, 1);
  result.kernels.assign(mmas * 16 * 32, 0.0);
  result.slots.assign(mmas * 16, std::nullopt);
  for (int64_t i = 0; i < groups; ++i) {
    auto [first, second] = matching.groups[i];
    int64_t q = i / 8, group = i % 8;
    for (int64_t half = 0; half < 2; ++half) {
      int64_t unit = half ? second : first;
      if (unit < 0)
        continue;
      int64_t slot = 2 * group + half;
      result.slots[q * 16 + slot] = kernel.units[unit];
      for (int64_t m = 0; m < 16; ++m)
        for (int64_t e = 0; e < 2; ++e)
          result.kernels[(q * 16 + m) * 32 + 2 * slot + e] =
              kernel.matrix.at(m, 2 * unit + e);
    }
  }
  return result;
}

LayoutCost mlir::stencil::getLayoutCost(const MatchedKernel &kernel,
                                        int64_t points) {
  return getMmaCost(kernel.numMmas(), points);
}

LayoutCost mlir::stencil::getMmaCost(int64_t mmas, int64_t points) {
  LayoutCost cost;
  cost.mmas = mmas;
  // Every output row of A' holds each stencil point once.
  cost.slotUse = double(16 * points) / double(cost.mmas * 16 * 16);
  cost.operandBytesPerPoint = double(cost.mmas) * 512.0 / 128.0;
  return cost;
}
