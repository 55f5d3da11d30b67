//===- gen.cpp - Test vectors of the wgmma.sp model for the GPU probe -----===//
//
// Writes random m64nNk32 wgmma.mma_async.sp cases (compressed A in the
// registers the model says, B in a shared-memory image behind a descriptor
// with padding between core matrices, metadata, and the D the model
// computes) for probe.cu, which runs them on an sm_90a GPU. Agreement means
// the model (Support/WgmmaSpModel.h) describes the hardware.
//
// Build (bench/probes/wgmma/run.sh): g++ with the two model sources.
//
//===----------------------------------------------------------------------===//

#include "stencil/Support/WgmmaSpModel.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>

using namespace mlir::stencil;

static uint16_t halfBits(float v) {
  // Values are k / 32 with |k| <= 32 and k / 16 with |k| <= 32: exact in f16.
  uint32_t bits;
  std::memcpy(&bits, &v, 4);
  uint32_t sign = (bits >> 16) & 0x8000;
  if (v == 0.0f)
    return sign;
  int exponent = int((bits >> 23) & 0xff) - 127 + 15;
  uint32_t mantissa = (bits >> 13) & 0x3ff;
  return sign | uint16_t(exponent << 10) | mantissa;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: gen OUT\n");
    return 2;
  }
  FILE *f = std::fopen(argv[1], "wb");
  std::mt19937 rng(2026);
  std::uniform_int_distribution<int> dist(-32, 32);
  const unsigned ns[] = {8, 64};
  uint32_t cases = 2 * 2 * 3;
  std::fwrite(&cases, 4, 1, f);
  for (unsigned n : ns)
    for (unsigned selector = 0; selector < 2; ++selector)
      for (unsigned trial = 0; trial < 3; ++trial) {
        std::vector<float> a(64 * 32, 0.0f);
        for (unsigned row = 0; row < 64; ++row)
          for (unsigned chunk = 0; chunk < 8; ++chunk) {
            unsigned first = rng() % 4, second = (first + 1 + rng() % 3) % 4;
            a[row * 32 + 4 * chunk + first] = dist(rng) / 32.0f;
            a[row * 32 + 4 * chunk + second] = dist(rng) / 32.0f;
          }
        WarpgroupFragmentsSpM64K32 frag;
        if (!packWgmmaSpA(a, selector, frag))
          return 1;
        // Lanes the selector ignores get garbage, as on hardware.
        for (unsigned tid = 0; tid < kWarpgroupSize; ++tid)
          if ((tid % 4) / 2 != selector)
            frag.meta[tid] = rng();
        WgmmaDescriptor desc;
        desc.startAddress = 256 + 16 * trial;
        desc.strideByteOffset = 128 + 32 * trial;
        desc.leadingByteOffset = desc.strideByteOffset * (n / 8) + 48;
        uint64_t bits = *desc.encode();
        uint32_t halves = (desc.startAddress + 4 * desc.leadingByteOffset) / 2;
        std::vector<float> smem(halves);
        for (float &v : smem)
          v = dist(rng) / 16.0f;
        std::vector<float> d(128 * n / 2, 0.0f);
        if (!simulateWgmmaSpM64NK32(frag, smem, bits, selector, n, false, d))
          return 1;
        // Case: n, selector, descriptor (start relative to the image),
        // image, A words, metadata, D.
        std::fwrite(&n, 4, 1, f);
        std::fwrite(&selector, 4, 1, f);
        std::fwrite(&bits, 8, 1, f);
        std::fwrite(&halves, 4, 1, f);
        for (float v : smem) {
          uint16_t h = halfBits(v);
          std::fwrite(&h, 2, 1, f);
        }
        for (unsigned tid = 0; tid < 128; ++tid)
          for (unsigned j = 0; j < 4; ++j) {
            uint32_t word = halfBits(frag.a[tid][2 * j]) |
                            uint32_t(halfBits(frag.a[tid][2 * j + 1])) << 16;
            std::fwrite(&word, 4, 1, f);
          }
        std::fwrite(frag.meta, 4, 128, f);
        std::fwrite(d.data(), 4, d.size(), f);
      }
  std::fclose(f);
  std::printf("wrote %u cases\n", cases);
  return 0;
}
