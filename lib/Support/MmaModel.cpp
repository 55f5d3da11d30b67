//===- MmaModel.cpp - CPU model of dense mma.sync fragments ---------------===//

#include "stencil/Support/MmaModel.h"

#include <cassert>

using namespace mlir;
using namespace mlir::stencil;

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
  double am[16][16] = {}, bm[16][8] = {}, cm[16][8] = {};
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    for (unsigned i = 0; i < 8; ++i) {
      MatrixPos p = getAPosM16N8K16(lane, i);
      am[p.row][p.col] = a[lane][i];
    }
    for (unsigned i = 0; i < 4; ++i) {
      MatrixPos p = getBPosM16N8K16(lane, i);
      bm[p.row][p.col] = b[lane][i];
      MatrixPos q = getCPos(lane, i);
      cm[q.row][q.col] = c[lane][i];
    }
  }
  for (unsigned lane = 0; lane < kWarpSize; ++lane)
    for (unsigned i = 0; i < 4; ++i) {
      MatrixPos q = getCPos(lane, i);
      double sum = cm[q.row][q.col];
      for (unsigned k = 0; k < 16; ++k)
        sum += am[q.row][k] * bm[k][q.col];
      d[lane][i] = static_cast<float>(sum);
    }
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
  double am[8][4] = {}, bm[4][8] = {}, cm[8][8] = {};
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    MatrixPos pa = getAPosM8N8K4(lane), pb = getBPosM8N8K4(lane);
    am[pa.row][pa.col] = a[lane];
    bm[pb.row][pb.col] = b[lane];
    for (unsigned i = 0; i < 2; ++i) {
      MatrixPos q = getCPosM8N8K4(lane, i);
      cm[q.row][q.col] = c[lane][i];
    }
  }
  for (unsigned lane = 0; lane < kWarpSize; ++lane)
    for (unsigned i = 0; i < 2; ++i) {
      MatrixPos q = getCPosM8N8K4(lane, i);
      double sum = cm[q.row][q.col];
      for (unsigned k = 0; k < 4; ++k)
        sum += am[q.row][k] * bm[k][q.col];
      d[lane][i] = sum;
    }
}

MatrixPos mlir::stencil::getAPosM16N8K4(unsigned lane, unsigned i) {
  assert(lane < kWarpSize && i < 2 && "no such A element");
  return {(lane >> 2) + 8 * i, lane % 4};
}

void mlir::stencil::simulateMmaM16N8K4(const double a[kWarpSize][2],
                                       const double b[kWarpSize],
                                       const double c[kWarpSize][4],
                                       double d[kWarpSize][4]) {
  double am[16][4] = {}, bm[4][8] = {}, cm[16][8] = {};
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    for (unsigned i = 0; i < 2; ++i) {
      MatrixPos pa = getAPosM16N8K4(lane, i);
      am[pa.row][pa.col] = a[lane][i];
    }
    MatrixPos pb = getBPosM8N8K4(lane);
    bm[pb.row][pb.col] = b[lane];
    for (unsigned i = 0; i < 4; ++i) {
      MatrixPos q = getCPos(lane, i);
      cm[q.row][q.col] = c[lane][i];
    }
  }
  for (unsigned lane = 0; lane < kWarpSize; ++lane)
    for (unsigned i = 0; i < 4; ++i) {
      MatrixPos q = getCPos(lane, i);
      double sum = cm[q.row][q.col];
      for (unsigned k = 0; k < 4; ++k)
        sum += am[q.row][k] * bm[k][q.col];
      d[lane][i] = sum;
    }
}
