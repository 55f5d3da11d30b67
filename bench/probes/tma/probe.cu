// A measurement probe, not part of the compiler: would staging the planes of
// the streamed 3-D plane sums (CudaCorePlaneSums.cpp) with the bulk tensor
// copy engine (cp.async.bulk.tensor, completing on an mbarrier; HOPPER.md)
// lift f16 Heat-3D and Box-3D27P towards the single-step bound (issue 17)?
//
// The kernel is the plane-sums schedule of the compiler's kernel, written by
// hand: a block of 32 x TY threads, OUT outputs per thread along y, P output
// planes swept along z; 2 r_z + 1 = 3 partial sums per output in registers,
// the loop unrolled by 3 so that their slots are static. What differs is the
// staging: thread 0 asks the copy engine for input plane i + D (a box of
// BX = 48 x (TY OUT + 2) x 1 elements starting at (x0 - 8, y0 - 1, z): the
// box's first element must be 16-byte aligned, so 8 f16 columns of the left
// halo are loaded where 1 is needed; outside
// the grid the engine writes zeros, as the compiler's staging loads do) into
// slot (i + D) mod (D + 1), and every thread waits on that slot's mbarrier
// before reading it. No staging loads, stores or prefetch registers per
// thread; one barrier per plane (slot (i + D) mod (D + 1) was last read in
// iteration i - 1).
//
// Usage: probe GRID PLANES_TIMED  (e.g. probe 768 200); prints a RESULT line
// per variant and a CHECK line (one step at 128^3 against an f64 CPU
// reference of the same f16 input; halo boundary, interior points).
#include "../common.h"

#include <cuda.h>
#include <cudaTypedefs.h>

#include <cstring>

// Thread 0: input plane i of the block's sweep into slot i mod (D + 1), its
// mbarrier expecting the box's bytes.
template <int D, int BX, int ROWS, int SLOT_BYTES>
__device__ __forceinline__ void
issuePlane(const CUtensorMap *map, unsigned char *buf, unsigned long long *bar,
           int i, int x0, int y0, int z0) {
  int s = i % (D + 1);
  unsigned b = smemAddr(&bar[s]);
  mbarrierExpect(b, BX * ROWS * 2);
  asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::"
               "complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];" ::"r"(
                   smemAddr(buf + s * SLOT_BYTES)),
               "l"(reinterpret_cast<unsigned long long>(map)), "r"(x0 - 8),
               "r"(y0 - 1), "r"(z0 - 1 + i), "r"(b)
               : "memory");
}

template <int TY, int OUT, int D, int BX, bool STAR>
__global__ void __launch_bounds__(32 * TY)
    planeSumsTma(const __grid_constant__ CUtensorMap map, __half *out, int nx,
                 int ny, int nz, int planes) {
  constexpr int ROWS = TY * OUT + 2;
  constexpr int SLOTS = D + 1;
  constexpr int SLOT_BYTES = (BX * ROWS * 2 + 127) / 128 * 128;
  __shared__ alignas(128) unsigned char buf[SLOTS * SLOT_BYTES];
  __shared__ alignas(8) unsigned long long bar[SLOTS];

  const int tx = threadIdx.x, ty = threadIdx.y;
  const int tid = ty * 32 + tx;
  const int x0 = blockIdx.x * 32, y0 = blockIdx.y * (TY * OUT),
            z0 = blockIdx.z * planes;
  const int iterations = (planes + 2 + 2) / 3 * 3;

  if (tid == 0) {
    for (int s = 0; s < SLOTS; ++s)
      mbarrierInit(smemAddr(&bar[s]), 1);
    mbarrierInitFence();
  }
  __syncthreads();

  if (tid == 0)
    for (int i = 0; i < D; ++i)
      issuePlane<D, BX, ROWS, SLOT_BYTES>(&map, buf, bar, i, x0, y0, z0);

  float acc[OUT][3];
#pragma unroll
  for (int k = 0; k < OUT; ++k)
#pragma unroll
    for (int q = 0; q < 3; ++q)
      acc[k][q] = 0.f;

  const int x = x0 + tx;
  for (int g = 0; g < iterations; g += 3) {
#pragma unroll
    for (int u = 0; u < 3; ++u) {
      const int i = g + u;
      if (tid == 0 && i + D < iterations)
        issuePlane<D, BX, ROWS, SLOT_BYTES>(&map, buf, bar, i + D, x0, y0, z0);
      const int s = i % SLOTS;
      const unsigned b = smemAddr(&bar[s]);
      const unsigned parity = (i / SLOTS) & 1;
      mbarrierWait(b, parity);
      const __half *plane =
          reinterpret_cast<const __half *>(buf + s * SLOT_BYTES);
      // Input plane i feeds output planes i - 1 - dz (slot (i - 1 - dz) mod 3,
      // static: u - 1 - dz mod 3 as g is a multiple of 3).
#pragma unroll
      for (int dx = -1; dx <= 1; ++dx)
#pragma unroll
        for (int r = 0; r < OUT + 2; ++r) {
          float v = __half2float(plane[(ty * OUT + r) * BX + tx + 8 + dx]);
          forEachRowUse<OUT>(r, [&](int k, int dy, int dz) {
            if (hasPoint<STAR>(dz, dy, dx))
              acc[k][((u - 1 - dz) % 3 + 3) % 3] =
                  fmaf(cw[(dz + 1) * 9 + (dy + 1) * 3 + dx + 1], v,
                       acc[k][((u - 1 - dz) % 3 + 3) % 3]);
          });
        }
      // Output plane i - 2 is complete.
      const int p = i - 2, z = z0 + p;
      const int slot = ((u - 2) % 3 + 3) % 3;
      if (p >= 0 && p < planes && z >= 1 && z < nz - 1 && x >= 1 &&
          x < nx - 1) {
#pragma unroll
        for (int k = 0; k < OUT; ++k) {
          const int y = y0 + ty * OUT + k;
          if (y >= 1 && y < ny - 1)
            out[(static_cast<size_t>(z) * ny + y) * nx + x] =
                __float2half_rn(acc[k][slot]);
        }
      }
#pragma unroll
      for (int k = 0; k < OUT; ++k)
        acc[k][slot] = 0.f;
      __syncthreads(); // slot s is refilled in iteration i + 1
    }
  }
}

static PFN_cuTensorMapEncodeTiled_v12000 encodeTiled() {
  void *fn = nullptr;
  cudaDriverEntryPointQueryResult q;
  CK(cudaGetDriverEntryPoint("cuTensorMapEncodeTiled", &fn, cudaEnableDefault,
                             &q));
  return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(fn);
}

static CUtensorMap makeMap(__half *grid, int n, int bx, int rows) {
  CUtensorMap map;
  cuuint64_t dims[3] = {(cuuint64_t)n, (cuuint64_t)n, (cuuint64_t)n};
  cuuint64_t strides[2] = {(cuuint64_t)n * 2, (cuuint64_t)n * n * 2};
  cuuint32_t box[3] = {(cuuint32_t)bx, (cuuint32_t)rows, 1};
  cuuint32_t estr[3] = {1, 1, 1};
  CUresult r = encodeTiled()(
      &map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 3, grid, dims, strides, box, estr,
      CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
      CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) {
    std::printf("cuTensorMapEncodeTiled failed (%d)\n", (int)r);
    std::exit(1);
  }
  return map;
}

static bool checkOnly = false;

template <int TY, int OUT, int D, int BX, bool STAR>
static void variant(const char *name, int n, int steps, int planes,
                    const std::vector<float> &w) {
  CK(cudaMemcpyToSymbol(cw, w.data(), 27 * sizeof(float)));
  dim3 block(32, TY), grid(n / 32, n / (TY * OUT), n / planes);
  auto kernel = planeSumsTma<TY, OUT, D, BX, STAR>;
  int regs = 0;
  cudaFuncAttributes attr;
  CK(cudaFuncGetAttributes(&attr, kernel));
  regs = attr.numRegs;

  // Check: one step at 128^3 against the f64 reference of the same input.
  {
    const int m = 128;
    CheckGrid grid = makeCheckGrid(m, m, m);
    PingPong grids(grid.count(), &grid.half);
    CUtensorMap ma = makeMap(grids.a, m, BX, TY * OUT + 2);
    dim3 g(m / 32, m / (TY * OUT), m / 64);
    kernel<<<g, block>>>(ma, grids.b, m, m, m, 64);
    const std::vector<double> wd(w.begin(), w.end());
    // f16 output rounding (2^-11 of values below 1) plus f32 accumulation.
    reportCheck(name,
                maxError(referenceStep<STAR>(grid.exact, m, m, m, wd),
                         grids.read(grids.b)),
                1e-3);
  }

  if (checkOnly)
    return;
  PingPong grids((size_t)n * n * n);
  __half *a = grids.a, *b = grids.b;
  CUtensorMap ma = makeMap(a, n, BX, TY * OUT + 2),
              mb = makeMap(b, n, BX, TY * OUT + 2);
  const float ms = timeSteps(steps, [&](int s) {
    kernel<<<grid, block>>>(s % 2 ? mb : ma, s % 2 ? a : b, n, n, n, planes);
  });
  std::printf("RESULT %s grid=%d^3 steps=%d regs=%d ms=%.3f gstencil_s=%.1f\n",
              name, n, steps, regs, ms, gstencils(n, steps, ms));
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 768;
  int steps = argc > 2 ? std::atoi(argv[2]) : 200;
  checkOnly = argc > 3;
  const ProbeWeights w = makeWeights();
  const std::vector<float> &star = w.star, &box = w.box;
  // name: stencil, threads-y, outputs per thread, planes ahead, box width.
  variant<4, 4, 2, 48, true>("heat-3d-ty4-o4-d2", n, steps, 64, star);
  variant<4, 4, 3, 48, true>("heat-3d-ty4-o4-d3", n, steps, 64, star);
  variant<2, 8, 2, 48, true>("heat-3d-ty2-o8-d2", n, steps, 64, star);
  variant<8, 4, 2, 48, true>("heat-3d-ty8-o4-d2", n, steps, 64, star);
  variant<4, 2, 3, 48, true>("heat-3d-ty4-o2-d3", n, steps, 64, star);
  variant<4, 4, 2, 48, false>("box-3d27p-ty4-o4-d2", n, steps, 64, box);
  variant<4, 4, 3, 48, false>("box-3d27p-ty4-o4-d3", n, steps, 64, box);
  variant<2, 8, 2, 48, false>("box-3d27p-ty2-o8-d2", n, steps, 64, box);
  variant<8, 4, 2, 48, false>("box-3d27p-ty8-o4-d2", n, steps, 64, box);
  variant<4, 2, 3, 48, false>("box-3d27p-ty4-o2-d3", n, steps, 64, box);
  return 0;
}
