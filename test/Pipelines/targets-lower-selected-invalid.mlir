// The pipeline --stencil-lower-selected runs (as --lower-to-auto's second
// half, or named by hand) checks its target first, like the pipeline run
// directly: an empty chip (this segfaulted), a chip without the pipeline's
// instructions, an unknown chip, features that are no PTX ISA version and
// options run together with commas are errors at the first stencil op.

// RUN: stencil-opt %s -split-input-file -verify-diagnostics --stencil-lower-selected

module attributes {stencil.pipeline = "lower-to-sptc{chip=}"} {
  func.func @heat2d(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
    // expected-error @+1 {{--lower-to-sptc needs a chip (sm_80 or later: sm_80, sm_86, sm_89, sm_90, sm_90a, sm_100a, sm_120, ...); got an empty chip=}}
    stencil.linear %in -> %out pattern <star, rank = 2, radius = 1> weights [0.2, 0.3, 0.1, 0.1, 0.3] : memref<?x?xf16>
    return
  }
}

// -----

module attributes {stencil.pipeline = "lower-to-cuda-core{chip=}"} {
  func.func @heat2d(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
    // expected-error @+1 {{--lower-to-cuda-core needs a chip (sm_70 or later: sm_70, sm_75, sm_80, sm_86, sm_89, sm_90, sm_90a, sm_100a, sm_120, ...); got an empty chip=}}
    stencil.linear %in -> %out pattern <star, rank = 2, radius = 1> weights [0.2, 0.3, 0.1, 0.1, 0.3] : memref<?x?xf32>
    return
  }
}

// -----

module attributes {stencil.pipeline = "lower-to-tc{chip=sm_75}"} {
  func.func @heat2d(%in: memref<?x?xf64>, %out: memref<?x?xf64>) {
    // expected-error @+1 {{--lower-to-tc needs a chip with the Tensor Cores' mma.sync (sm_80 or later: sm_80, sm_86, sm_89, sm_90, sm_90a, sm_100a, sm_120, ...); got 'sm_75'}}
    stencil.linear %in -> %out pattern <star, rank = 2, radius = 1> weights [0.2, 0.3, 0.1, 0.1, 0.3] : memref<?x?xf64>
    return
  }
}

// -----

module attributes {stencil.pipeline = "lower-to-fft{chip=sm_999}"} {
  func.func @heat2d(%in: memref<?x?xf64>, %out: memref<?x?xf64>) {
    // expected-error @+1 {{--lower-to-fft: 'sm_999' is not a chip LLVM's NVPTX backend knows (--lower-to-fft takes sm_80 or later: sm_80, sm_86, sm_89, sm_90, sm_90a, sm_100a, sm_120, ...)}}
    stencil.linear %in -> %out pattern <star, rank = 2, radius = 1> weights [0.2, 0.3, 0.1, 0.1, 0.3] : memref<?x?xf64>
    return
  }
}

// -----

module attributes {stencil.pipeline = "lower-to-cuda-core{chip=sm_90 features=garbage}"} {
  func.func @heat2d(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
    // expected-error @+1 {{--lower-to-cuda-core: features='garbage' is not a PTX ISA version LLVM emits: give one +ptxNN, +ptx32 to +ptx90 (+ptx85 is PTX 8.5), or leave features out for +ptx78, what chip=sm_90 and the kernels need}}
    stencil.linear %in -> %out pattern <star, rank = 2, radius = 1> weights [0.2, 0.3, 0.1, 0.1, 0.3] : memref<?x?xf32>
    return
  }
}

// -----

module attributes {stencil.pipeline = "lower-to-sptc{chip=sm_100a features=+ptx85}"} {
  func.func @heat2d(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
    // expected-error @+1 {{--lower-to-sptc: features=+ptx85 (PTX 8.5) is older than chip=sm_100a needs (PTX 8.6, +ptx86); leave features out for +ptx86}}
    stencil.linear %in -> %out pattern <star, rank = 2, radius = 1> weights [0.2, 0.3, 0.1, 0.1, 0.3] : memref<?x?xf16>
    return
  }
}

// -----

module attributes {stencil.pipeline = "lower-to-sptc{chip=sm_90,warps=8}"} {
  func.func @heat2d(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
    // expected-error @+1 {{--lower-to-sptc: chip='sm_90,warps=8' is not a chip name: a pipeline's options are separated by spaces, not commas (--lower-to-sptc="chip=sm_90 warps=8")}}
    stencil.linear %in -> %out pattern <star, rank = 2, radius = 1> weights [0.2, 0.3, 0.1, 0.1, 0.3] : memref<?x?xf16>
    return
  }
}
