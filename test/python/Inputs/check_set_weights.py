"""New weights through the Python module without a GPU (set-weights.test):
argv = a kernel with a repacking recipe, one without."""
import math
import sys

import stencil_runtime as sr

k = sr.Kernel(sys.argv[1])
print("points:", len(k.offsets), k.offsets[0], k.offsets[-1])
w = list(k.weights)
print("weights:", len(w), all(isinstance(x, float) for x in w))
new = [0.5 * (i + 1) * (-1) ** i for i in range(len(w))]
k.set_weights(new)
print("read back:", list(k.weights) == new)
for bad, what in ((new[:-1], "short"), (new[:-1] + [math.inf], "inf"),
                  ([1e300] * len(new), "f16 overflow"),
                  ([70000.0] + new[1:], "above f16's largest")):
    try:
        k.set_weights(bad)
        print(what, "accepted")
    except ValueError as e:
        assert isinstance(e, sr.StencilError)
        print(what, "refused:", e)
try:
    k.set_weights(["x"] * len(new))
except TypeError as e:
    print("strings refused:", e)
print("unchanged:", list(k.weights) == new)
fused = sr.Kernel(sys.argv[2])
try:
    fused.set_weights(list(fused.weights))
    print("fused accepted")
except sr.StencilError as e:
    print("fused refused:", e)
print("OK")
