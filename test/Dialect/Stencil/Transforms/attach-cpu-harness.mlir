// RUN: stencil-opt %s --split-input-file --stencil-attach-cpu-harness="grid=6,5" | FileCheck %s

// The harness allocates the grids at the requested size, fills them with the
// documented formula (argument index in the hash: 12345 + a * 7919), calls
// the function and prints rank, sizes and the output's element bits.

// CHECK-LABEL: func.func @main()
// CHECK:         %[[A0:.*]] = memref.alloc() : memref<6x5xf16>
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             arith.muli %{{.*}}, %{{.*}} : i64
// CHECK:             arith.constant 12345 : i64
// CHECK:             arith.constant 2147483647 : i64
// CHECK:             arith.shrui
// CHECK:             arith.constant 255 : i64
// CHECK:             arith.constant 128 : i64
// CHECK:             arith.sitofp
// CHECK:             arith.constant 2.560000e+02 : f64
// CHECK:             arith.truncf %{{.*}} : f64 to f16
// CHECK:             memref.store %{{.*}}, %[[A0]]
// CHECK:         %[[C0:.*]] = memref.cast %[[A0]] : memref<6x5xf16> to memref<?x?xf16>
// CHECK:         %[[A1:.*]] = memref.alloc() : memref<6x5xf16>
// CHECK:             arith.constant 20264 : i64
// CHECK:         %[[C1:.*]] = memref.cast %[[A1]]
// CHECK:         call @heat(%[[C0]], %[[C1]])
// CHECK:         call @printI64
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             %[[V:.*]] = memref.load %[[A1]]
// CHECK:             %[[B:.*]] = arith.bitcast %[[V]] : f16 to i16
// CHECK:             %[[E:.*]] = arith.extui %[[B]] : i16 to i64
// CHECK:             call @printI64(%[[E]])
// CHECK:             call @printNewline()
// CHECK:         memref.dealloc %[[A0]]
// CHECK:         memref.dealloc %[[A1]]
// CHECK:       func.func private @printI64(i64)
// CHECK:       func.func private @printNewline()
func.func @heat(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1>
      weights [0.1, 0.2, 0.4, 0.2, 0.1] : memref<?x?xf16>
  return
}

// -----

// f64 output: the 64-bit pattern is printed as is.
// CHECK-LABEL: func.func @main()
// CHECK:         arith.bitcast %{{.*}} : f64 to i64
// CHECK-NOT:     arith.extui
// CHECK:         call @printI64
func.func @static(%in: memref<6x5xf64>, %out: memref<6x5xf64>) {
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1>
      weights [0.1, 0.2, 0.4, 0.2, 0.1] : memref<6x5xf64>
  return
}
