//===- Roofline.h - stencil-run --roofline ----------------------*- C++ -*-===//
#ifndef STENCIL_RUN_ROOFLINE_H
#define STENCIL_RUN_ROOFLINE_H

#include <cstddef>

/// Measures memory bandwidth and dense/sparse mma throughput on `device`;
/// prints the figures. Returns the process exit code (0, or 2 on error).
int runRoofline(int device, std::size_t copyBytes);

#endif
