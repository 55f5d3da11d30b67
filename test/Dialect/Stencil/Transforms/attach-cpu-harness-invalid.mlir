// RUN: stencil-opt %s --split-input-file --stencil-attach-cpu-harness="grid=8,8" -verify-diagnostics

// expected-error @+1 {{several public functions: choose one with 'func='}}
module {
  func.func @a(%x: memref<8x8xf32>) { return }
  func.func @b(%x: memref<8x8xf32>) { return }
}

// -----

// expected-error @+1 {{the module already has a symbol named 'main'}}
module {
  func.func @main(%x: memref<8x8xf32>) { return }
}

// -----

// expected-error @+1 {{the harness needs a function with memref arguments and no results}}
func.func @f(%x: memref<8x8xf32>) -> f32 {
  %c = arith.constant 0.0 : f32
  return %c : f32
}

// -----

// expected-error @+1 {{the harness supports only identity-layout memrefs of f16, bf16, f32 or f64, got 'memref<8x8xi32>'}}
func.func @f(%x: memref<8x8xi32>) { return }

// -----

// expected-error @+1 {{'grid=' gives 2 sizes but the argument type 'memref<?xf32>' has rank 1}}
func.func @f(%x: memref<?xf32>) { return }

// -----

// expected-error @+1 {{'grid=' size 8 contradicts the static size 9 of dimension 1 of 'memref<8x9xf32>'}}
func.func @f(%x: memref<8x9xf32>) { return }
