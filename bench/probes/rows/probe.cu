// A hand-written measurement probe (not part of the compiler): the row sweep
// of CudaCoreRowStream.cpp for Box-2D49P in f64 with two fused steps, its
// weight rows split between G groups of threads ("roles"), so that each
// role's loop uses few enough weights for ptxas to keep them in uniform
// registers (bench/NOTES.md, "The weights in SASS": 49 f64 weights need 98
// uniform words of the 63 there are, so ptxas reloads them and half the
// issued instructions of the sweep move weights).
//
// The schedule (the compiler's, with one column per thread): the block owns
// W columns (the inner W - 2 t r of them its outputs) and C output rows; it
// sweeps input rows q = 0, 1, ... (grid row y0 - t r + q). Level s (s = 1,
// 2, the fused steps) keeps partial sums of its output rows; when row p of
// level s - 1 arrives,
//
//   acc_s[p - dy] += sum_dx w(dy, dx) v_{s-1}[p][c + dx]     (dx ascending),
//
// and output row o is complete once row o + r has arrived. Split: role g
// applies the weight rows dy in [A_g, B_g] (consecutive, ascending, the
// roles in order); its sum for output o starts from role g - 1's partial,
// which that role finished one iteration earlier (at row o + B_{g-1} =
// o + A_g - 1) and left in shared memory (two parities, one per
// iteration, a barrier between). So every output is still summed over
// (dy, dx) in ascending order from 0, one FMA each: bit for bit the
// unsplit sweep, and bit for bit the host reference below. Role 0 stages
// the input rows; the last role completes the rows (the halo boundary
// keeps its values), writes level 1's rows to shared memory and level 2's
// to the output.
//
// Usage: probe N LAUNCHES [time-only]; PROBE_ONLY as in the tc3d probe.
#include "../common.h"

#include <algorithm>
#include <string>

namespace {
constexpr int R = 3; // radius
constexpr int T = 2; // fused steps per launch
// Unrolled iterations, a multiple of 2 R + 1 (so that the sums' slots are
// static; the shared buffers' parity too when it is even). -DUNROLL=14
// doubles the code of the default 7: the first two calls' figures were
// taken with 14 (bench/NOTES.md).
#ifndef UNROLL
#define UNROLL 7
#endif
constexpr int U = UNROLL;
static_assert(U % (2 * R + 1) == 0, "the sums' slots must be static");
__constant__ double cw49[49]; // w(dy, dx) at (dy + 3) * 7 + dx + 3

template <int W, int C> struct Geo {
  static constexpr int outCols = W - 2 * T * R;
  static constexpr int rowLen = W + 2 * R;
  // Level 2 completes local row q - 2 R - 1 in iteration q, and the
  // block's last output row is C + T R - 1: C + 2 T R + 1 iterations,
  // rounded up to the unroll.
  static constexpr int iters = (C + 2 * T * R + 1 + U - 1) / U * U;
};

// The layout of shared memory (doubles): the input rows (2 parities), level
// 1's rows (2 parities), and per role boundary g (between roles g and g + 1)
// the hand-off of each level (2 parities of W).
template <int W, int C, int G> struct Smem {
  static constexpr int rowLen = Geo<W, C>::rowLen;
  static constexpr int in = 0, l1 = 2 * rowLen, hand = 4 * rowLen;
  static constexpr int total = hand + (G - 1) * 2 * 2 * W;
  __device__ static int handoff(int boundary, int level, int parity) {
    return hand + ((boundary * 2 + level) * 2 + parity) * W;
  }
};

// One role's sweep: weight rows [A, B]; FIRST starts its sums from 0, LAST
// completes the rows, STAGE loads the input rows; EDGE checks the grid's
// bounds (else the block lies far enough inside that none is needed).
template <int W, int C, int G, int ROLE, int A, int B, bool STAGE, bool EDGE>
__device__ __forceinline__ void sweep(const double *__restrict__ in,
                                      double *__restrict__ out, int n, int x0,
                                      int y0, int c, double *sm) {
  using SM = Smem<W, C, G>;
  constexpr bool FIRST = ROLE == 0, LAST = ROLE == G - 1;
  constexpr int iters = Geo<W, C>::iters;
  const int gx = x0 - T * R + c;
  const bool colIn = gx >= 0 && gx < n;
  const bool colComputed = gx >= R && gx < n - R;
  const bool colStored = c >= T * R && c < W - T * R && gx < n;
  auto load = [&](int q) -> double {
    int gy = y0 - T * R + q;
    if (EDGE && !(colIn && gy >= 0 && gy < n))
      return 0.0;
    return in[(size_t)gy * n + gx];
  };
  // A completed point: computed where the boundary computes it, else the
  // input's value (the halo keeps it).
  auto complete = [&](double v, int gy) -> double {
    if (EDGE && !(colComputed && gy >= R && gy < n - R))
      return (colIn && gy >= 0 && gy < n) ? in[(size_t)gy * n + gx] : 0.0;
    return v;
  };
  double pre = 0;
  if (STAGE) {
    sm[SM::in + c + R] = load(0);
    pre = load(1);
  }
  __syncthreads();
  double acc1[7], acc2[7];
#pragma unroll
  for (int k = 0; k < 7; ++k)
    acc1[k] = acc2[k] = 0;
  for (int q0 = 0; q0 < iters; q0 += U) {
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const int q = q0 + u, par = (U % 2 ? q : u) & 1;
      if (STAGE) {
        sm[SM::in + (par ^ 1) * SM::rowLen + c + R] = pre;
        pre = load(q + 2);
      }
      // Level 1: input row q arrives.
      {
        double x[7];
#pragma unroll
        for (int k = 0; k < 7; ++k)
          x[k] = sm[SM::in + par * SM::rowLen + c + k];
#pragma unroll
        for (int dy = A; dy <= B; ++dy) {
          const int slot = (u - dy + 7 * U) % 7;
          double s =
              dy == A
                  ? (FIRST ? 0.0 : sm[SM::handoff(ROLE - 1, 0, par ^ 1) + c])
                  : acc1[slot];
#pragma unroll
          for (int k = 0; k < 7; ++k)
            s = fma(cw49[(dy + R) * 7 + k], x[k], s);
          acc1[slot] = s;
          asm volatile("" ::"d"(s));
          if (dy == B) {
            if (LAST)
              sm[SM::l1 + par * SM::rowLen + c + R] =
                  complete(s, y0 - T * R + q - R);
            else
              sm[SM::handoff(ROLE, 0, par) + c] = s;
          }
        }
      }
      // Level 2: level 1's row p = q - R - 1 arrives (completed last
      // iteration).
      {
        double x[7];
#pragma unroll
        for (int k = 0; k < 7; ++k)
          x[k] = sm[SM::l1 + (par ^ 1) * SM::rowLen + c + k];
#pragma unroll
        for (int dy = A; dy <= B; ++dy) {
          const int slot = (u - R - 1 - dy + 7 * U) % 7;
          double s =
              dy == A
                  ? (FIRST ? 0.0 : sm[SM::handoff(ROLE - 1, 1, par ^ 1) + c])
                  : acc2[slot];
#pragma unroll
          for (int k = 0; k < 7; ++k)
            s = fma(cw49[(dy + R) * 7 + k], x[k], s);
          acc2[slot] = s;
          asm volatile("" ::"d"(s));
          if (dy == B) {
            if (LAST) {
              const int o2 = q - 2 * R - 1; // local row of the output
              const int gy = y0 - T * R + o2;
              if (colStored && o2 >= T * R && o2 < C + T * R &&
                  (!EDGE || gy < n))
                out[(size_t)gy * n + gx] = complete(s, gy);
            } else {
              sm[SM::handoff(ROLE, 1, par) + c] = s;
            }
          }
        }
      }
      __syncthreads();
    }
  }
}

template <int W, int C, int G, int ROLE, int A, int B, bool STAGE>
__device__ __forceinline__ void role(const double *in, double *out, int n,
                                     int x0, int y0, int c, double *sm,
                                     bool edge) {
  if (edge)
    sweep<W, C, G, ROLE, A, B, STAGE, true>(in, out, n, x0, y0, c, sm);
  else
    sweep<W, C, G, ROLE, A, B, STAGE, false>(in, out, n, x0, y0, c, sm);
}

template <int W, int C, int G, int MINB>
__global__ void __launch_bounds__(W *G, MINB)
    rowsSplit(const double *__restrict__ in, double *__restrict__ out, int n) {
  extern __shared__ double sm[];
  using SM = Smem<W, C, G>;
  for (int e = threadIdx.x; e < SM::total; e += W * G)
    sm[e] = 0;
  __syncthreads();
  const int r = threadIdx.x / W, c = threadIdx.x % W;
  const int x0 = blockIdx.x * Geo<W, C>::outCols, y0 = blockIdx.y * C;
  const bool edge = !(x0 >= T * R && x0 - T * R + W <= n - R && y0 >= T * R &&
                      y0 - T * R + Geo<W, C>::iters + 2 <= n - R);
  if constexpr (G == 1) {
    role<W, C, G, 0, -3, 3, true>(in, out, n, x0, y0, c, sm, edge);
  } else if constexpr (G == 2) {
    if (r == 0)
      role<W, C, G, 0, -3, 0, true>(in, out, n, x0, y0, c, sm, edge);
    else
      role<W, C, G, 1, 1, 3, false>(in, out, n, x0, y0, c, sm, edge);
  } else {
    static_assert(G == 3, "one, two or three roles");
    if (r == 0)
      role<W, C, G, 0, -3, -1, true>(in, out, n, x0, y0, c, sm, edge);
    else if (r == 1)
      role<W, C, G, 1, 0, 1, false>(in, out, n, x0, y0, c, sm, edge);
    else
      role<W, C, G, 2, 2, 3, false>(in, out, n, x0, y0, c, sm, edge);
  }
}

// One role, both levels in one pass over the weights (IL variants): for
// each w(dy, dx), level 1's FMA (input row q) and level 2's (level 1's row
// q - R - 1) follow each other, so one fetch of the weight serves both.
// LDC: each fetch is an `ld.const` in the loop from an address ptxas cannot
// prove uniform (the constant bank's address of the weights plus a zero
// read from shared memory), so it is one LDC.64 into an ordinary register
// per weight and row instead of the uniform registers' ULDC.64, R2UR and
// MOV traffic; else the weights are read as in the other variants. The
// sums keep the (dy, dx) order: bit for bit the reference.
template <int W, int C, bool LDC, bool EDGE>
__device__ __forceinline__ void sweepIl(const double *__restrict__ in,
                                        double *__restrict__ out, int n, int x0,
                                        int y0, int c, double *sm) {
  using SM = Smem<W, C, 1>;
  constexpr int iters = Geo<W, C>::iters;
  const int gx = x0 - T * R + c;
  const bool colIn = gx >= 0 && gx < n;
  const bool colComputed = gx >= R && gx < n - R;
  const bool colStored = c >= T * R && c < W - T * R && gx < n;
  auto load = [&](int q) -> double {
    int gy = y0 - T * R + q;
    if (EDGE && !(colIn && gy >= 0 && gy < n))
      return 0.0;
    return in[(size_t)gy * n + gx];
  };
  auto complete = [&](double v, int gy) -> double {
    if (EDGE && !(colComputed && gy >= R && gy < n - R))
      return (colIn && gy >= 0 && gy < n) ? in[(size_t)gy * n + gx] : 0.0;
    return v;
  };
  // The weights' constant-bank address plus a zero from the rows' pads
  // (shared, never written), per thread.
  unsigned long long wbase;
  asm("cvta.to.const.u64 %0, %1;"
      : "=l"(wbase)
      : "l"((unsigned long long)cw49));
  wbase += (unsigned long long)__double_as_longlong(sm[SM::in + (c & 1)]);
  // Each weight row's fetches add a zero read again (a volatile shared
  // load), so that ptxas cannot hoist them out of the loop.
  unsigned long long wrow = wbase;
  auto rowBase = [&]() {
    if (LDC) {
      long long z;
      asm volatile("ld.volatile.shared.u64 %0, [%1];"
                   : "=l"(z)
                   : "r"(smemAddr(sm + SM::in + (c & 1))));
      wrow = wbase + z;
    }
  };
  auto weight = [&](int index) -> double {
    if (!LDC)
      return cw49[index];
    double w;
    asm volatile("ld.const.f64 %0, [%1];" : "=d"(w) : "l"(wrow + 8 * index));
    return w;
  };
  sm[SM::in + c + R] = load(0);
  double pre = load(1);
  __syncthreads();
  double acc1[7], acc2[7];
#pragma unroll
  for (int k = 0; k < 7; ++k)
    acc1[k] = acc2[k] = 0;
  for (int q0 = 0; q0 < iters; q0 += U) {
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const int q = q0 + u, par = (U % 2 ? q : u) & 1;
      sm[SM::in + (par ^ 1) * SM::rowLen + c + R] = pre;
      pre = load(q + 2);
      double x1[7], x2[7];
#pragma unroll
      for (int k = 0; k < 7; ++k) {
        x1[k] = sm[SM::in + par * SM::rowLen + c + k];
        x2[k] = sm[SM::l1 + (par ^ 1) * SM::rowLen + c + k];
      }
#pragma unroll
      for (int dy = -R; dy <= R; ++dy) {
        const int slot1 = (u - dy + 7 * U) % 7;
        const int slot2 = (u - R - 1 - dy + 7 * U) % 7;
        double s1 = dy == -R ? 0.0 : acc1[slot1];
        double s2 = dy == -R ? 0.0 : acc2[slot2];
        rowBase();
#pragma unroll
        for (int k = 0; k < 7; ++k) {
          const double w = weight((dy + R) * 7 + k);
          s1 = fma(w, x1[k], s1);
          s2 = fma(w, x2[k], s2);
        }
        acc1[slot1] = s1;
        acc2[slot2] = s2;
        asm volatile("" ::"d"(s1), "d"(s2));
        if (dy == R) {
          sm[SM::l1 + par * SM::rowLen + c + R] =
              complete(s1, y0 - T * R + q - R);
          const int o2 = q - 2 * R - 1;
          const int gy = y0 - T * R + o2;
          if (colStored && o2 >= T * R && o2 < C + T * R && (!EDGE || gy < n))
            out[(size_t)gy * n + gx] = complete(s2, gy);
        }
      }
      __syncthreads();
    }
  }
}

template <int W, int C, int MINB, bool LDC>
__global__ void __launch_bounds__(W, MINB)
    rowsIl(const double *__restrict__ in, double *__restrict__ out, int n) {
  extern __shared__ double sm[];
  using SM = Smem<W, C, 1>;
  for (int e = threadIdx.x; e < SM::total; e += W)
    sm[e] = 0;
  __syncthreads();
  const int c = threadIdx.x;
  const int x0 = blockIdx.x * Geo<W, C>::outCols, y0 = blockIdx.y * C;
  const bool edge = !(x0 >= T * R && x0 - T * R + W <= n - R && y0 >= T * R &&
                      y0 - T * R + Geo<W, C>::iters + 2 <= n - R);
  if (edge)
    sweepIl<W, C, LDC, true>(in, out, n, x0, y0, c, sm);
  else
    sweepIl<W, C, LDC, false>(in, out, n, x0, y0, c, sm);
}

template <int W, int C, int MINB, bool LDC> struct VariantIl {
  static constexpr size_t smem = Smem<W, C, 1>::total * sizeof(double);
  static constexpr bool exact = true;
  static constexpr int threads = W;
  static auto kernel() { return rowsIl<W, C, MINB, LDC>; }
  static void launch(const double *in, double *out, int n) {
    dim3 grid((n + Geo<W, C>::outCols - 1) / Geo<W, C>::outCols,
              (n + C - 1) / C);
    kernel()<<<grid, W, smem>>>(in, out, n);
  }
};

// The split by columns of the weights instead (DX variants): two roles
// per column, role 0 applying dx in [-3, -1], role 1 dx in [0, 3], each to
// all 2 R + 1 weight rows, so that each role reads only its own neighbours
// from shared memory (the split by rows above has every role read all
// seven, which doubles or triples the shared loads). Role 1 leaves its
// finished partial sum in shared memory; role 0 adds it to its own one
// iteration later (before that slot is reused) and completes the row, so
// level 1's rows complete one iteration later, level 2's two. The sum is
// the two partial sums' (each in (dy, dx) order) added: not the unsplit
// order, so the check takes a tolerance.
template <int W, int C> struct SmemDx {
  static constexpr int rowLen = Geo<W, C>::rowLen;
  static constexpr int in = 0, l1 = 2 * rowLen, hand = 4 * rowLen;
  static constexpr int total = hand + 2 * 2 * W;
  __device__ static int handoff(int level, int parity) {
    return hand + (level * 2 + parity) * W;
  }
  static constexpr int iters = (C + 2 * T * R + 3 + U - 1) / U * U;
};

template <int W, int C, int ROLE, int DA1, int DB1, int DA2, int DB2, bool EDGE>
__device__ __forceinline__ void sweepDx(const double *__restrict__ in,
                                        double *__restrict__ out, int n, int x0,
                                        int y0, int c, double *sm) {
  using SM = SmemDx<W, C>;
  constexpr bool MAIN = ROLE == 0, STAGE = ROLE == 1;
  const int gx = x0 - T * R + c;
  const bool colIn = gx >= 0 && gx < n;
  const bool colComputed = gx >= R && gx < n - R;
  const bool colStored = c >= T * R && c < W - T * R && gx < n;
  auto load = [&](int q) -> double {
    int gy = y0 - T * R + q;
    if (EDGE && !(colIn && gy >= 0 && gy < n))
      return 0.0;
    return in[(size_t)gy * n + gx];
  };
  auto complete = [&](double v, int gy) -> double {
    if (EDGE && !(colComputed && gy >= R && gy < n - R))
      return (colIn && gy >= 0 && gy < n) ? in[(size_t)gy * n + gx] : 0.0;
    return v;
  };
  double pre = 0;
  if (STAGE) {
    sm[SM::in + c + R] = load(0);
    pre = load(1);
  }
  __syncthreads();
  double acc1[7], acc2[7];
#pragma unroll
  for (int k = 0; k < 7; ++k)
    acc1[k] = acc2[k] = 0;
  for (int q0 = 0; q0 < SM::iters; q0 += U) {
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const int q = q0 + u, par = (U % 2 ? q : u) & 1;
      if (STAGE) {
        sm[SM::in + (par ^ 1) * SM::rowLen + c + R] = pre;
        pre = load(q + 2);
      }
      // Level 1: input row q arrives; row q - R - 1 completes.
      if (MAIN) {
        const int slot = (u - R - 1 + 7 * U) % 7;
        const double v = acc1[slot] + sm[SM::handoff(0, par ^ 1) + c];
        sm[SM::l1 + par * SM::rowLen + c + R] =
            complete(v, y0 - T * R + q - R - 1);
      }
      {
        double x[DB1 - DA1 + 1];
#pragma unroll
        for (int k = DA1; k <= DB1; ++k)
          x[k - DA1] = sm[SM::in + par * SM::rowLen + c + R + k];
#pragma unroll
        for (int dy = -R; dy <= R; ++dy) {
          const int slot = (u - dy + 7 * U) % 7;
          double s = dy == -R ? 0.0 : acc1[slot];
#pragma unroll
          for (int k = DA1; k <= DB1; ++k)
            s = fma(cw49[(dy + R) * 7 + k + R], x[k - DA1], s);
          acc1[slot] = s;
          asm volatile("" ::"d"(s));
          if (dy == R && !MAIN)
            sm[SM::handoff(0, par) + c] = s;
        }
      }
      // Level 2: level 1's row p = q - R - 2 arrives; row p - R - 1
      // completes.
      if (MAIN) {
        const int slot = (u - 2 * R - 3 + 7 * U) % 7;
        const double v = acc2[slot] + sm[SM::handoff(1, par ^ 1) + c];
        const int o2 = q - 2 * R - 3;
        const int gy = y0 - T * R + o2;
        if (colStored && o2 >= T * R && o2 < C + T * R && (!EDGE || gy < n))
          out[(size_t)gy * n + gx] = complete(v, gy);
      }
      {
        double x[DB2 - DA2 + 1];
#pragma unroll
        for (int k = DA2; k <= DB2; ++k)
          x[k - DA2] = sm[SM::l1 + (par ^ 1) * SM::rowLen + c + R + k];
#pragma unroll
        for (int dy = -R; dy <= R; ++dy) {
          const int slot = (u - R - 2 - dy + 7 * U) % 7;
          double s = dy == -R ? 0.0 : acc2[slot];
#pragma unroll
          for (int k = DA2; k <= DB2; ++k)
            s = fma(cw49[(dy + R) * 7 + k + R], x[k - DA2], s);
          acc2[slot] = s;
          asm volatile("" ::"d"(s));
          if (dy == R && !MAIN)
            sm[SM::handoff(1, par) + c] = s;
        }
      }
      __syncthreads();
    }
  }
}

// BALANCED: the roles swap halves between the levels (role 0 takes dx in
// [-3, -1] at level 1 and [-3, 0] at level 2, role 1 the rest), so each
// does 49 FMAs per iteration and neither waits at the barrier for the other.
template <int W, int C, int MINB, bool BALANCED>
__global__ void __launch_bounds__(W * 2, MINB)
    rowsSplitDx(const double *__restrict__ in, double *__restrict__ out,
                int n) {
  constexpr int M = BALANCED ? 0 : -1; // role 0's last column at level 2
  extern __shared__ double sm[];
  using SM = SmemDx<W, C>;
  for (int e = threadIdx.x; e < SM::total; e += W * 2)
    sm[e] = 0;
  __syncthreads();
  const int r = threadIdx.x / W, c = threadIdx.x % W;
  const int x0 = blockIdx.x * Geo<W, C>::outCols, y0 = blockIdx.y * C;
  const bool edge = !(x0 >= T * R && x0 - T * R + W <= n - R && y0 >= T * R &&
                      y0 - T * R + SM::iters + 2 <= n - R);
  if (r == 0) {
    if (edge)
      sweepDx<W, C, 0, -3, -1, -3, M, true>(in, out, n, x0, y0, c, sm);
    else
      sweepDx<W, C, 0, -3, -1, -3, M, false>(in, out, n, x0, y0, c, sm);
  } else {
    if (edge)
      sweepDx<W, C, 1, 0, 3, M + 1, 3, true>(in, out, n, x0, y0, c, sm);
    else
      sweepDx<W, C, 1, 0, 3, M + 1, 3, false>(in, out, n, x0, y0, c, sm);
  }
}

template <int W, int C, int MINB, bool BALANCED = false> struct VariantDx {
  static constexpr size_t smem = SmemDx<W, C>::total * sizeof(double);
  static constexpr bool exact = false;
  static constexpr int threads = 2 * W;
  static auto kernel() { return rowsSplitDx<W, C, MINB, BALANCED>; }
  static void launch(const double *in, double *out, int n) {
    dim3 grid((n + Geo<W, C>::outCols - 1) / Geo<W, C>::outCols,
              (n + C - 1) / C);
    kernel()<<<grid, 2 * W, smem>>>(in, out, n);
  }
};

// The weights' columns in phases, the rows in groups (PH variants): a
// thread sweeps a group of 2 R + 1 input rows at a time, staged together,
// and applies the weights column by column range ("phase", dx in
// [DA_p, DB_p]) to all rows of the group before the next range, first for
// level 1, then (after one barrier) for the group's completed level-1 rows
// at level 2. Within a phase only its 7 (DB_p - DA_p + 1) weights are in
// use, so they fit the 63 uniform registers (two phases: 28 and 21
// weights, three: 14, 21, 14) and are fetched once per phase (an
// `ld.const` per weight at the phase's start, volatile so that it stays
// there) instead of about once per use; each neighbour value is read by
// one phase, so the shared loads do not grow. The price: 2 (2 R + 1)
// partial sums per level instead of 2 R + 1 (a sum is open from its first
// row's phase to its last row's), and the order of each sum is (group,
// phase, dy, dx), not (dy, dx): the check takes the tolerance of the DX
// variants. Two barriers per group of 2 R + 1 rows instead of one per row.
constexpr int GR = 2 * R + 1; // rows per group
constexpr int SL = 2 * GR;    // partial-sum slots per level

template <int W, int C> struct SmemPh {
  static constexpr int rowLen = Geo<W, C>::rowLen;
  // The input rows in two buffers (group parity; the copy engine fills one
  // while the other is read), level 1's rows in one.
  static constexpr int in = 0, l1 = 2 * GR * rowLen;
  static constexpr int total = 3 * GR * rowLen;
  // Groups: level 2 completes local rows q0 - 2 R .. q0 in the group of
  // input rows q0 .. q0 + 2 R; the block's last output row is C + T R - 1;
  // an even count (two groups unrolled, so that the slots are static).
  static constexpr int groups = ((C + T * R - 1 + GR - 1) / GR + 1 + 1) / 2 * 2;
};

__device__ __forceinline__ double constWeight(unsigned long long base,
                                              int index) {
  double w;
  asm volatile("ld.const.f64 %0, [%1];" : "=d"(w) : "l"(base + 8 * index));
  return w;
}

// Phase p of NPH: its dx range.
template <int NPH> __host__ __device__ constexpr int phaseLo(int p) {
  return NPH == 1   ? -3
         : NPH == 2 ? (p == 0 ? -3 : 1)
                    : (p == 0   ? -3
                       : p == 1 ? -1
                                : 2);
}
template <int NPH> __host__ __device__ constexpr int phaseHi(int p) {
  return NPH == 1   ? 3
         : NPH == 2 ? (p == 0 ? 0 : 3)
                    : (p == 0   ? -2
                       : p == 1 ? 1
                                : 3);
}

template <int W, int C, int NPH, bool WVOL, bool EDGE>
__device__ __forceinline__ void sweepPh(const double *__restrict__ in,
                                        double *__restrict__ out, int n, int x0,
                                        int y0, int c, double *sm) {
  using SM = SmemPh<W, C>;
  const int gx = x0 - T * R + c;
  const bool colIn = gx >= 0 && gx < n;
  const bool colComputed = gx >= R && gx < n - R;
  const bool colStored = c >= T * R && c < W - T * R && gx < n;
  auto complete = [&](double v, int gy) -> double {
    if (EDGE && !(colComputed && gy >= R && gy < n - R))
      return (colIn && gy >= 0 && gy < n) ? in[(size_t)gy * n + gx] : 0.0;
    return v;
  };
  unsigned long long wbase;
  asm("cvta.to.const.u64 %0, %1;"
      : "=l"(wbase)
      : "l"((unsigned long long)cw49));
  // Group g's input rows: one asynchronous 8-byte copy per row into buffer
  // g mod 2 (zero-filled outside the grid), no registers held.
  auto fetch = [&](int g) {
#pragma unroll
    for (int i = 0; i < GR; ++i) {
      const int gy = y0 - T * R + g * GR + i;
      const bool valid = !EDGE || (colIn && gy >= 0 && gy < n);
      const double *src = valid ? in + (size_t)gy * n + gx : in;
      asm volatile(
          "cp.async.ca.shared.global [%0], [%1], 8, %2;" ::"r"(
              smemAddr(sm + SM::in + ((g & 1) * GR + i) * SM::rowLen + c + R)),
          "l"(src), "r"(valid ? 8 : 0));
    }
    asm volatile("cp.async.commit_group;");
  };
  fetch(0);
  double acc1[SL], acc2[SL];
#pragma unroll
  for (int k = 0; k < SL; ++k)
    acc1[k] = acc2[k] = 0;
  // One level over the group's rows (row i at buffer `buf`, local row
  // base + i): every phase, every row, every dy into the sum of row
  // base + i - dy at slot (hb + i - dy) mod SL; then the rows completed
  // (base - R .. base + R) go to done(j, value) and their slots reset.
  auto level = [&](double(&acc)[SL], int buf, int hb, auto done) {
#pragma unroll
    for (int p = 0; p < NPH; ++p) {
      const int lo = phaseLo<NPH>(p), hi = phaseHi<NPH>(p);
      double w[GR][7];
#pragma unroll
      for (int dy = -R; dy <= R; ++dy)
#pragma unroll
        for (int k = lo; k <= hi; ++k)
          w[dy + R][k + R] = WVOL ? constWeight(wbase, (dy + R) * 7 + k + R)
                                  : cw49[(dy + R) * 7 + k + R];
#pragma unroll
      for (int i = 0; i < GR; ++i) {
        double x[7];
#pragma unroll
        for (int k = lo; k <= hi; ++k)
          x[k + R] = sm[buf + i * SM::rowLen + c + R + k];
#pragma unroll
        for (int dy = -R; dy <= R; ++dy) {
          const int slot = ((hb + i - dy) % SL + SL) % SL;
          double s = acc[slot];
#pragma unroll
          for (int k = lo; k <= hi; ++k)
            s = fma(w[dy + R][k + R], x[k + R], s);
          acc[slot] = s;
        }
      }
    }
    // Rows base - R + j (j = 0 .. 2 R) are complete.
#pragma unroll
    for (int j = 0; j < GR; ++j) {
      const int slot = ((hb - R + j) % SL + SL) % SL;
      done(j, acc[slot]);
      acc[slot] = 0;
    }
  };
  for (int g0 = 0; g0 < SM::groups; g0 += 2) {
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int q0 = (g0 + h) * GR;
      asm volatile("cp.async.wait_group 0;");
      __syncthreads();
      if (g0 + h + 1 < SM::groups)
        fetch(g0 + h + 1);
      // Level 1: input rows q0 .. q0 + 2 R; rows q0 - R .. q0 + R complete.
      level(acc1, SM::in + h * GR * SM::rowLen, h * GR, [&](int j, double v) {
        sm[SM::l1 + j * SM::rowLen + c + R] =
            complete(v, y0 - T * R + q0 - R + j);
      });
      __syncthreads();
      // Level 2: level 1's rows q0 - R .. q0 + R; rows q0 - 2 R .. q0
      // complete.
      level(acc2, SM::l1, h * GR - R, [&](int j, double v) {
        const int o2 = q0 - 2 * R + j;
        const int gy = y0 - T * R + o2;
        if (colStored && o2 >= T * R && o2 < C + T * R && (!EDGE || gy < n))
          out[(size_t)gy * n + gx] = complete(v, gy);
      });
    }
  }
}

template <int W, int C, int MINB, int NPH, bool WVOL>
__global__ void __launch_bounds__(W, MINB)
    rowsPh(const double *__restrict__ in, double *__restrict__ out, int n) {
  extern __shared__ double sm[];
  using SM = SmemPh<W, C>;
  for (int e = threadIdx.x; e < SM::total; e += W)
    sm[e] = 0;
  __syncthreads();
  const int c = threadIdx.x;
  const int x0 = blockIdx.x * Geo<W, C>::outCols, y0 = blockIdx.y * C;
  const bool edge = !(x0 >= T * R && x0 - T * R + W <= n - R && y0 >= T * R &&
                      y0 - T * R + SM::groups * GR <= n - R);
  if (edge)
    sweepPh<W, C, NPH, WVOL, true>(in, out, n, x0, y0, c, sm);
  else
    sweepPh<W, C, NPH, WVOL, false>(in, out, n, x0, y0, c, sm);
}

template <int W, int C, int MINB, int NPH, bool WVOL = false> struct VariantPh {
  static constexpr size_t smem = SmemPh<W, C>::total * sizeof(double);
  static constexpr bool exact = false;
  static constexpr int threads = W;
  static auto kernel() { return rowsPh<W, C, MINB, NPH, WVOL>; }
  static void launch(const double *in, double *out, int n) {
    dim3 grid((n + Geo<W, C>::outCols - 1) / Geo<W, C>::outCols,
              (n + C - 1) / C);
    kernel()<<<grid, W, smem>>>(in, out, n);
  }
};

template <int W, int C, int G, int MINB> struct Variant {
  static constexpr size_t smem = Smem<W, C, G>::total * sizeof(double);
  static constexpr bool exact = true;
  static constexpr int threads = G * W;
  static auto kernel() { return rowsSplit<W, C, G, MINB>; }
  static void launch(const double *in, double *out, int n) {
    dim3 grid((n + Geo<W, C>::outCols - 1) / Geo<W, C>::outCols,
              (n + C - 1) / C);
    kernel()<<<grid, W * G, smem>>>(in, out, n);
  }
};

// Host reference: one step, the halo boundary (points within R of an edge
// keep their value), each sum in (dy, dx) order from 0 by fma.
std::vector<double> referenceStep(const std::vector<double> &in, int n,
                                  const std::vector<double> &w) {
  std::vector<double> next = in;
  for (int y = R; y < n - R; ++y)
    for (int x = R; x < n - R; ++x) {
      double s = 0;
      for (int dy = -R; dy <= R; ++dy)
        for (int dx = -R; dx <= R; ++dx)
          s = std::fma(w[(dy + R) * 7 + dx + R],
                       in[(size_t)(y + dy) * n + x + dx], s);
      next[(size_t)y * n + x] = s;
    }
  return next;
}

// `launches` launches (2 steps each) on an n x n grid of values in [0, 1)
// against the host reference: the split by rows must match it bit for bit
// (the same FMAs in the same order: tolerance 0); the split by columns sums
// in another order, each step's sum of 49 products of values in [0, 1) and
// weights summing to 1 then within 50 roundings of 2^-53, and a step carries
// the earlier steps' errors with weights summing to 1, so the tolerance is
// steps x 50 x 2^-53.
template <class V>
bool check(const std::string &name, int n, int launches,
           const std::vector<double> &w) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> dist(0, 1);
  std::vector<double> grid((size_t)n * n);
  for (double &v : grid)
    v = dist(rng);
  double *a, *b;
  const size_t bytes = grid.size() * sizeof(double);
  CK(cudaMalloc(&a, bytes));
  CK(cudaMalloc(&b, bytes));
  CK(cudaMemcpy(a, grid.data(), bytes, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(b, grid.data(), bytes, cudaMemcpyHostToDevice));
  for (int l = 0; l < launches; ++l)
    V::launch(l % 2 ? b : a, l % 2 ? a : b, n);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  std::vector<double> result(grid.size());
  CK(cudaMemcpy(result.data(), launches % 2 ? b : a, bytes,
                cudaMemcpyDeviceToHost));
  CK(cudaFree(a));
  CK(cudaFree(b));
  for (int s = 0; s < 2 * launches; ++s)
    grid = referenceStep(grid, n, w);
  double maxErr = 0;
  for (size_t j = 0; j < grid.size(); ++j)
    maxErr = std::fmax(maxErr, std::fabs(grid[j] - result[j]));
  const std::string label = name + " " + std::to_string(n) + "^2 x" +
                            std::to_string(2 * launches) + " steps";
  const double tol = V::exact ? 0.0 : 2 * launches * 50 * std::ldexp(1.0, -53);
  return reportCheck(label.c_str(), maxErr, tol);
}

template <class V>
void variant(const char *name, int n, int launches, bool timeOnly,
             const std::vector<double> &w) {
  if (!probeSelected(name))
    return;
  auto kernel = V::kernel();
  CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                          (int)V::smem));
  cudaFuncAttributes attr;
  CK(cudaFuncGetAttributes(&attr, kernel));
  int blocks = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, V::threads,
                                                   V::smem));
  if (!timeOnly) {
    check<V>(name, 611, 1, w);
    check<V>(name, 1031, 2, w);
    check<V>(name, 23, 1, w);
  }
  double *a, *b;
  const size_t bytes = (size_t)n * n * sizeof(double);
  CK(cudaMalloc(&a, bytes));
  CK(cudaMalloc(&b, bytes));
  CK(cudaMemset(a, 0, bytes));
  CK(cudaMemset(b, 0, bytes));
  const float ms = timeSteps(
      launches, [&](int l) { V::launch(l % 2 ? b : a, l % 2 ? a : b, n); });
  CK(cudaFree(a));
  CK(cudaFree(b));
  std::printf("RESULT %s grid=%d^2 steps=%d regs=%d smem=%zu blocks/SM=%d "
              "ms=%.3f gstencil_s=%.1f\n",
              name, n, 2 * launches, attr.numRegs, V::smem, blocks, ms,
              (double)n * n * 2 * launches / (ms * 1e-3) / 1e9);
}
} // namespace

int main(int argc, char **argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 10240;
  const int launches = argc > 2 ? std::atoi(argv[2]) : 500;
  const bool timeOnly = argc > 3;
  // Random asymmetric weights summing to 1.
  std::mt19937 rng(2026);
  std::uniform_real_distribution<double> dist(0.05, 1.0);
  std::vector<double> w(49);
  double sum = 0;
  for (double &v : w)
    sum += (v = dist(rng));
  for (double &v : w)
    v /= sum;
  CK(cudaMemcpyToSymbol(cw49, w.data(), sizeof(double) * 49));
  // name: columns per role x rows, roles, blocks per SM asked of ptxas.
  variant<Variant<256, 256, 1, 2>>("b49-256x256-g1-b2", n, launches, timeOnly,
                                   w);
  variant<Variant<256, 256, 2, 1>>("b49-256x256-g2-b1", n, launches, timeOnly,
                                   w);
  variant<Variant<128, 256, 2, 2>>("b49-128x256-g2-b2", n, launches, timeOnly,
                                   w);
  variant<Variant<128, 256, 2, 3>>("b49-128x256-g2-b3", n, launches, timeOnly,
                                   w);
  variant<Variant<128, 256, 3, 2>>("b49-128x256-g3-b2", n, launches, timeOnly,
                                   w);
  variant<Variant<256, 256, 3, 1>>("b49-256x256-g3-b1", n, launches, timeOnly,
                                   w);
  variant<VariantDx<256, 256, 1>>("b49-dx-256x256-b1", n, launches, timeOnly,
                                  w);
  variant<VariantDx<128, 256, 2>>("b49-dx-128x256-b2", n, launches, timeOnly,
                                  w);
  variant<VariantDx<64, 256, 4>>("b49-dx-64x256-b4", n, launches, timeOnly, w);
  variant<VariantIl<256, 256, 2, false>>("b49-il-256x256-b2", n, launches,
                                         timeOnly, w);
  variant<VariantIl<256, 256, 3, false>>("b49-il-256x256-b3", n, launches,
                                         timeOnly, w);
  variant<VariantIl<128, 256, 5, false>>("b49-il-128x256-b5", n, launches,
                                         timeOnly, w);
  variant<VariantIl<128, 256, 6, false>>("b49-il-128x256-b6", n, launches,
                                         timeOnly, w);
  variant<VariantIl<256, 512, 3, false>>("b49-il-256x512-b3", n, launches,
                                         timeOnly, w);
  variant<VariantIl<256, 256, 2, true>>("b49-il-ldc-256x256-b2", n, launches,
                                        timeOnly, w);
  variant<VariantIl<256, 256, 3, true>>("b49-il-ldc-256x256-b3", n, launches,
                                        timeOnly, w);
  variant<VariantIl<128, 256, 4, true>>("b49-il-ldc-128x256-b4", n, launches,
                                        timeOnly, w);
  variant<VariantPh<256, 256, 2, 1>>("b49-ph1-256x256-b2", n, launches,
                                     timeOnly, w);
  variant<VariantPh<256, 256, 2, 2>>("b49-ph2-256x256-b2", n, launches,
                                     timeOnly, w);
  variant<VariantPh<256, 256, 2, 3>>("b49-ph3-256x256-b2", n, launches,
                                     timeOnly, w);
  variant<VariantPh<128, 256, 4, 2>>("b49-ph2-128x256-b4", n, launches,
                                     timeOnly, w);
  variant<VariantPh<128, 256, 4, 3>>("b49-ph3-128x256-b4", n, launches,
                                     timeOnly, w);
  variant<VariantPh<256, 256, 2, 2, true>>("b49-ph2v-256x256-b2", n, launches,
                                           timeOnly, w);
  variant<VariantPh<256, 512, 2, 2>>("b49-ph2-256x512-b2", n, launches,
                                     timeOnly, w);
  variant<VariantDx<256, 256, 1, true>>("b49-dxbal-256x256-b1", n, launches,
                                        timeOnly, w);
  variant<VariantDx<128, 256, 2, true>>("b49-dxbal-128x256-b2", n, launches,
                                        timeOnly, w);
  return 0;
}
