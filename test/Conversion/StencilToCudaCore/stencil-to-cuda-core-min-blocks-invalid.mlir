// RUN: stencil-opt %s --convert-stencil-to-cuda-core="stream=on min-blocks-per-sm=-1" -verify-diagnostics
// RUN: stencil-opt %s --convert-stencil-to-cuda-core="stream=on threads-x=32 threads-y=4 min-blocks-per-sm=17" -verify-diagnostics
// RUN: stencil-opt %s --convert-stencil-to-cuda-core="stream=on min-blocks-per-sm=4294967295" -verify-diagnostics
// RUN: stencil-opt %s --convert-stencil-to-cuda-core="stream=on min-blocks-per-sm=4611686018427387904" -verify-diagnostics
// RUN: stencil-opt %s --lower-to-cuda-core="stream=on min-blocks-per-sm=4611686018427387904" -verify-diagnostics

// min-blocks-per-sm asks for that many resident blocks per SM: not
// negative, no more than the 32 blocks an SM holds (checked before the
// product of blocks and threads, which 2^62 blocks would overflow), and no
// more threads than an SM holds (2048; 17 blocks of 128 threads are 2176).

func.func @heat(%in: memref<?x?x?xf16>, %out: memref<?x?x?xf16>) {
  // expected-error-re @+1 {{'stencil.linear' op needs 0 <= min-blocks-per-sm <= 32 and at most 2048 threads per SM, not {{-1|17|4294967295|4611686018427387904}} blocks of {{[0-9]+}} threads}}
  stencil.linear %in -> %out pattern <star, rank = 3, radius = 1>
      weights [0.1, 0.1, 0.1, 0.4, 0.1, 0.1, 0.1] : memref<?x?x?xf16>
  return
}
