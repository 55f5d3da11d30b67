"""Run kernels compiled by the stencil compiler on GPU arrays from Python.

A thin ctypes layer over libStencilRuntime's C API (docs/Runtime.md): no
extension to build, so it works with any Python 3 and any array library
whose GPU arrays expose ``__cuda_array_interface__`` (PyTorch, CuPy, Numba)
or DLPack (``__dlpack__``: PyTorch, CuPy, JAX)::

    import torch, stencil_runtime as sr
    heat = sr.Kernel("heat-2d.launch")          # or sr.compile("heat-2d.mlir")
    u = torch.rand(4096, 4096, device="cuda", dtype=torch.float16)
    v = u.clone()
    u = heat.run(u, v, steps=100)                # on the current stream

The library is found through ``STENCIL_RUNTIME_LIBRARY`` (a path), then
next to this package as installed (``<prefix>/lib``), then on the loader's
path. Errors are ``StencilError`` (with the C API's status name), which is
also a ``ValueError`` for arguments the kernel cannot take (steps, grids,
descriptions, weights) and a ``FileNotFoundError`` for a file that cannot
be read, or a plain ``TypeError``/``ValueError`` for arrays and numbers
refused before any C call.
"""

import ctypes
import ctypes.util
import numbers
import os
import re
import shutil
import subprocess
import tempfile

__all__ = ["Kernel", "Multi", "StencilError", "StencilFileError",
           "StencilValueError", "compile", "library_path"]

_STATUS = [
    "STENCIL_SUCCESS", "STENCIL_ERROR_INVALID_ARGUMENT", "STENCIL_ERROR_IO",
    "STENCIL_ERROR_INVALID_DESCRIPTION", "STENCIL_ERROR_RANK_MISMATCH",
    "STENCIL_ERROR_GRID_TOO_SMALL", "STENCIL_ERROR_GRID_TOO_LARGE",
    "STENCIL_ERROR_STEPS", "STENCIL_ERROR_CONTEXT", "STENCIL_ERROR_CUDA",
    "STENCIL_ERROR_UNSUPPORTED",
]
# stencil_element_type -> (numpy type string, DLPack (code, bits), bytes)
_TYPES = {0: ("<f2", (2, 16), 2), 1: ("bfloat16", (4, 16), 2),
          2: ("<f4", (2, 32), 4), 3: ("<f8", (2, 64), 8)}
_OUT_INITIALIZED = 1


class StencilError(RuntimeError):
    """A failed call of the C API: ``status`` is its stencil_status name.
    Raised as one of its subclasses below where a Python exception type
    says more (``except StencilError`` catches them all)."""

    def __init__(self, status, message):
        self.status = status
        super().__init__("%s: %s" % (status, message))


class StencilValueError(StencilError, ValueError):
    """An argument or a launch description the kernel cannot take (a bad
    description, steps that are not whole launches, a grid of the wrong
    rank or size, weights of the wrong count or out of range)."""


class StencilFileError(StencilError, FileNotFoundError):
    """A file that cannot be read or loaded: a launch description, its PTX,
    the library, the stencil source or the compiler's tools."""


# Statuses raised as StencilValueError / StencilFileError.
_VALUE_STATUSES = {"STENCIL_ERROR_INVALID_ARGUMENT",
                   "STENCIL_ERROR_INVALID_DESCRIPTION",
                   "STENCIL_ERROR_RANK_MISMATCH",
                   "STENCIL_ERROR_GRID_TOO_SMALL",
                   "STENCIL_ERROR_GRID_TOO_LARGE", "STENCIL_ERROR_STEPS"}
_FILE_STATUSES = {"STENCIL_ERROR_IO"}


def _error(status, message):
    """The StencilError (subclass) for a status name."""
    if status in _VALUE_STATUSES:
        return StencilValueError(status, message)
    if status in _FILE_STATUSES:
        return StencilFileError(status, message)
    return StencilError(status, message)


_INT64_MAX = 2**63 - 1
_UINT64_MAX = 2**64 - 1


def _integer(value, what, low, high):
    """``value`` as a Python int within [low, high], checked before ctypes
    would wrap it (2**64 - 1 becomes -1 as an int64): TypeError for a
    non-integer (bools and floats included), ValueError outside the
    range."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError("%s must be an integer, not %s"
                        % (what, type(value).__name__))
    value = int(value)
    if not low <= value <= high:
        raise ValueError("%s = %d is outside %d .. %d" % (what, value, low,
                                                          high))
    return value


_lib = None


def library_path():
    """The libStencilRuntime this module loads."""
    env = os.environ.get("STENCIL_RUNTIME_LIBRARY")
    if env:
        return env
    here = os.path.dirname(os.path.abspath(__file__))
    installed = os.path.join(here, "..", "..", "libStencilRuntime.so")
    if os.path.exists(installed):
        return os.path.normpath(installed)
    found = ctypes.util.find_library("StencilRuntime")
    if found:
        return found
    raise StencilFileError("STENCIL_ERROR_IO",
                           "libStencilRuntime.so not found: set "
                           "STENCIL_RUNTIME_LIBRARY to its path")


def _load_library(path, variable):
    """ctypes.CDLL(path), its OSError as a StencilFileError that names the
    path and how to choose another (``variable``)."""
    if os.sep in path and not os.path.exists(path):
        raise StencilFileError("STENCIL_ERROR_IO",
                               "%s does not exist (set %s to the library's "
                               "path)" % (path, variable))
    try:
        return ctypes.CDLL(path)
    except OSError as e:
        raise StencilFileError("STENCIL_ERROR_IO",
                               "cannot load %s: %s (set %s to the library's "
                               "path)" % (path, e, variable)) from None


def _library():
    global _lib
    if _lib is not None:
        return _lib
    lib = _load_library(library_path(), "STENCIL_RUNTIME_LIBRARY")
    c_kernel = ctypes.c_void_p
    sig = {
        "stencil_last_error": (ctypes.c_char_p, []),
        "stencil_kernel_load_file": (ctypes.c_int, [ctypes.c_char_p,
                                                    ctypes.POINTER(c_kernel)]),
        "stencil_kernel_load_memory": (ctypes.c_int, [
            ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p,
            ctypes.c_size_t, ctypes.c_char_p, ctypes.POINTER(c_kernel)]),
        "stencil_kernel_destroy": (None, [c_kernel]),
        "stencil_kernel_name": (ctypes.c_char_p, [c_kernel]),
        "stencil_kernel_rank": (ctypes.c_int, [c_kernel]),
        "stencil_kernel_element_type": (ctypes.c_int, [c_kernel]),
        "stencil_kernel_radius": (ctypes.c_int64, [c_kernel, ctypes.c_int]),
        "stencil_kernel_steps_per_launch": (ctypes.c_int, [c_kernel]),
        "stencil_kernel_tail_steps": (ctypes.c_int, [c_kernel]),
        "stencil_kernel_boundary": (ctypes.c_int, [c_kernel]),
        "stencil_kernel_num_points": (ctypes.c_int64, [c_kernel]),
        "stencil_kernel_point": (ctypes.c_int, [
            c_kernel, ctypes.c_int64, ctypes.POINTER(ctypes.c_int64)]),
        "stencil_kernel_weights": (ctypes.c_int, [
            c_kernel, ctypes.POINTER(ctypes.c_double)]),
        "stencil_kernel_set_weights": (ctypes.c_int, [
            c_kernel, ctypes.POINTER(ctypes.c_double), ctypes.c_int64,
            ctypes.c_void_p]),
        "stencil_kernel_run": (ctypes.c_int, [
            c_kernel, ctypes.c_uint64, ctypes.c_uint64,
            ctypes.POINTER(ctypes.c_int64), ctypes.c_int, ctypes.c_int64,
            ctypes.c_void_p, ctypes.c_uint, ctypes.POINTER(ctypes.c_uint64)]),
    }
    _lib = _bind(lib, sig)
    return lib


def _bind(lib, signatures):
    """Sets the result and argument types of each C function named."""
    for name, (res, args) in signatures.items():
        try:
            fn = getattr(lib, name)
        except AttributeError:
            raise StencilFileError(
                "STENCIL_ERROR_IO",
                "%s has no function %s: it is not the library of this module "
                "(set STENCIL_RUNTIME_LIBRARY)" % (lib._name, name)) from None
        fn.restype, fn.argtypes = res, args
    return lib


def _raise_on(status, last_error):
    """Raises StencilError for a failed status, with last_error()'s text."""
    if status != 0:
        name = _STATUS[status] if 0 <= status < len(_STATUS) else str(status)
        raise _error(name, last_error().decode(errors="replace"))


def _check(status):
    _raise_on(status, lambda: _library().stencil_last_error())


# DLPack (dlpack.h, v0.8): DLManagedTensor { DLTensor; manager; deleter }.
class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8),
                ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", _DLDevice),
                ("ndim", ctypes.c_int32), ("dtype", _DLDataType),
                ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("byte_offset", ctypes.c_uint64)]


_kDLCUDA = 2


def _check_dense(shape, strides, unit, what):
    """Raises unless ``strides`` (in units of ``unit``) are those of a dense
    row-major array of ``shape`` (a dimension of size 1 may have any)."""
    expected = unit
    for n, stride in zip(reversed(shape), reversed(strides)):
        if n != 1 and stride != expected:
            raise ValueError("%s is not a dense row-major (C-contiguous) "
                             "array; make it contiguous first" % what)
        expected *= n


def _describe(array, what):
    """(device pointer, shape, type) of a GPU array: type is the numpy
    type string of __cuda_array_interface__ or a DLPack (code, bits)."""
    cai = getattr(array, "__cuda_array_interface__", None)
    if cai is not None:
        shape = tuple(int(n) for n in cai["shape"])
        strides = cai.get("strides")
        if strides is not None:  # in bytes
            _check_dense(shape, strides, int(cai["typestr"][2:]), what)
        return int(cai["data"][0]), shape, cai["typestr"]
    if hasattr(array, "__dlpack__"):
        capsule = array.__dlpack__()
        get = ctypes.pythonapi.PyCapsule_GetPointer
        get.restype, get.argtypes = ctypes.c_void_p, [ctypes.py_object,
                                                      ctypes.c_char_p]
        tensor = _DLTensor.from_address(get(capsule, b"dltensor"))
        if tensor.device.device_type != _kDLCUDA:
            raise ValueError("%s is not on a CUDA device" % what)
        shape = tuple(tensor.shape[i] for i in range(tensor.ndim))
        if tensor.strides:  # in elements
            _check_dense(shape, [tensor.strides[i] for i in range(tensor.ndim)],
                         1, what)
        return (tensor.data + tensor.byte_offset, shape,
                (tensor.dtype.code, tensor.dtype.bits))
    raise TypeError("%s exposes neither __cuda_array_interface__ nor "
                    "__dlpack__ (a PyTorch, CuPy or JAX GPU array)" % what)


def _stream_handle(stream):
    if stream is None:
        return None
    for attr in ("cuda_stream", "ptr", "handle"):  # torch, cupy, others
        if hasattr(stream, attr):
            return _integer(getattr(stream, attr), "the stream's handle", 0,
                            _UINT64_MAX) or None
    return _integer(stream, "stream", 0, _UINT64_MAX) or None


class Kernel:
    """A compiled stencil kernel: a launch description and its PTX."""

    def __init__(self, launch=None, *, description=None, ptx=None,
                 name="<memory>"):
        lib = _library()
        handle = ctypes.c_void_p()
        if launch is not None:
            if not isinstance(launch, (str, bytes, os.PathLike)):
                raise TypeError("Kernel(launch): a path, not %s"
                                % type(launch).__name__)
            path = os.fsencode(launch)
            if b"\0" in path:
                raise ValueError("Kernel(launch): the path holds a NUL")
            if not os.path.isfile(path):
                raise StencilFileError(
                    "STENCIL_ERROR_IO", "no launch description '%s'"
                    % os.fsdecode(path))
            _check(lib.stencil_kernel_load_file(path, ctypes.byref(handle)))
        else:
            if description is None or ptx is None:
                raise TypeError("Kernel(launch) or Kernel(description=..., "
                                "ptx=...)")
            d = description.encode() if isinstance(description, str) else description
            p = ptx.encode() if isinstance(ptx, str) else ptx
            if not isinstance(d, bytes) or not isinstance(p, bytes):
                raise TypeError("Kernel(description=..., ptx=...): str or "
                                "bytes")
            if not isinstance(name, str):
                raise TypeError("Kernel(name=...): a str")
            _check(lib.stencil_kernel_load_memory(d, len(d), p, len(p),
                                                  name.encode(),
                                                  ctypes.byref(handle)))
        self._handle = handle
        self.name = lib.stencil_kernel_name(handle).decode()
        self.rank = lib.stencil_kernel_rank(handle)
        self.radius = tuple(lib.stencil_kernel_radius(handle, d)
                            for d in range(self.rank))
        self.steps_per_launch = lib.stencil_kernel_steps_per_launch(handle)
        # Steps per launch of the tail kernel, which makes any number of
        # steps runnable; 0 without one (steps must then be a multiple of
        # steps_per_launch).
        self.tail_steps = lib.stencil_kernel_tail_steps(handle)
        self.boundary = ("halo", "periodic", "dirichlet")[
            lib.stencil_kernel_boundary(handle)]
        self._type = _TYPES[lib.stencil_kernel_element_type(handle)]
        self.dtype = {"<f2": "float16", "<f4": "float32", "<f8": "float64",
                      "bfloat16": "bfloat16"}[self._type[0]]
        # The stencil's points (offsets, outermost first); empty for a
        # general body.
        point = (ctypes.c_int64 * self.rank)()
        offsets = []
        for i in range(lib.stencil_kernel_num_points(handle)):
            _check(lib.stencil_kernel_point(handle, i, point))
            offsets.append(tuple(point))
        self.offsets = tuple(offsets)

    @property
    def weights(self):
        """The weights, one per point of ``offsets``: the compiled ones or
        the last ones set."""
        if not self.offsets:
            return ()
        values = (ctypes.c_double * len(self.offsets))()
        _check(_library().stencil_kernel_weights(self._handle, values))
        return tuple(values)

    def set_weights(self, weights, stream=None):
        """Replaces the weights (a sequence of floats, one per point of
        ``offsets``, same order) without recompiling: the runtime packs them
        as the compiler does and copies them on ``stream``, so launches
        queued there after this call use them. Raises StencilError
        (STENCIL_ERROR_UNSUPPORTED, with the reason) for a kernel that
        cannot take new weights."""
        try:
            values = [float(w) for w in weights]
        except (TypeError, ValueError) as e:
            raise TypeError("weights must be a sequence of numbers: %s" % e) \
                from None
        array = (ctypes.c_double * max(len(values), 1))(*values)
        _check(_library().stencil_kernel_set_weights(
            self._handle, array, len(values), _stream_handle(stream)))

    def __del__(self):
        if getattr(self, "_handle", None) and _lib is not None:
            _lib.stencil_kernel_destroy(self._handle)
            self._handle = None

    def __repr__(self):
        return ("Kernel(%r, rank=%d, dtype=%s, radius=%s, steps_per_launch=%d, "
                "tail_steps=%d, boundary=%s)"
                % (self.name, self.rank, self.dtype, self.radius,
                   self.steps_per_launch, self.tail_steps, self.boundary))

    def _check_array(self, array, what):
        pointer, shape, kind = _describe(array, what)
        if kind not in (self._type[0], self._type[1]):
            raise TypeError("%s has element type %s; kernel %r computes on %s"
                            % (what, kind, self.name, self.dtype))
        return pointer, shape

    def run(self, inp, out, steps, stream=None, out_initialized=False):
        """Runs ``steps`` time steps on ``inp``, ping-ponging with ``out``
        (both overwritten; C-contiguous, the kernel's element type, the
        same shape), queued on ``stream`` (a torch/cupy stream or a CUstream
        handle; default: the default stream). Any number of steps with a
        tail kernel (``tail_steps`` > 0): floor(steps / steps_per_launch)
        fused launches, then tail launches for the steps left over. Returns
        the array that holds the result (``out`` after an odd number of
        launches of both kinds, else ``inp``). With the halo boundary
        ``out`` first gets ``inp``'s values unless ``out_initialized``."""
        steps = _integer(steps, "steps", 0, _INT64_MAX)
        pin, shape = self._check_array(inp, "the input")
        pout, shape_out = self._check_array(out, "the output")
        if shape != shape_out:
            raise ValueError("input %s and output %s differ in shape"
                             % (shape, shape_out))
        points = 1
        for n in shape:
            points *= _integer(n, "a grid size", 0, _INT64_MAX)
        nbytes = points * self._type[2]
        if pin == pout:
            raise ValueError("the input and the output are the same buffer: "
                             "the run ping-pongs between two distinct ones")
        if pin < pout + nbytes and pout < pin + nbytes:
            raise ValueError("the input (0x%x) and the output (0x%x) overlap "
                             "(%d bytes each): the run ping-pongs between "
                             "two disjoint buffers" % (pin, pout, nbytes))
        sizes = (ctypes.c_int64 * max(len(shape), 1))(*shape)
        result = ctypes.c_uint64()
        _check(_library().stencil_kernel_run(
            self._handle, pin, pout, sizes, len(shape), steps,
            _stream_handle(stream), _OUT_INITIALIZED if out_initialized else 0,
            ctypes.byref(result)))
        return out if result.value == pout else inp


_LOCATED = re.compile(r"^\S.*:\d+:\d+: (error|warning|note|remark): ")
_DUMP = re.compile(r"^(Stack dump:|PLEASE submit a bug report|"
                   r"Stack dump without symbol names|\s*#?\d+\s+0x[0-9a-fA-F]+|"
                   r"\s*\d+\.\s+Program arguments:|"
                   r"\S+\(\+0x[0-9a-fA-F]+\)\[0x[0-9a-fA-F]+\])")


def _diagnostic(stderr):
    """The compiler's located diagnostics (``file:line:col: error: ...``
    and the lines that follow each, up to the crash banner and stack dump,
    which are dropped); without one, ``stderr`` less its stack dump."""
    kept, keep = [], False
    for line in stderr.splitlines():
        if _DUMP.match(line):
            keep = False
            continue
        if _LOCATED.match(line):
            keep = True
        if keep:
            kept.append(line)
    if not kept:
        kept = [line for line in stderr.splitlines() if not _DUMP.match(line)]
    return "\n".join(kept).strip() or "no message (exit status only)"


def compile(source, pipeline="lower-to-auto", options="", workdir=None):
    """Compiles the stencil source file ``source`` (a .mlir with one
    stencil op) with the installed stencil-opt and stencil-translate (found
    on PATH or in STENCIL_BIN) through ``--<pipeline>="<options>"``, and
    loads the kernel. Raises StencilFileError (a FileNotFoundError) without
    the tools or the source, and StencilValueError (a ValueError) with the
    compiler's located diagnostic, without a stack dump, when it rejects
    the stencil."""
    if not isinstance(source, (str, bytes, os.PathLike)):
        raise TypeError("compile(source): a path, not %s"
                        % type(source).__name__)
    for what, value in (("pipeline", pipeline), ("options", options)):
        if not isinstance(value, str):
            raise TypeError("compile(%s): a str, not %s"
                            % (what, type(value).__name__))
    if not os.path.isfile(source):
        raise StencilFileError("STENCIL_ERROR_IO", "no stencil source '%s'"
                               % os.fsdecode(source))
    tools = {}
    for tool in ("stencil-opt", "stencil-translate"):
        path = shutil.which(tool, path=os.environ.get("STENCIL_BIN")) or \
            shutil.which(tool)
        if not path:
            raise StencilFileError("STENCIL_ERROR_IO",
                                   "%s not found (install the compiler, or "
                                   "set STENCIL_BIN)" % tool)
        tools[tool] = path
    with tempfile.TemporaryDirectory(dir=workdir) as tmp:
        lowered = os.path.join(tmp, "k.mlir")
        flag = "--%s=%s" % (pipeline, options) if options else "--" + pipeline
        steps = [[tools["stencil-opt"], os.fspath(source), flag, "-o", lowered],
                 [tools["stencil-translate"], "--to-ptx", lowered, "-o",
                  os.path.join(tmp, "k.ptx")],
                 [tools["stencil-translate"], "--to-launch", lowered,
                  "--ptx-file", "k.ptx", "-o", os.path.join(tmp, "k.launch")]]
        for cmd in steps:
            done = subprocess.run(cmd, capture_output=True, text=True,
                                  errors="replace")
            if done.returncode != 0:
                raise StencilValueError(
                    "STENCIL_ERROR_INVALID_DESCRIPTION",
                    "%s failed:\n%s" % (os.path.basename(cmd[0]),
                                        _diagnostic(done.stderr)))
        return Kernel(os.path.join(tmp, "k.launch"))


_multi_lib = None


def _multi_library():
    """libStencilMultiGpu, next to libStencilRuntime (built with NCCL)."""
    global _multi_lib
    if _multi_lib is not None:
        return _multi_lib
    _library()  # its symbols first (RTLD_GLOBAL is not needed: RUNPATH)
    path = os.environ.get("STENCIL_MULTI_GPU_LIBRARY") or os.path.join(
        os.path.dirname(library_path()), "libStencilMultiGpu.so")
    if not os.path.exists(path):
        raise StencilFileError("STENCIL_ERROR_IO",
                               "%s not found: libStencilMultiGpu is built "
                               "only when NCCL is found (docs/MultiGPU.md)"
                               % path)
    lib = _load_library(path, "STENCIL_MULTI_GPU_LIBRARY")
    c_multi, i64 = ctypes.c_void_p, ctypes.c_int64
    p64 = ctypes.POINTER(ctypes.c_int64)
    sig = {
        "stencil_multi_last_error": (ctypes.c_char_p, []),
        "stencil_multi_unique_id": (ctypes.c_int, [ctypes.c_void_p]),
        "stencil_multi_create": (ctypes.c_int, [
            ctypes.c_char_p, p64, ctypes.c_int, ctypes.POINTER(ctypes.c_int),
            ctypes.c_int, i64, ctypes.POINTER(c_multi)]),
        "stencil_multi_create_rank": (ctypes.c_int, [
            ctypes.c_char_p, p64, ctypes.c_int, ctypes.c_int,
            ctypes.c_void_p, ctypes.c_int, ctypes.c_int, i64,
            ctypes.POINTER(c_multi)]),
        "stencil_multi_destroy": (None, [c_multi]),
        "stencil_multi_num_ranks": (ctypes.c_int, [c_multi]),
        "stencil_multi_halo": (i64, [c_multi]),
        "stencil_multi_slab": (ctypes.c_int, [c_multi, ctypes.c_int, p64, p64,
                                              p64, p64]),
        "stencil_multi_upload": (ctypes.c_int, [c_multi, ctypes.c_void_p,
                                                i64, i64]),
        "stencil_multi_download": (ctypes.c_int, [c_multi, ctypes.c_void_p,
                                                  i64, i64]),
        "stencil_multi_run": (ctypes.c_int, [c_multi, i64, ctypes.c_uint]),
        "stencil_multi_synchronize": (ctypes.c_int, [c_multi]),
    }
    _multi_lib = _bind(lib, sig)
    return lib


def _multi_check(status):
    _raise_on(status, lambda: _multi_library().stencil_multi_last_error())


class Multi:
    """A grid split over several GPUs (libStencilMultiGpu, docs/MultiGPU.md).

    One process, several devices::

        m = Multi("heat.launch", (ny, nx), devices=[0, 1])

    One process per GPU (e.g. under MPI)::

        uid = Multi.unique_id() if rank == 0 else None
        uid = comm.bcast(uid, root=0)
        m = Multi("heat.launch", (ny, nx), device=rank, id=uid,
                  num_ranks=size, rank=rank)

    Host data are bytes-like objects (numpy arrays) of whole planes of the
    global grid in the kernel's element type.
    """

    NO_OVERLAP, COMPUTE_ONLY, EXCHANGE_ONLY = 1, 2, 4
    ID_BYTES = 128

    @staticmethod
    def unique_id():
        """A new NCCL id (bytes) for one-process-per-GPU creation."""
        buf = ctypes.create_string_buffer(Multi.ID_BYTES)
        _multi_check(_multi_library().stencil_multi_unique_id(buf))
        return buf.raw

    def __init__(self, launch, sizes, devices=None, *, device=None, id=None,
                 num_ranks=None, rank=None, alignment=0):
        if not isinstance(launch, (str, bytes, os.PathLike)):
            raise TypeError("Multi(launch): a path, not %s"
                            % type(launch).__name__)
        self.sizes = tuple(_integer(n, "a grid size", 0, _INT64_MAX)
                           for n in sizes)
        alignment = _integer(alignment, "alignment", 0, _INT64_MAX)
        lib = _multi_library()
        self._handle = ctypes.c_void_p()
        c_sizes = (ctypes.c_int64 * len(self.sizes))(*self.sizes)
        if id is None:
            devices = [_integer(d, "a device", 0, 2**31 - 1)
                       for d in (devices if devices is not None else [0])]
            c_devices = (ctypes.c_int * len(devices))(*devices)
            _multi_check(lib.stencil_multi_create(
                os.fsencode(launch), c_sizes, len(self.sizes), c_devices,
                len(devices), alignment, ctypes.byref(self._handle)))
        else:
            if len(id) != Multi.ID_BYTES:
                raise ValueError("id must be %d bytes" % Multi.ID_BYTES)
            num_ranks = _integer(num_ranks, "num_ranks", 1, 2**31 - 1)
            rank = _integer(rank, "rank", 0, num_ranks - 1)
            if device is not None:
                device = _integer(device, "device", 0, 2**31 - 1)
            c_id = ctypes.create_string_buffer(bytes(id), Multi.ID_BYTES)
            _multi_check(lib.stencil_multi_create_rank(
                os.fsencode(launch), c_sizes, len(self.sizes),
                0 if device is None else device, c_id, num_ranks, rank,
                alignment, ctypes.byref(self._handle)))

    def __del__(self):
        if getattr(self, "_handle", None):
            _multi_library().stencil_multi_destroy(self._handle)
            self._handle = None

    @property
    def num_ranks(self):
        return _multi_library().stencil_multi_num_ranks(self._handle)

    @property
    def halo(self):
        return _multi_library().stencil_multi_halo(self._handle)

    def slab(self, rank):
        """(own_begin, own_end, halo_low, halo_high) of rank ``rank``."""
        rank = _integer(rank, "rank", 0, 2**31 - 1)
        v = [ctypes.c_int64() for _ in range(4)]
        _multi_check(_multi_library().stencil_multi_slab(
            self._handle, rank, *[ctypes.byref(x) for x in v]))
        return tuple(x.value for x in v)

    def _plane_bytes(self, nbytes, planes):
        if planes <= 0 or nbytes % planes:
            raise ValueError("a buffer of %d bytes is not %d whole planes"
                             % (nbytes, planes))

    def upload(self, data, first_plane=0, planes=None):
        """Copies planes [first_plane, first_plane + planes) from ``data``
        (all of it by default: planes = its first dimension's size)."""
        view = memoryview(data).cast("B")
        if planes is None:
            planes = len(data) if hasattr(data, "__len__") else self.sizes[0]
        first_plane = _integer(first_plane, "first_plane", 0, _INT64_MAX)
        planes = _integer(planes, "planes", 0, _INT64_MAX)
        self._plane_bytes(view.nbytes, planes)
        buf = (ctypes.c_char * view.nbytes).from_buffer_copy(view)
        _multi_check(_multi_library().stencil_multi_upload(
            self._handle, buf, first_plane, planes))

    def download(self, first_plane, planes, plane_bytes):
        """Planes [first_plane, first_plane + planes) of the result that
        this process's ranks own, as a bytearray of ``plane_bytes`` each."""
        first_plane = _integer(first_plane, "first_plane", 0, _INT64_MAX)
        planes = _integer(planes, "planes", 0, _INT64_MAX)
        plane_bytes = _integer(plane_bytes, "plane_bytes", 0, _INT64_MAX)
        out = bytearray(planes * plane_bytes)
        buf = (ctypes.c_char * len(out)).from_buffer(out)
        _multi_check(_multi_library().stencil_multi_download(
            self._handle, buf, first_plane, planes))
        return out

    def run(self, steps, flags=0):
        """Queues ``steps`` steps on every rank (any number with a tail
        kernel)."""
        steps = _integer(steps, "steps", 0, _INT64_MAX)
        flags = _integer(flags, "flags", 0, 7)
        _multi_check(_multi_library().stencil_multi_run(self._handle, steps,
                                                        flags))

    def synchronize(self):
        _multi_check(_multi_library().stencil_multi_synchronize(self._handle))
