//===- StencilRuntimeTest.cpp - The C API without a GPU -------------------===//
//
// runtime/include/stencil-runtime/StencilRuntime.h on a machine that may
// have no GPU and no CUDA driver: loading from memory and from files, the
// queries, and every misuse the library must report with a status and a
// message before it touches the driver. A run with valid arguments then
// needs a CUDA context: without a driver it fails with STENCIL_ERROR_CUDA,
// with one but no current context with STENCIL_ERROR_CONTEXT; both say why.
//
//===----------------------------------------------------------------------===//

#include "stencil-runtime/StencilRuntime.h"
#include "../Support/SmallRecipe.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

namespace {

const char *kDescription =
    "version = 1\nkernel = heat3d_cuda_core\nptx = heat.ptx\nrank = 3\n"
    "element_type = bf16\noffsets = -1,0,0;0,-2,0;0,0,0;0,2,0;1,0,0;0,0,1\n"
    "weights = 0.1,0.2,0.3,0.1,0.2,0.1\nboundary = periodic\n"
    "steps_per_launch = 2\ntile = 32,8,4\nblock = 32,8,1\n"
    "args = in,out,coeffs,sizes\n";
const char kPtx[] = ".version 8.0\n.target sm_80\n.address_size 64\n";

struct Kernel {
  stencil_kernel *k = nullptr;
  ~Kernel() { stencil_kernel_destroy(k); }
};

TEST(StencilRuntime, LoadAndQuery) {
  Kernel k;
  ASSERT_EQ(stencil_kernel_load_memory(kDescription,
                                       std::string(kDescription).size(), kPtx,
                                       sizeof(kPtx), "heat.launch", &k.k),
            STENCIL_SUCCESS)
      << stencil_last_error();
  EXPECT_STREQ(stencil_last_error(), "");
  EXPECT_STREQ(stencil_kernel_name(k.k), "heat3d_cuda_core");
  EXPECT_EQ(stencil_kernel_rank(k.k), 3);
  EXPECT_EQ(stencil_kernel_element_type(k.k), STENCIL_BF16);
  EXPECT_EQ(stencil_element_size(stencil_kernel_element_type(k.k)), 2u);
  EXPECT_EQ(stencil_element_size(STENCIL_F64), 8u);
  EXPECT_EQ(stencil_kernel_radius(k.k, 0), 1);
  EXPECT_EQ(stencil_kernel_radius(k.k, 1), 2);
  EXPECT_EQ(stencil_kernel_radius(k.k, 2), 1);
  EXPECT_EQ(stencil_kernel_radius(k.k, 3), -1);
  EXPECT_EQ(stencil_kernel_radius(k.k, -1), -1);
  EXPECT_EQ(stencil_kernel_steps_per_launch(k.k), 2);
  EXPECT_EQ(stencil_kernel_boundary(k.k), STENCIL_BOUNDARY_PERIODIC);
  // Not loaded on a device yet.
  CUfunction f = nullptr;
  EXPECT_EQ(stencil_kernel_functions(k.k, &f, nullptr), STENCIL_ERROR_CONTEXT);
  EXPECT_NE(std::string(stencil_last_error()).find("not loaded yet"),
            std::string::npos);
}

TEST(StencilRuntime, LoadErrors) {
  stencil_kernel *k = reinterpret_cast<stencil_kernel *>(1);
  EXPECT_EQ(stencil_kernel_load_memory("version = 2\n", 12, kPtx, sizeof(kPtx),
                                       "bad.launch", &k),
            STENCIL_ERROR_INVALID_DESCRIPTION);
  EXPECT_EQ(k, nullptr);
  EXPECT_NE(std::string(stencil_last_error()).find("bad.launch"),
            std::string::npos)
      << stencil_last_error();
  EXPECT_EQ(stencil_kernel_load_memory(kDescription, 5, kPtx, sizeof(kPtx),
                                       nullptr, &k),
            STENCIL_ERROR_INVALID_DESCRIPTION);
  EXPECT_EQ(stencil_kernel_load_memory(kDescription,
                                       std::string(kDescription).size(), "", 0,
                                       nullptr, &k),
            STENCIL_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(stencil_last_error()).find("PTX"), std::string::npos);
  EXPECT_EQ(stencil_kernel_load_memory(nullptr, 0, kPtx, 1, nullptr, &k),
            STENCIL_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(stencil_kernel_load_file(nullptr, &k),
            STENCIL_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(stencil_kernel_load_file("/nonexistent/x.launch", &k),
            STENCIL_ERROR_IO);
  EXPECT_NE(std::string(stencil_last_error()).find("/nonexistent/x.launch"),
            std::string::npos);
  EXPECT_STREQ(stencil_status_name(STENCIL_ERROR_STEPS), "STENCIL_ERROR_STEPS");
  stencil_kernel_destroy(nullptr);
}

TEST(StencilRuntime, LoadFile) {
  // The description names its PTX relative to its own folder.
  std::string dir = ::testing::TempDir();
  std::ofstream(dir + "/heat.launch") << kDescription;
  std::ofstream(dir + "/heat.ptx") << kPtx;
  Kernel k;
  ASSERT_EQ(stencil_kernel_load_file((dir + "/heat.launch").c_str(), &k.k),
            STENCIL_SUCCESS)
      << stencil_last_error();
  EXPECT_EQ(stencil_kernel_rank(k.k), 3);
  std::remove((dir + "/heat.ptx").c_str());
  stencil_kernel *missing = nullptr;
  EXPECT_EQ(stencil_kernel_load_file((dir + "/heat.launch").c_str(), &missing),
            STENCIL_ERROR_IO);
  EXPECT_NE(std::string(stencil_last_error()).find("heat.ptx"),
            std::string::npos)
      << stencil_last_error();
}

TEST(StencilRuntime, RunMisuse) {
  Kernel k;
  ASSERT_EQ(stencil_kernel_load_memory(kDescription,
                                       std::string(kDescription).size(), kPtx,
                                       sizeof(kPtx), "heat.launch", &k.k),
            STENCIL_SUCCESS);
  const CUdeviceptr in = 0x10000, out = 0x20000;
  int64_t sizes[3] = {16, 20, 24};
  EXPECT_EQ(
      stencil_kernel_run(nullptr, in, out, sizes, 3, 2, nullptr, 0, nullptr),
      STENCIL_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(stencil_kernel_run(k.k, in, in, sizes, 3, 2, nullptr, 0, nullptr),
            STENCIL_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(stencil_kernel_run(k.k, 0, out, sizes, 3, 2, nullptr, 0, nullptr),
            STENCIL_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(stencil_kernel_run(k.k, in, out, sizes, 3, 2, nullptr, 8, nullptr),
            STENCIL_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(stencil_kernel_run(k.k, in, out, sizes, 2, 2, nullptr, 0, nullptr),
            STENCIL_ERROR_RANK_MISMATCH);
  EXPECT_NE(std::string(stencil_last_error()).find("of rank 3"),
            std::string::npos);
  int64_t small[3] = {16, 4, 24}; // radius 2 along dimension 1 needs 5
  EXPECT_EQ(stencil_kernel_run(k.k, in, out, small, 3, 2, nullptr, 0, nullptr),
            STENCIL_ERROR_GRID_TOO_SMALL);
  EXPECT_EQ(stencil_kernel_run(k.k, in, out, sizes, 3, 3, nullptr, 0, nullptr),
            STENCIL_ERROR_STEPS);
  EXPECT_NE(std::string(stencil_last_error()).find("steps_per_launch = 2"),
            std::string::npos);
  EXPECT_NE(std::string(stencil_last_error()).find("no tail kernel"),
            std::string::npos);
  EXPECT_EQ(stencil_kernel_tail_steps(k.k), 0);
  // Valid arguments: the run now needs the driver and a current context,
  // which this test does not create.
  stencil_status s =
      stencil_kernel_run(k.k, in, out, sizes, 3, 2, nullptr, 0, nullptr);
  EXPECT_TRUE(s == STENCIL_ERROR_CUDA || s == STENCIL_ERROR_CONTEXT)
      << stencil_status_name(s);
  EXPECT_STRNE(stencil_last_error(), "");
}

TEST(StencilRuntime, TailRunsAnySteps) {
  // With a tail kernel every step count is planned (and then needs the
  // driver); the tail's function is there only after a load.
  Kernel k;
  std::string text = std::string(kDescription) +
                     "tail_kernel = heat3d_cuda_core_tail\ntail_steps = 1\n"
                     "tail_tile = 32,8,8\ntail_block = 32,8,1\n";
  ASSERT_EQ(stencil_kernel_load_memory(text.data(), text.size(), kPtx,
                                       sizeof(kPtx), "tail.launch", &k.k),
            STENCIL_SUCCESS)
      << stencil_last_error();
  EXPECT_EQ(stencil_kernel_tail_steps(k.k), 1);
  CUfunction tail = nullptr;
  EXPECT_EQ(stencil_kernel_tail_function(k.k, &tail), STENCIL_ERROR_CONTEXT);
  EXPECT_EQ(stencil_kernel_tail_function(k.k, nullptr),
            STENCIL_ERROR_INVALID_ARGUMENT);
  const CUdeviceptr in = 0x10000, out = 0x20000;
  int64_t sizes[3] = {16, 20, 24};
  for (int64_t steps : {1, 2, 3, 5, 7}) {
    stencil_status s =
        stencil_kernel_run(k.k, in, out, sizes, 3, steps, nullptr, 0, nullptr);
    EXPECT_TRUE(s == STENCIL_ERROR_CUDA || s == STENCIL_ERROR_CONTEXT)
        << steps << ": " << stencil_status_name(s) << ": "
        << stencil_last_error();
  }
  EXPECT_EQ(stencil_kernel_run(k.k, in, out, sizes, 3, -1, nullptr, 0, nullptr),
            STENCIL_ERROR_INVALID_ARGUMENT);
}

} // namespace

namespace {

/// A 1-D kernel with the repacking recipe of SmallRecipe.h and the
/// coefficients of `weights`.
std::string recipeDescription(const std::vector<double> &weights) {
  std::string text = "version = 1\nkernel = k_sptc\nptx = k.ptx\nrank = 1\n"
                     "element_type = f16\noffsets = -1;0;1\nweights = ";
  for (size_t i = 0; i < weights.size(); ++i) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%s%.17g", i ? "," : "", weights[i]);
    text += buf;
  }
  return text + "\nboundary = halo\ntile = 64\nblock = 128,1,1\n" +
         mlir::stencil::test::smallRecipeCoefficients(weights) + "\n" +
         mlir::stencil::test::kSmallRecipeKeys + "args = in,out,coeffs,sizes\n";
}

TEST(StencilRuntime, PointsAndWeights) {
  Kernel k;
  std::string text = recipeDescription({0.25, -0.5, 0.75});
  ASSERT_EQ(stencil_kernel_load_memory(text.data(), text.size(), kPtx,
                                       sizeof(kPtx), "k.launch", &k.k),
            STENCIL_SUCCESS)
      << stencil_last_error();
  ASSERT_EQ(stencil_kernel_num_points(k.k), 3);
  int64_t offset[1];
  ASSERT_EQ(stencil_kernel_point(k.k, 2, offset), STENCIL_SUCCESS);
  EXPECT_EQ(offset[0], 1);
  EXPECT_EQ(stencil_kernel_point(k.k, 3, offset),
            STENCIL_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(stencil_last_error()).find("which has 3"),
            std::string::npos);
  double w[3];
  ASSERT_EQ(stencil_kernel_weights(k.k, w), STENCIL_SUCCESS);
  EXPECT_EQ(w[1], -0.5);

  // New weights before the kernel is loaded: kept for the upload, read
  // back; the misuses are refused and change nothing.
  const double fresh[3] = {1.0, 2.0, -3.0};
  ASSERT_EQ(stencil_kernel_set_weights(k.k, fresh, 3, nullptr), STENCIL_SUCCESS)
      << stencil_last_error();
  ASSERT_EQ(stencil_kernel_weights(k.k, w), STENCIL_SUCCESS);
  EXPECT_EQ(w[2], -3.0);
  EXPECT_EQ(stencil_kernel_set_weights(k.k, fresh, 2, nullptr),
            STENCIL_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(stencil_last_error()).find("has 3 weights"),
            std::string::npos);
  const double bad[3] = {1.0, std::nan(""), 0.0};
  EXPECT_EQ(stencil_kernel_set_weights(k.k, bad, 3, nullptr),
            STENCIL_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(stencil_last_error()).find("weight 1 is not finite"),
            std::string::npos);
  EXPECT_EQ(stencil_kernel_set_weights(k.k, nullptr, 3, nullptr),
            STENCIL_ERROR_INVALID_ARGUMENT);
  // Weights that overflow the recipe's f16 (65504 is its largest; 65520
  // and above round to infinity).
  const double huge[3] = {1.0, 65520.0, 0.0};
  EXPECT_EQ(stencil_kernel_set_weights(k.k, huge, 3, nullptr),
            STENCIL_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(stencil_last_error())
                .find("weight 1 (65520) overflows the f16 the kernel holds "
                      "its weights in"),
            std::string::npos)
      << stencil_last_error();
  const double largest[3] = {1.0, 65504.0, 0.0};
  EXPECT_EQ(stencil_kernel_set_weights(k.k, largest, 3, nullptr),
            STENCIL_SUCCESS)
      << stencil_last_error();
  EXPECT_EQ(stencil_kernel_set_weights(k.k, fresh, 3, nullptr),
            STENCIL_SUCCESS);
  ASSERT_EQ(stencil_kernel_weights(k.k, w), STENCIL_SUCCESS);
  EXPECT_EQ(w[0], 1.0);
}

TEST(StencilRuntime, SetWeightsUnsupported) {
  // No recipe and no weights global (e.g. a CUDA-core kernel compiled with
  // replaceable-weights=false): the error says so, with the reason the
  // description gives when it gives one.
  Kernel k;
  ASSERT_EQ(stencil_kernel_load_memory(kDescription,
                                       std::string(kDescription).size(), kPtx,
                                       sizeof(kPtx), "heat.launch", &k.k),
            STENCIL_SUCCESS);
  const double w[6] = {1, 1, 1, 1, 1, 1};
  EXPECT_EQ(stencil_kernel_set_weights(k.k, w, 6, nullptr),
            STENCIL_ERROR_UNSUPPORTED);
  EXPECT_NE(std::string(stencil_last_error())
                .find("neither a repacking recipe nor a weights global"),
            std::string::npos)
      << stencil_last_error();
  // With a weights global (a CUDA-core kernel): kept for the load.
  Kernel global;
  std::string withGlobal =
      std::string(kDescription) + "weights_global = heat3d_cuda_core_weights\n";
  ASSERT_EQ(stencil_kernel_load_memory(withGlobal.data(), withGlobal.size(),
                                       kPtx, sizeof(kPtx), "g.launch",
                                       &global.k),
            STENCIL_SUCCESS)
      << stencil_last_error();
  const double fresh[6] = {0.5, 0.25, -1, 2, 0, 0.125};
  ASSERT_EQ(stencil_kernel_set_weights(global.k, fresh, 6, nullptr),
            STENCIL_SUCCESS)
      << stencil_last_error();
  double back[6];
  ASSERT_EQ(stencil_kernel_weights(global.k, back), STENCIL_SUCCESS);
  EXPECT_EQ(back[2], -1.0);
  EXPECT_EQ(stencil_kernel_set_weights(global.k, fresh, 5, nullptr),
            STENCIL_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(stencil_status_name(STENCIL_ERROR_UNSUPPORTED),
               "STENCIL_ERROR_UNSUPPORTED");
  Kernel fused;
  std::string text = std::string(kDescription) +
                     "repack_unsupported = its coefficients are composed\n";
  ASSERT_EQ(stencil_kernel_load_memory(text.data(), text.size(), kPtx,
                                       sizeof(kPtx), "f.launch", &fused.k),
            STENCIL_SUCCESS);
  EXPECT_EQ(stencil_kernel_set_weights(fused.k, w, 6, nullptr),
            STENCIL_ERROR_UNSUPPORTED);
  EXPECT_NE(std::string(stencil_last_error())
                .find("cannot take new weights: its coefficients are composed"),
            std::string::npos)
      << stencil_last_error();
}

} // namespace
