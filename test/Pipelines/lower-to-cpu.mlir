// RUN: stencil-opt %s --lower-to-cpu | FileCheck %s --implicit-check-not=stencil. --implicit-check-not=scf. --implicit-check-not=memref. --implicit-check-not=arith. --implicit-check-not=func.
// RUN: stencil-opt %s --lower-to-cpu="linearize=true" | FileCheck %s --check-prefix=LIN

// The whole module is in the LLVM dialect after --lower-to-cpu.
// CHECK-LABEL: llvm.func @box
// CHECK:         llvm.fpext %{{.*}} : f16 to f64
// CHECK:         llvm.fmul
// CHECK:         llvm.fptrunc %{{.*}} : f64 to f16
// CHECK-LABEL: llvm.func @general
// (arith-expand rewrites maximumf into compares and selects.)
// CHECK:         llvm.fcmp
func.func @box(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.linear %in -> %out pattern <box, rank = 2, radius = 1>
      weights [1., 2., 3., 4., 5., 6., 7., 8., 9.] steps 4 : memref<?x?xf16>
  return
}
func.func @general(%in: memref<?xf32>, %out: memref<?xf32>) {
  stencil.apply %in -> %out : memref<?xf32> {
    %a = stencil.access [1] : f32
    %b = stencil.access [0] : f32
    %m = arith.maximumf %a, %b : f32
    stencil.yield %m : f32
  }
  return
}
// With linearize=true a linear body is evaluated like stencil.linear (f64).
// LIN-LABEL: llvm.func @linear_body
// LIN:         llvm.fpext %{{.*}} : f32 to f64
func.func @linear_body(%in: memref<?xf32>, %out: memref<?xf32>) {
  stencil.apply %in -> %out : memref<?xf32> {
    %a = stencil.access [1] : f32
    %b = stencil.access [0] : f32
    %m = arith.addf %a, %b : f32
    stencil.yield %m : f32
  }
  return
}
