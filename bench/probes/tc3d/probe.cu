// A measurement probe, not part of the compiler: would a 3-D radius-1
// stencil of a 16-bit grid reach issue 17's 80% of the single-step bound
// if its FMAs ran on the Tensor Cores (mma.sync, f32 accumulators) instead
// of 27 FFMAs per output on the CUDA cores (the vector plane sums stop at
// 75%, bound by instruction issue: bench/NOTES.md, "Vector columns")?
// (Answer, bench/NOTES.md "Box-3D27P on the Tensor Cores: a probe": 0.98x
// the vector plane sums for Box-3D27P, 0.97x for Heat-3D, with the kernel
// tcPlanes described below, v5. The `-shift-` variants, tcPlanesShifted,
// v7, pass their checks but are slower: 488-521 against v5's 554 for
// Box-3D27P, 525 against 593 for Heat-3D; so are the `-hybrid-` ones,
// the CUDA cores taking dz = 0: 466-474 for Box-3D27P.)
//
// The math. out(z, y, x) = sum_{dz, dy, dx} w(dz, dy, dx) in(z+dz, y+dy, x+dx).
// For one (dz, dy), the sum over dx of a 16 x 8 tile of outputs (rows y0+m,
// columns c+n, c a multiple of 8) is a matrix product A B with
// A(m, k) = in(z+dz, y0+m+dy, c-8+k) and the banded
// B(k, n) = w(dz, dy, k - 8 - n) where that dx lies in [-1, 1], else 0.
// The outputs' inputs are columns c-1 .. c+8: k = 7 .. 16, one past the 16
// of an m16n8k16 (A is loaded by ldmatrix, whose rows are 8 columns = 16
// aligned bytes, so the window cannot start at c-1). The one input left
// over, column c+8 for output n = 7 (dx = 1), is a second MMA, m16n8k8,
// with A = columns c+8 .. c+15 and one nonzero of B, w(dz, dy, 1) at
// (0, 7): 216 multiply-adds per output on the Tensor Cores for the
// stencil's 27, and aligned outputs, so that the global stores are whole
// 16-byte words. (A window starting 4 columns left, c-4 .. c+11, would
// need no second MMA; the bulk tensor copy engine rejects a box whose
// first element is not 16-byte aligned: illegal instruction, as the
// tma-probe found, and 16-byte copies cannot shift by 8 bytes.)
//
// Each input plane feeds three output planes (dz = -1, 0, 1): the probe
// keeps three sets of accumulators (the plane-sums schedule of
// CudaCorePlaneSums.cpp); an input plane costs, per warp and 16 x 16
// outputs, 6 ldmatrix.x4 and 36 MMAs (18 m16n8k16, 18 m16n8k8; the 7-point
// star: 10 and 2).
//
// A block of (TY/16) x (TX/16) warps covers TY x TX outputs of each plane
// and sweeps P planes along z. Input plane i + D is copied by the bulk copy
// engine (cp.async.bulk, one row per copy, warp w issuing rows w, w + WARPS,
// ..., completing on the slot's mbarrier) into ring slot (i + D) mod
// (D + 1) while plane i is computed; one barrier per plane. The finished
// output plane goes through a shared tile (two of them, alternating) and
// leaves as one 16-byte store per thread.
//
// Weights are rounded to f16 (the B operand), as in the compiler's Tensor
// Core kernels; inputs are f16, products exact in f32, sums in f32.
//
// Usage: probe GRID STEPS [time-only]; prints CHECK lines (two steps at
// 128^3, 200 x 130 x 67 and 16 x 9 x 5 against an f64 CPU reference of the
// same f16 input and f16-rounded weights) and RESULT lines (GRID^3, STEPS
// steps); PROBE_ONLY=A,B,... runs the variants whose names contain A, B, ....
// Halo boundary: only interior points are written (columns 0 and nx - 1 are
// stored with their input value). The grid's x extent must be a multiple of 8.
#include "../common.h"

#include <algorithm>
#include <cstdint>
#include <string>

// Whether the stencil has a point in row (dz, dy).
template <bool STAR> __host__ __device__ constexpr bool has(int dz, int dy) {
  return STAR ? (dz == 0 || dy == 0) : true;
}

// Whether the stencil has a point in row dy of any plane.
template <bool STAR> __host__ __device__ constexpr bool hasRow(int dy) {
  return has<STAR>(-1, dy) || has<STAR>(0, dy) || has<STAR>(1, dy);
}

__device__ __forceinline__ unsigned packHalves(float lo, float hi) {
  __half2 h = __floats2half2_rn(lo, hi);
  return *reinterpret_cast<unsigned *>(&h);
}

__device__ __forceinline__ void mma(float *d, unsigned a0, unsigned a1,
                                    unsigned a2, unsigned a3, unsigned b0,
                                    unsigned b1) {
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
               "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
}

// Four 8 x 8 matrices of 16-bit elements from shared memory (lane l gives
// row l % 8 of matrix l / 8) into a[0..3].
__device__ __forceinline__ void ldmatrixX4(unsigned *a, unsigned addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
               : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3])
               : "r"(addr));
}

__device__ __forceinline__ void mma8(float *d, unsigned a0, unsigned a1,
                                     unsigned b0) {
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 "
               "{%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(a0), "r"(a1), "r"(b0));
}

// B(k, g), B(k+1, g) as one f16 pair, of the banded matrix of (dz, dy) =
// (q - 1, r - 1) whose column n holds w(dz, dy, k - shift - n) (zero where
// that dx is not one of the stencil's): a B fragment's register for rows k,
// k + 1 (k = 2t or 2t + 8) and column g.
template <bool STAR>
__device__ __forceinline__ unsigned weightPair(int q, int r, int k, int g,
                                               int shift) {
  auto weight = [&](int dx) {
    return dx >= -1 && dx <= 1 && hasPoint<STAR>(q - 1, r - 1, dx)
               ? cw[q * 9 + r * 3 + dx + 1]
               : 0.f;
  };
  return packHalves(weight(k - shift - g), weight(k + 1 - shift - g));
}

// The way out of a finished output plane, shared by both kernels. The warp
// (wy, wx) writes its accumulators (two n-blocks of a 16 x 16 tile) into a
// shared tile of TY rows of TX + 8 halves (padded: no bank conflicts) and
// zeroes them; after a barrier, thread tid stores one 16-byte chunk of the
// tile (THREADS = TY * TX / 8): row tid / (TX / 8), columns xb + 8q ..
// xb + 8q + 7 with q = tid % (TX / 8). Columns 0 and nx - 1 keep their
// input value.
template <int TY, int TX, int P> struct OutputPlanes {
  static constexpr int OW = TX + 8, OTILE = TY * OW;
  const __half *in;
  __half *out;
  size_t plane;
  int z0, nz, storeOff, tileOff;
  bool storeOk, fixLeft, fixRight;

  __device__ OutputPlanes(const __half *in, __half *out, int tid, int xb,
                          int y0, int z0, int nx, int ny, int nz)
      : in(in), out(out), plane(static_cast<size_t>(nx) * ny), z0(z0), nz(nz) {
    const int row = tid / (TX / 8), q = tid % (TX / 8);
    const int y = y0 + row, x = xb + 8 * q;
    storeOk = y < ny - 1 && x < nx;
    fixLeft = x == 0;
    fixRight = x + 8 == nx;
    storeOff = y * nx + x;
    tileOff = row * OW + 8 * q;
  }

  // Warp (wy, wx), lane (g, t): acc[j] (n-block j) into `tile`, then zero.
  __device__ static void write(float (&acc)[2][4], __half *tile, int wy, int wx,
                               int g, int t) {
#pragma unroll
    for (int j = 0; j < 2; ++j)
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int row = 16 * wy + g + 8 * h, col = 16 * wx + 8 * j + 2 * t;
        *reinterpret_cast<unsigned *>(tile + row * OW + col) =
            packHalves(acc[j][2 * h], acc[j][2 * h + 1]);
        acc[j][2 * h] = 0.f;
        acc[j][2 * h + 1] = 0.f;
      }
  }

  // Output plane o (global z0 + o) from `tile` to global memory.
  __device__ void store(int o, const __half *tile) const {
    const int z = z0 + o;
    if (o < 0 || o >= P || z >= nz - 1 || !storeOk)
      return;
    const size_t at = static_cast<size_t>(z) * plane + storeOff;
    uint4 v = *reinterpret_cast<const uint4 *>(tile + tileOff);
    if (fixLeft)
      v.x = (v.x & 0xffff0000u) |
            reinterpret_cast<const unsigned short *>(in)[at];
    if (fixRight)
      v.w = (v.w & 0x0000ffffu) |
            (unsigned(reinterpret_cast<const unsigned short *>(in)[at + 7])
             << 16);
    *reinterpret_cast<uint4 *>(out + at) = v;
  }
};

// HYBRID (the `-hybrid-` variants): the Tensor Cores take only the
// neighbour planes' sums (dz = -1, 1) and the CUDA cores the plane's own
// (dz = 0), adding into the same accumulators: the fragment's c0, c1 are
// row g, columns 2t, 2t + 1 of its n-block, c2, c3 row g + 8, so a thread
// sums those outputs' 9 points of plane i from the staged slot (weights
// rounded to f16 as the B operands are), 72 FFMAs per plane, so that
// neither unit carries all 27 multiply-adds of an output.
template <int TY, int TX, int D, int P, bool STAR, int MINB,
          bool HYBRID = false>
__global__ void __launch_bounds__((TY / 16) * (TX / 16) * 32, MINB)
    tcPlanes(const __half *__restrict__ in, __half *__restrict__ out, int nx,
             int ny, int nz) {
  constexpr int WX = TX / 16, THREADS = (TY / 16) * WX * 32,
                WARPS = THREADS / 32;
  // Staged columns xb - 8 .. xb + TX + 7 in a row of TX + 24 halves: the
  // pad makes the row 12 banks (mod 32) long, so the 8 rows of an ldmatrix
  // matrix fall in 8 different groups of 4 banks (TX + 16 would be 8 banks
  // long: rows 0 and 4 share banks, two-way conflicts).
  constexpr int W = TX + 24;
  constexpr int ROWS = TY + 2;   // staged rows: y0 - 1 .. y0 + TY
  constexpr int SLOT = ROWS * W; // halves per ring slot
  constexpr int SLOTS = D + 1;
  constexpr int OTILE = OutputPlanes<TY, TX, P>::OTILE;
  extern __shared__ __align__(16) __half smem[];
  __half *ring = smem;
  __half *otile = smem + SLOTS * SLOT;

  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const int wy = warp / WX, wx = warp % WX;
  const int xb = blockIdx.x * TX;     // first output column (aligned)
  const int y0 = 1 + blockIdx.y * TY; // first output row
  const int z0 = 1 + blockIdx.z * P;  // first output plane
  const size_t plane = static_cast<size_t>(nx) * ny;

  // B fragments. k16: b0 holds B(2t, g), B(2t+1, g), b1 B(2t+8, g),
  // B(2t+9, g), with B(k, n) = w(dz, dy, k - 8 - n); k8: B(2t, g),
  // B(2t+1, g) with B(k, n) = w(dz, dy, k + 8 - n) (only k = 0, n = 7).
  const int g = lane >> 2, t = lane & 3;
  unsigned bf[3][3][2], b8[3][3];
#pragma unroll
  for (int q = 0; q < 3; ++q)
#pragma unroll
    for (int r = 0; r < 3; ++r) {
#pragma unroll
      for (int h = 0; h < 2; ++h)
        bf[q][r][h] = weightPair<STAR>(q, r, 2 * t + 8 * h, g, 8);
      b8[q][r] = weightPair<STAR>(q, r, 2 * t, g, -8);
    }
  // HYBRID: the plane's own weights w(0, dy, dx), rounded to f16.
  float w0[3][3];
#pragma unroll
  for (int r = 0; r < 3; ++r)
#pragma unroll
    for (int c = 0; c < 3; ++c)
      w0[r][c] = __half2float(__float2half_rn(cw[9 + r * 3 + c]));

  // Staging by the bulk copy engine: one cp.async.bulk per staged row (the
  // part of columns xb - 8 .. xb + TX + 7 inside the grid), completing on
  // slot's mbarrier. Columns outside the grid are zeroed once (a NaN there
  // would reach every output of its MMA through the zero weights); rows
  // outside it are left as they are (a row feeds only the outputs of its
  // own row, which are not stored).
  __shared__ alignas(8) unsigned long long bar[SLOTS];
  const int xLo = xb - 8 < 0 ? 0 : xb - 8,
            xHi = xb + TX + 8 > nx ? nx : xb + TX + 8;
  const int copyRowBytes = (xHi - xLo) * 2;
  const unsigned copyDst = smemAddr(ring + (xLo - (xb - 8)));
  const int copySrc = (y0 - 1) * nx + xLo;
  // Rows inside the grid.
  const int rowsIn = (ny - (y0 - 1)) < ROWS ? ny - (y0 - 1) : ROWS;
  if (tid == 0) {
    for (int k = 0; k < SLOTS; ++k)
      mbarrierInit(smemAddr(&bar[k]), WARPS);
    mbarrierInitFence();
  }
  if (xb - 8 < 0 || xb + TX + 8 > nx)
    for (int c = tid; c < SLOTS * ROWS * W; c += THREADS) {
      const int col = c % W, x = xb - 8 + col;
      if (x < 0 || x >= nx)
        ring[c] = __float2half(0.f);
    }
  __syncthreads();
  // Input plane i (global z0 - 1 + i) into slot i mod SLOTS: warp w copies
  // rows w, w + WARPS, ... (lane l the l-th of them) and arrives on the
  // slot's mbarrier, expecting its own rows' bytes.
  const int myRows = rowsIn > warp ? (rowsIn - warp + WARPS - 1) / WARPS : 0;
  auto issue = [&](int i) {
    const int z = z0 - 1 + i, k = i % SLOTS;
    const unsigned b = smemAddr(&bar[k]);
    if (lane == 0)
      mbarrierExpect(b, z < nz ? myRows * copyRowBytes : 0);
    __syncwarp();
    const int row = warp + WARPS * lane;
    if (z < nz && lane < myRows)
      bulkCopy(copyDst + (k * SLOT + row * W) * 2,
               in + static_cast<size_t>(z) * plane + copySrc + row * nx,
               copyRowBytes, b);
  };
  auto wait = [&](int i) {
    const unsigned b = smemAddr(&bar[i % SLOTS]), parity = (i / SLOTS) & 1;
    mbarrierWait(b, parity);
  };

  const OutputPlanes<TY, TX, P> outputs(in, out, tid, xb, y0, z0, nx, ny, nz);

  float acc[3][2][4] = {};

  // ldmatrix row addresses: lane l gives row l % 8 of matrix l / 8; the
  // first .x4 loads groups 2wx, 2wx+1 (rows 0-7, 8-15 each), the second
  // groups 2wx+2, 2wx+3 (16 columns = 32 bytes on).
  const int mrow = 16 * wy + (lane & 7) + ((lane >> 3) & 1) * 8;
  const int mcol = (2 * wx + (lane >> 4)) * 8;

  const int iterations = (P + 2 + 2) / 3 * 3;
#pragma unroll
  for (int i = 0; i < D; ++i)
    issue(i);
  for (int base = 0; base < iterations; base += 3) {
#pragma unroll
    for (int u = 0; u < 3; ++u) {
      const int i = base + u;
      wait(i);
      __syncthreads(); // every warp is done with slot (i - 1) mod SLOTS
      outputs.store(i - 3, otile + ((i - 1) & 1) * OTILE);
      if (i + D < iterations)
        issue(i + D);
      const unsigned slot = smemAddr(ring + (i % SLOTS) * SLOT);
#pragma unroll
      for (int r = 0; r < 3; ++r) {
        if (!hasRow<STAR>(r - 1))
          continue;
        unsigned a[8];
        const unsigned rowAddr = slot + ((mrow + r) * W + mcol) * 2;
        ldmatrixX4(a, rowAddr);
        ldmatrixX4(a + 4, rowAddr + 32);
#pragma unroll
        for (int q = 0; q < 3; ++q) {
          if (!has<STAR>(q - 1, r - 1) || (HYBRID && q == 1))
            continue;
          // Input plane i feeds output plane i - 1 - dz, dz = q - 1.
          const int s = ((u - q) % 3 + 3) % 3;
          mma(acc[s][0], a[0], a[1], a[2], a[3], bf[q][r][0], bf[q][r][1]);
          mma(acc[s][1], a[2], a[3], a[4], a[5], bf[q][r][0], bf[q][r][1]);
          if (hasPoint<STAR>(q - 1, r - 1, 1)) {
            mma8(acc[s][0], a[4], a[5], b8[q][r]);
            mma8(acc[s][1], a[6], a[7], b8[q][r]);
          }
        }
      }
      if constexpr (HYBRID) {
        // Plane i's own sums (dz = 0) into output plane i - 1's set.
        const __half *plane = ring + (i % SLOTS) * SLOT;
        float(&a1)[2][4] = acc[((u - 1) % 3 + 3) % 3];
#pragma unroll
        for (int j = 0; j < 2; ++j)
#pragma unroll
          for (int h = 0; h < 2; ++h) {
            // Outputs (row ro, columns co, co + 1): slot row ro + 1 + dy,
            // column co + 8 + dx; the words at co + 6, co + 8, co + 10 hold
            // columns co - 1 .. co + 2 (co is even).
            const int ro = 16 * wy + g + 8 * h, co = 16 * wx + 8 * j + 2 * t;
#pragma unroll
            for (int dy = -1; dy <= 1; ++dy) {
              const __half2 *row = reinterpret_cast<const __half2 *>(
                  plane + (ro + 1 + dy) * W + co + 6);
              const float2 p0 = __half22float2(row[0]),
                           p1 = __half22float2(row[1]),
                           p2 = __half22float2(row[2]);
              const float v[4] = {p0.y, p1.x, p1.y, p2.x};
#pragma unroll
              for (int e = 0; e < 2; ++e)
#pragma unroll
                for (int dx = -1; dx <= 1; ++dx)
                  if (hasPoint<STAR>(0, dy, dx))
                    a1[j][2 * h + e] = fmaf(w0[dy + 1][dx + 1], v[e + 1 + dx],
                                            a1[j][2 * h + e]);
            }
          }
      }
      // Output plane i - 2 is complete: into output tile i & 1.
      OutputPlanes<TY, TX, P>::write(acc[((u - 2) % 3 + 3) % 3],
                                     otile + (i & 1) * OTILE, wy, wx, g, t);
    }
  }
  __syncthreads();
  outputs.store(iterations - 3, otile + ((iterations - 1) & 1) * OTILE);
}

// v7 (measured slower than v5, bench/NOTES.md): the window of an
// n-block starts 4 columns left of its outputs, c-4 .. c+11, so one
// m16n8k16 per (dz, dy, n-block) covers the inputs c-1 .. c+8 and the
// m16n8k8 goes: B(k, n) = w(dz, dy, k - 4 - n), 144 multiply-adds per
// output. Neither copy engine writes shared memory 8 bytes off 16 (see the
// header), so the planes are staged through registers: a thread loads its
// 16-byte chunks of plane i + D (global columns xb - 8 + 8k, aligned; zero
// outside the grid) in iteration i and stores them in iteration i + D - 1
// as two 8-byte halves at shared column 8k - 4 (slot column c holds global
// column xb - 4 + c), into the other of two slots; one barrier per plane.
template <int TY, int TX, int D, int P, bool STAR, int MINB>
__global__ void __launch_bounds__((TY / 16) * (TX / 16) * 32, MINB)
    tcPlanesShifted(const __half *__restrict__ in, __half *__restrict__ out,
                    int nx, int ny, int nz) {
  constexpr int WX = TX / 16, THREADS = (TY / 16) * WX * 32;
  constexpr int W = TX + 8;      // 4 banks mod 32: no ldmatrix conflicts
  constexpr int ROWS = TY + 2;   // staged rows: y0 - 1 .. y0 + TY
  constexpr int CH = TX / 8 + 2; // 16-byte chunks per row, from xb - 8
  constexpr int ITEMS = (ROWS * CH + THREADS - 1) / THREADS;
  constexpr int SLOT = ROWS * W;
  constexpr int OTILE = OutputPlanes<TY, TX, P>::OTILE;
  constexpr int U = 6; // unroll: a multiple of 3 (sums) and of D (loads)
  static_assert(U % D == 0, "the register sets must rotate statically");
  extern __shared__ __align__(16) __half smem[];
  __half *ring = smem;
  __half *otile = smem + 2 * SLOT;

  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const int wy = warp / WX, wx = warp % WX;
  const int xb = blockIdx.x * TX, y0 = 1 + blockIdx.y * TY,
            z0 = 1 + blockIdx.z * P;
  const size_t plane = static_cast<size_t>(nx) * ny;

  const int g = lane >> 2, t = lane & 3;
  unsigned bf[3][3][2];
#pragma unroll
  for (int q = 0; q < 3; ++q)
#pragma unroll
    for (int r = 0; r < 3; ++r)
#pragma unroll
      for (int h = 0; h < 2; ++h)
        bf[q][r][h] = weightPair<STAR>(q, r, 2 * t + 8 * h, g, 4);

  // A thread's chunks: item c = tid + k THREADS is row c / CH, chunk c % CH.
  int loadOff[ITEMS], storeAt[ITEMS];
  bool loadOk[ITEMS], lowHalf[ITEMS], highHalf[ITEMS];
#pragma unroll
  for (int k = 0; k < ITEMS; ++k) {
    const int c = tid + k * THREADS, row = c / CH, chunk = c % CH;
    const int y = y0 - 1 + row, x = xb - 8 + 8 * chunk;
    loadOk[k] = c < ROWS * CH && y < ny && x >= 0 && x < nx;
    loadOff[k] = loadOk[k] ? y * nx + x : 0;
    storeAt[k] = row * W + 8 * chunk - 4;          // may be -4 (chunk 0)
    lowHalf[k] = c < ROWS * CH && chunk > 0;       // columns 8k-4 .. 8k-1
    highHalf[k] = c < ROWS * CH && chunk < CH - 1; // columns 8k .. 8k+3
  }
  uint4 staged[D][ITEMS];
  auto load = [&](int i, uint4 *set) {
    const int z = z0 - 1 + i;
    const __half *src = in + static_cast<size_t>(z < nz ? z : 0) * plane;
#pragma unroll
    for (int k = 0; k < ITEMS; ++k)
      set[k] = loadOk[k] && z < nz
                   ? __ldg(reinterpret_cast<const uint4 *>(src + loadOff[k]))
                   : make_uint4(0, 0, 0, 0);
  };
  auto stage = [&](int i, const uint4 *set) {
    __half *slot = ring + (i & 1) * SLOT;
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
      if (lowHalf[k])
        *reinterpret_cast<uint2 *>(slot + storeAt[k]) =
            make_uint2(set[k].x, set[k].y);
      if (highHalf[k])
        *reinterpret_cast<uint2 *>(slot + storeAt[k] + 4) =
            make_uint2(set[k].z, set[k].w);
    }
  };

  const OutputPlanes<TY, TX, P> outputs(in, out, tid, xb, y0, z0, nx, ny, nz);

  float acc[3][2][4] = {};

  const int mrow = 16 * wy + (lane & 7) + ((lane >> 3) & 1) * 8;
  const int mcol4 = (2 * wx + (lane >> 4)) * 8, mcol2 = (2 * wx + 2) * 8;

  const int iterations = (P + 2 + U - 1) / U * U;
#pragma unroll
  for (int i = 0; i < D; ++i)
    load(i, staged[i]);
  stage(0, staged[0]);
  for (int base = 0; base < iterations; base += U) {
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const int i = base + u;
      __syncthreads(); // slot i & 1 is staged; slot (i + 1) & 1 is free
      outputs.store(i - 3, otile + ((i - 1) & 1) * OTILE);
      if (i + D < iterations)
        load(i + D, staged[u % D]); // set (i + D) mod D = i mod D
      const unsigned slot = smemAddr(ring + (i & 1) * SLOT);
#pragma unroll
      for (int r = 0; r < 3; ++r) {
        if (!hasRow<STAR>(r - 1))
          continue;
        unsigned a[6];
        const unsigned rowAddr = slot + (mrow + r) * W * 2;
        ldmatrixX4(a, rowAddr + mcol4 * 2);
        asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];"
                     : "=r"(a[4]), "=r"(a[5])
                     : "r"(rowAddr + mcol2 * 2));
#pragma unroll
        for (int q = 0; q < 3; ++q) {
          if (!has<STAR>(q - 1, r - 1))
            continue;
          const int s = ((u - q) % 3 + 3) % 3;
          mma(acc[s][0], a[0], a[1], a[2], a[3], bf[q][r][0], bf[q][r][1]);
          mma(acc[s][1], a[2], a[3], a[4], a[5], bf[q][r][0], bf[q][r][1]);
        }
      }
      if (i + 1 < iterations)
        stage(i + 1, staged[(u + 1) % D]);
      OutputPlanes<TY, TX, P>::write(acc[((u - 2) % 3 + 3) % 3],
                                     otile + (i & 1) * OTILE, wy, wx, g, t);
    }
  }
  __syncthreads();
  outputs.store(iterations - 3, otile + ((iterations - 1) & 1) * OTILE);
}

template <int TY, int TX, int D, int P, bool STAR, int MINB, bool SHIFT = false,
          bool HYBRID = false>
struct Variant {
  // The kernel of the variant (only that one is instantiated).
  static auto kernel() {
    if constexpr (SHIFT)
      return tcPlanesShifted<TY, TX, D, P, STAR, MINB>;
    else
      return tcPlanes<TY, TX, D, P, STAR, MINB, HYBRID>;
  }
  static constexpr size_t smem =
      SHIFT ? (2 * (TY + 2) * (TX + 8) + 2 * TY * (TX + 8)) * 2
            : ((D + 1) * (TY + 2) * (TX + 24) + 2 * TY * (TX + 8)) * 2;
  static dim3 grid(int nx, int ny, int nz) {
    return dim3((nx + TX - 1) / TX, (ny - 2 + TY - 1) / TY,
                (nz - 2 + P - 1) / P);
  }
  static void launch(const __half *in, __half *out, int nx, int ny, int nz) {
    kernel()<<<grid(nx, ny, nz), (TY / 16) * (TX / 16) * 32, smem>>>(
        in, out, nx, ny, nz);
  }
};

// Two steps on an nx x ny x nz grid against the f64 reference (weights as
// the kernel rounds them); prints the largest error and the tolerance: per
// step 2^-11 of the largest |value| (the f16 output rounding) plus 27 f32
// roundings, the error of step 1 carried by step 2's weights (their sum is
// 1), so twice that.
template <class V, bool STAR>
static bool check(const char *name, int nx, int ny, int nz,
                  const std::vector<float> &w) {
  CheckGrid grid = makeCheckGrid(nx, ny, nz);
  std::vector<double> wr(27);
  for (int j = 0; j < 27; ++j)
    wr[j] = (double)__half2float(__float2half_rn(w[j]));
  PingPong grids(grid.count(), &grid.half);
  V::launch(grids.a, grids.b, nx, ny, nz);
  V::launch(grids.b, grids.a, nx, ny, nz);
  std::vector<double> ref = grid.exact;
  for (int step = 0; step < 2; ++step)
    ref = referenceStep<STAR>(ref, nx, ny, nz, wr);
  const double tol = 2 * (std::ldexp(1.0, -11) + 27 * std::ldexp(1.0, -24));
  const std::string label = std::string(name) + " " + std::to_string(nx) + "x" +
                            std::to_string(ny) + "x" + std::to_string(nz);
  return reportCheck(label.c_str(), maxError(ref, grids.read(grids.a)), tol);
}

template <int TY, int TX, int D, int P, bool STAR, int MINB, bool SHIFT = false,
          bool HYBRID = false>
static void variant(const char *name, int n, int steps, bool timeOnly,
                    const std::vector<float> &w) {
  if (!probeSelected(name))
    return;
  using V = Variant<TY, TX, D, P, STAR, MINB, SHIFT, HYBRID>;
  auto kernel = V::kernel();
  CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                          (int)V::smem));
  CK(cudaMemcpyToSymbol(cw, w.data(), 27 * sizeof(float)));
  cudaFuncAttributes attr;
  CK(cudaFuncGetAttributes(&attr, kernel));
  int blocks = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &blocks, kernel, (TY / 16) * (TX / 16) * 32, V::smem));
  if (!timeOnly) {
    check<V, STAR>(name, 128, 128, 128, w);
    check<V, STAR>(name, 200, 130, 67, w);
    check<V, STAR>(name, 16, 9, 5, w);
  }
  PingPong grids((size_t)n * n * n);
  __half *a = grids.a, *b = grids.b;
  const float ms = timeSteps(
      steps, [&](int s) { V::launch(s % 2 ? b : a, s % 2 ? a : b, n, n, n); });
  std::printf(
      "RESULT %s grid=%d^3 steps=%d regs=%d smem=%zu blocks/SM=%d ms=%.3f "
      "gstencil_s=%.1f\n",
      name, n, steps, attr.numRegs, V::smem, blocks, ms,
      gstencils(n, steps, ms));
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 768;
  int steps = argc > 2 ? std::atoi(argv[2]) : 200;
  bool timeOnly = argc > 3;
  const ProbeWeights w = makeWeights();
  const std::vector<float> &star = w.star, &box = w.box;
  // name: stencil, rows x columns per block, planes ahead, planes per
  // block, blocks per SM asked of ptxas (__launch_bounds__).
  variant<32, 64, 3, 64, false, 3>("box-3d27p-32x64-d3-p64-b3", n, steps,
                                   timeOnly, box);
  variant<16, 64, 3, 64, false, 4>("box-3d27p-16x64-d3-p64-b4", n, steps,
                                   timeOnly, box);
  variant<16, 64, 2, 64, false, 4>("box-3d27p-16x64-d2-p64-b4", n, steps,
                                   timeOnly, box);
  variant<16, 64, 3, 128, false, 4>("box-3d27p-16x64-d3-p128-b4", n, steps,
                                    timeOnly, box);
  variant<16, 128, 3, 64, false, 3>("box-3d27p-16x128-d3-p64-b3", n, steps,
                                    timeOnly, box);
  variant<16, 128, 2, 128, false, 3>("box-3d27p-16x128-d2-p128-b3", n, steps,
                                     timeOnly, box);
  variant<16, 64, 3, 64, true, 4>("heat-3d-16x64-d3-p64-b4", n, steps, timeOnly,
                                  star);
  variant<16, 128, 3, 64, true, 3>("heat-3d-16x128-d3-p64-b3", n, steps,
                                   timeOnly, star);
  variant<16, 128, 2, 128, true, 3>("heat-3d-16x128-d2-p128-b3", n, steps,
                                    timeOnly, star);
  // v7, slower than v5: windows from c - 4, planes staged through registers.
  variant<16, 128, 2, 64, false, 2, true>("box-3d27p-shift-16x128-d2-p64-b2", n,
                                          steps, timeOnly, box);
  variant<16, 128, 3, 64, false, 2, true>("box-3d27p-shift-16x128-d3-p64-b2", n,
                                          steps, timeOnly, box);
  variant<32, 64, 2, 64, false, 2, true>("box-3d27p-shift-32x64-d2-p64-b2", n,
                                         steps, timeOnly, box);
  variant<16, 64, 2, 64, false, 4, true>("box-3d27p-shift-16x64-d2-p64-b4", n,
                                         steps, timeOnly, box);
  variant<16, 128, 2, 64, true, 3, true>("heat-3d-shift-16x128-d2-p64-b3", n,
                                         steps, timeOnly, star);
  // The Tensor Cores for dz = -1, 1, the CUDA cores for dz = 0.
  variant<16, 128, 3, 64, false, 3, false, true>(
      "box-3d27p-hybrid-16x128-d3-p64-b3", n, steps, timeOnly, box);
  variant<16, 128, 3, 64, false, 2, false, true>(
      "box-3d27p-hybrid-16x128-d3-p64-b2", n, steps, timeOnly, box);
  variant<16, 64, 3, 64, false, 4, false, true>(
      "box-3d27p-hybrid-16x64-d3-p64-b4", n, steps, timeOnly, box);
  variant<32, 64, 3, 64, false, 3, false, true>(
      "box-3d27p-hybrid-32x64-d3-p64-b3", n, steps, timeOnly, box);
  variant<16, 128, 3, 64, true, 3, false, true>(
      "heat-3d-hybrid-16x128-d3-p64-b3", n, steps, timeOnly, star);
  return 0;
}
