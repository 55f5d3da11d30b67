"""The Python module stencil_runtime without a GPU (test/python/module.test):
it imports, loads a compiled kernel, reports what it computes, and rejects
every array it cannot take before any CUDA call; a valid run stops at the
driver or the context with a StencilError. Arrays are stand-ins exposing
__cuda_array_interface__ (PyTorch's and CuPy's protocol) or __dlpack__.

    python3 check_module.py LAUNCH STENCIL_SOURCE
"""
import ctypes
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
# Dense strides given explicitly are fine (row of 48 f16: 96 bytes).
expect(sr.StencilError, lambda: k.run(FakeArray((64, 48), strides=(96, 2)), b, 3),
       "STENCIL_ERROR_STEPS")
expect(sr.StencilError, lambda: k.run(FakeArray((64,)), FakeArray((64,), pointer=8), 2),
       "STENCIL_ERROR_RANK_MISMATCH")
expect(sr.StencilError, lambda: k.run(FakeArray((4, 48)), FakeArray((4, 48), pointer=8), 2),
       "STENCIL_ERROR_GRID_TOO_SMALL")
expect(sr.StencilError, lambda: k.run(a, a, 2), "two distinct device buffers")
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
expect(sr.StencilError, lambda: sr.Kernel("/nonexistent.launch"), "STENCIL_ERROR_IO")
expect(sr.StencilError, lambda: sr.Kernel(description="version = 9\n", ptx="x"),
       "STENCIL_ERROR_INVALID_DESCRIPTION")
# compile() through the tools on PATH.
print(sr.compile(sys.argv[2], "lower-to-cuda-core", "fused-steps=2"))
expect(sr.StencilError, lambda: sr.compile(sys.argv[2], "lower-to-sptc", "fused-steps=99"),
       "stencil-opt failed")
print("OK")
