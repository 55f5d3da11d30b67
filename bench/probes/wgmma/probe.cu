// probe.cu - runs the cases of gen.cpp through wgmma.mma_async.sp on an
// sm_90a GPU and compares D with the model's. nvcc -arch=sm_90a probe.cu
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define ACC8(i) "+f"(d[i])
template <int N, int SEL>
__global__ void probe(const uint16_t *image, int halves, const uint32_t *aw,
                      const uint32_t *meta, uint64_t descriptor, float *out) {
  extern __shared__ __align__(1024) uint16_t smem[];
  int tid = threadIdx.x;
  for (int i = tid; i < halves; i += 128)
    smem[i] = image[i];
  __syncthreads();
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  uint32_t base = uint32_t(__cvta_generic_to_shared(smem));
  uint64_t desc = descriptor + ((base >> 4) & 0x3fff);
  float d[N / 2];
  for (int i = 0; i < N / 2; ++i)
    d[i] = 0.0f;
  uint32_t a0 = aw[tid * 4], a1 = aw[tid * 4 + 1], a2 = aw[tid * 4 + 2],
           a3 = aw[tid * 4 + 3], e = meta[tid];
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
  if constexpr (N == 8) {
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
        "wgmma.mma_async.sp.sync.aligned.m64n8k32.f32.f16.f16 "
        "{%0, %1, %2, %3}, {%4, %5, %6, %7}, %8, %9, %10, p, 1, 1, 0;\n}"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "l"(desc), "r"(e), "n"(SEL));
  } else {
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
        "wgmma.mma_async.sp.sync.aligned.m64n64k32.f32.f16.f16 "
        "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, "
        "%15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, "
        "%28, %29, %30, %31}, {%32, %33, %34, %35}, %36, %37, %38, p, 1, 1, "
        "0;\n}"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]),
          "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]),
          "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]),
          "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]),
          "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]),
          "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]),
          "+f"(d[30]), "+f"(d[31])
        : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "l"(desc), "r"(e), "n"(SEL));
  }
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
  for (int i = 0; i < N / 2; ++i)
    out[tid * (N / 2) + i] = d[i];
}

template <int N, int SEL> void launch(void **args, int bytes) {
  cudaFuncSetAttribute(probe<N, SEL>,
                       cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
  cudaLaunchKernel((void *)probe<N, SEL>, dim3(1), dim3(128), args, bytes, 0);
}

int main(int argc, char **argv) {
  FILE *f = fopen(argv[1], "rb");
  uint32_t cases;
  fread(&cases, 4, 1, f);
  int failures = 0;
  for (uint32_t c = 0; c < cases; ++c) {
    uint32_t n, sel, halves;
    uint64_t desc;
    fread(&n, 4, 1, f);
    fread(&sel, 4, 1, f);
    fread(&desc, 8, 1, f);
    fread(&halves, 4, 1, f);
    std::vector<uint16_t> image(halves);
    fread(image.data(), 2, halves, f);
    std::vector<uint32_t> aw(512), meta(128);
    fread(aw.data(), 4, 512, f);
    fread(meta.data(), 4, 128, f);
    std::vector<float> expected(128 * n / 2), got(128 * n / 2);
    fread(expected.data(), 4, expected.size(), f);
    uint16_t *dImage;
    uint32_t *dA, *dMeta;
    float *dOut;
    cudaMalloc(&dImage, halves * 2);
    cudaMalloc(&dA, 512 * 4);
    cudaMalloc(&dMeta, 128 * 4);
    cudaMalloc(&dOut, got.size() * 4);
    cudaMemcpy(dImage, image.data(), halves * 2, cudaMemcpyHostToDevice);
    cudaMemcpy(dA, aw.data(), 512 * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dMeta, meta.data(), 128 * 4, cudaMemcpyHostToDevice);
    int h = halves;
    void *args[] = {&dImage, &h, &dA, &dMeta, &desc, &dOut};
    int bytes = halves * 2;
    if (n == 8 && sel == 0)
      launch<8, 0>(args, bytes);
    if (n == 8 && sel == 1)
      launch<8, 1>(args, bytes);
    if (n == 64 && sel == 0)
      launch<64, 0>(args, bytes);
    if (n == 64 && sel == 1)
      launch<64, 1>(args, bytes);
    cudaError_t err = cudaDeviceSynchronize();
    cudaMemcpy(got.data(), dOut, got.size() * 4, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (size_t i = 0; i < got.size(); ++i)
      if (got[i] != expected[i]) {
        if (bad < 3)
          printf("  case %u: tid %zu d_%zu: gpu %g model %g\n", c, i / (n / 2),
                 i % (n / 2), got[i], expected[i]);
        ++bad;
      }
    printf("case %u n=%u sel=%u: %s (%d of %zu differ)%s\n", c, n, sel,
           bad ? "FAIL" : "PASS", bad, got.size(),
           err ? cudaGetErrorString(err) : "");
    failures += bad != 0 || err;
    cudaFree(dImage);
    cudaFree(dA);
    cudaFree(dMeta);
    cudaFree(dOut);
  }
  printf("%s: %d of %u cases differ from the model\n",
         failures ? "FAIL" : "PASS", failures, cases);
  return failures != 0;
}
