// RUN: stencil-opt %s --split-input-file --lower-to-fft="fused-steps=2" -verify-diagnostics

// Weights whose spectrum to the power of the fused steps overflows f64: the
// kernel's error bound, and so the runner's tolerance, would be infinite
// (a check that cannot fail), so the compile is refused.
func.func @huge(%in: memref<?x?xf64>, %out: memref<?x?xf64>) {
  // expected-error @+1 {{the FFT kernel's error bound is not finite (the weights' spectrum to the power of the 2 fused steps overflows f64)}}
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1> weights [1.0e300, 1.0e300, 1.0e300, 1.0e300, 1.0e300] steps 4 : memref<?x?xf64>
  return
}
