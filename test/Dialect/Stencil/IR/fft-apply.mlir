// RUN: stencil-opt %s | stencil-opt | FileCheck %s
// RUN: stencil-opt %s --mlir-print-op-generic | stencil-opt | FileCheck %s
// RUN: stencil-opt %s --stencil-fft-spectrum | stencil-opt --mlir-print-op-generic | stencil-opt | FileCheck %s --check-prefix=SPECTRUM

// stencil.fft_apply prints and parses back (custom and generic form), also
// with its spectra (printed in hex, so every bit survives).

// CHECK-LABEL: func.func @heat_2d
// CHECK: stencil.fft_apply %{{.*}} -> %{{.*}} pattern <star, rank = 2, radius = 1> weights [1.000000e-01, 2.000000e-01, 4.000000e-01, 2.000000e-01, 1.000000e-01] steps 9 fused_steps 4 factors [array<i64: 8, 7>, array<i64: 8, 7>] boundary dirichlet(2.500000e-01) : memref<?x?xf64>
// SPECTRUM-LABEL: func.func @heat_2d
// SPECTRUM: fused_steps 4 factors [array<i64: 8, 7>, array<i64: 8, 7>] spectrum dense<"0x{{[0-9A-F]+}}"> : tensor<8x8x8x8xcomplex<f64>> tail_spectrum dense<"0x{{[0-9A-F]+}}"> : tensor<8x8x8x8xcomplex<f64>> boundary dirichlet(2.500000e-01)
func.func @heat_2d(%in: memref<?x?xf64>, %out: memref<?x?xf64>) {
  stencil.fft_apply %in -> %out pattern <star, rank = 2, radius = 1>
      weights [0.1, 0.2, 0.4, 0.2, 0.1] steps 9 fused_steps 4
      factors [array<i64: 8, 7>, array<i64: 8, 7>] boundary dirichlet(0.25)
      : memref<?x?xf64>
  return
}

// CHECK-LABEL: func.func @f32_3d
// CHECK: fused_steps 1 factors [array<i64: 8>, array<i64: 8>, array<i64: 16>] boundary periodic : memref<4x5x6xf32>
func.func @f32_3d(%in: memref<4x5x6xf32>, %out: memref<4x5x6xf32>) {
  stencil.fft_apply %in -> %out pattern <star, rank = 3, radius = 1>
      weights [0.1, 0.1, 0.1, 0.4, 0.1, 0.1, 0.1] fused_steps 1
      factors [array<i64: 8>, array<i64: 8>, array<i64: 16>] boundary periodic
      : memref<4x5x6xf32>
  return
}

// A Cooley-Tukey tile keeps its unit attribute; its spectrum has the
// digits' shape, and so has the one-step tail's (fused_steps > 1).
// CHECK-LABEL: func.func @cooley_tukey_1d
// CHECK: fused_steps 16 factors [array<i64: 8, 8, 8, 8>] cooley_tukey boundary periodic : memref<?xf64>
// SPECTRUM-LABEL: func.func @cooley_tukey_1d
// SPECTRUM: factors [array<i64: 8, 8, 8, 8>] cooley_tukey spectrum dense<"0x{{[0-9A-F]+}}"> : tensor<8x8x8x8xcomplex<f64>> tail_spectrum dense<"0x{{[0-9A-F]+}}"> : tensor<8x8x8x8xcomplex<f64>> boundary periodic
func.func @cooley_tukey_1d(%in: memref<?xf64>, %out: memref<?xf64>) {
  stencil.fft_apply %in -> %out pattern <star, rank = 1, radius = 1>
      weights [0.25, 0.5, 0.25] steps 32 fused_steps 16
      factors [array<i64: 8, 8, 8, 8>] cooley_tukey boundary periodic
      : memref<?xf64>
  return
}
