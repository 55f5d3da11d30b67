//===- MmaModel.cpp - CPU model of dense mma.sync fragments ---------------===//

#include "stencil/Support/MmaModel.h"

#include <cassert>

using namespace mlir;
using namespace mlir::stencil;

/// The lanes' fragments of NE elements as the R x C matrix `m`: element i of
/// lane L at getPos(L, i).
template <unsigned R, unsigned C, unsigned NE, typename T>
static void toMatrix(const T (*frag)[NE],
                     MatrixPos (*getPos)(unsigned lane, unsigned i),
                     double (&m)[R][C]) {
  for (unsigned lane = 0; lane < kWarpSize; ++lane)
    for (unsigned i = 0; i < NE; ++i) {
      MatrixPos p = getPos(lane, i);
      m[p.row][p.col] = frag[lane][i];
    }
}

/// D = C + A B for the M x K matrix A and the K x N matrix B, with C and D
/// as the lanes' fragments of NC elements (element i of lane L at
/// getPos(L, i)): every element of D adds its K products to C's value in
/// double, in the order of k, and is rounded once to T.
template <unsigned M, unsigned N, unsigned K, unsigned NC, typename T>
static void multiplyAccumulate(const double (&a)[M][K], const double (&b)[K][N],
                               const T (*c)[NC], T (*d)[NC],
                               MatrixPos (*getPos)(unsigned lane, unsigned i)) {
  for (unsigned lane = 0; lane < kWarpSize; ++lane)
    for (unsigned i = 0; i < NC; ++i) {
      MatrixPos q = getPos(lane, i);
      double sum = c[lane][i];
      for (unsigned k = 0; k < K; ++k)
        sum += a[q.row][k] * b[k][q.col];
      d[lane][i] = static_cast<T>(sum);
    }
}

MatrixPos mlir::stencil::getAPosM16N8K16(unsigned lane, unsigned i) {
  assert(lane < kWarpSize && i < 8 && "no such A element");
  unsigned g = lane >> 2, t = lane % 4;
  return {g + 8 * ((i >> 1) & 1), 2 * t + (i & 1) + 8 * (i >> 2)};
}

MatrixPos mlir::stencil::getBPosM16N8K16(unsigned lane, unsigned i) {
  assert(lane < kWarpSize && i < 4 && "no such B element");
  unsigned g = lane >> 2, t = lane % 4;
  return {2 * t + (i & 1) + 8 * (i >> 1), g};
}

void mlir::stencil::simulateMmaM16N8K16(const float a[kWarpSize][8],
                                        const float b[kWarpSize][4],
                                        const float c[kWarpSize][4],
                                        float d[kWarpSize][4]) {
  double am[16][16] = {}, bm[16][8] = {};
  toMatrix(a, getAPosM16N8K16, am);
  toMatrix(b, getBPosM16N8K16, bm);
  multiplyAccumulate(am, bm, c, d, getCPos);
}

MatrixPos mlir::stencil::getAPosM8N8K4(unsigned lane) {
  assert(lane < kWarpSize && "no such lane");
  return {lane >> 2, lane % 4};
}

MatrixPos mlir::stencil::getBPosM8N8K4(unsigned lane) {
  assert(lane < kWarpSize && "no such lane");
  return {lane % 4, lane >> 2};
}

MatrixPos mlir::stencil::getCPosM8N8K4(unsigned lane, unsigned i) {
  assert(lane < kWarpSize && i < 2 && "no such C element");
  return {lane >> 2, 2 * (lane % 4) + i};
}

void mlir::stencil::simulateMmaM8N8K4(const double a[kWarpSize],
                                      const double b[kWarpSize],
                                      const double c[kWarpSize][2],
                                      double d[kWarpSize][2]) {
  double am[8][4] = {}, bm[4][8] = {};
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    MatrixPos pa = getAPosM8N8K4(lane), pb = getBPosM8N8K4(lane);
    am[pa.row][pa.col] = a[lane];
    bm[pb.row][pb.col] = b[lane];
  }
  multiplyAccumulate(am, bm, c, d, getCPosM8N8K4);
}

MatrixPos mlir::stencil::getAPosM16N8K4(unsigned lane, unsigned i) {
  assert(lane < kWarpSize && i < 2 && "no such A element");
  return {(lane >> 2) + 8 * i, lane % 4};
}

void mlir::stencil::simulateMmaM16N8K4(const double a[kWarpSize][2],
                                       const double b[kWarpSize],
                                       const double c[kWarpSize][4],
                                       double d[kWarpSize][4]) {
  double am[16][4] = {}, bm[4][8] = {};
  toMatrix(a, getAPosM16N8K4, am);
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    MatrixPos pb = getBPosM8N8K4(lane);
    bm[pb.row][pb.col] = b[lane];
  }
  multiplyAccumulate(am, bm, c, d, getCPos);
}
