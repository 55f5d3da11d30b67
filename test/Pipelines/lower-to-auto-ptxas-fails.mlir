// An assembler that takes none of the candidates (older than the PTX ISA the
// pipelines emit) does not make --stencil-select-pipeline fail: the
// candidates are ranked without the occupancy, as with ptxas=none, and the
// remark says why.

// RUN: stencil-opt %s --stencil-select-pipeline="device-profile=h100 explain=true ptxas=%S/Inputs/failing-ptxas.sh" 2>&1 | FileCheck %s

// CHECK: remark: candidates on NVIDIA H100 80GB HBM3 (bandwidth 3011 GB/s), GStencil/s, per point and step, best first; ptxas assembled no candidate ({{.*}}failing-ptxas.sh failed: ptxas fatal : Unsupported .version 8.7; current version is '7.4'): occupancy not modelled:
// CHECK: 1 lower-to-sptc{chip=sm_90} mma.sp.f16 128.0 4.079 752.8 7418.8 bandwidth - 625.8
// CHECK: chosen: lower-to-sptc{chip=sm_90}
// CHECK: module attributes {stencil.device_profile = {{".*"}}, stencil.pipeline = "lower-to-sptc{chip=sm_90}"}
func.func @heat2d(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1> weights [0.2, 0.3, 0.1, 0.1, 0.3] : memref<?x?xf16>
  return
}
