# An H100 whose f64 Tensor Cores are 1000x slower: the model must leave f64
# stencils to the CUDA cores (lower-to-auto.mlir).
version = 1
name = slow f64 Tensor Cores
chip = sm_90
bandwidth_gbs = 3016
peak.mma.sp.f16 = 949
peak.mma.f16 = 647
peak.mma.f64 = 0.033
peak.mma.f64.m16n8k4 = 0.066
peak.fma.f32 = 68
peak.fma.f64 = 31.8
