// Targets a GPU pipeline cannot serve: each is an error at the first stencil
// op (line 9 below) from --stencil-check-target, the pipelines' first pass,
// naming the pipeline, what was given and what it takes; never a crash, an
// abort or an LLVM instruction selection failure. (One input, a different
// message per RUN line, so FileCheck rather than -verify-diagnostics; the
// located forms with -verify-diagnostics are targets-lower-selected-
// invalid.mlir and targets-sparse-into-tc.mlir.)
func.func @heat2d(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1> weights [0.2, 0.3, 0.1, 0.1, 0.3] : memref<?x?xf16>
  return
}

// An empty chip, per pipeline.
// RUN: not stencil-opt %s --lower-to-sptc="chip=" 2>&1 | FileCheck %s --check-prefix=EMPTY-SPTC
// RUN: not stencil-opt %s --lower-to-tc="chip=" 2>&1 | FileCheck %s --check-prefix=EMPTY-TC
// RUN: sed 's/f16/f64/g' %s | not stencil-opt --lower-to-tc="chip=" 2>&1 | FileCheck %s --check-prefix=EMPTY-TC-F64
// RUN: not stencil-opt %s --lower-to-cuda-core="chip=" 2>&1 | FileCheck %s --check-prefix=EMPTY-CC
// RUN: sed 's/f16/f64/g' %s | not stencil-opt --lower-to-fft="chip=" 2>&1 | FileCheck %s --check-prefix=EMPTY-FFT
// RUN: not stencil-opt %s --lower-to-auto="chip= device-profile=h100" 2>&1 | FileCheck %s --check-prefix=EMPTY-AUTO
// EMPTY-SPTC: targets-invalid.mlir:9:3: error: --lower-to-sptc needs a chip (sm_80 or later: sm_80, sm_86, sm_89, sm_90, sm_90a, sm_100a, sm_120, ...); got an empty chip=
// EMPTY-TC: targets-invalid.mlir:9:3: error: --lower-to-tc needs a chip (sm_80 or later: sm_80, sm_86, sm_89, sm_90, sm_90a, sm_100a, sm_120, ...); got an empty chip=
// EMPTY-TC-F64: <stdin>:9:3: error: --lower-to-tc needs a chip (sm_80 or later
// EMPTY-CC: targets-invalid.mlir:9:3: error: --lower-to-cuda-core needs a chip (sm_70 or later: sm_70, sm_75, sm_80, sm_86, sm_89, sm_90, sm_90a, sm_100a, sm_120, ...); got an empty chip=
// EMPTY-FFT: <stdin>:9:3: error: --lower-to-fft needs a chip (sm_80 or later: sm_80, sm_86, sm_89, sm_90, sm_90a, sm_100a, sm_120, ...); got an empty chip=
// EMPTY-AUTO: targets-invalid.mlir:9:3: error: --lower-to-auto needs a chip (sm_70 or later: {{.*}}); got an empty chip=

// A chip without the pipeline's instructions, per pipeline (these ended in
// "LLVM ERROR: Cannot select: intrinsic ...mma...").
// RUN: not stencil-opt %s --lower-to-sptc="chip=sm_75" 2>&1 | FileCheck %s --check-prefix=OLD-SPTC
// RUN: not stencil-opt %s --lower-to-tc="chip=sm_70" 2>&1 | FileCheck %s --check-prefix=OLD-TC
// RUN: sed 's/f16/f64/g' %s | not stencil-opt --lower-to-tc="chip=sm_75" 2>&1 | FileCheck %s --check-prefix=OLD-TC-F64
// RUN: not stencil-opt %s --lower-to-tc="chip=sm_75 low-rank=true" 2>&1 | FileCheck %s --check-prefix=OLD-TC-F64
// RUN: sed 's/f16/f64/g' %s | not stencil-opt --lower-to-fft="chip=sm_75" 2>&1 | FileCheck %s --check-prefix=OLD-FFT
// RUN: not stencil-opt %s --lower-to-cuda-core="chip=sm_62" 2>&1 | FileCheck %s --check-prefix=OLD-CC
// RUN: not stencil-opt %s --lower-to-cuda-core="chip=sm_75 row-phases=1 stream=on" 2>&1 | FileCheck %s --check-prefix=OLD-CC-ASYNC
// OLD-SPTC: targets-invalid.mlir:9:3: error: --lower-to-sptc needs a chip with the sparse Tensor Cores' mma.sp (sm_80 or later: sm_80, sm_86, sm_89, sm_90, sm_90a, sm_100a, sm_120, ...); got 'sm_75'
// OLD-TC: targets-invalid.mlir:9:3: error: --lower-to-tc needs a chip with the Tensor Cores' mma.sync (sm_80 or later: sm_80, sm_86, sm_89, sm_90, sm_90a, sm_100a, sm_120, ...); got 'sm_70'
// OLD-TC-F64: :9:3: error: --lower-to-tc needs a chip with the Tensor Cores' mma.sync (sm_80 or later: {{.*}}); got 'sm_75'
// OLD-FFT: <stdin>:9:3: error: --lower-to-fft needs a chip with the Tensor Cores' mma.sync (sm_80 or later: {{.*}}); got 'sm_75'
// OLD-CC: targets-invalid.mlir:9:3: error: --lower-to-cuda-core needs a chip with the CUDA-core kernels' instructions (sm_70 or later: {{.*}}); got 'sm_62'
// OLD-CC-ASYNC: targets-invalid.mlir:9:3: error: --lower-to-cuda-core needs a chip with cp.async (sm_80 or later: {{.*}}); got 'sm_75'

// A chip LLVM does not know (cuda-core exited 0 with an LLVM warning).
// RUN: not stencil-opt %s --lower-to-sptc="chip=sm_999" 2>&1 | FileCheck %s --check-prefix=UNKNOWN-SPTC
// RUN: not stencil-opt %s --lower-to-cuda-core="chip=gfx90a" 2>&1 | FileCheck %s --check-prefix=UNKNOWN-CC
// RUN: sed 's/f16/f64/g' %s | not stencil-opt --lower-to-fft="chip=sm_999" 2>&1 | FileCheck %s --check-prefix=UNKNOWN-FFT
// RUN: not stencil-opt %s --lower-to-auto="chip=sm_999" 2>&1 | FileCheck %s --check-prefix=UNKNOWN-AUTO
// UNKNOWN-SPTC: targets-invalid.mlir:9:3: error: --lower-to-sptc: 'sm_999' is not a chip LLVM's NVPTX backend knows (--lower-to-sptc takes sm_80 or later: sm_80, sm_86, sm_89, sm_90, sm_90a, sm_100a, sm_120, ...)
// UNKNOWN-CC: targets-invalid.mlir:9:3: error: --lower-to-cuda-core: 'gfx90a' is not a chip LLVM's NVPTX backend knows (--lower-to-cuda-core takes sm_70 or later: {{.*}})
// UNKNOWN-FFT: <stdin>:9:3: error: --lower-to-fft: 'sm_999' is not a chip LLVM's NVPTX backend knows
// UNKNOWN-AUTO: targets-invalid.mlir:9:3: error: --lower-to-auto: 'sm_999' is not a chip LLVM's NVPTX backend knows

// Features older than the chip or the instructions need (these ended in
// "Cannot select" or "PTX version ... does not support target").
// RUN: not stencil-opt %s --lower-to-sptc="chip=sm_80 features=+ptx60" 2>&1 | FileCheck %s --check-prefix=PTX-SPTC-CHIP
// RUN: not stencil-opt %s --lower-to-sptc="chip=sm_90 features=+ptx80" 2>&1 | FileCheck %s --check-prefix=PTX-SPTC-ORDERED
// RUN: not stencil-opt %s --lower-to-sptc="chip=sm_80 features=+ptx70 ordered-metadata=false" 2>&1 | FileCheck %s --check-prefix=PTX-SPTC-MMASP
// RUN: not stencil-opt %s --lower-to-sptc="chip=sm_100a features=+ptx85" 2>&1 | FileCheck %s --check-prefix=PTX-SPTC-BLACKWELL
// RUN: not stencil-opt %s --lower-to-tc="chip=sm_90 features=+ptx70" 2>&1 | FileCheck %s --check-prefix=PTX-TC
// RUN: sed 's/f16/f64/g' %s | not stencil-opt --lower-to-fft="chip=sm_120 features=+ptx86" 2>&1 | FileCheck %s --check-prefix=PTX-FFT
// RUN: not stencil-opt %s --lower-to-cuda-core="chip=sm_80 features=+ptx60" 2>&1 | FileCheck %s --check-prefix=PTX-CC
// RUN: not stencil-opt %s --lower-to-auto="chip=sm_90 features=+ptx70" 2>&1 | FileCheck %s --check-prefix=PTX-AUTO
// PTX-SPTC-CHIP: targets-invalid.mlir:9:3: error: --lower-to-sptc: features=+ptx60 (PTX 6.0) is older than chip=sm_80 needs (PTX 7.0, +ptx70); leave features out for +ptx85
// PTX-SPTC-ORDERED: targets-invalid.mlir:9:3: error: --lower-to-sptc: features=+ptx80 (PTX 8.0) is older than mma.sp::ordered_metadata needs (PTX 8.5, +ptx85); leave features out for +ptx85
// PTX-SPTC-MMASP: targets-invalid.mlir:9:3: error: --lower-to-sptc: features=+ptx70 (PTX 7.0) is older than the sparse Tensor Cores' mma.sp needs (PTX 7.1, +ptx71); leave features out for +ptx71
// PTX-SPTC-BLACKWELL: targets-invalid.mlir:9:3: error: --lower-to-sptc: features=+ptx85 (PTX 8.5) is older than chip=sm_100a needs (PTX 8.6, +ptx86); leave features out for +ptx86
// PTX-TC: targets-invalid.mlir:9:3: error: --lower-to-tc: features=+ptx70 (PTX 7.0) is older than chip=sm_90 needs (PTX 7.8, +ptx78); leave features out for +ptx78
// PTX-FFT: <stdin>:9:3: error: --lower-to-fft: features=+ptx86 (PTX 8.6) is older than chip=sm_120 needs (PTX 8.7, +ptx87); leave features out for +ptx87
// PTX-CC: targets-invalid.mlir:9:3: error: --lower-to-cuda-core: features=+ptx60 (PTX 6.0) is older than chip=sm_80 needs (PTX 7.0, +ptx70); leave features out for +ptx70
// PTX-AUTO: targets-invalid.mlir:9:3: error: --lower-to-auto: features=+ptx70 (PTX 7.0) is older than chip=sm_90 needs (PTX 7.8, +ptx78)

// Features that are no PTX ISA version (cuda-core exited 0 with an LLVM
// warning).
// RUN: not stencil-opt %s --lower-to-cuda-core="features=garbage" 2>&1 | FileCheck %s --check-prefix=GARBAGE-CC
// RUN: not stencil-opt %s --lower-to-cuda-core="features=+ptx99" 2>&1 | FileCheck %s --check-prefix=GARBAGE-CC-99
// RUN: not stencil-opt %s --lower-to-sptc="features=+ptx85,+sm_90" 2>&1 | FileCheck %s --check-prefix=GARBAGE-SPTC
// RUN: not stencil-opt %s --lower-to-auto="features=garbage" 2>&1 | FileCheck %s --check-prefix=GARBAGE-AUTO
// GARBAGE-CC: targets-invalid.mlir:9:3: error: --lower-to-cuda-core: features='garbage' is not a PTX ISA version LLVM emits: give one +ptxNN, +ptx32 to +ptx90 (+ptx85 is PTX 8.5), or leave features out for +ptx78, what chip=sm_90 and the kernels need
// GARBAGE-CC-99: targets-invalid.mlir:9:3: error: --lower-to-cuda-core: features='+ptx99' is not a PTX ISA version LLVM emits
// GARBAGE-SPTC: targets-invalid.mlir:9:3: error: --lower-to-sptc: features='+ptx85,+sm_90' is not a PTX ISA version LLVM emits
// GARBAGE-AUTO: targets-invalid.mlir:9:3: error: --lower-to-auto: features='garbage' is not a PTX ISA version LLVM emits

// Options run together with commas (MLIR separates a pipeline's options by
// spaces): the chip or features option holds the rest (this printed "not a
// recognized processor" four times and aborted).
// RUN: not stencil-opt %s --lower-to-sptc=chip=sm_90,warps=8 2>&1 | FileCheck %s --check-prefix=COMMA-SPTC
// RUN: not stencil-opt %s --lower-to-tc=chip=sm_80,n-tiles=2 2>&1 | FileCheck %s --check-prefix=COMMA-TC
// RUN: not stencil-opt %s --lower-to-cuda-core=chip=sm_90,threads-y=4 2>&1 | FileCheck %s --check-prefix=COMMA-CC
// RUN: not stencil-opt %s --lower-to-cuda-core=features=+ptx80,chip=sm_80 2>&1 | FileCheck %s --check-prefix=COMMA-CC-FEATURES
// RUN: not stencil-opt %s --lower-to-auto=chip=sm_90,explain=true 2>&1 | FileCheck %s --check-prefix=COMMA-AUTO
// COMMA-SPTC: targets-invalid.mlir:9:3: error: --lower-to-sptc: chip='sm_90,warps=8' is not a chip name: a pipeline's options are separated by spaces, not commas (--lower-to-sptc="chip=sm_90 warps=8")
// COMMA-SPTC-NOT: not a recognized processor
// COMMA-TC: targets-invalid.mlir:9:3: error: --lower-to-tc: chip='sm_80,n-tiles=2' is not a chip name: a pipeline's options are separated by spaces, not commas (--lower-to-tc="chip=sm_80 n-tiles=2")
// COMMA-CC: targets-invalid.mlir:9:3: error: --lower-to-cuda-core: chip='sm_90,threads-y=4' is not a chip name: a pipeline's options are separated by spaces, not commas
// COMMA-CC-FEATURES: targets-invalid.mlir:9:3: error: --lower-to-cuda-core: features='+ptx80,chip=sm_80' is not a PTX ISA version: a pipeline's options are separated by spaces, not commas
// COMMA-AUTO: targets-invalid.mlir:9:3: error: --lower-to-auto: chip='sm_90,explain=true' is not a chip name: a pipeline's options are separated by spaces, not commas

// An LLVM optimization level LLVM does not have, per pipeline and for auto.
// RUN: not stencil-opt %s --lower-to-sptc="opt-level=7" 2>&1 | FileCheck %s --check-prefix=LEVEL-SPTC
// RUN: not stencil-opt %s --lower-to-cuda-core="opt-level=-2" 2>&1 | FileCheck %s --check-prefix=LEVEL-CC
// RUN: not stencil-opt %s --lower-to-auto="opt-level=4" 2>&1 | FileCheck %s --check-prefix=LEVEL-AUTO
// LEVEL-SPTC: targets-invalid.mlir:9:3: error: --lower-to-sptc: opt-level must be 0 to 3, or -1 (by kernel: 3, or the level the kernel's conversion asks); got 7
// LEVEL-CC: targets-invalid.mlir:9:3: error: --lower-to-cuda-core: opt-level must be 0 to 3, or -1 (by kernel: 3, or the level the kernel's conversion asks); got -2
// LEVEL-AUTO: targets-invalid.mlir:9:3: error: opt-level must be 0 to 3, or -1 (by kernel: 3, or the level the kernel's conversion asks); got 4
