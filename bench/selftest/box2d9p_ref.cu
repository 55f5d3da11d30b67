// Hand-written reference kernel with the compiler's kernel ABI (see
// docs/LaunchDescription.md), to test stencil-run itself without the
// compiler: 2-D stencil of up to 9 points (the offsets are a 3x3 box), f16
// grid, f32 accumulation, weights taken from `coeffs` as f32 bit patterns
// (coefficients = the hex bits of the f32 weights, row-major over the box).
// Each thread computes one point; tile = blockDim (x, y).
#include <cuda_fp16.h>

extern "C" __global__ void box2d9p_ref(
    __half *inAlloc, __half *in, long long inOff, long long inSize,
    long long inStride, __half *outAlloc, __half *out, long long outOff,
    long long outSize, long long outStride, int *cAlloc, int *coeffs,
    long long cOff, long long cSize, long long cStride, long long n0,
    long long n1) {
  long long x = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  long long y = blockIdx.y * (long long)blockDim.y + threadIdx.y;
  if (x < 1 || y < 1 || x >= n1 - 1 || y >= n0 - 1)
    return; // halo: only points whose whole neighbourhood is inside
  float acc = 0.0f;
#pragma unroll
  for (int dy = -1; dy <= 1; ++dy)
#pragma unroll
    for (int dx = -1; dx <= 1; ++dx)
      acc += __int_as_float(coeffs[(dy + 1) * 3 + dx + 1]) *
             __half2float(in[(y + dy) * n1 + x + dx]);
  out[y * n1 + x] = __float2half_rn(acc);
}
