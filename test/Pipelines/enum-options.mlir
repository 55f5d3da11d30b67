// The enum-valued options print as the words they were given, and the
// printed pipeline parses back (--lower-to-auto runs candidates that way).
// RUN: stencil-opt %s --lower-to-sptc="mma=warp async-copy=off layout=matching" --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=SPTC
// RUN: stencil-opt %s --lower-to-cuda-core="stream=on" --lower-to-fft --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=CUDA
// RUN: stencil-opt %s --pass-pipeline="builtin.module(stencil-sptc-tile{async-copy=on mma=warpgroup},stencil-low-rank{method=svd},stencil-flatten{layouts=h route=matching},stencil-select-pipeline{explain=all})" --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=PARSED
// RUN: not stencil-opt %s --lower-to-cuda-core="stream=maybe" 2>&1 | FileCheck %s --check-prefix=BAD
// The instruction families of --stencil-check-target: a list of words of a
// fixed set, printed as given, parsed back, an unknown word refused.
// RUN: stencil-opt %s --pass-pipeline="builtin.module(stencil-check-target{instructions=fma,cp.async pipeline=--mine})" --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=FAMILIES
// RUN: stencil-opt %s --pass-pipeline="builtin.module(stencil-check-target{instructions=})" --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: not stencil-opt %s --pass-pipeline="builtin.module(stencil-check-target{instructions=fma,mma.spx})" 2>&1 | FileCheck %s --check-prefix=BAD-FAMILY

// SPTC: stencil-check-target{{{.*}}instructions=mma.sp,mma.sp.ordered,cp.async {{.*}}}
// SPTC: stencil-flatten{{{.*}} route=matching}
// SPTC: stencil-sptc-tile{async-copy=off {{.*}}mma=warp {{.*}}}
// SPTC: convert-stencil-to-sptc{f64-shape=m8n8k4 {{.*}}}
// CUDA: stencil-check-target{{{.*}}instructions=fma {{.*}}pipeline=--lower-to-cuda-core}
// CUDA: convert-stencil-to-cuda-core{{{.*}} stream=on {{.*}}}
// CUDA: convert-stencil-to-fft{f64-shape=m16n8k4 {{.*}}}
// PARSED: stencil-sptc-tile{async-copy=on {{.*}}mma=warpgroup {{.*}}}
// PARSED: stencil-low-rank{{{.*}}method=svd {{.*}}}
// PARSED: stencil-flatten{{{.*}}layouts=h {{.*}}route=matching}
// PARSED: stencil-select-pipeline{{{.*}}explain=all {{.*}}}
// BAD: for the --stream option: Cannot find option named 'maybe'!
// FAMILIES: stencil-check-target{{{.*}}instructions=fma,cp.async {{.*}}pipeline=--mine}
// NONE: stencil-check-target{{{.*}}instructions= {{.*}}}
// BAD-FAMILY: for the --instructions option: unknown instructions 'mma.spx' (fma, cp.async, mma, mma.sp, mma.sp.ordered, wgmma)
module {}
