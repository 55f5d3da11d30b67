// REQUIRES: ptxas
// With ptxas the candidates are assembled best prediction first; the
// registers only lower a prediction, so one that does not beat an
// assembled candidate even at full occupancy is not assembled (nor its PTX
// emitted). Box-2D49P in f16 on the H100 profile: the SpTC kernel is
// assembled (16 warps per SM); the dense TC and CUDA-core kernels are
// ranked by their predictions at full occupancy, marked "<=", without warps.
// A single candidate is not assembled: there is nothing to rank it against.

// RUN: stencil-opt %s -split-input-file --stencil-select-pipeline="device-profile=h100 ptxas=%ptxas explain=true" -o /dev/null 2>&1 | FileCheck %s

// CHECK: warps per SM from {{.*}}ptxas:
// CHECK: 1 lower-to-sptc{chip=sm_90} mma.sp.f16 {{.*}} bandwidth 16 {{[0-9.]+$}}
// CHECK-NEXT: 2 lower-to-tc{chip=sm_90} mma.f16 {{.*}} bandwidth - <={{[0-9.]+$}}
// CHECK-NEXT: 3 lower-to-cuda-core{chip=sm_90 fused-steps=1} fma.f32 {{.*}} - <={{[0-9.]+$}}
// CHECK-NEXT: <= at full occupancy: not assembled, since it would not beat an assembled candidate
// CHECK: chosen: lower-to-sptc{chip=sm_90}
func.func @box2d49p(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.linear %in -> %out pattern <box, rank = 2, radius = 3> weights [
      0.0213, 0.0108, 0.0197, 0.0154, 0.0221, 0.0119, 0.0176,
      0.0102, 0.0231, 0.0145, 0.0189, 0.0113, 0.0208, 0.0167,
      0.0181, 0.0126, 0.0240, 0.0139, 0.0199, 0.0158, 0.0117,
      0.0225, 0.0149, 0.0171, 0.0251, 0.0131, 0.0186, 0.0105,
      0.0162, 0.0203, 0.0121, 0.0195, 0.0142, 0.0229, 0.0174,
      0.0111, 0.0184, 0.0217, 0.0128, 0.0236, 0.0151, 0.0193,
      0.0205, 0.0136, 0.0169, 0.0214, 0.0123, 0.0178, 0.0247] : memref<?x?xf16>
  return
}

// -----

// A single candidate, nothing to rank it against: not assembled.
// CHECK: remark: candidates
// CHECK: 1 lower-to-cuda-core{chip=sm_90 fused-steps=1} fma.f32 {{.*}} - {{[0-9.]+$}}
// CHECK-NOT: <=
// CHECK: chosen: lower-to-cuda-core{chip=sm_90 fused-steps=1}
func.func @max(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  stencil.apply %in -> %out : memref<?x?xf32> {
    %a = stencil.access [0, -1] : f32
    %b = stencil.access [0, 1] : f32
    %c = stencil.access [1, 0] : f32
    %m = arith.maximumf %a, %b : f32
    %n = arith.maximumf %m, %c : f32
    stencil.yield %n : f32
  }
  return
}
