// RUN: stencil-opt %s --split-input-file --convert-stencil-to-cuda-core -verify-diagnostics
// RUN: not stencil-opt %s --split-input-file --convert-stencil-to-cuda-core="threads-x=64 threads-y=32" 2>&1 | FileCheck %s --check-prefix=THREADS
// RUN: not stencil-opt %s --split-input-file --convert-stencil-to-cuda-core="planes=2" 2>&1 | FileCheck %s --check-prefix=PLANES

// What the CUDA-core kernel cannot take gets a located error.

// THREADS: stencil-to-cuda-core-invalid.mlir:{{[0-9]+}}:3: error: 'stencil.linear' op needs threads-x, threads-y >= 1, outputs-per-thread >= 0 (0: automatic) and at most 1024 threads per block

// 5 x (8 x 1 + 40) x 32 f64 (z, y, x): the halo of radius 20 along y does
// not fit even with one output per thread and one plane.
func.func @too_large(%in: memref<?x?x?xf64>, %out: memref<?x?x?xf64>) {
  // expected-error @+1 {{'stencil.linear' op needs 61440 bytes of shared memory for its tile, more than 49152: use fewer threads, outputs-per-thread or planes}}
  stencil.linear %in -> %out pattern <[[-2, 0, 0], [2, 0, 0], [0, 20, 0]]>
      weights [1., 2., 3.] : memref<?x?x?xf64>
  return
}

// -----

// A body the runner's reference cannot evaluate still compiles; the kernel
// can be timed but not checked.
func.func @no_reference(%in: memref<?xf32>, %out: memref<?xf32>) {
  // expected-warning @+1 {{the launch record has no body expression for the runner's reference ('math.exp' has none): stencil-run can time this kernel but not check it}}
  stencil.apply %in -> %out : memref<?xf32> {
    %a = stencil.access [1] : f32
    %e = math.exp %a : f32
    stencil.yield %e : f32
  }
  return
}

// -----

// Planes only exist in 3-D (RUN line PLANES).
// PLANES: stencil-to-cuda-core-invalid.mlir:{{[0-9]+}}:3: error: 'stencil.linear' op needs planes >= 0 (0: automatic), and 1 or 0 for a 2-D stencil (planes are z planes of a 3-D tile, or the rows of a streamed 2-D block)
func.func @planes_2d(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1>
      weights [1., 2., 3., 4., 5.] : memref<?x?xf32>
  return
}

// -----

// A rounding below the grid's type has no spelling in the expression.
func.func @narrowed(%in: memref<?xf32>, %out: memref<?xf32>) {
  // expected-warning @+1 {{the launch record has no body expression for the runner's reference ('arith.truncf' has none): stencil-run can time this kernel but not check it}}
  stencil.apply %in -> %out : memref<?xf32> {
    %a = stencil.access [1] : f32
    %h = arith.truncf %a : f32 to f16
    %e = arith.extf %h : f16 to f32
    stencil.yield %e : f32
  }
  return
}

// -----

// A body that reads a value from outside (not a constant): the kernel has no
// argument for it.
// expected-note @+1 {{the value is defined here}}
func.func @from_above(%in: memref<?xf32>, %out: memref<?xf32>, %k: f32) {
  // expected-error @+1 {{'stencil.apply' op has a body that uses a value defined outside it, which is not a constant: the kernel cannot take it (use --lower-to-cpu, or compute it in the body)}}
  stencil.apply %in -> %out : memref<?xf32> {
    %a = stencil.access [1] : f32
    %b = stencil.access [-1] : f32
    %c = arith.maximumf %a, %b : f32
    %m = arith.mulf %k, %c : f32
    stencil.yield %m : f32
  }
  return
}
