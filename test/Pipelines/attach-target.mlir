// RUN: stencil-opt %s --split-input-file --stencil-attach-target="chip=sm_90 features=+ptx85" | FileCheck %s
// RUN: stencil-opt %s --split-input-file --stencil-attach-target="chip=sm_90 features=+ptx85 opt-level=1" | FileCheck %s --check-prefix=FIXED

// --stencil-attach-target: upstream's nvvm-attach-target with each GPU
// module's LLVM level taken from its kernels (stencil.llvm_opt_level, the
// lowest wins; 3 where none asks) unless opt-level fixes it. The hints are
// removed.

// CHECK-LABEL: gpu.module @asks_zero [#nvvm.target<O = 0, chip = "sm_90", features = "+ptx85">]
// CHECK-NOT:   stencil.llvm_opt_level
// CHECK-LABEL: gpu.module @asks_nothing [#nvvm.target<O = 3, chip = "sm_90", features = "+ptx85">]
// FIXED-LABEL: gpu.module @asks_zero [#nvvm.target<O = 1, chip = "sm_90", features = "+ptx85">]
// FIXED-NOT:   stencil.llvm_opt_level
// FIXED-LABEL: gpu.module @asks_nothing [#nvvm.target<O = 1, chip = "sm_90", features = "+ptx85">]
module attributes {gpu.container_module} {
  gpu.module @asks_zero {
    gpu.func @a() kernel attributes {stencil.llvm_opt_level = 1 : i32} {
      gpu.return
    }
    gpu.func @b() kernel attributes {stencil.llvm_opt_level = 0 : i32} {
      gpu.return
    }
  }
  gpu.module @asks_nothing {
    gpu.func @c() kernel {
      gpu.return
    }
  }
}

// -----

// A target the module already has is not repeated (as upstream's pass).
// CHECK-LABEL: gpu.module @has_it [#nvvm.target<O = 3, chip = "sm_90", features = "+ptx85">] {
// FIXED-LABEL: gpu.module @has_it [#nvvm.target<O = 3, chip = "sm_90", features = "+ptx85">, #nvvm.target<O = 1, chip = "sm_90", features = "+ptx85">] {
module attributes {gpu.container_module} {
  gpu.module @has_it [#nvvm.target<O = 3, chip = "sm_90", features = "+ptx85">] {
  }
}
