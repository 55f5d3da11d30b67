//===- KernelResourcesTest.cpp - Reading ptxas -v -------------------------===//

#include "stencil/Pipelines/KernelResources.h"

#include "gtest/gtest.h"

using namespace mlir::stencil;

TEST(KernelResourcesTest, ParsesEachEntryFunction) {
  // The report of CUDA 13's ptxas for a module with two kernels.
  const char *log =
      "ptxas info    : 0 bytes gmem\n"
      "ptxas info    : Compiling entry function 'k_sptc' for 'sm_90'\n"
      "ptxas info    : Function properties for k_sptc\n"
      "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 191 registers, used 1 barriers, 20480 bytes smem\n"
      "ptxas info    : Compiling entry function 'k_tail' for 'sm_90'\n"
      "ptxas info    : Function properties for k_tail\n"
      "    8 bytes stack frame, 16 bytes spill stores, 16 bytes spill loads\n"
      "ptxas info    : Used 255 registers, used 1 barriers, 1 bytes smem, "
      "400 bytes cmem[0]\n"
      "ptxas info    : Compile time = 257.277 ms\n";
  llvm::StringMap<KernelResources> found = parsePtxasInfo(log);
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found["k_sptc"].registers, 191);
  EXPECT_EQ(found["k_sptc"].staticSharedBytes, 20480);
  EXPECT_EQ(found["k_sptc"].spillStoreBytes, 0);
  EXPECT_EQ(found["k_tail"].registers, 255);
  EXPECT_EQ(found["k_tail"].staticSharedBytes, 1);
  EXPECT_EQ(found["k_tail"].spillStoreBytes, 16);
  // Lines before any entry function, or none at all: nothing.
  EXPECT_TRUE(parsePtxasInfo("ptxas info : Used 12 registers\n").empty());
}

TEST(KernelResourcesTest, FindsNoAssemblerWhenTold) {
  EXPECT_FALSE(findPtxas("none").has_value());
  EXPECT_FALSE(findPtxas("/no/such/ptxas").has_value());
}
