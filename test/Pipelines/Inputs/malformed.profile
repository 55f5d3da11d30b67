version = 1
bandwidth_gbs = 3000
peak.fma.f32 = fast
