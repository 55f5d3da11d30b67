//===- Roofline.h - stencil-run --roofline ----------------------*- C++ -*-===//
#ifndef STENCIL_RUN_ROOFLINE_H
#define STENCIL_RUN_ROOFLINE_H

#include <cstddef>

/// Measures memory bandwidth and the peak throughput of the arithmetic units
/// the stencil kernels use (f16 mma.sync / mma.sp, f64 mma.sync, f32/f64 FMA)
/// on `device`; prints the figures, each also as a machine-readable
/// `ROOFLINE unit=...` line (Roofline.cu); with `profileOut` (non-null) also
/// writes them as a device profile there (docs/DeviceProfile.md). Returns
/// the process exit code (0, or 2 on error).
int runRoofline(int device, std::size_t copyBytes, const char *profileOut);

#endif
