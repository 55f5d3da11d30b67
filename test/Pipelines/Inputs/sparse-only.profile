# A device profile with the sparse f16 unit only (lower-to-auto-invalid.mlir).
version = 1
bandwidth_gbs = 3000
peak.mma.sp.f16 = 950
