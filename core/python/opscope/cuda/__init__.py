"""``opscope.cuda``: torch.cuda's namespace.

In a build with the CUDA backend (``-DOPSCOPE_CUDA=ON``, core/cuda/) it is the real thing: devices,
streams, events, the caching allocator's statistics, seeding; CUDA initialises lazily, on the
first call that needs a GPU (``_lazy_init()`` below, which the C++ binding also calls whenever an
op is given a CUDA device — torch's lazy initialisation, a C++ → Python call: see
core/python/objects.cpp, ``initialize_device``). On a machine without a GPU or driver that first
call fails as torch's does (``RuntimeError: Found no NVIDIA driver on your system. ...`` or
``RuntimeError: No CUDA GPUs are available``).

In a build without the backend it behaves as torch 1.13 built without CUDA does, so that the
first lines of a tutorial run unchanged:

>>> import opscope as torch
>>> device = "cuda" if torch.cuda.is_available() else "cpu"
>>> device, torch.cuda.device_count()   # doctest: +SKIP (a CPU-only build or machine)
('cpu', 0)

Questions about the machine answer "nothing here" (is_available() is False, device_count() is 0,
the memory counters are 0, seeding is a no-op that a later initialisation would apply); anything
that needs a GPU initialises CUDA first and fails as torch does:

>>> torch.zeros(2, device="cuda")       # doctest: +SKIP (a build without CUDA)
Traceback (most recent call last):
  ...
AssertionError: Torch not compiled with CUDA enabled

The messages are torch's word for word: code and tests that catch them by their text keep
working.
"""

import threading
from collections import OrderedDict

import opscope
from opscope import _C
from opscope.cuda import amp  # noqa: F401  (torch.cuda.amp.GradScaler / autocast)

__all__ = [
    "is_available", "device_count", "is_initialized", "init", "current_device", "set_device",
    "get_device_name", "get_device_capability", "get_device_properties", "synchronize",
    "device", "device_of", "Stream", "Event", "stream", "current_stream", "default_stream",
    "set_stream", "StreamContext", "manual_seed", "manual_seed_all", "seed", "seed_all",
    "initial_seed", "get_rng_state", "set_rng_state", "get_rng_state_all", "set_rng_state_all",
    "memory_allocated", "max_memory_allocated", "memory_reserved", "max_memory_reserved",
    "memory_cached", "max_memory_cached", "memory_stats", "memory_summary", "empty_cache",
    "reset_peak_memory_stats", "reset_max_memory_allocated", "mem_get_info",
    "is_bf16_supported", "get_arch_list", "get_gencode_flags", "OutOfMemoryError",
    "ExternalStream", "memory_snapshot", "reset_accumulated_memory_stats",
]

_NOT_COMPILED = "Torch not compiled with CUDA enabled"

has_half = False
has_magma = False
default_generators = ()

_initialized = False
_initialization_lock = threading.Lock()
_queued_calls = []  # (callable, traceback string): seeding asked for before initialisation


class OutOfMemoryError(RuntimeError):
    """The caching allocator could not find device memory, even after freeing its cache."""


class CudaError(RuntimeError):
    def __init__(self, code):
        super().__init__(f"CUDA error {code}")


class DeferredCudaCallError(Exception):
    """A call queued before initialisation (manual_seed ...) failed when initialisation ran it."""


def _is_compiled():
    """True when this build has the CUDA backend (core/cuda/, which registers these functions)."""
    return hasattr(_C, "_cuda_getDeviceCount")


def is_available():
    """True when a CUDA GPU can be used: the backend is built and a device is visible."""
    return _is_compiled() and _C._cuda_getDeviceCount() > 0


def device_count():
    """Number of visible CUDA devices (0 without the backend or a driver)."""
    return _C._cuda_getDeviceCount() if _is_compiled() else 0


def is_initialized():
    return _initialized


def _lazy_init():
    """Initialises CUDA on first use, as torch does. Without the backend: torch's AssertionError.
    Called from C++ (core/python/objects.cpp, initialize_device) when an op gets a CUDA device."""
    global _initialized
    if _initialized:
        return
    with _initialization_lock:
        if _initialized:
            return
        if not _is_compiled():
            raise AssertionError(_NOT_COMPILED)
        _C._cuda_init()
        _initialized = True
        for call, origin in _queued_calls:
            try:
                call()
            except Exception as e:
                raise DeferredCudaCallError(
                    f"CUDA call failed lazily at initialization with error: {e}\n\n"
                    f"CUDA call was originally invoked at:\n\n{origin}") from e
        _queued_calls.clear()


def init():
    """Initialises CUDA now rather than at first use."""
    _lazy_init()


def _lazy_call(call):
    if _initialized:
        call()
    else:
        import traceback
        _queued_calls.append((call, "".join(traceback.format_stack())))


def _get_device_index(d, optional=False):
    """The index of a device given as an int, a 'cuda:N' string or an opscope.device; -1 (the
    current device) where none is named and `optional` allows it."""
    if isinstance(d, str):
        d = opscope.device(d)
    if isinstance(d, opscope.device):
        if d.type != "cuda":
            raise ValueError(f"Expected a cuda device, but got: {d}")
        d = d.index
    if d is None:
        if not optional:
            raise ValueError(f"Expected a cuda device with a specified index or an integer, but got:{d}")
        return -1
    return int(d)


# --- the device ---------------------------------------------------------------------------------
def current_device():
    _lazy_init()
    return _C._cuda_getDevice()


def set_device(device):
    index = _get_device_index(device, optional=True)
    if index >= 0:
        _lazy_init()
        _C._cuda_setDevice(index)


def get_device_name(device=None):
    return get_device_properties(device).name


def get_device_capability(device=None):
    props = get_device_properties(device)
    return props.major, props.minor


def get_device_properties(device=None):
    _lazy_init()
    index = _get_device_index(device, optional=True)
    return _C._cuda_getDeviceProperties(current_device() if index < 0 else index)


def synchronize(device=None):
    """Waits for all work on `device` (the current one when None)."""
    _lazy_init()
    with opscope.cuda.device(device):
        _C._cuda_synchronize()


def is_bf16_supported():
    _lazy_init()
    return get_device_capability()[0] >= 8


def mem_get_info(device=None):
    _lazy_init()
    return _C._cuda_memGetInfo(_get_device_index(device, optional=True))


def get_arch_list():
    return list(_C._cuda_getArchFlags().split()) if is_available() else []


def get_gencode_flags():
    return " ".join(f"-gencode compute=compute_{a.split('_')[1]},code={a}"
                    for a in get_arch_list())


class device:
    """Context manager that makes `device` the current CUDA device (None or a negative index:
    no change)."""

    def __init__(self, device):
        self.idx = _get_device_index(device, optional=True)
        self.prev_idx = -1

    def __enter__(self):
        if self.idx == -1:
            return
        self.prev_idx = current_device()
        if self.prev_idx != self.idx:
            set_device(self.idx)

    def __exit__(self, *exc):
        if self.prev_idx != self.idx and self.idx != -1:
            set_device(self.prev_idx)
        return False


class device_of(device):
    """device() of a tensor's device: no change for a CPU tensor."""

    def __init__(self, obj):
        super().__init__(obj.get_device() if obj.is_cuda else -1)


# --- streams and events ---------------------------------------------------------------------------
class Stream:
    """A CUDA stream (a queue of work on one device): torch.cuda.Stream. New streams come from a
    pool per device (core/cuda/CUDAStream.h); priority 0 is the low one, -1 the high one."""

    def __init__(self, device=None, priority=0, **kwargs):
        _lazy_init()
        if "_cdata" in kwargs:
            self._cdata = kwargs["_cdata"]
            return
        with opscope.cuda.device(device):
            self._cdata = _C._CudaStream(-1, priority)

    @property
    def device(self):
        return opscope.device("cuda", self._cdata.device_index)

    @property
    def cuda_stream(self):
        return self._cdata.cuda_stream

    @property
    def priority(self):
        return self._cdata.priority

    def query(self):
        """True when all work queued on the stream is done."""
        return self._cdata.query()

    def synchronize(self):
        """Waits until all work queued on the stream is done."""
        self._cdata.synchronize()

    def wait_event(self, event):
        """Work queued on this stream after this call waits for `event`."""
        event.wait(self)

    def wait_stream(self, stream):
        """Work queued on this stream after this call waits for the work queued on `stream` so far."""
        self.wait_event(stream.record_event())

    def record_event(self, event=None):
        """Records `event` (a new one when None) on this stream and returns it."""
        if event is None:
            event = Event()
        event.record(self)
        return event

    def __eq__(self, other):
        return isinstance(other, Stream) and self._cdata == other._cdata

    def __hash__(self):
        return hash((self.cuda_stream, self._cdata.device_index))

    def __repr__(self):
        return f"<torch.cuda.Stream device={self.device} cuda_stream={self.cuda_stream:#x}>"


class ExternalStream(Stream):
    """A stream created elsewhere (a cudaStream_t as an int): torch.cuda.ExternalStream."""

    def __init__(self, stream_ptr, device=None, **kwargs):
        _lazy_init()
        with opscope.cuda.device(device):
            self._cdata = _C._cuda_externalStream(int(stream_ptr), -1)


class Event:
    """A CUDA event (a marker in a stream, for synchronisation and timing): torch.cuda.Event.
    Created on the device of the stream that first records it."""

    def __init__(self, enable_timing=False, blocking=False, interprocess=False):
        _lazy_init()
        self._cdata = _C._CudaEvent(enable_timing, blocking, interprocess)

    def record(self, stream=None):
        """Records the event on `stream` (the current stream when None)."""
        self._cdata.record((stream or current_stream())._cdata)

    def wait(self, stream=None):
        """Makes `stream` (the current one when None) wait for the event, without blocking the host."""
        self._cdata.wait((stream or current_stream())._cdata)

    def query(self):
        """True when the work recorded before the event is done (an unrecorded event is)."""
        return self._cdata.query()

    def synchronize(self):
        """Waits on the host for the work recorded before the event."""
        self._cdata.synchronize()

    def elapsed_time(self, end_event):
        """Milliseconds between this event and `end_event` (both recorded, with timing)."""
        return self._cdata.elapsed_time(end_event._cdata)

    @property
    def cuda_event(self):
        return self._cdata.cuda_event

    def __repr__(self):
        if self._cdata.was_recorded:
            return f"<torch.cuda.Event {self.cuda_event:#x}>"
        return "<torch.cuda.Event uninitialized>"


def current_stream(device=None):
    """The calling thread's current stream on `device` (the current device when None)."""
    _lazy_init()
    return Stream(_cdata=_C._cuda_getCurrentStream(_get_device_index(device, optional=True)))


def default_stream(device=None):
    """The default (NULL) stream of `device`."""
    _lazy_init()
    return Stream(_cdata=_C._cuda_getDefaultStream(_get_device_index(device, optional=True)))


def set_stream(stream):
    if stream is not None:
        _lazy_init()
        _C._cuda_setStream(stream._cdata)


class StreamContext:
    """Context manager that makes `stream` current (None: no change)."""

    def __init__(self, stream):
        self.stream = stream
        self.prev = None

    def __enter__(self):
        if self.stream is None:
            return
        self.prev = current_stream()
        set_stream(self.stream)

    def __exit__(self, *exc):
        if self.stream is not None:
            set_stream(self.prev)
        return False


def stream(stream):
    return StreamContext(stream)


# --- random numbers: before initialisation, seeding is remembered and applied at it --------------
def manual_seed(seed):
    seed = int(seed)
    _lazy_call(lambda: _C._cuda_manualSeed(seed, False))


def manual_seed_all(seed):
    seed = int(seed)
    _lazy_call(lambda: _C._cuda_manualSeed(seed, True))


def seed():
    _lazy_call(lambda: _C._cuda_seed(False))


def seed_all():
    _lazy_call(lambda: _C._cuda_seed(True))


def initial_seed():
    _lazy_init()
    return _C._cuda_initialSeed()


def get_rng_state(device="cuda"):
    """The generator state of `device` as a uint8 tensor (16 bytes: seed, offset)."""
    _lazy_init()
    state = _C._cuda_getRngState(_get_device_index(device, optional=True))
    return opscope.tensor(list(state), dtype=opscope.uint8)


def get_rng_state_all():
    return [get_rng_state(i) for i in range(device_count())]


def set_rng_state(new_state, device="cuda"):
    state = bytes(new_state.clone().cpu().tolist()) if isinstance(new_state, opscope.Tensor) \
        else bytes(new_state)
    index = _get_device_index(device, optional=True)
    _lazy_call(lambda: _C._cuda_setRngState(state, index))


def set_rng_state_all(new_states):
    for i, state in enumerate(new_states):
        set_rng_state(state, i)


# --- memory: all zero before initialisation (nothing was allocated), as torch answers ---------------
def memory_stats(device=None):
    if not is_initialized():
        return OrderedDict()
    return OrderedDict(sorted(_C._cuda_memoryStats(_get_device_index(device, optional=True)).items()))


def _stat(name, device):
    return memory_stats(device).get(name, 0)


def memory_allocated(device=None):
    return _stat("allocated_bytes.all.current", device)


def max_memory_allocated(device=None):
    return _stat("allocated_bytes.all.peak", device)


def memory_reserved(device=None):
    return _stat("reserved_bytes.all.current", device)


def max_memory_reserved(device=None):
    return _stat("reserved_bytes.all.peak", device)


memory_cached = memory_reserved          # torch's deprecated names
max_memory_cached = max_memory_reserved


def empty_cache():
    if is_initialized():
        _C._cuda_emptyCache()


def reset_peak_memory_stats(device=None):
    _lazy_init()
    _C._cuda_resetPeakMemoryStats(_get_device_index(device, optional=True))


reset_max_memory_allocated = reset_peak_memory_stats


def reset_accumulated_memory_stats(device=None):
    _lazy_init()
    _C._cuda_resetAccumulatedMemoryStats(_get_device_index(device, optional=True))


def memory_snapshot():
    """The caching allocator's segments and their blocks, of every device in use."""
    if not is_initialized():
        return []
    return [seg for d in range(device_count()) for seg in _C._cuda_memorySnapshot(d)]


def _format_size(n):
    for unit in ("B", "KB", "MB", "GB", "TB"):
        if abs(n) < 1024 or unit == "TB":
            return f"{n:6d} {unit}" if unit == "B" else f"{n:6.0f} {unit}"
        n /= 1024


def _format_count(n):
    for unit in ("", "K", "M"):
        if abs(n) < 1000 or unit == "M":
            return f"{n:7d} {unit}" if unit == "" else f"{n:6.0f} {unit}"
        n /= 1000


def memory_summary(device=None, abbreviated=False):
    """A table of the caching allocator's statistics for `device`, laid out as torch's: current,
    peak, total allocated and total freed, for all blocks and per pool."""
    _lazy_init()
    index = _get_device_index(device, optional=True)
    stats = memory_stats(index if index >= 0 else None)
    rows = [("allocated_bytes", "Allocated memory", _format_size),
            ("active_bytes", "Active memory", _format_size),
            ("requested_bytes", "Requested memory", _format_size),
            ("reserved_bytes", "GPU reserved memory", _format_size),
            ("inactive_split_bytes", "Non-releasable memory", _format_size),
            ("allocation", "Allocations", _format_count),
            ("active", "Active allocs", _format_count),
            ("segment", "GPU reserved segments", _format_count),
            ("inactive_split", "Non-releasable allocs", _format_count)]
    pools = [("all", "")] if abbreviated else [("all", ""), ("large_pool", "      from large pool"),
                                               ("small_pool", "      from small pool")]
    line = "=" * 75
    out = [line, f" {'PyTorch CUDA memory summary, device ID ' + str(current_device() if index < 0 else index):^73} ",
           "-" * 75,
           f"            CUDA OOMs: {stats.get('num_ooms', 0):<13d}|        cudaMalloc retries: "
           f"{stats.get('num_alloc_retries', 0):<10d}", line,
           "        Metric         | Cur Usage  | Peak Usage | Tot Alloc  | Tot Freed  ", "-" * 75]
    for key, title, fmt in rows:
        for pool, label in pools:
            prefix = f"{key}.{pool}."
            vals = [fmt(stats.get(prefix + k, 0)) for k in ("current", "peak", "allocated", "freed")]
            out.append(f"{(label or title):<23}| " + " | ".join(vals) + " ")
        out.append("-" * 75)
    out[-1] = line
    return "|" + "|\n|".join(out) + "|\n"


# --- torch.cuda.FloatTensor and friends: legacy constructors of CUDA tensors ----------------------
from opscope import _legacy_tensor  # noqa: E402  (the CPU types' metaclass and constructor)


class _CudaTensorType(_legacy_tensor.tensortype):
    """The type of torch.cuda.FloatTensor and its kin: calling one makes a CUDA tensor of its
    dtype on the current device (``device=`` another GPU) from what the CPU constructor takes —
    sizes (uninitialised), data, or a CUDA tensor of its dtype (an alias); isinstance asks for a
    CUDA tensor of that dtype. Without the backend or a GPU: torch's errors."""

    def __call__(cls, *args, **kwargs):
        if not _is_compiled():
            raise TypeError(f"type torch.cuda.{cls.__name__} not available. {_NOT_COMPILED}.")
        _lazy_init()
        kwargs = dict(kwargs)
        device = kwargs.pop("device", None)
        device = opscope.device("cuda", current_device()) if device is None else \
            opscope.device("cuda", device) if isinstance(device, int) else opscope.device(device)
        if device.type != "cuda":
            raise RuntimeError("legacy constructor expects device type: cuda but device type: "
                               f"{device.type} was passed")
        if len(args) == 1 and isinstance(args[0], opscope.Tensor) and not kwargs:
            t = args[0]
            if t.dtype != cls.dtype or not t.is_cuda:
                raise TypeError(f"expected {cls.__name__} on cuda (got {t.type()})")
            return opscope.ops.aten.alias(t)
        sizes = args[0] if len(args) == 1 and isinstance(args[0], opscope.Size) else args
        if sizes and not kwargs and all(isinstance(a, int) and not isinstance(a, bool)
                                        for a in sizes):
            return opscope.empty(tuple(sizes), dtype=cls.dtype, device=device)
        # Data (or nothing, or bad arguments: the CPU constructor's errors), then to the GPU.
        return _legacy_tensor.legacy_new(cls.dtype, args, kwargs, typed=True).to(device)

    def __instancecheck__(cls, obj):
        return isinstance(obj, opscope.Tensor) and obj.dtype == cls.dtype and obj.is_cuda

    def __repr__(cls):
        return f"<class 'torch.cuda.{cls.__name__}'>"


for _dtype_name, _name in _legacy_tensor._TYPE_NAMES.items():
    globals()[_name] = _CudaTensorType(
        _name, (), {"dtype": getattr(opscope, _dtype_name), "is_cuda": True,
                    "is_sparse": False, "__module__": "opscope.cuda",
                    "__doc__": f"Constructor of CUDA {_dtype_name} tensors (torch.cuda.{_name})."})
del _dtype_name, _name
