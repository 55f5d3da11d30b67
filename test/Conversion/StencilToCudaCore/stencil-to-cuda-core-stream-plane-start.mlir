// RUN: stencil-opt %s --convert-stencil-to-cuda-core="threads-x=4 threads-y=2 outputs-per-thread=2 planes=5 stream=on" | FileCheck %s
// RUN: sed s/f16/f64/g %s | stencil-opt --convert-stencil-to-cuda-core="threads-x=4 threads-y=2 outputs-per-thread=2 planes=5 stream=on" | FileCheck %s --check-prefix=F64
// RUN: stencil-opt %s --convert-stencil-to-cuda-core="threads-x=4 threads-y=2 outputs-per-thread=2 stream=off" | FileCheck %s --check-prefix=STAGED

// Plane starts: a streamed 3-D kernel of a 16- or 32-bit grid indexes a
// grid point as the start of its plane, z * (N_y * N_x) passed through an
// opaque `mov.b64` (so that LLVM's loop strength reduction does not make a
// 64-bit pointer of every row a thread loads or stores), plus its index in
// the plane, y * N_x + x. The loads of the sweep (interior blocks first):
// CHECK:       gpu.func @heat_cuda_core(
// CHECK:         scf.for %{{.*}} iter_args({{.*}}) -> (f16, f16, f16, f16, f16)
// CHECK:           %[[NYNX:.*]] = arith.muli %arg4, %arg5 : index
// CHECK:           %[[Z:.*]] = arith.muli %{{.*}}, %[[NYNX]] : index
// CHECK:           %[[Z64:.*]] = arith.index_cast %[[Z]] : index to i64
// CHECK:           %[[START:.*]] = llvm.inline_asm asm_dialect = att "mov.b64 $0, $1;", "=l,l" %[[Z64]] : (i64) -> i64
// CHECK:           %[[S:.*]] = arith.index_cast %[[START]] : i64 to index
// CHECK:           %[[Y:.*]] = arith.muli %{{.*}}, %arg5 : index
// CHECK:           %[[YX:.*]] = arith.addi %[[Y]], %{{.*}} : index
// CHECK:           %[[I:.*]] = arith.addi %[[S]], %[[YX]] : index
// CHECK:           memref.load %arg0[%[[I]]] : memref<?xf16>
// The stores of its outputs, after the barrier:
// CHECK:           gpu.barrier
// CHECK:           %[[OSTART:.*]] = llvm.inline_asm asm_dialect = att "mov.b64 $0, $1;", "=l,l"
// CHECK:           %[[OS:.*]] = arith.index_cast %[[OSTART]] : i64 to index
// CHECK:           %[[OI:.*]] = arith.addi %[[OS]], %{{.*}} : index
// CHECK:           memref.store %{{.*}}, %arg1[%[[OI]]] : memref<?xf16>
// CHECK:       } else {
// CHECK:         llvm.inline_asm asm_dialect = att "mov.b64 $0, $1;"
// CHECK:       gpu.return

// f64 grids keep the linear index ((z N_y + y) N_x + x): their kernels are
// bound by memory, and there the plane starts lost as often as they gained.
// F64:         gpu.func @heat_cuda_core(
// F64-NOT:       mov.b64
// F64:         gpu.return

// Staged kernels keep it too.
// STAGED:      gpu.func @heat_cuda_core(
// STAGED-NOT:    mov.b64
// STAGED:      gpu.return
func.func @heat(%in: memref<?x?x?xf16>, %out: memref<?x?x?xf16>) {
  stencil.linear %in -> %out pattern <star, rank = 3, radius = 1>
      weights [0.1, 0.1, 0.1, 0.4, 0.1, 0.1, 0.1] : memref<?x?x?xf16>
  return
}
