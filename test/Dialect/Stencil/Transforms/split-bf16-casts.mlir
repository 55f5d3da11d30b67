// RUN: stencil-opt %s --stencil-split-bf16-casts | FileCheck %s

// CHECK-LABEL: func.func @trunc
// CHECK:         %[[F:.*]] = arith.truncf %{{.*}} : f64 to f32
// CHECK:         %[[B:.*]] = arith.truncf %[[F]] : f32 to bf16
// CHECK:         return %[[B]]
func.func @trunc(%a: f64) -> bf16 {
  %b = arith.truncf %a : f64 to bf16
  return %b : bf16
}

// CHECK-LABEL: func.func @ext
// CHECK:         %[[F:.*]] = arith.extf %{{.*}} : bf16 to f32
// CHECK:         %[[D:.*]] = arith.extf %[[F]] : f32 to f64
// CHECK:         return %[[D]]
func.func @ext(%a: bf16) -> f64 {
  %b = arith.extf %a : bf16 to f64
  return %b : f64
}

// Other conversions are left alone.
// CHECK-LABEL: func.func @others
// CHECK-NEXT:    arith.truncf %{{.*}} : f64 to f16
// CHECK-NEXT:    arith.truncf %{{.*}} : f32 to bf16
// CHECK-NEXT:    arith.extf %{{.*}} : bf16 to f32
// CHECK-NEXT:    return
func.func @others(%a: f64, %b: f32, %c: bf16) -> (f16, bf16, f32) {
  %x = arith.truncf %a : f64 to f16
  %y = arith.truncf %b : f32 to bf16
  %z = arith.extf %c : bf16 to f32
  return %x, %y, %z : f16, bf16, f32
}
