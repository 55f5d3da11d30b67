// RUN: stencil-opt %s --split-input-file --convert-stencil-to-cuda-core="stream=on plane-sums=true vector-width=4" -verify-diagnostics

// Vector columns move up to 16 bytes at once: four f64 are 32.

func.func @heat64(%in: memref<?x?x?xf64>, %out: memref<?x?x?xf64>) {
  // expected-error @+1 {{'stencil.linear' op cannot move 4 'f64' elements as one vector (32 bytes; the widest load and store move 16): use a vector-width of at most 2}}
  stencil.linear %in -> %out pattern <star, rank = 3, radius = 1>
      weights [0.1, 0.1, 0.1, 0.4, 0.1, 0.1, 0.1] : memref<?x?x?xf64>
  return
}

// -----

// Only the plane sums take vector columns: a general body keeps the ring.

func.func @general(%in: memref<?x?x?xf16>, %out: memref<?x?x?xf16>) {
  // expected-error @+1 {{'stencil.apply' op needs the plane sums for vector-width=4: plane-sums=true on a 3-D stencil.linear, streamed (stream=on, or auto where its planes fit) with fused-steps=1}}
  stencil.apply %in -> %out : memref<?x?x?xf16> {
    %a = stencil.access [-1, 0, 1] : f16
    %c = stencil.access [0, 0, 0] : f16
    %m = arith.maximumf %a, %c : f16
    stencil.yield %m : f16
  }
  return
}

// -----

// A 2-D stencil streams its rows, without plane sums.

func.func @heat2d(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  // expected-error @+1 {{'stencil.linear' op needs the plane sums for vector-width=4}}
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1>
      weights [0.1, 0.2, 0.4, 0.2, 0.1] : memref<?x?xf16>
  return
}
