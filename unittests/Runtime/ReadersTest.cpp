//===- ReadersTest.cpp - The runtime's .launch and .npy readers ----------===//
//
// The readers of untrusted input (the runtime's, which stencil-run shares): the
// launch description parser (parseLaunchDescriptionText and its file
// wrapper) and the .npy reader (readNpy from a stream and from a file).
// Valid inputs round-trip; every malformed or hostile one is rejected with
// its own message instead of crashing, overflowing, recursing without bound
// or allocating what the input does not hold.
//
//===----------------------------------------------------------------------===//

#include "../Support/SmallRecipe.h"
#include "BodyExpr.h"
#include "HostUtil.h"
#include "LaunchDescription.h"

#include "gtest/gtest.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <streambuf>

using namespace stencil_run;

namespace {

/// `text` contains `part` (GoogleTest without GoogleMock's HasSubstr).
::testing::AssertionResult contains(const std::string &text,
                                    const std::string &part) {
  if (text.find(part) != std::string::npos)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "'" << text << "' does not contain '" << part << "'";
}

//===----------------------------------------------------------------------===//
// .npy
//===----------------------------------------------------------------------===//

/// A .npy file: version 1.0 (2-byte length) or 2.0 (4-byte length), the
/// given header text and data bytes, with the announced header length
/// `declaredLen` (the real one when negative).
std::string npyBytes(const std::string &header, const std::string &data,
                     int major = 1, int64_t declaredLen = -1) {
  std::string s = "\x93NUMPY";
  s += static_cast<char>(major);
  s += '\0';
  uint32_t len = declaredLen < 0 ? static_cast<uint32_t>(header.size())
                                 : static_cast<uint32_t>(declaredLen);
  s += static_cast<char>(len & 0xff);
  s += static_cast<char>((len >> 8) & 0xff);
  if (major != 1) {
    s += static_cast<char>((len >> 16) & 0xff);
    s += static_cast<char>((len >> 24) & 0xff);
  }
  return s + header + data;
}

std::string npyHeader(const std::string &descr, const std::string &shape,
                      const std::string &fortran = "False") {
  return "{'descr': " + descr + ", 'fortran_order': " + fortran +
         ", 'shape': " + shape + ", }\n";
}

struct NpyResult {
  bool ok;
  std::vector<int64_t> shape;
  std::vector<double> values;
  std::string dtype;
  std::string error;
};

NpyResult readNpyBytes(const std::string &bytes) {
  std::istringstream in(bytes);
  NpyResult r;
  r.ok = readNpy(in, "x.npy", r.shape, r.values, r.dtype, r.error);
  return r;
}

/// A read-only stream buffer over a string that cannot seek (like a pipe).
class PipeBuf : public std::streambuf {
public:
  explicit PipeBuf(std::string s) : data(std::move(s)) {
    setg(&data[0], &data[0], &data[0] + data.size());
  }

private:
  std::string data;
};

TEST(NpyReaderTest, RoundTripThroughFile) {
  std::vector<int64_t> shape = {3, 4};
  std::vector<double> values;
  for (int i = 0; i < 12; ++i)
    values.push_back(0.25 * i - 1.0);
  for (const char *dtype : {"<f2", "<f4", "<f8"}) {
    std::string path = ::testing::TempDir() + "stencil-run-readers.npy";
    std::string error;
    ASSERT_TRUE(writeNpy(path, shape, values, dtype, error)) << error;
    std::vector<int64_t> shapeBack;
    std::vector<double> valuesBack;
    std::string dtypeBack;
    ASSERT_TRUE(readNpy(path, shapeBack, valuesBack, dtypeBack, error))
        << error;
    EXPECT_EQ(shapeBack, shape);
    EXPECT_EQ(valuesBack, values);
    EXPECT_EQ(dtypeBack, dtype);

    // The same bytes through the stream entry point, seekable or not.
    std::ifstream file(path, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(file)),
                      std::istreambuf_iterator<char>());
    std::remove(path.c_str());
    NpyResult r = readNpyBytes(bytes);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.shape, shape);
    EXPECT_EQ(r.values, values);
    PipeBuf pipe(bytes);
    std::istream piped(&pipe);
    ASSERT_TRUE(readNpy(piped, "pipe", shapeBack, valuesBack, dtypeBack, error))
        << error;
    EXPECT_EQ(valuesBack, values);
  }
}

TEST(NpyReaderTest, AcceptsNumPyShapeSpellings) {
  // 1-D "(n,)", a scalar "()", version 2.0, double quotes, a 'L' suffix.
  std::string eight(8, '\0');
  double two = 2.0;
  std::memcpy(&eight[0], &two, 8);
  NpyResult r = readNpyBytes(npyBytes(npyHeader("'<f8'", "(1,)"), eight));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.shape, std::vector<int64_t>({1}));
  EXPECT_EQ(r.values, std::vector<double>({2.0}));
  r = readNpyBytes(npyBytes(npyHeader("'<f8'", "()"), eight));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(r.shape.empty());
  EXPECT_EQ(r.values.size(), 1u);
  r = readNpyBytes(npyBytes("{\"descr\": \"<f8\", \"fortran_order\": False, "
                            "\"shape\": (1L, 1L)}",
                            eight, 2));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.shape, std::vector<int64_t>({1, 1}));
  // A zero dimension: no data needed.
  r = readNpyBytes(npyBytes(npyHeader("'<f4'", "(0, 7)"), ""));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(r.values.empty());
}

TEST(NpyReaderTest, RejectsBadMagicAndVersion) {
  NpyResult r = readNpyBytes("PK\x03\x04 not numpy");
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(contains(r.error, "is not a .npy file"));
  r = readNpyBytes("\x93NUM");
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(contains(r.error, "is not a .npy file"));
  r = readNpyBytes(npyBytes(npyHeader("'<f8'", "(1,)"), "", 7));
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(contains(r.error, "unsupported .npy version 7"));
  r = readNpyBytes(std::string("\x93NUMPY\x01\x00", 8) + "\x05");
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(contains(r.error, "truncated header"));
}

TEST(NpyReaderTest, RejectsHeaderLongerThanTheLimitOrTheFile) {
  // 4 GiB - 1 announced (version 2.0): refused before any allocation.
  NpyResult r = readNpyBytes(npyBytes("{}", "", 2, 0xffffffffll));
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(contains(r.error, "header length 4294967295 exceeds the "
                                "limit of 1048576 bytes"));
  // Under the limit but longer than the stream.
  r = readNpyBytes(npyBytes("{'descr': '<f8'}", "", 2, 1000));
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(contains(r.error, "truncated header (1000 bytes announced, "
                                "16 present)"));
  // The same from a stream that cannot tell its size.
  PipeBuf pipe(npyBytes("{'descr': '<f8'}", "", 1, 1000));
  std::istream piped(&pipe);
  std::vector<int64_t> shape;
  std::vector<double> values;
  std::string dtype, error;
  EXPECT_FALSE(readNpy(piped, "pipe", shape, values, dtype, error));
  EXPECT_TRUE(contains(error, "truncated header"));
}

TEST(NpyReaderTest, RejectsMissingFields) {
  NpyResult r = readNpyBytes(
      npyBytes("{'descr': '<f8', 'shape': (2,), }", std::string(16, '\0')));
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(contains(r.error, "malformed header"));
  r = readNpyBytes(npyBytes("{'descr': ", ""));
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(contains(r.error, "malformed header"));
  // Binary junk in the header is not echoed raw.
  r = readNpyBytes(npyBytes(std::string("\x01\x02\n", 3), ""));
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(contains(r.error, "malformed header: ???"));
}

TEST(NpyReaderTest, RejectsUnquotedOrUnsupportedDescr) {
  // An empty or one-character descr used to reach substr(1, size - 2).
  NpyResult r = readNpyBytes(npyBytes(npyHeader("", "(1,)"), ""));
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(contains(r.error, "descr is not a quoted string"));
  r = readNpyBytes(
      npyBytes("{'descr':x, 'fortran_order': False, 'shape': (1,)}", ""));
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(contains(r.error, "descr is not a quoted string: x"));
  r = readNpyBytes(npyBytes(npyHeader("<f8", "(1,)"), ""));
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(contains(r.error, "descr is not a quoted string"));
  r = readNpyBytes(npyBytes(npyHeader("'>f8'", "(1,)"), ""));
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(contains(r.error, "dtype '>f8' not supported"));
  r = readNpyBytes(npyBytes(npyHeader("'<i4'", "(1,)"), ""));
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(contains(r.error, "dtype '<i4' not supported"));
}

TEST(NpyReaderTest, RejectsFortranOrder) {
  NpyResult r = readNpyBytes(
      npyBytes(npyHeader("'<f8'", "(1,)", "True"), std::string(8, '\0')));
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(contains(r.error, "Fortran-order arrays are not supported"));
  r = readNpyBytes(
      npyBytes(npyHeader("'<f8'", "(1,)", "Falsehood"), std::string(8, '\0')));
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(contains(r.error, "fortran_order is 'Falsehood'"));
}

TEST(NpyReaderTest, RejectsBadShapes) {
  for (const char *shape :
       {"(3,,4)", "(,)", "(a,)", "(1.5,)", "(+3,)", "(0x10,)", "5", "((3),)"}) {
    NpyResult r = readNpyBytes(npyBytes(npyHeader("'<f8'", shape), ""));
    EXPECT_FALSE(r.ok) << shape;
    EXPECT_TRUE(contains(r.error, "bad shape")) << shape;
  }
  // An unclosed tuple: the field itself is missing.
  NpyResult r = readNpyBytes(npyBytes(npyHeader("'<f8'", "(3, 4"), ""));
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(contains(r.error, "malformed header"));
  r = readNpyBytes(npyBytes(npyHeader("'<f8'", "(-1, 4)"), ""));
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(contains(r.error, "negative dimension -1"));
  // Beyond int64: strtoll's overflow is an error, not a clamped value.
  r = readNpyBytes(npyBytes(npyHeader("'<f8'", "(99999999999999999999,)"), ""));
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(contains(r.error, "bad shape"));
}

TEST(NpyReaderTest, RejectsShapeProductOverflow) {
  // 2^32 * 2^32 elements: the product wraps a 64-bit size.
  NpyResult r = readNpyBytes(
      npyBytes(npyHeader("'<f8'", "(4294967296, 4294967296)"), ""));
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(contains(r.error, "is too large (the data size overflows)"));
  r = readNpyBytes(npyBytes(npyHeader("'<f2'", "(9223372036854775807, 2)"),
                            std::string(8, '\0')));
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(contains(r.error, "overflows"));
}

TEST(NpyReaderTest, RejectsDataShorterThanTheShape) {
  // 2^40 elements announced, 16 bytes present: rejected before allocating.
  auto start = std::chrono::steady_clock::now();
  NpyResult r = readNpyBytes(
      npyBytes(npyHeader("'<f8'", "(1048576, 1048576)"), std::string(16, 0)));
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(contains(r.error, "truncated data (shape (1048576, 1048576) "
                                "needs 8796093022208 bytes, 16 present)"));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  r = readNpyBytes(npyBytes(npyHeader("'<f4'", "(2, 3)"), std::string(23, 0)));
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(contains(r.error, "needs 24 bytes, 23 present"));
  EXPECT_TRUE(r.values.empty());
  EXPECT_TRUE(r.shape.empty());
  // Not seekable: read in chunks, so a short stream fails early as well.
  PipeBuf pipe(
      npyBytes(npyHeader("'<f8'", "(1048576, 1048576)"), std::string(16, 0)));
  std::istream piped(&pipe);
  std::vector<int64_t> shape;
  std::vector<double> values;
  std::string dtype, error;
  EXPECT_FALSE(readNpy(piped, "pipe", shape, values, dtype, error));
  EXPECT_TRUE(contains(error, "truncated data (shape (1048576, 1048576) "
                              "needs 8796093022208 bytes)"));
}

TEST(NpyReaderTest, MissingFileIsAnError) {
  std::vector<int64_t> shape;
  std::vector<double> values;
  std::string dtype, error;
  EXPECT_FALSE(readNpy(::testing::TempDir() + "no-such-file.npy", shape, values,
                       dtype, error));
  EXPECT_TRUE(contains(error, "cannot open"));
}

//===----------------------------------------------------------------------===//
// Launch descriptions
//===----------------------------------------------------------------------===//

const char *kHeat2d = R"(# stencil launch description v1
version = 1
kernel = heat2d_cuda_core
ptx = heat-2d.ptx
rank = 2
element_type = f16
accumulator = f32
offsets = -1,0;0,-1;0,0;0,1;1,0
weights = 0.09,0.09,0.21,0.29,0.31
boundary = periodic
steps_per_launch = 2
tile = 64,16
block = 256,1,1
shared_bytes = 4096
chain_abs_sum = 1.5
coefficients = 3c003c00,0000ffff
args = in,out,coeffs,sizes
unit = fma.f32
)";

/// `text` with `key`'s line replaced by `line` (removed when empty; added
/// at the end when there is none).
std::string replaceLine(const std::string &text, const std::string &key,
                        const std::string &line) {
  std::istringstream in(text);
  std::string out, l;
  bool found = false;
  while (std::getline(in, l)) {
    if (l.rfind(key + " =", 0) == 0) {
      found = true;
      if (!line.empty())
        out += line + "\n";
    } else {
      out += l + "\n";
    }
  }
  if (!found)
    out += line + "\n";
  return out;
}

/// kHeat2d with `key`'s line replaced by `line`.
std::string withLine(const std::string &key, const std::string &line) {
  return replaceLine(kHeat2d, key, line);
}

/// kHeat2d as a general stencil: `body` (on the offsets' line 8) instead of
/// offsets and weights.
std::string withBody(const std::string &body) {
  return replaceLine(withLine("offsets", "body = " + body), "weights", "");
}

struct LaunchResult {
  bool ok;
  LaunchDescription desc;
  std::string error;
  std::vector<std::string> warnings;
};

LaunchResult parse(const std::string &text) {
  LaunchResult r;
  r.ok = parseLaunchDescriptionText(text, "dir/k.launch", r.desc, r.error,
                                    r.warnings);
  return r;
}

/// Expects `text` to be rejected with a message containing `message`.
void expectRejected(const std::string &text, const std::string &message) {
  LaunchResult r = parse(text);
  EXPECT_FALSE(r.ok) << text;
  EXPECT_TRUE(contains(r.error, message)) << text;
}

TEST(LaunchTextTest, ParsesAValidDescription) {
  LaunchResult r = parse(kHeat2d);
  ASSERT_TRUE(r.ok) << r.error;
  const LaunchDescription &d = r.desc;
  EXPECT_EQ(d.path, "dir/k.launch");
  EXPECT_EQ(d.version, 1);
  EXPECT_EQ(d.kernel, "heat2d_cuda_core");
  EXPECT_EQ(d.ptxPath, "dir/heat-2d.ptx");
  EXPECT_EQ(d.rank, 2);
  EXPECT_EQ(d.elementType, ElemType::F16);
  EXPECT_EQ(d.accumulator, ElemType::F32);
  std::vector<std::vector<int64_t>> offsets = {
      {-1, 0}, {0, -1}, {0, 0}, {0, 1}, {1, 0}};
  EXPECT_EQ(d.offsets, offsets);
  EXPECT_EQ(d.weights, std::vector<double>({0.09, 0.09, 0.21, 0.29, 0.31}));
  EXPECT_FALSE(d.hasBody);
  EXPECT_EQ(d.boundary, Boundary::Periodic);
  EXPECT_EQ(d.stepsPerLaunch, 2);
  EXPECT_EQ(d.tile, std::vector<int64_t>({64, 16}));
  EXPECT_EQ(d.block[0], 256u);
  EXPECT_EQ(d.block[1], 1u);
  EXPECT_EQ(d.block[2], 1u);
  EXPECT_EQ(d.sharedBytes, 4096u);
  EXPECT_EQ(d.chainAbsSum, 1.5);
  EXPECT_TRUE(d.hasCoefficients);
  EXPECT_EQ(d.coefficients, std::vector<uint32_t>({0x3c003c00u, 0xffffu}));
  EXPECT_EQ(d.args, std::vector<std::string>({"in", "out", "coeffs", "sizes"}));
  EXPECT_TRUE(r.warnings.empty());

  // An absolute ptx path stays as written; an unknown key is a warning.
  r = parse(withLine("ptx", "ptx = /abs/k.ptx") + "future_key = 3\n");
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.desc.ptxPath, "/abs/k.ptx");
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_TRUE(contains(r.warnings[0], "unknown key 'future_key' ignored"));
}

/// A 1-D description whose `coefficients` come from the repacking recipe
/// of SmallRecipe.h.
std::string withRecipe() {
  std::string text = replaceLine(kHeat2d, "rank", "rank = 1");
  text = replaceLine(text, "offsets", "offsets = -1;0;1");
  text = replaceLine(text, "weights", "weights = 0.25,-0.5,0.75");
  text = replaceLine(text, "tile", "tile = 64");
  text = replaceLine(text, "steps_per_launch", "");
  text = replaceLine(
      text, "coefficients",
      mlir::stencil::test::smallRecipeCoefficients({0.25, -0.5, 0.75}));
  return text + mlir::stencil::test::kSmallRecipeKeys;
}

TEST(LaunchTextTest, ParsesARepackingRecipe) {
  LaunchResult r = parse(withRecipe());
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(r.warnings.empty());
  ASSERT_TRUE(r.desc.repack.has_value());
  EXPECT_EQ(r.desc.repack->kind, mlir::stencil::RepackKind::sptc);
  EXPECT_EQ(r.desc.repack->map, std::vector<int64_t>({0, 1, 1, 2}));
  EXPECT_EQ(r.desc.repack->indices, std::vector<uint8_t>({0, 1, 1, 2}));
  // Without one, the reason is kept.
  r = parse(kHeat2d + std::string("repack_unsupported = it is fused\n"));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_FALSE(r.desc.repack.has_value());
  EXPECT_EQ(r.desc.repackUnsupported, "it is fused");
}

TEST(LaunchTextTest, RejectsBadRepackingRecipes) {
  std::string text = withRecipe();
  expectRejected(replaceLine(text, "repack_rows", ""), "go together");
  expectRejected(replaceLine(text, "repack", "repack = dense"),
                 "unknown repack 'dense'");
  expectRejected(replaceLine(text, "repack_type", "repack_type = f32"),
                 "unknown repack_type 'f32'");
  expectRejected(replaceLine(text, "repack_rows", "repack_rows = x"),
                 "bad integer 'x'");
  expectRejected(replaceLine(text, "repack_rows", "repack_rows = 5000"),
                 "out of range");
  expectRejected(replaceLine(text, "repack_map", "repack_map = 0,1,1,3"),
                 "bad map entry '3'");
  expectRejected(replaceLine(text, "repack_map", "repack_map = 0,1,1"),
                 "the map has 3 entries, not 4");
  expectRejected(replaceLine(text, "repack_indices", "repack_indices = 0142"),
                 "one digit 0..3 per slot");
  expectRejected(replaceLine(text, "repack_indices", "repack_indices = 1012"),
                 "not increasing");
  // A recipe that does not give the coefficients back.
  expectRejected(replaceLine(text, "repack_map", "repack_map = 0,1,2,1"),
                 "does not give the coefficients back");
  expectRejected(
      replaceLine(withRecipe(), "weights", "weights = 0.25,-0.5,0.5"),
      "does not give the coefficients back");
  // A CUDA-core kernel's weights global.
  LaunchResult g = parse(kHeat2d + std::string("weights_global = k_w\n"));
  ASSERT_TRUE(g.ok) << g.error;
  EXPECT_EQ(g.desc.weightsGlobal, "k_w");
  expectRejected(kHeat2d + std::string("weights_global = a b\n"),
                 "bad PTX name 'a b'");
  expectRejected(withBody("a(0,0)") + "weights_global = k_w\n",
                 "needs the weights of a linear stencil");
  expectRejected(text + "weights_global = k_w\n", "not both");
  std::string noRecipe = kHeat2d + std::string("repack_indices = 01\n");
  expectRejected(noRecipe, "repack_indices without repack");
}

TEST(LaunchTextTest, ParsesABandKernelAndComposedWeights) {
  const std::string band = "band_kernel = heat2d_tc_band\n"
                           "band_tile = 32,16\n"
                           "band_block = 256\n"
                           "band_margins = 2,3\n";
  const std::string composed = "composed_abs_sum = 0.75\n"
                               "composed_points = 13\n";
  LaunchResult r = parse(kHeat2d + band + composed);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.desc.bandKernel, "heat2d_tc_band");
  EXPECT_EQ(r.desc.bandTile, std::vector<int64_t>({32, 16}));
  EXPECT_EQ(r.desc.bandMargins, std::vector<int64_t>({2, 3}));
  EXPECT_EQ(r.desc.bandBlock[0], 256u);
  EXPECT_EQ(r.desc.bandBlock[1], 1u);
  EXPECT_EQ(r.desc.composedAbsSum, 0.75);
  EXPECT_EQ(r.desc.composedPoints, 13);
  EXPECT_TRUE(r.warnings.empty());
  // Without them: no band kernel, no composition.
  r = parse(kHeat2d);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(r.desc.bandKernel.empty());
  EXPECT_EQ(r.desc.composedPoints, 0);

  // The band's keys go together, with `rank` values in range.
  expectRejected(replaceLine(kHeat2d + band, "band_margins", ""),
                 "missing key 'band_margins'");
  expectRejected(replaceLine(kHeat2d + band, "band_tile", "band_tile = 32"),
                 "band_tile must have 2 integers");
  expectRejected(replaceLine(kHeat2d + band, "band_tile", "band_tile = 0,4"),
                 "band_tile values must be from 1");
  expectRejected(
      replaceLine(kHeat2d + band, "band_margins", "band_margins = -1,2"),
      "band_margins values must be from 0");
  expectRejected(replaceLine(kHeat2d + band, "band_block", "band_block = 2048"),
                 "band_block dimension out of range");
  expectRejected(replaceLine(kHeat2d + band, "band_kernel", "band_kernel = "),
                 "empty kernel name");
  expectRejected(replaceLine(kHeat2d + composed, "composed_points", ""),
                 "composed_abs_sum and composed_points go together");
  expectRejected(replaceLine(kHeat2d + composed, "composed_abs_sum",
                             "composed_abs_sum = nan"),
                 "composed_abs_sum must be a finite number >= 0");
  expectRejected(
      replaceLine(kHeat2d + composed, "composed_points", "composed_points = 0"),
      "composed_points must be an integer from 1");
}

TEST(LaunchTextTest, ParsesAValidBody) {
  const char *body = "0.5*a(0,0) + 0.2*max(a(-1,0), a(1,0)) - a(0,0)";
  LaunchResult r = parse(withLine("offsets", std::string("body = ") + body));
  ASSERT_FALSE(r.ok); // the weights are still there
  EXPECT_TRUE(contains(r.error, "either 'body' or 'offsets'/'weights'"));
  r = parse(withBody(body));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(r.desc.hasBody);
  std::vector<std::vector<int64_t>> accesses = {{0, 0}, {-1, 0}, {1, 0}};
  EXPECT_EQ(r.desc.offsets, accesses);
  EXPECT_TRUE(r.desc.weights.empty());
}

TEST(LaunchTextTest, FileWrapperMatchesTheText) {
  std::string path = ::testing::TempDir() + "stencil-run-readers.launch";
  std::ofstream(path) << kHeat2d;
  LaunchDescription desc;
  std::string error;
  std::vector<std::string> warnings;
  ASSERT_TRUE(parseLaunchDescription(path, desc, error, warnings)) << error;
  std::remove(path.c_str());
  LaunchResult r = parse(kHeat2d);
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(desc.path, path);
  EXPECT_EQ(desc.ptxPath, ::testing::TempDir() + "heat-2d.ptx");
  EXPECT_EQ(desc.offsets, r.desc.offsets);
  EXPECT_EQ(desc.weights, r.desc.weights);
  EXPECT_EQ(desc.coefficients, r.desc.coefficients);

  EXPECT_FALSE(parseLaunchDescription(::testing::TempDir() + "none.launch",
                                      desc, error, warnings));
  EXPECT_TRUE(contains(error, "cannot open launch description"));
}

TEST(LaunchTextTest, RejectsAFileLargerThanTheLimit) {
  // A sparse file just over the limit: refused, not read into memory.
  std::string path = ::testing::TempDir() + "stencil-run-readers-big.launch";
  std::ofstream(path) << "version = 1\n";
  std::filesystem::resize_file(path, kMaxLaunchDescriptionBytes + 1);
  LaunchDescription desc;
  std::string error;
  std::vector<std::string> warnings;
  EXPECT_FALSE(parseLaunchDescription(path, desc, error, warnings));
  std::remove(path.c_str());
  EXPECT_TRUE(contains(error, "is larger than 16 MiB"));
}

TEST(LaunchTextTest, RejectsMissingKeysAndSyntax) {
  for (const char *key : {"version", "kernel", "ptx", "rank", "element_type",
                          "boundary", "tile", "block", "offsets", "weights"})
    expectRejected(withLine(key, ""),
                   std::string("missing required key '") + key + "'");
  expectRejected(std::string(kHeat2d) + "no equals sign\n",
                 ":19: expected 'key = value', got 'no equals sign'");
  expectRejected(std::string(kHeat2d) + "rank = 2\n",
                 ":19: duplicate key 'rank' (first on line 5)");
  expectRejected("", "missing required key 'version'");
  expectRejected(std::string("\0\0\0", 3), "expected 'key = value'");
}

TEST(LaunchTextTest, RejectsBadNumbers) {
  // Version 2 is a program (LaunchProgram.h), not one kernel's description.
  expectRejected(withLine("version", "version = 2"),
                 ":2: version 2 is a launch program");
  expectRejected(withLine("version", "version = 3"), "unsupported version");
  expectRejected(withLine("version", "version = 99999999999999999999"),
                 "unsupported version");
  // An embedded NUL used to end the scan early and pass for '1'.
  expectRejected(withLine("version", std::string("version = 1\0x", 13)),
                 "unsupported version");
  expectRejected(withLine("rank", "rank = 0"), "rank must be 1, 2 or 3");
  expectRejected(withLine("rank", "rank = 4"), "rank must be 1, 2 or 3");
  expectRejected(withLine("rank", "rank = -9223372036854775808"),
                 "rank must be 1, 2 or 3");
  expectRejected(withLine("rank", "rank = 2x"), "rank must be 1, 2 or 3");
  expectRejected(withLine("weights", "weights = 0.09,0.09,0.21,0.29,1e999"),
                 "bad weight '1e999'");
  expectRejected(withLine("weights", "weights = 0.09,0.09,0.21,0.29,nan"),
                 "bad weight 'nan'");
  expectRejected(withLine("weights", "weights = 0.09,0.09,0.21,0.29,"),
                 "bad weight ''");
  expectRejected(withLine("boundary", "boundary = dirichlet(inf)"),
                 "unknown boundary 'dirichlet(inf)'");
  expectRejected(withLine("boundary", "boundary = dirichlet("),
                 "unknown boundary 'dirichlet('");
  expectRejected(withLine("chain_abs_sum", "chain_abs_sum = -1"),
                 "chain_abs_sum must be a finite number >= 0");
  expectRejected(withLine("shared_bytes", "shared_bytes = 2147483648"),
                 "bad shared_bytes");
  expectRejected(withLine("shared_bytes", "shared_bytes = -1"),
                 "bad shared_bytes");
  expectRejected(withLine("coefficients", "coefficients = 123456789"),
                 "bad 32-bit hex word '123456789'");
  expectRejected(withLine("coefficients", "coefficients = 0x3c00"),
                 "bad 32-bit hex word '0x3c00'");
  expectRejected(
      withLine("coefficients", std::string("coefficients = 3c\0zz", 20)),
      "bad 32-bit hex word");
}

TEST(LaunchTextTest, RejectsUnknownTypes) {
  expectRejected(withLine("element_type", "element_type = f8"),
                 "unknown element type 'f8' (f16, bf16, f32, f64)");
  expectRejected(withLine("accumulator", "accumulator = i32"),
                 "unknown accumulator type 'i32'");
  expectRejected(withLine("kernel", "kernel ="), "empty kernel name");
}

TEST(LaunchTextTest, RejectsOffsetsAndWeightsThatDoNotMatch) {
  expectRejected(withLine("offsets", "offsets = -1,0;0"),
                 "bad offset '0' (need 2 integers");
  expectRejected(withLine("offsets", "offsets = -1,0,0"),
                 "bad offset '-1,0,0' (need 2 integers");
  expectRejected(withLine("offsets", "offsets = -1,0;"), "bad offset ''");
  expectRejected(withLine("offsets", "offsets = 9223372036854775808,0"),
                 "bad offset");
  expectRejected(withLine("offsets", "offsets = 0,0;0,1"),
                 "5 weights for 2 offsets");
  expectRejected(withLine("offsets", "offsets ="),
                 "no offsets (a stencil reads at least one point)");
}

TEST(LaunchTextTest, RejectsOffsetsOutOfRange) {
  // INT64_MIN used to reach -o in the reference's halo width (UB).
  expectRejected(withLine("offsets", "offsets = -9223372036854775808,0;0,-1;"
                                     "0,0;0,1;1,0"),
                 "offset component -9223372036854775808 out of range (at "
                 "most 65536 in magnitude)");
  expectRejected(withLine("offsets", "offsets = -1,0;0,-65537;0,0;0,1;1,0"),
                 "offset component -65537 out of range");
  LaunchResult r =
      parse(withLine("offsets", "offsets = -1,0;0,-65536;0,0;0,1;1,0"));
  EXPECT_TRUE(r.ok) << r.error;
  // The same for a body's accesses.
  r = parse(withBody("a(0, 1000000) + a(0,0)"));
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(contains(r.error, "offset component 1000000 out of range"));
  EXPECT_TRUE(contains(r.error, ":8: ")); // the body's line
}

TEST(LaunchTextTest, RejectsTileAndBlockOutOfRange) {
  expectRejected(withLine("tile", "tile = 64"), "tile must have 2 positive");
  expectRejected(withLine("tile", "tile = 64,16,1"),
                 "tile must have 2 positive");
  expectRejected(withLine("tile", "tile = 64,0"),
                 "tile sizes must be from 1 to 2147483647, got 0");
  expectRejected(withLine("tile", "tile = 64,-3"),
                 "tile sizes must be from 1 to 2147483647, got -3");
  expectRejected(withLine("tile", "tile = 64,9223372036854775807"),
                 "tile sizes must be from 1 to 2147483647, got "
                 "9223372036854775807");
  expectRejected(withLine("block", "block = 256,1,1,1"),
                 "block must be 1 to 3 positive integers");
  expectRejected(withLine("block", "block = 2048"),
                 "block dimension out of range");
  expectRejected(withLine("block", "block = 0"),
                 "block dimension out of range");
  expectRejected(withLine("steps_per_launch", "steps_per_launch = 0"),
                 "steps_per_launch must be an integer from 1 to 1024");
  expectRejected(withLine("steps_per_launch", "steps_per_launch = -2"),
                 "steps_per_launch must be an integer from 1 to 1024");
  expectRejected(withLine("steps_per_launch", "steps_per_launch = 1025"),
                 "steps_per_launch must be an integer from 1 to 1024");
}

TEST(LaunchTextTest, RejectsBadArgs) {
  expectRejected(withLine("args", "args = in,out,sizes,grid"),
                 "unknown argument 'grid'");
  expectRejected(withLine("args", "args = in,in,out,sizes,coeffs"),
                 "argument 'in' listed twice");
  expectRejected(withLine("args", "args = in,out,coeffs"),
                 "args must contain 'sizes'");
  expectRejected(withLine("args", "args = in,out,sizes"),
                 "coefficients given but 'coeffs' not in args");
}

TEST(BodyNestingTest, DeepNestingIsAnError) {
  BodyExpr body;
  std::string error;
  // 100000 levels: would exhaust the stack without the limit.
  std::string deep =
      std::string(100000, '(') + "a(0)" + std::string(100000, ')');
  EXPECT_FALSE(body.parse(deep, 1, error));
  EXPECT_TRUE(contains(error, "nested more than 256 levels deep"));
  EXPECT_FALSE(body.parse(std::string(100000, '-') + "a(0)", 1, error));
  EXPECT_TRUE(contains(error, "nested more than 256 levels deep"));
  std::string calls;
  for (int i = 0; i < 1000; ++i)
    calls += "abs(";
  calls += "a(0)" + std::string(1000, ')');
  EXPECT_FALSE(body.parse(calls, 1, error));
  EXPECT_TRUE(contains(error, "nested more than 256 levels deep"));

  // Within the limit it parses and evaluates (the evaluation stack grows on
  // the heap past its inline size).
  std::string ok;
  for (int i = 0; i < 200; ++i)
    ok += "fma(1, 1, ";
  ok += "a(0)" + std::string(200, ')');
  ASSERT_TRUE(body.parse(ok, 1, error)) << error;
  double x = 0.5;
  EXPECT_EQ(body.evaluate(&x), 200.5);

  // Through the launch description: the error names the body's line.
  LaunchResult r = parse(withBody(deep));
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(contains(r.error, ":8: body, at character 257: nested more "
                                "than 256 levels deep"));
}

TEST(BodyNestingTest, ManyDistinctAccessesParseQuickly) {
  // 20000 distinct accesses (a linear search per access was quadratic).
  std::string text;
  for (int i = 0; i < 20000; ++i)
    text += (i ? "+a(" : "a(") + std::to_string(i) + ")";
  BodyExpr body;
  std::string error;
  auto start = std::chrono::steady_clock::now();
  ASSERT_TRUE(body.parse(text + "+a(5)", 1, error)) << error;
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  EXPECT_EQ(body.accesses().size(), 20000u);
  EXPECT_EQ(body.accesses()[19999], std::vector<int64_t>({19999}));
  EXPECT_FALSE(body.parse("a(99999999999999999999)", 1, error));
  EXPECT_TRUE(contains(error, "expected an integer offset"));
}

} // namespace
