// A general 3-D body (not linear) with a periodic boundary and radius 2
// along z, for cuda-core-stream-ptxas.test.
func.func @general3d(%in: memref<?x?x?xf32>, %out: memref<?x?x?xf32>) {
  stencil.apply %in -> %out boundary periodic : memref<?x?x?xf32> {
    %a = stencil.access [-2, 0, 1] : f32
    %b = stencil.access [2, 1, 0] : f32
    %c = stencil.access [0, 0, 0] : f32
    %m = arith.maximumf %a, %b : f32
    %s = arith.mulf %m, %c : f32
    stencil.yield %s : f32
  }
  return
}
