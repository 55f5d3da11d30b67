// general-2d.mlir: general (region) form of a 2D stencil with a NON-LINEAR body on a 5-point star:
//   out = 0.5*c + 0.2*max(n, s) + 0.3*(w*e)
// Not a benchmark of the papers: exercises stencil.apply / stencil.access / stencil.yield; element type f32.
// Coefficients are fixed (hand-written), not random.
// Signature: func.func @general2d(%in, %out) with both arguments of type memref<?x?xf32>:
//   arg 0 = input grid, arg 1 = output grid; the shape is dynamic, so any grid size works.
// Defaults: steps 1, boundary halo (the output keeps the input values outside the interior).
// Equivalent expression for utils/stencil-ref.py --body (with --pattern star:2:1):
// REF-BODY: 0.5*a(0,0) + 0.2*max(a(-1,0), a(1,0)) + 0.3*(a(0,-1)*a(0,1))
// REF-PATTERN: star:2:1
// Check: <program> | python3 utils/stencil-ref.py --result - --from-mlir examples/general-2d.mlir --grid 64,48

func.func @general2d(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  stencil.apply %in -> %out : memref<?x?xf32> {
    %c = stencil.access [0, 0] : f32
    %n = stencil.access [-1, 0] : f32
    %s = stencil.access [1, 0] : f32
    %w = stencil.access [0, -1] : f32
    %e = stencil.access [0, 1] : f32
    %k0 = arith.constant 0.5 : f32
    %k1 = arith.constant 0.2 : f32
    %k2 = arith.constant 0.3 : f32
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
