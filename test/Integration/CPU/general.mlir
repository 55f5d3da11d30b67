// RUN: stencil-opt %s --stencil-attach-cpu-harness="func=nonlinear grid=16,14" --lower-to-cpu | %mlir_runner \
// RUN:   | %stencil_ref --result - --dtype f32 --grid 16,14 --pattern star:2:1 \
// RUN:     --body "0.5*a(0,0) + 0.25*max(a(-1,0), a(1,0)) + 0.75*a(0,-1)*a(0,1)"
// RUN: stencil-opt %s --stencil-attach-cpu-harness="func=linear_body grid=16,14" --lower-to-cpu="linearize=true" | %mlir_runner \
// RUN:   | %stencil_ref --result - --dtype f16 --grid 16,14 --pattern="-1,1;0,-1;0,0" --weights 0.375,-0.25,0.625

// The general (region) form: a non-linear body evaluated in its element type,
// and a linear body that --stencil-linearize turns into weights
// 0.375 at [-1, 1] (0.25 + 0.125), -0.25 at [0, -1], 0.625 at [0, 0].

func.func @nonlinear(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  stencil.apply %in -> %out : memref<?x?xf32> {
    %c = stencil.access [0, 0] : f32
    %n = stencil.access [-1, 0] : f32
    %s = stencil.access [1, 0] : f32
    %w = stencil.access [0, -1] : f32
    %e = stencil.access [0, 1] : f32
    %k0 = arith.constant 0.5 : f32
    %k1 = arith.constant 0.25 : f32
    %k2 = arith.constant 0.75 : f32
    %t0 = arith.mulf %k0, %c : f32
    %mx = arith.maximumf %n, %s : f32
    %t1 = arith.mulf %k1, %mx : f32
    %we = arith.mulf %w, %e : f32
    %t2 = arith.mulf %k2, %we : f32
    %s0 = arith.addf %t0, %t1 : f32
    %r = arith.addf %s0, %t2 : f32
    stencil.yield %r : f32
  }
  return
}

func.func @linear_body(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.apply %in -> %out : memref<?x?xf16> {
    %ne = stencil.access [-1, 1] : f16
    %w = stencil.access [0, -1] : f16
    %c = stencil.access [0, 0] : f16
    %ne2 = stencil.access [-1, 1] : f16
    %q = arith.constant 0.25 : f16
    %e = arith.constant 0.125 : f16
    %f = arith.constant 0.625 : f16
    %a = arith.mulf %q, %ne : f16
    %b = arith.mulf %ne2, %e : f16
    %ab = arith.addf %a, %b : f16
    %wq = arith.mulf %q, %w : f16
    %x = arith.subf %ab, %wq : f16
    %cf = arith.mulf %f, %c : f16
    %r = arith.addf %x, %cf : f16
    stencil.yield %r : f16
  }
  return
}
