// RUN: stencil-opt %s -split-input-file -verify-diagnostics

// The contract of a module's launch records (`stencil.launches`, written by
// the GPU pipelines, read by stencil-translate and --lower-to-auto) and of
// `stencil.source`: a record made or damaged by hand is a located error
// when the module is verified, never a crash or a launch description the
// runner reads differently. One case per diagnostic.

// expected-error @+1 {{'stencil.launches' must be an array of launch records, got 1 : i64}}
module attributes {stencil.launches = 1} {}

// -----

// expected-error @+1 {{'stencil.launches' entry #0 must be a dictionary (a launch record), got "k"}}
module attributes {stencil.launches = ["k"]} {}

// -----

// expected-error @+1 {{launch record: 'kernel' is missing (a string)}}
module attributes {stencil.launches = [{rank = 1 : i64}]} {}

// -----

// A line break would inject keys into the description.
// expected-error @+1 {{launch record: 'kernel' must be a non-empty string without a line break or '#'}}
module attributes {stencil.launches = [{kernel = "k\0Aweights = 1"}]} {}

// -----

// expected-error @+1 {{launch record: 'kernel' must be a PTX identifier ([A-Za-z_$][A-Za-z0-9_$]*), got 'my kernel'}}
module attributes {stencil.launches = [{kernel = "my kernel"}]} {}

// -----

// expected-error @+1 {{launch record of kernel 'k': 'rank' must be in [1, 3], got 0}}
module attributes {stencil.launches = [{kernel = "k", rank = 0 : i64}]} {}

// -----

// expected-error @+1 {{launch record of kernel 'k': 'element_type' must be one of f16, bf16, f32, f64, got 'i32'}}
module attributes {stencil.launches = [{kernel = "k", rank = 1 : i64, element_type = "i32"}]} {}

// -----

// expected-error @+1 {{launch record of kernel 'k': 'boundary' must be halo, periodic or dirichlet(v) with a finite v, got 'dirichlet(inf)'}}
module attributes {stencil.launches = [{kernel = "k", rank = 1 : i64, element_type = "f32", boundary = "dirichlet(inf)"}]} {}

// -----

// expected-error @+1 {{launch record of kernel 'k': 'tile' values must be in [1, 2147483647], got -4}}
module attributes {stencil.launches = [{kernel = "k", rank = 1 : i64, element_type = "f32", boundary = "halo", tile = array<i64: -4>, block = array<i64: 32>}]} {}

// -----

// expected-error @+1 {{launch record of kernel 'k': 'tile' must hold 2 values (the rank), got 1}}
module attributes {stencil.launches = [{kernel = "k", rank = 2 : i64, element_type = "f32", boundary = "halo", tile = array<i64: 4>, block = array<i64: 32>}]} {}

// -----

// expected-error @+1 {{launch record of kernel 'k': 'block' asks for 2048 threads per block, more than 1024}}
module attributes {stencil.launches = [{kernel = "k", rank = 1 : i64, element_type = "f32", boundary = "halo", tile = array<i64: 4>, block = array<i64: 1024, 2>}]} {}

// -----

// expected-error @+1 {{launch record of kernel 'k': 'steps_per_launch' must be in [1, 1024], got 0}}
module attributes {stencil.launches = [{kernel = "k", rank = 1 : i64, element_type = "f32", boundary = "halo", tile = array<i64: 4>, block = array<i64: 32>, steps_per_launch = 0 : i64}]} {}

// -----

// The runner's tolerance would be infinite: its check could never fail.
// expected-error @+1 {{launch record of kernel 'k': 'fft_error_bound' must be finite and non-negative, got INF}}
module attributes {stencil.launches = [{kernel = "k", rank = 1 : i64, element_type = "f64", boundary = "halo", tile = array<i64: 4>, block = array<i64: 32>, fft_error_bound = 0x7FF0000000000000 : f64}]} {}

// -----

// expected-error @+1 {{launch record of kernel 'k': 'band_kernel' comes with 'band_tile', 'band_block', 'band_margins': all of them or none}}
module attributes {stencil.launches = [{kernel = "k", rank = 1 : i64, element_type = "f32", boundary = "halo", tile = array<i64: 4>, block = array<i64: 32>, band_kernel = "k_band"}]} {}

// -----

// expected-error @+1 {{launch record of kernel 'k': 'source' has 2 weights for 3 pattern points}}
module attributes {stencil.launches = [{kernel = "k", rank = 1 : i64, element_type = "f32", boundary = "halo", tile = array<i64: 4>, block = array<i64: 32>, source = {pattern = #stencil.pattern<star, rank = 1, radius = 1>, weights = array<f64: 0.5, 0.5>}}]} {}

// -----

// expected-error @+1 {{launch record of kernel 'k': 'source' has a pattern of rank 2 in a record of rank 1}}
module attributes {stencil.launches = [{kernel = "k", rank = 1 : i64, element_type = "f32", boundary = "halo", tile = array<i64: 4>, block = array<i64: 32>, source = {pattern = #stencil.pattern<star, rank = 2, radius = 1>, weights = array<f64: 1.0, 1.0, 1.0, 1.0, 1.0>}}]} {}

// -----

// expected-error @+1 {{launch record of kernel 'k': 'unit_flops_per_point' comes with 'unit': all of them or none}}
module attributes {stencil.launches = [{kernel = "k", rank = 1 : i64, element_type = "f32", boundary = "halo", tile = array<i64: 4>, block = array<i64: 32>, unit_flops_per_point = 6.0 : f64}]} {}

// -----

// expected-error @+1 {{launch record of kernel 'k': 'repack' needs an array<i64> 'map'}}
module attributes {stencil.launches = [{kernel = "k", rank = 1 : i64, element_type = "f32", boundary = "halo", tile = array<i64: 4>, block = array<i64: 32>, repack = {kind = "tc", type = "f16", rows = 1 : i64, rows_per_block = 2 : i64, radius = 1 : i64}}]} {}

// -----

// expected-error @+1 {{launch record of kernel 'k': 'repack' needs a 'kind' of sptc, tc or tc-f64}}
module attributes {stencil.launches = [{kernel = "k", rank = 1 : i64, element_type = "f32", boundary = "halo", tile = array<i64: 4>, block = array<i64: 32>, repack = {kind = "dense", type = "f16", rows = 1 : i64, rows_per_block = 2 : i64, radius = 1 : i64, map = array<i64: 0>}}]} {}

// -----

// expected-error @+1 {{launch record of kernel 'k': 'repack' needs a 'type' of f16, bf16 or f64}}
module attributes {stencil.launches = [{kernel = "k", rank = 1 : i64, element_type = "f32", boundary = "halo", tile = array<i64: 4>, block = array<i64: 32>, repack = {kind = "tc", type = "f32", rows = 1 : i64, rows_per_block = 2 : i64, radius = 1 : i64, map = array<i64: 0>}}]} {}

// -----

// expected-error @+1 {{launch record of kernel 'k': 'repack' needs an integer 'rows_per_block'}}
module attributes {stencil.launches = [{kernel = "k", rank = 1 : i64, element_type = "f32", boundary = "halo", tile = array<i64: 4>, block = array<i64: 32>, repack = {kind = "tc", type = "f16", rows = 1 : i64, radius = 1 : i64, map = array<i64: 0>}}]} {}

// -----

// expected-error @+1 {{'stencil.launches' has two records of kernel 'k'}}
module attributes {stencil.launches = [{kernel = "k", rank = 1 : i64, element_type = "f32", boundary = "halo", tile = array<i64: 4>, block = array<i64: 32>}, {kernel = "k", rank = 1 : i64, element_type = "f32", boundary = "halo", tile = array<i64: 4>, block = array<i64: 32>}]} {}

// -----

func.func @source(%in: memref<8xf32>, %out: memref<8xf32>) {
  // expected-error @+1 {{'stencil.source' has a weight that is not finite (nan)}}
  stencil.linear %in -> %out pattern <star, rank = 1, radius = 1> weights [1.0, 1.0, 1.0] {stencil.source = {pattern = #stencil.pattern<star, rank = 1, radius = 1>, weights = array<f64: 1.0, 0x7FF8000000000000, 1.0>}} : memref<8xf32>
  return
}

// -----

// A valid record passes.
module attributes {stencil.launches = [{kernel = "k", rank = 1 : i64, element_type = "f32", boundary = "dirichlet(0.5)", tile = array<i64: 4>, block = array<i64: 32>, source = {body = "a(-1) + a(1)"}}]} {}

// -----

// --lower-to-auto's choice is printed in a comment of the description: one
// line, or it would start a key of its own.
// expected-error @+1 {{'stencil.pipeline' must be one line (the launch description prints it in a comment)}}
module attributes {stencil.pipeline = "lower-to-sptc{chip=sm_90}\nkernel = other"} {}

// -----

// expected-error @+1 {{'stencil.device_profile' must be a string}}
module attributes {stencil.device_profile = 3 : i64} {}
