// RUN: stencil-opt %s --stencil-attach-target="opt-level=7" -verify-diagnostics -o /dev/null

// A level LLVM does not have is an error, not a target LLVM rejects later
// (the pipelines check their opt-level first: targets-invalid.mlir).
// expected-error@+1 {{opt-level must be 0 to 3, or -1 (by kernel: 3, or the level the kernel's conversion asks); got 7}}
module {
}
