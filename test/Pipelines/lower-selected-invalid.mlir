// --stencil-lower-selected needs the `stencil.pipeline` attribute, naming a
// GPU pipeline with options it takes.

// RUN: stencil-opt %s -split-input-file -verify-diagnostics --stencil-lower-selected

// expected-error @+1 {{no 'stencil.pipeline' attribute naming the pipeline: run --stencil-select-pipeline first}}
module {
}

// -----

// expected-error @+1 {{'stencil.pipeline' = "lower-to-cpu" is not a GPU pipeline with valid options}}
module attributes {stencil.pipeline = "lower-to-cpu"} {
}

// -----

// expected-error @+1 {{'stencil.pipeline' = "lower-to-tc{warps=many}" is not a GPU pipeline with valid options}}
module attributes {stencil.pipeline = "lower-to-tc{warps=many}"} {
}

// -----

// A pipeline the attribute names by hand runs like the one the selection
// writes; its own errors stay its own.
module attributes {stencil.pipeline = "lower-to-sptc{chip=sm_90}"} {
  func.func @heat2d(%in: memref<?x?xf64>, %out: memref<?x?xf64>) {
    // expected-error @+1 {{has element type 'f64', but the Sparse Tensor Core kernel computes on f16 operands}}
    stencil.linear %in -> %out pattern <star, rank = 2, radius = 1> weights [0.2, 0.3, 0.1, 0.1, 0.3] : memref<?x?xf64>
    return
  }
}
