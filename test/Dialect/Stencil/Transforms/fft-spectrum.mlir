// RUN: stencil-opt %s -split-input-file --stencil-fft-spectrum | FileCheck %s

// The spectrum to the T (seed 004, eq. (10)), S[k] = H[k]^T / N, at the
// Ruritanian positions of the padded array. Heat-1D with weights 1/4, 1/2,
// 1/4 on an 8-point tile: H[k] = (1 + cos(2 pi k / 8)) / 2, so with T = 2
// S = [1, 0.7286, 0.25, 0.0214, 0, ...] / 8, and the last launch's T = 1
// gives [1, 0.8536, 0.5, 0.1464, 0, ...] / 8. The imaginary parts are the
// long double sines' rounding (below 1e-20).

// CHECK-LABEL: func.func @heat_1d
// CHECK-SAME: (%[[IN:.*]]: memref<?xf64>, %[[OUT:.*]]: memref<?xf64>)
// CHECK: stencil.fft_apply %[[IN]] -> %[[OUT]] {{.*}} steps 3 fused_steps 2 factors [array<i64: 8>]
// CHECK-SAME: spectrum dense<[(1.250000e-01,0.000000e+00), (0.091069173824159216,{{[^)]*}}), (3.125000e-02,{{[^)]*}}), (0.0026808261758407797,{{[^)]*}}), ({{[^)]*}}E-41,{{[^)]*}}), (0.0026808261758407797,{{[^)]*}}), (3.125000e-02,{{[^)]*}}), (0.091069173824159216,{{[^)]*}})]> : tensor<8xcomplex<f64>>
// CHECK-SAME: tail_spectrum dense<[(1.250000e-01,0.000000e+00), (0.10669417382415922,{{[^)]*}}), (6.250000e-02,{{[^)]*}}), (0.01830582617584078,{{[^)]*}}), ({{[^)]*}}), (0.01830582617584078,{{[^)]*}}), (6.250000e-02,{{[^)]*}}), (0.10669417382415922,{{[^)]*}})]> : tensor<8xcomplex<f64>>
func.func @heat_1d(%in: memref<?xf64>, %out: memref<?xf64>) {
  stencil.fft_apply %in -> %out pattern <star, rank = 1, radius = 1> weights [0.25, 0.5, 0.25] steps 3 fused_steps 2 factors [array<i64: 8>] : memref<?xf64>
  return
}

// -----

// A 2-D tile of 56 x 9: the array is 8 x 8 x 16 (7 and 9 padded). T
// divides the op's steps, but a run of another number of steps needs the
// one-step tail (libStencilRuntime), so it has its spectrum all the same.
// CHECK-LABEL: func.func @heat_2d
// CHECK: fused_steps 2 factors [array<i64: 8, 7>, array<i64: 9>] spectrum dense<"0x{{[0-9A-F]+}}"> : tensor<8x8x16xcomplex<f64>> tail_spectrum dense<"0x{{[0-9A-F]+}}"> : tensor<8x8x16xcomplex<f64>> :

func.func @heat_2d(%in: memref<?x?xf64>, %out: memref<?x?xf64>) {
  stencil.fft_apply %in -> %out pattern <star, rank = 2, radius = 1> weights [0.1, 0.2, 0.4, 0.2, 0.1] steps 4 fused_steps 2 factors [array<i64: 8, 7>, array<i64: 9>] : memref<?x?xf64>
  return
}

// -----

// An op that has its spectrum is left as it is.
// CHECK-LABEL: func.func @kept
// CHECK: spectrum dense<(1.000000e+00,0.000000e+00)> : tensor<8xcomplex<f64>>
func.func @kept(%in: memref<?xf64>, %out: memref<?xf64>) {
  stencil.fft_apply %in -> %out pattern <star, rank = 1, radius = 1> weights [0.25, 0.5, 0.25] fused_steps 1 factors [array<i64: 8>] spectrum dense<(1.0, 0.0)> : tensor<8xcomplex<f64>> : memref<?xf64>
  return
}

// -----

// One step per launch: no tail.
// CHECK-LABEL: func.func @one_step
// CHECK-NOT: tail_spectrum
// CHECK: return
func.func @one_step(%in: memref<?x?xf64>, %out: memref<?x?xf64>) {
  stencil.fft_apply %in -> %out pattern <star, rank = 2, radius = 1> weights [0.1, 0.2, 0.4, 0.2, 0.1] steps 4 fused_steps 1 factors [array<i64: 8, 7>, array<i64: 9>] : memref<?x?xf64>
  return
}
