//===- LaunchDescription.cpp - read a launch description ------------------===//
//
// The reader half of the codec for one kernel (LaunchDescription.h), and the
// steps it shares with the program reader (LaunchDescriptionReader.h): the
// text's sections of `key = value` lines, numbers, and a kernel's keys.
//
//===----------------------------------------------------------------------===//

#include "LaunchDescription.h"
#include "LaunchDescriptionReader.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

namespace stencil_run {
namespace detail {

std::string trim(const std::string &s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos)
    return "";
  size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

std::vector<std::string> split(const std::string &s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  std::istringstream in(s);
  while (std::getline(in, cur, sep))
    out.push_back(trim(cur));
  if (!s.empty() && s.back() == sep)
    out.push_back("");
  return out;
}

namespace {
/// What `convert` (a strtoll, strtod or strtoull) reads from `s`, when that
/// is the whole of `s` and in range. An embedded NUL ends the scan early,
/// so the end is compared with the string's size.
template <typename T, typename Convert>
bool parseWhole(const std::string &s, T &v, Convert convert) {
  if (s.empty())
    return false;
  char *end = nullptr;
  errno = 0;
  T x = convert(s.c_str(), &end);
  if (errno || end != s.c_str() + s.size())
    return false;
  v = x;
  return true;
}

/// A 32-bit word of `coefficients`: 1 to 8 hex digits, no `0x` or sign.
bool parseHexWord(const std::string &s, uint32_t &word) {
  unsigned long long x = 0;
  if (s.size() > 8 || s.find_first_of("xX+-") != std::string::npos ||
      !parseWhole(s, x, [](const char *p, char **end) {
        return std::strtoull(p, end, 16);
      }))
    return false;
  word = static_cast<uint32_t>(x); // at most 8 digits: it fits
  return true;
}

std::string dirName(const std::string &path) {
  size_t slash = path.find_last_of('/');
  if (slash == std::string::npos)
    return "";
  return path.substr(0, slash + 1);
}

/// A `[kind name]` line (trimmed, without `=`) as a new section.
bool openSection(const std::string &line, size_t lineNo,
                 const std::string &path, std::vector<Section> &sections,
                 std::string &error) {
  std::vector<std::string> words;
  std::istringstream in(line.back() == ']' ? line.substr(1, line.size() - 2)
                                           : std::string());
  for (std::string word; in >> word;)
    words.push_back(word);
  if (words.size() != 2) {
    error = path + ":" + std::to_string(lineNo) +
            ": expected a section '[kind name]', got '" + line + "'";
    return false;
  }
  Section section;
  section.kind = words[0];
  section.name = words[1];
  section.line = lineNo;
  sections.push_back(std::move(section));
  return true;
}
} // namespace

bool parseInt(const std::string &s, int64_t &v) {
  return parseWhole(s, v, [](const char *p, char **end) {
    return int64_t(std::strtoll(p, end, 10));
  });
}

bool parseDouble(const std::string &s, double &v) {
  double x = 0;
  if (!parseWhole(
          s, x,
          [](const char *p, char **end) { return std::strtod(p, end); }) ||
      !std::isfinite(x))
    return false;
  v = x;
  return true;
}

bool parseIntList(const std::string &s, std::vector<int64_t> &out) {
  out.clear();
  for (const std::string &item : split(s, ',')) {
    int64_t v;
    if (!parseInt(item, v))
      return false;
    out.push_back(v);
  }
  return !out.empty();
}

bool isName(const std::string &name) {
  bool ok = !name.empty() && name.size() < 256;
  for (char c : name)
    ok &= std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' ||
          c == '.';
  return ok;
}

bool readSections(const std::string &text, const std::string &path,
                  std::vector<Section> &sections, std::string &error) {
  sections.assign(1, Section());
  std::istringstream in(text);
  std::string line;
  size_t lineNo = 0;
  while (std::getline(in, line)) {
    ++lineNo;
    size_t hash = line.find('#');
    if (hash != std::string::npos)
      line.erase(hash);
    line = trim(line);
    if (line.empty())
      continue;
    size_t eq = line.find('=');
    if (eq == std::string::npos && line[0] == '[') {
      if (!openSection(line, lineNo, path, sections, error))
        return false;
      continue;
    }
    if (eq == std::string::npos) {
      error = path + ":" + std::to_string(lineNo) +
              ": expected 'key = value', got '" + line + "'";
      return false;
    }
    std::string key = trim(line.substr(0, eq));
    std::string value = trim(line.substr(eq + 1));
    KeyValues &kv = sections.back().kv;
    if (kv.count(key)) {
      error = path + ":" + std::to_string(lineNo) + ": duplicate key '" + key +
              "' (first on line " + std::to_string(kv[key].second) + ")";
      return false;
    }
    kv[key] = {value, lineNo};
  }
  return true;
}

bool readDescriptionFile(const std::string &path, const char *what,
                         std::string &text, std::string &error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = std::string("cannot open ") + what + " '" + path + "'";
    return false;
  }
  // At most the limit (plus one byte, to tell a longer file): a hostile
  // path such as a huge file or an endless device costs no more than that.
  char chunk[4096];
  text.clear();
  while (text.size() <= kMaxLaunchDescriptionBytes &&
         in.read(chunk, sizeof(chunk)).gcount() > 0)
    text.append(chunk, static_cast<size_t>(in.gcount()));
  if (text.size() > kMaxLaunchDescriptionBytes) {
    error = std::string(what) + " '" + path + "' is larger than " +
            std::to_string(kMaxLaunchDescriptionBytes >> 20) + " MiB";
    return false;
  }
  if (in.bad()) {
    error = std::string("error reading ") + what + " '" + path + "'";
    return false;
  }
  return true;
}

namespace {
/// The reader of one kernel's keys, a step per group of keys (in the order
/// their errors are reported); each step fails with `error` set.
class DescriptionReader {
public:
  DescriptionReader(KeyValues &kv, const std::string &path,
                    const Section *section, LaunchDescription &desc,
                    std::vector<std::string> *argNames, std::string &error,
                    std::vector<std::string> &warnings)
      : kv(kv), path(path), section(section), desc(desc), argNames(argNames),
        error(error), warnings(warnings) {}

  bool read() {
    desc = LaunchDescription();
    desc.path = path;
    return checkKeys() && readHeader() && readPattern() && readBoundary() &&
           readLaunchShape() && readBandKernel() && readTailKernel() &&
           readErrorBounds() && readCostKeys() && readCoefficients() &&
           readWeightsGlobal() && readRepack() && readArgs();
  }

private:
  /// Unknown keys (warnings), the required ones, `body` or the pattern.
  bool checkKeys();
  /// version, kernel, ptx, rank, element_type, accumulator.
  bool readHeader();
  /// The body, or offsets and weights; offsets within kMaxOffset.
  bool readPattern();
  /// halo | periodic | dirichlet(v).
  bool readBoundary();
  /// tile, block, steps_per_launch.
  bool readLaunchShape();
  /// The band kernel of a composed kernel: all four keys or none.
  bool readBandKernel();
  /// The tail kernel of a kernel that fuses steps.
  bool readTailKernel();
  /// composed_*, chain_abs_sum, fft_error_bound, shared_bytes.
  bool readErrorBounds();
  /// unit, unit_flops_per_point, schedule, vector_width, edge_unit and
  /// edge_flops_per_point (the benchmark scripts read them).
  bool readCostKeys();
  /// The packed coefficients, 32-bit hex words.
  bool readCoefficients();
  /// repack_unsupported and weights_global (a CUDA-core kernel's weights).
  bool readWeightsGlobal();
  /// The `repack*` keys: a recipe that packs new weights as the compiler did
  /// (CoefficientPacking.h), checked against the description's own weights
  /// and coefficients.
  bool readRepack();
  /// The recipe's sizes, map and 2:4 indices.
  bool readRecipeSlots(mlir::stencil::RepackRecipe &recipe);
  /// The kernel's arguments, in their order.
  bool readArgs();
  /// A program's kernel: at least one `in` and one `out`, one `sizes`.
  bool checkProgramArgs();

  std::string where(const std::string &key) {
    return path + ":" + std::to_string(kv[key].second) + ": ";
  }
  /// Where an error about the whole description (or section) points.
  std::string whole() {
    if (!section)
      return path + ": ";
    return path + ":" + std::to_string(section->line) + ": kernel '" +
           section->name + "': ";
  }
  bool require(const std::string &key) {
    if (!kv.count(key)) {
      error = whole() + "missing required key '" + key + "'";
      return false;
    }
    return true;
  }
  /// Threads per block: 1 to 3 sizes in 1..1024 (block, band_block,
  /// tail_block).
  bool parseBlock(const char *key, unsigned (&out)[3]);
  /// `rank` values (innermost first) in lowest..kMaxTile.
  bool parseRankList(const char *key, int64_t lowest,
                     std::vector<int64_t> &list);
  /// A finite number >= 0 (composed_abs_sum, chain_abs_sum,
  /// fft_error_bound).
  bool parseNonNegative(const char *key, double &out);
  /// An integer in lowest..highest (`range` says so in the message).
  bool parseIntIn(const char *key, int64_t lowest, int64_t highest,
                  const std::string &range, int64_t &out);
  /// A byte count of shared memory, 0 to 2^30 (shared_bytes,
  /// tail_shared_bytes).
  bool parseSharedBytes(const char *key, unsigned &out);
  /// How many of `keys` are given; an error naming the first missing one
  /// unless all or none are (`together` lists them for the message), or
  /// none are but `alsoNeedsThem` is given.
  int countTogether(const std::vector<const char *> &keys, const char *together,
                    const char *alsoNeedsThem, bool &ok);

  KeyValues &kv;
  const std::string &path;
  const Section *section;
  LaunchDescription &desc;
  std::vector<std::string> *argNames;
  std::string &error;
  std::vector<std::string> &warnings;
};

bool DescriptionReader::checkKeys() {
  static const std::set<std::string> known = {
      "version", "kernel", "ptx", "rank", "element_type", "steps_per_launch",
      "accumulator", "offsets", "weights", "boundary", "tile", "block",
      "shared_bytes", "coefficients", "args", "chain_abs_sum",
      "fft_error_bound", "body", "band_kernel", "band_tile", "band_block",
      "band_margins", "composed_abs_sum", "composed_points", "repack",
      "repack_type", "repack_rows", "repack_rows_per_block", "repack_radius",
      "repack_indices", "repack_map", "repack_unsupported", "weights_global",
      "tail_kernel", "tail_steps", "tail_tile", "tail_block",
      "tail_shared_bytes",
      // Read by the benchmark scripts (bench/table.py, bench/calibrate.py),
      // not by the runner.
      "unit", "unit_flops_per_point", "edge_unit", "edge_flops_per_point",
      "schedule", "vector_width"};
  // A program's kernel takes its version from the program's header.
  for (const auto &e : kv)
    if (!known.count(e.first) || (section && e.first == "version"))
      warnings.push_back(where(e.first) + "unknown key '" + e.first +
                         "' ignored");

  for (const char *k : {"version", "kernel", "ptx", "rank", "element_type",
                        "boundary", "tile", "block"})
    if ((!section || std::string(k) != "version") && !require(k))
      return false;
  // A linear stencil gives offsets and weights, a general one its body.
  if (kv.count("body") && (kv.count("offsets") || kv.count("weights"))) {
    error = where("body") + "a description has either 'body' or "
                            "'offsets'/'weights', not both";
    return false;
  }
  if (!kv.count("body"))
    for (const char *k : {"offsets", "weights"})
      if (!require(k))
        return false;
  return true;
}

bool DescriptionReader::readWeightsGlobal() {
  if (kv.count("repack_unsupported"))
    desc.repackUnsupported = kv["repack_unsupported"].first;
  if (!kv.count("weights_global"))
    return true;
  const std::string &name = kv["weights_global"].first;
  if (!isName(name)) {
    error = where("weights_global") + "bad PTX name '" + name + "'";
    return false;
  }
  if (desc.hasBody || desc.weights.empty()) {
    error = where("weights_global") +
            "a weights global needs the weights of a linear stencil";
    return false;
  }
  if (kv.count("repack")) {
    error = where("weights_global") + "a kernel has a weights global or a "
                                      "repacking recipe, not both";
    return false;
  }
  desc.weightsGlobal = name;
  return true;
}

bool DescriptionReader::readRepack() {
  using namespace mlir::stencil;
  const char *keys[] = {"repack",        "repack_type",
                        "repack_rows",   "repack_rows_per_block",
                        "repack_radius", "repack_map"};
  size_t present = 0;
  for (const char *key : keys)
    present += kv.count(key);
  if (present == 0) {
    if (kv.count("repack_indices")) {
      error = where("repack_indices") + "repack_indices without repack";
      return false;
    }
    return true;
  }
  if (present != sizeof(keys) / sizeof(keys[0])) {
    error = whole() + "repack, repack_type, repack_rows, "
                      "repack_rows_per_block, repack_radius and repack_map go "
                      "together";
    return false;
  }
  if (desc.hasBody || desc.weights.empty()) {
    error = where("repack") + "a recipe needs the weights of a linear stencil";
    return false;
  }
  RepackRecipe recipe;
  if (!parseRepackKind(kv["repack"].first, recipe.kind)) {
    error = where("repack") + "unknown repack '" + kv["repack"].first +
            "' (sptc, tc, tc-f64)";
    return false;
  }
  if (!parseOperandType(kv["repack_type"].first, recipe.type)) {
    error = where("repack_type") + "unknown repack_type '" +
            kv["repack_type"].first + "' (f16, bf16, f64)";
    return false;
  }
  if (!readRecipeSlots(recipe))
    return false;
  std::string why = recipe.verify(int64_t(desc.weights.size()));
  if (!why.empty()) {
    error = where("repack") + "malformed recipe: " + why;
    return false;
  }
  std::vector<uint32_t> words;
  if (!repackCoefficients(recipe, desc.weights, words, why) ||
      words != desc.coefficients) {
    error = where("repack") +
            "the recipe does not give the coefficients "
            "back from the weights" +
            (why.empty() ? "" : ": " + why);
    return false;
  }
  desc.repack = std::move(recipe);
  return true;
}

bool DescriptionReader::readRecipeSlots(mlir::stencil::RepackRecipe &recipe) {
  for (auto [key, field] :
       {std::pair<const char *, int64_t *>{"repack_rows", &recipe.numRows},
        {"repack_rows_per_block", &recipe.rowsPerBlock},
        {"repack_radius", &recipe.radius}})
    if (!parseInt(kv[key].first, *field)) {
      error = where(key) + "bad integer '" + kv[key].first + "'";
      return false;
    }
  // The map's size is checked against the rows before it is stored.
  int64_t maxSlots = int64_t(1) << 22;
  if (recipe.numRows < 1 || recipe.numRows > 4096 || recipe.rowsPerBlock < 0 ||
      recipe.rowsPerBlock > 16 || recipe.getNumSlots() > maxSlots) {
    error = where("repack_rows") + "repack_rows / repack_rows_per_block / "
                                   "repack_radius out of range";
    return false;
  }
  for (const std::string &item : split(kv["repack_map"].first, ',')) {
    int64_t j;
    if (!parseInt(item, j) || j < -1 || j >= int64_t(desc.weights.size())) {
      error = where("repack_map") + "bad map entry '" + item +
              "' (a weight index or -1)";
      return false;
    }
    if (int64_t(recipe.map.size()) == maxSlots)
      break;
    recipe.map.push_back(j);
  }
  if (!kv.count("repack_indices"))
    return true;
  for (char c : kv["repack_indices"].first) {
    if (c < '0' || c > '3' || int64_t(recipe.indices.size()) == maxSlots) {
      error = where("repack_indices") + "repack_indices holds one digit "
                                        "0..3 per slot";
      return false;
    }
    recipe.indices.push_back(uint8_t(c - '0'));
  }
  return true;
}

bool DescriptionReader::readHeader() {
  int64_t v;
  if (!section && (!parseInt(kv["version"].first, v) || v != 1)) {
    error = where("version") + "unsupported version '" + kv["version"].first +
            "' (this stencil-run reads version 1)";
    return false;
  }
  desc.version = section ? 2 : 1;
  desc.kernel = kv["kernel"].first;
  if (desc.kernel.empty()) {
    error = where("kernel") + "empty kernel name";
    return false;
  }
  const std::string &ptx = kv["ptx"].first;
  desc.ptx = ptx;
  desc.ptxPath = (!ptx.empty() && ptx[0] == '/') ? ptx : dirName(path) + ptx;
  if (!parseInt(kv["rank"].first, v) || v < 1 || v > 3) {
    error = where("rank") + "rank must be 1, 2 or 3, got '" + kv["rank"].first +
            "'";
    return false;
  }
  desc.rank = static_cast<int>(v);
  if (!parseElemType(kv["element_type"].first, desc.elementType)) {
    error = where("element_type") + "unknown element type '" +
            kv["element_type"].first + "' (f16, bf16, f32, f64)";
    return false;
  }
  if (kv.count("accumulator")) {
    if (!parseElemType(kv["accumulator"].first, desc.accumulator)) {
      error = where("accumulator") + "unknown accumulator type '" +
              kv["accumulator"].first + "' (f16, bf16, f32, f64)";
      return false;
    }
  } else {
    desc.accumulator =
        desc.elementType == ElemType::F64 ? ElemType::F64 : ElemType::F32;
  }
  return true;
}

bool DescriptionReader::readPattern() {
  if (kv.count("body")) {
    std::string bodyError;
    if (!desc.body.parse(kv["body"].first, desc.rank, bodyError)) {
      error = where("body") + bodyError;
      return false;
    }
    desc.hasBody = true;
    desc.bodyText = kv["body"].first;
    desc.offsets = desc.body.accesses();
  } else {
    for (const std::string &pt : split(kv["offsets"].first, ';')) {
      std::vector<int64_t> o;
      if (!parseIntList(pt, o) || static_cast<int>(o.size()) != desc.rank) {
        error = where("offsets") + "bad offset '" + pt + "' (need " +
                std::to_string(desc.rank) + " integers, dims outermost first)";
        return false;
      }
      desc.offsets.push_back(o);
    }
    if (desc.offsets.empty()) {
      error = where("offsets") + "no offsets (a stencil reads at least one "
                                 "point)";
      return false;
    }
    for (const std::string &w : split(kv["weights"].first, ',')) {
      double x;
      if (!parseDouble(w, x)) {
        error = where("weights") + "bad weight '" + w + "'";
        return false;
      }
      desc.weights.push_back(x);
    }
    if (desc.weights.size() != desc.offsets.size()) {
      error = where("weights") + std::to_string(desc.weights.size()) +
              " weights for " + std::to_string(desc.offsets.size()) +
              " offsets";
      return false;
    }
  }
  // The halo is as wide as the largest offset; the reference (and the
  // kernels) compute linear distances from them.
  for (const std::vector<int64_t> &o : desc.offsets)
    for (int64_t c : o)
      if (c < -kMaxOffset || c > kMaxOffset) {
        error = where(kv.count("body") ? "body" : "offsets") +
                "offset component " + std::to_string(c) +
                " out of range (at most " + std::to_string(kMaxOffset) +
                " in magnitude)";
        return false;
      }
  return true;
}

bool DescriptionReader::readBoundary() {
  const std::string &boundary = kv["boundary"].first;
  if (!parseBoundary(boundary, desc.boundary, desc.dirichletValue)) {
    error = where("boundary") + "unknown boundary '" + boundary +
            "' (halo, periodic or dirichlet(v) with a finite v)";
    return false;
  }
  return true;
}

bool DescriptionReader::parseBlock(const char *key, unsigned (&out)[3]) {
  std::vector<int64_t> sizes;
  if (!parseIntList(kv[key].first, sizes) || sizes.size() > 3) {
    error = where(key) + key + " must be 1 to 3 positive integers, got '" +
            kv[key].first + "'";
    return false;
  }
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] <= 0 || sizes[i] > 1024) {
      error = where(key) + key + " dimension out of range";
      return false;
    }
    out[i] = static_cast<unsigned>(sizes[i]);
  }
  return true;
}

bool DescriptionReader::parseRankList(const char *key, int64_t lowest,
                                      std::vector<int64_t> &list) {
  if (!parseIntList(kv[key].first, list) ||
      static_cast<int>(list.size()) != desc.rank) {
    error = where(key) + key + " must have " + std::to_string(desc.rank) +
            " integers (innermost dim first), got '" + kv[key].first + "'";
    return false;
  }
  for (int64_t x : list)
    if (x < lowest || x > kMaxTile) {
      error = where(key) + key + " values must be from " +
              std::to_string(lowest) + " to " + std::to_string(kMaxTile) +
              ", got " + std::to_string(x);
      return false;
    }
  return true;
}

bool DescriptionReader::parseNonNegative(const char *key, double &out) {
  double x = 0;
  if (!parseDouble(kv[key].first, x) || !(x >= 0) || !std::isfinite(x)) {
    error = where(key) + key + " must be a finite number >= 0, got '" +
            kv[key].first + "'";
    return false;
  }
  out = x;
  return true;
}

bool DescriptionReader::parseIntIn(const char *key, int64_t lowest,
                                   int64_t highest, const std::string &range,
                                   int64_t &out) {
  int64_t v;
  if (!parseInt(kv[key].first, v) || v < lowest || v > highest) {
    error = where(key) + key + " must be an integer from " + range + ", got '" +
            kv[key].first + "'";
    return false;
  }
  out = v;
  return true;
}

bool DescriptionReader::parseSharedBytes(const char *key, unsigned &out) {
  int64_t v;
  if (!parseInt(kv[key].first, v) || v < 0 || v > (1 << 30)) {
    error = where(key) + "bad " + key + " '" + kv[key].first + "'";
    return false;
  }
  out = static_cast<unsigned>(v);
  return true;
}

int DescriptionReader::countTogether(const std::vector<const char *> &keys,
                                     const char *together,
                                     const char *alsoNeedsThem, bool &ok) {
  int count = 0;
  for (const char *k : keys)
    count += kv.count(k) ? 1 : 0;
  ok = true;
  if ((count != 0 && count != int(keys.size())) ||
      (count == 0 && alsoNeedsThem && kv.count(alsoNeedsThem))) {
    for (const char *k : keys)
      if (!kv.count(k)) {
        error =
            path + ": missing key '" + k + "' (" + together + " go together)";
        ok = false;
        return count;
      }
  }
  return count;
}

bool DescriptionReader::readLaunchShape() {
  if (!parseIntList(kv["tile"].first, desc.tile) ||
      static_cast<int>(desc.tile.size()) != desc.rank) {
    error = where("tile") + "tile must have " + std::to_string(desc.rank) +
            " positive integers (innermost dim first), got '" +
            kv["tile"].first + "'";
    return false;
  }
  for (int64_t t : desc.tile)
    if (t <= 0 || t > kMaxTile) {
      error = where("tile") + "tile sizes must be from 1 to " +
              std::to_string(kMaxTile) + ", got " + std::to_string(t);
      return false;
    }
  if (!parseBlock("block", desc.block))
    return false;
  int64_t v;
  if (kv.count("steps_per_launch")) {
    if (!parseIntIn("steps_per_launch", 1, 1024, "1 to 1024", v))
      return false;
    desc.stepsPerLaunch = static_cast<int>(v);
  }
  return true;
}

bool DescriptionReader::readBandKernel() {
  bool ok;
  int count = countTogether(
      {"band_kernel", "band_tile", "band_block", "band_margins"},
      "band_kernel, band_tile, band_block and band_margins", nullptr, ok);
  if (!ok)
    return false;
  if (count == 4) {
    desc.bandKernel = kv["band_kernel"].first;
    if (desc.bandKernel.empty()) {
      error = where("band_kernel") + "empty kernel name";
      return false;
    }
    if (!parseRankList("band_tile", 1, desc.bandTile) ||
        !parseRankList("band_margins", 0, desc.bandMargins) ||
        !parseBlock("band_block", desc.bandBlock))
      return false;
  }
  return true;
}

bool DescriptionReader::readTailKernel() {
  // tail_kernel, tail_steps, tail_tile and tail_block together,
  // tail_shared_bytes optional (0).
  bool ok;
  int count =
      countTogether({"tail_kernel", "tail_steps", "tail_tile", "tail_block"},
                    "tail_kernel, tail_steps, tail_tile and tail_block",
                    "tail_shared_bytes", ok);
  if (!ok)
    return false;
  if (count != 4)
    return true;
  desc.tailKernel = kv["tail_kernel"].first;
  if (desc.tailKernel.empty()) {
    error = where("tail_kernel") + "empty kernel name";
    return false;
  }
  if (desc.stepsPerLaunch < 2) {
    error = where("tail_kernel") +
            "a tail kernel needs steps_per_launch > 1 (it does the steps "
            "a launch of the kernel leaves over)";
    return false;
  }
  int64_t v;
  if (!parseIntIn("tail_steps", 1, desc.stepsPerLaunch - 1,
                  "1 to " + std::to_string(desc.stepsPerLaunch - 1) +
                      " (below steps_per_launch)",
                  v))
    return false;
  desc.tailSteps = static_cast<int>(v);
  if (!parseRankList("tail_tile", 1, desc.tailTile) ||
      !parseBlock("tail_block", desc.tailBlock))
    return false;
  return !kv.count("tail_shared_bytes") ||
         parseSharedBytes("tail_shared_bytes", desc.tailSharedBytes);
}

bool DescriptionReader::readErrorBounds() {
  if (kv.count("composed_abs_sum") != kv.count("composed_points")) {
    error = path + ": composed_abs_sum and composed_points go together";
    return false;
  }
  if (kv.count("composed_abs_sum") &&
      (!parseNonNegative("composed_abs_sum", desc.composedAbsSum) ||
       !parseIntIn("composed_points", 1, 0x7fffffffLL, "1 to 2^31 - 1",
                   desc.composedPoints)))
    return false;
  if (kv.count("chain_abs_sum") &&
      !parseNonNegative("chain_abs_sum", desc.chainAbsSum))
    return false;
  if (kv.count("fft_error_bound") &&
      !parseNonNegative("fft_error_bound", desc.fftErrorBound))
    return false;
  return !kv.count("shared_bytes") ||
         parseSharedBytes("shared_bytes", desc.sharedBytes);
}

bool DescriptionReader::readCostKeys() {
  if (kv.count("unit"))
    desc.unit = kv["unit"].first;
  if (kv.count("schedule"))
    desc.schedule = kv["schedule"].first;
  double x;
  if (kv.count("unit_flops_per_point")) {
    if (!parseNonNegative("unit_flops_per_point", x))
      return false;
    desc.unitFlopsPerPoint = x;
  }
  bool ok;
  if (countTogether({"edge_unit", "edge_flops_per_point"},
                    "edge_unit and edge_flops_per_point", nullptr, ok) == 2) {
    desc.edgeUnit = kv["edge_unit"].first;
    if (!parseNonNegative("edge_flops_per_point", x))
      return false;
    desc.edgeFlopsPerPoint = x;
  }
  if (!ok)
    return false;
  if (kv.count("vector_width")) {
    int64_t v;
    if (!parseIntIn("vector_width", 1, 16, "1 to 16", v))
      return false;
    desc.vectorWidth = static_cast<int>(v);
  }
  return true;
}

bool DescriptionReader::readCoefficients() {
  if (!kv.count("coefficients") || kv["coefficients"].first.empty())
    return true;
  desc.hasCoefficients = true;
  for (const std::string &w : split(kv["coefficients"].first, ',')) {
    uint32_t word;
    if (!parseHexWord(w, word)) {
      error = where("coefficients") + "bad 32-bit hex word '" + w +
              "' (hex digits, no 0x)";
      return false;
    }
    desc.coefficients.push_back(word);
  }
  return true;
}

bool DescriptionReader::readArgs() {
  bool given = kv.count("args");
  std::string args = given ? kv["args"].first : "in,out,coeffs,sizes";
  std::string at = given ? where("args") : whole();
  std::vector<std::string> names;
  std::set<std::string> seen;
  for (const std::string &a : split(args, ',')) {
    // A program's kernel may name an argument: `name:role`.
    size_t colon = section ? a.find(':') : std::string::npos;
    std::string name = a, role = a;
    if (colon != std::string::npos) {
      name = trim(a.substr(0, colon));
      role = trim(a.substr(colon + 1));
    }
    if (role != "in" && role != "out" && role != "coeffs" && role != "sizes") {
      error = at + "unknown argument '" + a + "' (in, out, coeffs, sizes" +
              (section ? "; a name:role" : "") + ")";
      return false;
    }
    if (!isName(name)) {
      error = at + "bad argument name '" + name + "'";
      return false;
    }
    if (!seen.insert(name).second) {
      error = at + "argument '" + name + "' listed twice";
      return false;
    }
    desc.args.push_back(role);
    names.push_back(name);
  }
  if (section && !checkProgramArgs())
    return false;
  for (const char *a : {"in", "out", "sizes"})
    if (!section && !seen.count(a)) {
      error = at + "args must contain '" + a + "'";
      return false;
    }
  if (desc.hasCoefficients && std::find(desc.args.begin(), desc.args.end(),
                                        "coeffs") == desc.args.end()) {
    error = at + "coefficients given but 'coeffs' not in args";
    return false;
  }
  if (argNames)
    *argNames = std::move(names);
  return true;
}

bool DescriptionReader::checkProgramArgs() {
  std::string at = kv.count("args") ? where("args") : whole();
  for (auto [role, most] : {std::pair<const char *, size_t>{"in", SIZE_MAX},
                            {"out", SIZE_MAX},
                            {"sizes", 1},
                            {"coeffs", 1}}) {
    size_t count = std::count(desc.args.begin(), desc.args.end(), role);
    if (count > most) {
      error = at + "args has " + std::to_string(count) +
              " arguments of role '" + role + "' (at most one)";
      return false;
    }
    if (count == 0 && std::string(role) != "coeffs") {
      error = at + "args must contain an argument of role '" + role + "'";
      return false;
    }
  }
  return true;
}
} // namespace

bool readKernelKeys(KeyValues &kv, const std::string &path,
                    const Section *section, LaunchDescription &desc,
                    std::vector<std::string> *argNames, std::string &error,
                    std::vector<std::string> &warnings) {
  return DescriptionReader(kv, path, section, desc, argNames, error, warnings)
      .read();
}

bool readSingleKernel(std::vector<Section> &sections, const std::string &path,
                      LaunchDescription &desc, std::string &error,
                      std::vector<std::string> &warnings) {
  KeyValues &header = sections[0].kv;
  int64_t version;
  if (header.count("version") && parseInt(header["version"].first, version) &&
      version == 2) {
    error = path + ":" + std::to_string(header["version"].second) +
            ": version 2 is a launch program (several kernels and buffers), "
            "which this reader of one kernel's description does not take";
    return false;
  }
  if (sections.size() > 1) {
    error = path + ":" + std::to_string(sections[1].line) + ": a section ('[" +
            sections[1].kind + " " + sections[1].name +
            "]') belongs to a launch program (version 2); a description of "
            "one kernel (version 1) has none";
    return false;
  }
  return readKernelKeys(header, path, nullptr, desc, nullptr, error, warnings);
}

} // namespace detail

using namespace detail;

bool parseLaunchDescription(const std::string &path, LaunchDescription &desc,
                            std::string &error,
                            std::vector<std::string> &warnings) {
  return readFile(path, "launch description", parseLaunchDescriptionText, desc,
                  error, warnings);
}

bool parseLaunchDescriptionText(const std::string &text,
                                const std::string &path,
                                LaunchDescription &desc, std::string &error,
                                std::vector<std::string> &warnings) {
  std::vector<Section> sections;
  return readSections(text, path, sections, error) &&
         readSingleKernel(sections, path, desc, error, warnings);
}

namespace {
const std::pair<Boundary, const char *> kBoundaries[] = {
    {Boundary::Halo, "halo"},
    {Boundary::Periodic, "periodic"},
    {Boundary::Dirichlet, "dirichlet"},
};
} // namespace

const char *getBoundaryKeyword(Boundary boundary) {
  return getName(kBoundaries, boundary, "halo");
}

bool parseBoundary(const std::string &text, Boundary &boundary,
                   double &dirichletValue) {
  for (Boundary plain : {Boundary::Halo, Boundary::Periodic})
    if (text == getBoundaryKeyword(plain)) {
      boundary = plain;
      return true;
    }
  // dirichlet(v): the value is stored only when the whole text reads.
  const std::string dirichlet =
      std::string(getBoundaryKeyword(Boundary::Dirichlet)) + "(";
  double value;
  if (text.rfind(dirichlet, 0) != 0 || text.back() != ')' ||
      !parseDouble(trim(text.substr(dirichlet.size(),
                                    text.size() - dirichlet.size() - 1)),
                   value))
    return false;
  boundary = Boundary::Dirichlet;
  dirichletValue = value;
  return true;
}

} // namespace stencil_run
