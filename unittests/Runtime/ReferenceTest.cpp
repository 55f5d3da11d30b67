//===- ReferenceTest.cpp - stencil-run's CPU reference and descriptions ---===//
//
// The runtime's host code (runtime/lib, plain C++, which stencil-run shares):
// the general-body expressions and their error bound, the reference under the
// three boundaries (against brute-force loops written here), and the launch
// description keys `body` and `boundary`.
//
//===----------------------------------------------------------------------===//

#include "BodyExpr.h"
#include "HostUtil.h"
#include "LaunchDescription.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <random>

using namespace stencil_run;

namespace {

TEST(BodyExprTest, ParsesAndEvaluates) {
  BodyExpr body;
  std::string error;
  ASSERT_TRUE(body.parse(
      "0.5*a(0,0) + 0.2*max(a(-1,0), a(1,0)) + 0.3*(a(0,-1)*a(0,1))", 2, error))
      << error;
  std::vector<std::vector<int64_t>> expected = {
      {0, 0}, {-1, 0}, {1, 0}, {0, -1}, {0, 1}};
  EXPECT_EQ(body.accesses(), expected);
  double values[] = {1.0, -2.0, 3.0, 0.5, -4.0};
  EXPECT_DOUBLE_EQ(body.evaluate(values),
                   0.5 * 1.0 + 0.2 * 3.0 + 0.3 * (0.5 * -4.0));
  // Repeated accesses share one value; unary minus, division, abs, min, fma.
  ASSERT_TRUE(body.parse("-a(1) / (abs(a(-1)) + 2) + min(a(1), fma(a(0), "
                         "a(0), -1.5e-1))",
                         1, error))
      << error;
  EXPECT_EQ(body.accesses().size(), 3u);
  double v1[] = {3.0, -1.0, 0.25};
  EXPECT_DOUBLE_EQ(body.evaluate(v1),
                   -3.0 / (1.0 + 2) + std::min(3.0, 0.25 * 0.25 - 0.15));
}

TEST(BodyExprTest, ReportsErrorsWithPositions) {
  BodyExpr body;
  std::string error;
  EXPECT_FALSE(body.parse("a(1) + a(0,1)", 2, error));
  EXPECT_EQ(error, "body, at character 1: a(...) needs 2 offsets, got 1");
  EXPECT_FALSE(body.parse("exp(a(0))", 1, error));
  EXPECT_EQ(error, "body, at character 1: unknown function 'exp'");
  EXPECT_FALSE(body.parse("a(0) +", 1, error));
  EXPECT_EQ(error, "body, at character 7: unexpected end of the body");
  EXPECT_FALSE(body.parse("a(0) a(1)", 1, error));
  EXPECT_EQ(error, "body, at character 6: unexpected 'a'");
  EXPECT_FALSE(body.parse("0.5 * 2", 1, error));
  EXPECT_EQ(error, "body reads no input point (no a(...))");
}

/// The bound of evaluateWithBound holds for an evaluation in f32 of inputs
/// that are off by up to the input error.
TEST(BodyExprTest, BoundCoversAnF32Evaluation) {
  BodyExpr body;
  std::string error;
  ASSERT_TRUE(body.parse("(a(0)*a(1) - a(2)) / (a(3) + 2) + fma(a(4), a(5), "
                         "a(6)) - max(a(0), -a(1)) * 0.3",
                         1, error))
      << error;
  ASSERT_EQ(body.accesses().size(), 7u);
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> value(-1.0, 1.0), unit(-1.0, 1.0);
  const double u = std::ldexp(1.0, -24) + std::ldexp(1.0, -53);
  const double eta = std::ldexp(1.0, -149);
  for (double inputError : {0.0, 1e-6, 1e-3}) {
    double worstRatio = 0;
    for (int trial = 0; trial < 20000; ++trial) {
      double x[7];
      float xf[7];
      for (int i = 0; i < 7; ++i) {
        x[i] = value(rng);
        xf[i] = static_cast<float>(x[i] + inputError * unit(rng));
        // The perturbed f32 input must stay within the input error.
        if (std::fabs(xf[i] - x[i]) > inputError)
          xf[i] = static_cast<float>(x[i]);
      }
      if (inputError == 0)
        for (int i = 0; i < 7; ++i)
          x[i] = xf[i];
      float r = (xf[0] * xf[1] - xf[2]) / (xf[3] + 2.0f) +
                std::fmaf(xf[4], xf[5], xf[6]) - std::max(xf[0], -xf[1]) * 0.3f;
      double bound = 0;
      double exact = body.evaluateWithBound(x, inputError, u, eta, bound);
      double err = std::fabs(static_cast<double>(r) - exact);
      EXPECT_LE(err, bound) << "trial " << trial;
      worstRatio = std::max(worstRatio, err / bound);
    }
    // The bound is not vacuous: errors come within a factor 100 of it.
    EXPECT_GT(worstRatio, 0.01) << "input error " << inputError;
  }
}

/// rnd(x) keeps the value and adds one rounding to the bound: an f16 body
/// computing a product in f32 and rounding it once to f16.
TEST(BodyExprTest, RoundingOfAWiderBody) {
  BodyExpr body;
  std::string error;
  ASSERT_TRUE(body.parse("rnd(a(0) * a(1))", 1, error)) << error;
  EXPECT_EQ(body.roundedOps(), 2);
  const double u = std::ldexp(1.0, -11), eta = std::ldexp(1.0, -24);
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  for (int trial = 0; trial < 20000; ++trial) {
    _Float16 x = static_cast<_Float16>(value(rng));
    _Float16 y = static_cast<_Float16>(value(rng));
    double xs[] = {static_cast<double>(x), static_cast<double>(y)};
    double bound = 0;
    double exact = body.evaluateWithBound(xs, 0, u, eta, bound);
    EXPECT_EQ(exact, xs[0] * xs[1]);
    // The GPU: the product in f32, rounded to f16.
    double gpu = static_cast<double>(
        static_cast<_Float16>(static_cast<float>(x) * static_cast<float>(y)));
    EXPECT_LE(std::fabs(gpu - exact), bound);
  }
}

/// The brute-force value of a linear 2-D stencil at (y, x).
double bruteForce2D(const std::vector<double> &g, int64_t ny, int64_t nx,
                    const std::vector<std::vector<int64_t>> &offsets,
                    const std::vector<double> &weights, Boundary boundary,
                    double dirichlet, int64_t y, int64_t x) {
  double sum = 0;
  for (size_t i = 0; i < offsets.size(); ++i) {
    int64_t yy = y + offsets[i][0], xx = x + offsets[i][1];
    double v;
    if (yy >= 0 && yy < ny && xx >= 0 && xx < nx)
      v = g[yy * nx + xx];
    else if (boundary == Boundary::Dirichlet)
      v = dirichlet;
    else
      v = g[((yy % ny + ny) % ny) * nx + (xx % nx + nx) % nx];
    sum += weights[i] * v;
  }
  return sum;
}

class ReferenceBoundaryTest : public ::testing::TestWithParam<Boundary> {};

TEST_P(ReferenceBoundaryTest, MatchesBruteForceAndBody) {
  const int64_t ny = 7, nx = 9;
  // An asymmetric pattern reaching two points out in x.
  std::vector<std::vector<int64_t>> offsets = {
      {-1, 0}, {0, -2}, {0, 0}, {0, 1}, {1, 1}};
  std::vector<double> weights = {0.25, -0.5, 0.125, 0.75, 0.0625};
  std::mt19937_64 rng(11);
  std::vector<double> input(ny * nx);
  for (double &v : input) // multiples of 2^-10: every sum below is exact
    v = std::ldexp(static_cast<double>(rng() % 2048) - 1024.0, -10);
  const double dirichlet = -0.375;
  const int steps = 3;

  ReferenceStencil s;
  s.rank = 2;
  s.dims = {ny, nx};
  s.offsets = offsets;
  s.weights = weights;
  s.elementType = ElemType::F64;
  s.boundary = GetParam();
  s.dirichletValue = dirichlet;
  double maxAbs = 0;
  std::vector<double> got = runReference(s, input, steps, 3, maxAbs);

  // Brute force: every point for periodic/Dirichlet, the interior for halo
  // (radius 1 in y, 2 in x).
  std::vector<double> a = input, b = input;
  for (int t = 0; t < steps; ++t) {
    for (int64_t y = 0; y < ny; ++y)
      for (int64_t x = 0; x < nx; ++x) {
        bool interior = y >= 1 && y < ny - 1 && x >= 2 && x < nx - 2;
        if (GetParam() == Boundary::Halo && !interior)
          continue;
        b[y * nx + x] = bruteForce2D(a, ny, nx, offsets, weights, GetParam(),
                                     dirichlet, y, x);
      }
    std::swap(a, b);
  }
  EXPECT_EQ(got, a);
  if (GetParam() == Boundary::Dirichlet) {
    EXPECT_GE(maxAbs, std::fabs(dirichlet));
  }

  // The same stencil as a general body gives the same grid, and a zero
  // bound when no operation rounds (u = eta = 0).
  BodyExpr body;
  std::string error;
  ASSERT_TRUE(body.parse("0.25*a(-1,0) - 0.5*a(0,-2) + 0.125*a(0,0) + "
                         "0.75*a(0,1) + 0.0625*a(1,1)",
                         2, error))
      << error;
  s.offsets = body.accesses();
  s.weights.clear();
  s.body = &body;
  double bound = -1;
  std::vector<double> viaBody =
      runReference(s, input, steps, 2, maxAbs, BodyRounding{}, &bound);
  EXPECT_EQ(viaBody, a);
  EXPECT_EQ(bound, 0.0);
  // With f32 rounding the bound is positive and grows with the steps.
  BodyRounding f32{std::ldexp(1.0, -24), std::ldexp(1.0, -149)};
  double bound1 = 0, bound3 = 0;
  runReference(s, input, 1, 2, maxAbs, f32, &bound1);
  runReference(s, input, 3, 2, maxAbs, f32, &bound3);
  EXPECT_GT(bound1, 0.0);
  EXPECT_GT(bound3, bound1);
}

INSTANTIATE_TEST_SUITE_P(Boundaries, ReferenceBoundaryTest,
                         ::testing::Values(Boundary::Halo, Boundary::Periodic,
                                           Boundary::Dirichlet));

/// Writes `text` to a temporary launch description and parses it.
bool parseText(const std::string &text, LaunchDescription &desc,
               std::string &error) {
  std::string path = ::testing::TempDir() + "stencil-run-test.launch";
  std::ofstream(path) << text;
  std::vector<std::string> warnings;
  bool ok = parseLaunchDescription(path, desc, error, warnings);
  std::remove(path.c_str());
  // Keep only the message after "file:line: ".
  if (!ok && error.find(path) == 0)
    error = error.substr(path.size());
  return ok;
}

const char *kCommon = "version = 1\nkernel = k\nptx = k.ptx\nrank = 2\n"
                      "element_type = f32\ntile = 32,8\nblock = 256\n";

TEST(LaunchDescriptionTest, BoundaryAndBody) {
  LaunchDescription desc;
  std::string error;
  ASSERT_TRUE(parseText(std::string(kCommon) +
                            "boundary = dirichlet(-0.25)\n"
                            "body = 0.5*a(0,0) + 0.2*max(a(-1,0), a(1,0))\n",
                        desc, error))
      << error;
  EXPECT_EQ(desc.boundary, Boundary::Dirichlet);
  EXPECT_EQ(desc.dirichletValue, -0.25);
  EXPECT_TRUE(desc.hasBody);
  EXPECT_EQ(desc.offsets.size(), 3u);
  EXPECT_TRUE(desc.weights.empty());

  ASSERT_TRUE(parseText(std::string(kCommon) +
                            "boundary = periodic\noffsets = 0,0;0,1\n"
                            "weights = 0.5,0.5\n",
                        desc, error))
      << error;
  EXPECT_EQ(desc.boundary, Boundary::Periodic);
  EXPECT_FALSE(desc.hasBody);

  EXPECT_FALSE(parseText(std::string(kCommon) +
                             "boundary = dirichlet(x)\noffsets = 0,0\n"
                             "weights = 1\n",
                         desc, error));
  EXPECT_EQ(error, ":8: unknown boundary 'dirichlet(x)' (halo, periodic or "
                   "dirichlet(v) with a finite v)");
  EXPECT_FALSE(parseText(std::string(kCommon) +
                             "boundary = halo\nbody = a(0,0)\n"
                             "weights = 1\n",
                         desc, error));
  EXPECT_EQ(error, ":9: a description has either 'body' or "
                   "'offsets'/'weights', not both");
  EXPECT_FALSE(parseText(
      std::string(kCommon) + "boundary = halo\nbody = a(0)\n", desc, error));
  EXPECT_EQ(error, ":9: body, at character 1: a(...) needs 2 offsets, got 1");
  EXPECT_FALSE(
      parseText(std::string(kCommon) + "boundary = halo\n", desc, error));
  EXPECT_EQ(error, ": missing required key 'offsets'");
}

} // namespace

namespace {

/// roundTo against GCC's correctly rounded double -> _Float16 conversion,
/// and its bf16 rounding against a frexp/nearbyint formulation, over random
/// magnitudes from the subnormals to overflow, and the parallel input, pack
/// and unpack paths.
TEST(HostUtilTest, RoundingAndPacking) {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> mantissa(-2.0, 2.0);
  std::uniform_int_distribution<int> exponent(-30, 17);
  for (int i = 0; i < 200000; ++i) {
    double x = std::ldexp(mantissa(rng), exponent(rng));
    EXPECT_EQ(roundTo(ElemType::F16, x),
              static_cast<double>(static_cast<_Float16>(x)))
        << x;
    int e2;
    std::frexp(x, &e2);
    double quantum = std::ldexp(1.0, std::max(e2 - 1, -126) - 7);
    EXPECT_EQ(roundTo(ElemType::BF16, x), std::nearbyint(x / quantum) * quantum)
        << x;
  }
  EXPECT_EQ(roundTo(ElemType::F16, 65520.0), INFINITY); // halfway to 2^16
  EXPECT_EQ(roundTo(ElemType::F16, 65519.0), 65504.0);

  std::vector<double> a = randomInput(300001, ElemType::F16, 5, 1);
  EXPECT_EQ(a, randomInput(300001, ElemType::F16, 5, 4));
  EXPECT_NE(a, randomInput(300001, ElemType::F16, 6, 4));
  // Any range of it alone (the planes of a grid too large for the host).
  for (size_t first : {size_t(0), size_t(1), size_t(65535), size_t(65536),
                       size_t(131070), size_t(299990)})
    for (size_t count : {size_t(0), size_t(1), size_t(10), size_t(70000)}) {
      size_t n = std::min(count, a.size() - first);
      EXPECT_EQ(randomInputRange(first, n, ElemType::F16, 5, 3),
                std::vector<double>(a.begin() + first, a.begin() + first + n))
          << first << " + " << n;
    }
  for (double v : a)
    ASSERT_TRUE(v >= -1.0 && v <= 1.0 && roundTo(ElemType::F16, v) == v);
  for (ElemType t :
       {ElemType::F16, ElemType::BF16, ElemType::F32, ElemType::F64}) {
    std::vector<double> v = randomInput(200003, t, 9, 3);
    EXPECT_EQ(unpackElements(packElements(v, t, 3), t, 2), v);
    EXPECT_EQ(packElements(v, t, 3), packElements(v, t, 1));
  }
}

} // namespace
