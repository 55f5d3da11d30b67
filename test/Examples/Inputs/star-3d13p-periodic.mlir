// A radius-2 star in 3-D (13 points, asymmetric weights) with the periodic
// boundary, f32: the streamed kernels' rings of 2 r_z + 2 = 6 planes, or 5
// partial sums per output with plane-sums=true.
func.func @star3d13p(%in: memref<?x?x?xf32>, %out: memref<?x?x?xf32>) {
  stencil.linear %in -> %out pattern <star, rank = 3, radius = 2>
      weights [0.031, 0.052, 0.047, 0.068, 0.019, 0.083, 0.246, 0.071,
               0.029, 0.104, 0.058, 0.112, 0.080]
      boundary periodic : memref<?x?x?xf32>
  return
}
