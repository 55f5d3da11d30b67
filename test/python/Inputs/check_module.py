"""The Python module stencil_runtime without a GPU (test/python/module.test):
it imports, loads a compiled kernel, reports what it computes, and rejects
every array it cannot take before any CUDA call; a valid run stops at the
driver or the context with a StencilError. Arrays are stand-ins exposing
__cuda_array_interface__ (PyTorch's and CuPy's protocol) or __dlpack__.

    python3 check_module.py LAUNCH STENCIL_SOURCE NOTAIL_LAUNCH

NOTAIL_LAUNCH is LAUNCH without its tail kernel (as written before tails).
"""
import ctypes
import os
import subprocess
import sys

import stencil_runtime as sr


class FakeArray:
    def __init__(self, shape, typestr="<f2", pointer=0x100000, strides=None):
        self.__cuda_array_interface__ = {
            "shape": shape, "typestr": typestr, "data": (pointer, False),
            "strides": strides, "version": 3}


class FakeDLPack:
    """A stand-in exposing __dlpack__: a capsule named "dltensor" over a
    DLTensor (the first member of a DLManagedTensor)."""

    def __init__(self, shape, code=2, bits=16, device_type=2, pointer=0x300000):
        self._shape = (ctypes.c_int64 * len(shape))(*shape)
        self._tensor = sr._DLTensor(pointer, sr._DLDevice(device_type, 0),
                                    len(shape), sr._DLDataType(code, bits, 1),
                                    self._shape, None, 0)

    def __dlpack__(self, stream=None):
        new = ctypes.pythonapi.PyCapsule_New
        new.restype = ctypes.py_object
        new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
        return new(ctypes.addressof(self._tensor), b"dltensor", None)


def expect(exception, call, needle):
    try:
        call()
    except exception as e:
        assert needle in str(e), "%r lacks %r" % (str(e), needle)
        print("%s: %s" % (type(e).__name__, e))
        return
    raise AssertionError("no %s (%s)" % (exception.__name__, needle))


k = sr.Kernel(sys.argv[1])
print(k)
a, b = FakeArray((64, 48)), FakeArray((64, 48), pointer=0x200000)
expect(TypeError, lambda: k.run(object(), b, 2), "neither __cuda_array_interface__")
expect(TypeError, lambda: k.run(FakeArray((64, 48), "<f8"), b, 2), "element type <f8")
expect(ValueError, lambda: k.run(a, FakeArray((64, 47), pointer=0x200000), 2), "differ in shape")
expect(ValueError, lambda: k.run(FakeArray((64, 48), strides=(2, 128)), b, 2),
       "not a dense row-major")
# Any number of steps: the fused launches and the tail kernel's are planned
# and the run stops at the driver (dense strides given explicitly are fine:
# a row of 48 f16 is 96 bytes).
for steps in (1, 2, 3, 5, 7, 10):
    try:
        k.run(FakeArray((64, 48), strides=(96, 2)), b, steps)
        raise AssertionError("a run without a GPU succeeded")
    except sr.StencilError as e:
        assert e.status in ("STENCIL_ERROR_CUDA", "STENCIL_ERROR_CONTEXT"), e
        print("steps %d: %s" % (steps, e.status))
# Without the tail kernel, 3 steps are refused with how to get one.
notail = sr.Kernel(sys.argv[3])
assert notail.tail_steps == 0
expect(ValueError, lambda: notail.run(a, b, 3), "compile the stencil again")
expect(sr.StencilValueError, lambda: k.run(FakeArray((64,)), FakeArray((64,), pointer=8), 2),
       "STENCIL_ERROR_RANK_MISMATCH")
expect(ValueError, lambda: k.run(FakeArray((4, 48)), FakeArray((4, 48), pointer=8), 2),
       "STENCIL_ERROR_GRID_TOO_SMALL")
expect(ValueError, lambda: k.run(a, a, 2), "the same buffer")
# Overlapping but different buffers (64 x 48 f16 = 6144 bytes, 2048 apart).
expect(ValueError, lambda: k.run(a, FakeArray((64, 48), pointer=0x100800), 2),
       "overlap")
# Integers that would wrap in ctypes are refused first.
expect(ValueError, lambda: k.run(a, b, 2**64 - 1), "outside 0 ..")
expect(ValueError, lambda: k.run(a, b, -1), "outside 0 ..")
expect(TypeError, lambda: k.run(a, b, 2.0), "must be an integer")
expect(TypeError, lambda: k.run(a, b, True), "must be an integer")
expect(ValueError, lambda: k.run(a, b, 2, stream=2**64), "outside 0 ..")
try:
    k.run(a, b, 2)
    raise AssertionError("a run without a GPU succeeded")
except sr.StencilError as e:
    assert e.status in ("STENCIL_ERROR_CUDA", "STENCIL_ERROR_CONTEXT"), e
    print("valid run: %s" % e.status)
# DLPack.
expect(TypeError, lambda: k.run(FakeDLPack((64, 48), bits=64), b, 2), "element type (2, 64)")
expect(ValueError, lambda: k.run(FakeDLPack((64, 48), device_type=1), b, 2),
       "not on a CUDA device")
try:
    k.run(FakeDLPack((64, 48)), b, 2)
    raise AssertionError("a run without a GPU succeeded")
except sr.StencilError as e:
    print("valid DLPack run: %s" % e.status)
expect(FileNotFoundError, lambda: sr.Kernel("/nonexistent.launch"), "STENCIL_ERROR_IO")
expect(ValueError, lambda: sr.Kernel(description="version = 9\n", ptx="x"),
       "STENCIL_ERROR_INVALID_DESCRIPTION")
expect(TypeError, lambda: sr.Kernel(42), "a path")
# A bad library path: a clear FileNotFoundError, not a bare OSError.
for library in ("/nonexistent/libStencilRuntime.so", sys.argv[1]):
    done = subprocess.run(
        [sys.executable, "-c",
         "import stencil_runtime as sr\n"
         "try:\n"
         "    sr.Kernel('x.launch')\n"
         "except FileNotFoundError as e:\n"
         "    print('%s: %s' % (type(e).__name__, e))\n"],
        env=dict(os.environ, STENCIL_RUNTIME_LIBRARY=library),
        capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    print(done.stdout.strip())
# compile() through the tools on PATH.
print(sr.compile(sys.argv[2], "lower-to-cuda-core", "fused-steps=2"))
# A rejected stencil: the compiler's located diagnostic only.
try:
    sr.compile(sys.argv[2], "lower-to-sptc", "fused-steps=99")
    raise AssertionError("fused-steps=99 compiled")
except ValueError as e:
    print("%s: %s" % (type(e).__name__, e))
    assert "Stack dump" not in str(e) and "PLEASE submit" not in str(e), e
    print("compiler message without a stack dump")
expect(FileNotFoundError, lambda: sr.compile("/nonexistent.mlir"), "no stencil source")
print("OK")
