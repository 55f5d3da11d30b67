// The option errors of --stencil-select-pipeline, located at the first
// stencil op (each a different message for one input, so FileCheck rather
// than -verify-diagnostics).

// RUN: not stencil-opt %s --stencil-select-pipeline="fused-steps=many" 2>&1 | FileCheck %s --check-prefix=STEPS
// RUN: not stencil-opt %s --stencil-select-pipeline="fused-steps=0" 2>&1 | FileCheck %s --check-prefix=STEPS
// RUN: not stencil-opt %s --stencil-select-pipeline="fused-steps=17" 2>&1 | FileCheck %s --check-prefix=STEPS
// RUN: not stencil-opt %s --lower-to-auto="fused-steps=1000000" 2>&1 | FileCheck %s --check-prefix=STEPS
// RUN: not stencil-opt %s --lower-to-auto="fused-steps=9223372036854775807" 2>&1 | FileCheck %s --check-prefix=STEPS
// RUN: not stencil-opt %s --stencil-select-pipeline="device-profile=v100" 2>&1 | FileCheck %s --check-prefix=NAME
// RUN: not stencil-opt %s --stencil-select-pipeline="device-profile=%S/Inputs/malformed.profile" 2>&1 | FileCheck %s --check-prefix=MALFORMED
// RUN: not stencil-opt %s --stencil-select-pipeline="device-profile=%S/Inputs/does-not-exist.profile" 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not stencil-opt %s --stencil-select-pipeline="chip=sm_75" 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not stencil-opt %s --stencil-select-pipeline="ptxas=%S/Inputs/no-such-ptxas" 2>&1 | FileCheck %s --check-prefix=PTXAS

// STEPS: lower-to-auto-invalid.mlir:23:3: error: fused-steps must be an integer from 1 to 16 or 'max' (4), got
// NAME: lower-to-auto-invalid.mlir:23:3: error: no built-in device profile 'v100' (built-in: h100, h200, a100, b200, rtx-pro-6000; or give the path of a profile file)
// MALFORMED: lower-to-auto-invalid.mlir:23:3: error: {{.*}}malformed.profile: device profile line 3: 'peak.fma.f32' needs a positive number, got 'fast'
// MISSING: lower-to-auto-invalid.mlir:23:3: error: cannot read device profile '{{.*}}does-not-exist.profile'
// PTXAS: lower-to-auto-invalid.mlir:23:3: error: ptxas='{{.*}}no-such-ptxas' is not an executable
// CHIP: lower-to-auto-invalid.mlir:23:3: error: no built-in device profile for chip 'sm_75' (sm_80 to sm_89, sm_90, sm_100, sm_120); give device-profile=
func.func @heat2d(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1> weights [0.2, 0.3, 0.1, 0.1, 0.3] : memref<?x?xf16>
  return
}
