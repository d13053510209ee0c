"""``opscope.save`` / ``opscope.load`` in PyTorch's own checkpoint format, so that a file written by
PyTorch 1.13 loads here and a file written here loads in PyTorch 1.13.

>>> import io, opscope
>>> buf = io.BytesIO()
>>> x = opscope.arange(6.).reshape(2, 3)
>>> opscope.save({"x": x, "col": x[:, 1]}, buf)
>>> _ = buf.seek(0)
>>> d = opscope.load(buf)
>>> d["col"]
tensor([1., 4.])
>>> d["col"].data_ptr() == d["x"].data_ptr() + 4    # still in x's storage, one element in
True

The format, as torch 1.13 writes it (torch/serialization.py, ``_save``):

    <archive>/data.pkl    a pickle (protocol 2) of the object; each tensor in it is the call
                          torch._utils._rebuild_tensor_v2(storage, storage_offset, size, stride,
                                                          requires_grad, backward_hooks)
                          and each storage a persistent id
                          ('storage', torch.<Type>Storage, key, location, numel)
    <archive>/data/<key>  the storage's bytes, little-endian, numel * itemsize of them
    <archive>/version     b"3\\n"

<archive> is the file's name without its last extension ("archive" for a buffer). Every record is
stored (not compressed) and starts at a multiple of 64 bytes: the local header's extra field pads
with an "FB" block of "Z"s. Storages are numbered in the order the pickle first meets them and
written in the order of their keys as strings ("0", "1", "10", "2", ...).

The legacy format (``_use_new_zipfile_serialization=False``) is one stream of pickles: a magic
number, the protocol version 1001, a dict of sys info, the object (storage ids carry a sixth,
view, field), the sorted list of storage keys, then per key an int64 element count and the bytes.

opscope has no Storage objects. A storage here is the memory a tensor's data_ptr points into,
named by its first byte (``data_ptr() - storage_offset() * itemsize``); its length is the furthest
element any tensor of the saved object (or the tensor its view was taken from, ``_base``) reaches.
On load a storage becomes one flat tensor, and every tensor of it an ``as_strided`` window on that
memory, detached (no ``_base``), as torch's loaded tensors are.

Names: saving writes torch's (torch._utils._rebuild_tensor_v2, torch.FloatStorage, torch.Size,
torch.float32, torch.device, torch.nn.modules.linear.Linear for a whole model); loading maps
them back to opscope's objects and never imports torch. weights_only=True allows what torch
1.13's weights-only unpickler allows (tensors, Parameters, OrderedDict, Size, dtypes) with its
error messages, and also floats, which 1.13 refuses by an omission (torch 2.0 accepts them).
Large files get zip64 fields, and a ``byteorder`` record (later torch versions write one) is read.
"""

import collections
import ctypes
import io
import os
import pickle
import struct
import sys
import zipfile
import zlib

import opscope

__all__ = ["save", "load", "default_restore_location", "DEFAULT_PROTOCOL"]

DEFAULT_PROTOCOL = 2
LEGACY_MAGIC_NUMBER = 0x1950a86a20f9469cfc6c
LEGACY_PROTOCOL_VERSION = 1001
_ZIP_VERSION = b"3\n"
_ALIGNMENT = 64

_UNSAFE_MESSAGE = (
    "Weights only load failed. Re-running `torch.load` with `weights_only` set to `False`"
    " will likely succeed, but it can result in arbitrary code execution."
    "Do it only if you get the file from a trusted source. WeightsUnpickler error: ")


# --- torch's names for opscope's objects ---------------------------------------------------------
class _StorageType:
    """torch.<Name>Storage as it appears in a checkpoint: only a name and the dtype of its
    elements (opscope has no storage classes)."""

    def __init__(self, name, dtype):
        self.name, self.dtype = name, dtype

    def __repr__(self):
        return f"torch.{self.name}"


_STORAGE_TYPES = {
    name: _StorageType(name, getattr(opscope, dtype)) for name, dtype in [
        ("FloatStorage", "float32"), ("DoubleStorage", "float64"), ("HalfStorage", "float16"),
        ("BFloat16Storage", "bfloat16"), ("LongStorage", "int64"), ("IntStorage", "int32"),
        ("ShortStorage", "int16"), ("CharStorage", "int8"), ("ByteStorage", "uint8"),
        ("BoolStorage", "bool")]}
_STORAGE_TYPE_OF_DTYPE = {t.dtype: t for t in _STORAGE_TYPES.values()}
_DTYPES = [opscope.float32, opscope.float64, opscope.float16, opscope.bfloat16, opscope.int64,
           opscope.int32, opscope.int16, opscope.int8, opscope.uint8, opscope.bool]


class _LoadedStorage:
    """A storage read back from a checkpoint: the flat tensor that holds its elements, from
    element `offset` on (a storage view of the legacy format starts further in)."""

    def __init__(self, flat, offset=0):
        self.flat, self.offset = flat, offset

    @property
    def dtype(self):
        return self.flat.dtype

    def __repr__(self):
        return f"<storage of {self.flat.numel()} {self.flat.dtype} elements>"


def _rebuild_tensor(storage, storage_offset, size, stride):
    # as_strided counts its offset from the start of the memory, not from the flat tensor's start.
    # detach(): the same memory, but not a view of the flat tensor (no _base), as torch's tensors
    # set_() on a storage are not; in-place ops on it then record what they record in torch.
    start = storage.flat.storage_offset() + storage.offset
    return storage.flat.as_strided(tuple(size), tuple(stride), start + storage_offset).detach()


def _rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad, backward_hooks,
                       metadata=None):
    # backward_hooks is always empty in files torch writes (hooks are not saved).
    tensor = _rebuild_tensor(storage, storage_offset, size, stride)
    if requires_grad:
        tensor.requires_grad = True
    return tensor


def _rebuild_parameter(data, requires_grad, backward_hooks):
    return opscope.nn.Parameter(data, requires_grad)


def _rebuild_parameter_with_state(data, requires_grad, backward_hooks, state):
    param = _rebuild_parameter(data, requires_grad, backward_hooks)
    _set_state(param, state)
    return param


def _set_state(obj, state):
    if not state:
        return
    if hasattr(obj, "__setstate__") and type(obj).__setstate__ is not object.__setstate__:
        obj.__setstate__(state)
        return
    if isinstance(state, tuple) and len(state) == 2:
        state, slots = state
        for k, v in (slots or {}).items():
            setattr(obj, k, v)
    if state:
        obj.__dict__.update(state)


def _rebuild_from_type_v2(func, new_type, args, state):
    """A tensor of a Python subclass of Tensor: the plain tensor, then the subclass and its
    attributes (torch._tensor._rebuild_from_type_v2's contract)."""
    ret = func(*args)
    if type(ret) is not new_type:
        ret = opscope.Tensor._make_subclass(new_type, ret, ret.requires_grad)
    _set_state(ret, state)
    return ret


def _rebuild_wrapper_subclass(cls, dtype, size, stride, storage_offset, layout, device,
                              requires_grad):
    """A wrapper subclass of the given geometry (torch._utils._rebuild_wrapper_subclass); its
    attributes follow from _rebuild_from_type_v2's state."""
    return opscope.Tensor._make_wrapper_subclass(
        cls, size, strides=stride, storage_offset=storage_offset, dtype=dtype, device=device,
        requires_grad=requires_grad)


def _get_layout(name):
    return getattr(opscope, name.split(".")[-1])


def _globals_table():
    """(module, name) in a checkpoint -> the opscope object that stands for it. Saving writes the
    first name listed for an object; loading also accepts the aliases."""
    table = [
        (("torch._utils", "_rebuild_tensor_v2"), _rebuild_tensor_v2),
        (("torch._utils", "_rebuild_tensor"), _rebuild_tensor),
        (("torch._utils", "_rebuild_parameter"), _rebuild_parameter),
        (("torch._utils", "_rebuild_wrapper_subclass"), _rebuild_wrapper_subclass),
        (("torch._utils", "_rebuild_parameter_with_state"), _rebuild_parameter_with_state),
        (("torch._tensor", "_rebuild_from_type_v2"), _rebuild_from_type_v2),
        (("torch.serialization", "_get_layout"), _get_layout),
        (("torch", "Size"), opscope.Size),
        (("torch", "device"), opscope.device),
        (("torch", "Tensor"), opscope.Tensor),
        (("torch._tensor", "Tensor"), opscope.Tensor),
        (("torch.nn.parameter", "Parameter"), opscope.nn.Parameter),
    ]
    table += [(("torch", name), t) for name, t in _STORAGE_TYPES.items()]
    table += [(("torch", str(dt).split(".")[1]), dt) for dt in _DTYPES]
    # Storages without an element type (bytes), as later torch versions may name them.
    table += [(("torch", "UntypedStorage"), _STORAGE_TYPES["ByteStorage"]),
              (("torch.storage", "UntypedStorage"), _STORAGE_TYPES["ByteStorage"])]
    return table


_TORCH_GLOBALS = dict(_globals_table())
_TORCH_NAME_OF = {}  # id(opscope object) -> (module, name); the objects live as long as opscope
for _key, _obj in _globals_table():
    _TORCH_NAME_OF.setdefault(id(_obj), _key)
del _key, _obj

# What weights_only=True lets a file name: tensors, Parameters, sizes, dtypes, storages and
# OrderedDict (torch 1.13's _weights_only_unpickler._get_allowed_globals).
_WEIGHTS_ONLY_GLOBALS = {("collections", "OrderedDict"): collections.OrderedDict}
_WEIGHTS_ONLY_GLOBALS.update(
    (k, v) for k, v in _TORCH_GLOBALS.items()
    if k[1] not in ("device", "_rebuild_from_type_v2", "_rebuild_parameter_with_state",
                    "_rebuild_wrapper_subclass"))


def _torch_global(module, name):
    """The opscope object for a torch name found in a checkpoint, never importing torch."""
    if (module, name) in _TORCH_GLOBALS:
        return _TORCH_GLOBALS[(module, name)]
    if "Storage" in name:
        raise RuntimeError(f"opscope cannot load a {module}.{name}: it has no tensors of that "
                           "element type")
    # Whole modules pickled with torch.save(model): torch.nn.modules.linear.Linear -> nn.Linear.
    if module.startswith("torch.nn.modules.") and hasattr(opscope.nn, name):
        return getattr(opscope.nn, name)
    import importlib
    try:
        return getattr(importlib.import_module("opscope" + module[len("torch"):]), name)
    except (ImportError, AttributeError):
        raise AttributeError(f"Can't get attribute '{name}' on <module '{module}'>: opscope has "
                             f"no counterpart of {module}.{name}") from None


# --- storages of the tensors being saved ---------------------------------------------------------
def _span(tensor):
    """Elements of the storage from the tensor's first one to just past its last one."""
    if tensor.numel() == 0:
        return 0
    return 1 + sum((n - 1) * s for n, s in zip(tensor.shape, tensor.stride()))


class _SavedStorage:
    """One storage of the saved object: where it starts, its dtype, and how many elements the
    file holds (enough for every tensor that uses it)."""

    def __init__(self, key, tensor):
        self.key = key
        self.dtype = tensor.dtype
        self.device = tensor.device
        self.numel = 0
        self.written = False  # its numel is in the pickle
        self.grew_after_written = False  # ... and a later tensor reached further: pickle again
        self.tensor = tensor  # any tensor of the storage: keeps it alive, gives its flat view

    def cover(self, tensor):
        end = tensor.storage_offset() + _span(tensor)
        if end > self.numel:
            self.grew_after_written = self.grew_after_written or self.written
            self.numel = end

    def location(self):
        dev = self.device
        return "cpu" if dev.type == "cpu" else f"{dev.type}:{dev.index or 0}"

    def persistent_id(self):
        self.written = True
        return ("storage", _STORAGE_TYPE_OF_DTYPE[self.dtype], self.key, self.location(),
                self.numel)

    def memory(self):
        """The storage's bytes, without a copy on the CPU."""
        flat = self.tensor.detach().as_strided((self.numel,), (1,), 0)
        if flat.device.type != "cpu":
            flat = flat.cpu()
        nbytes = self.numel * self.dtype.itemsize
        if nbytes == 0:
            return flat, memoryview(b"")
        return flat, memoryview((ctypes.c_char * nbytes).from_address(flat.data_ptr())).cast("B")


class _StorageRef:
    """What a tensor's pickle names as its storage; pickled as a persistent id."""
    __slots__ = ("storage",)

    def __init__(self, storage):
        self.storage = storage


class _Storages:
    """The storages met while pickling, keyed by their first byte."""

    def __init__(self):
        self.by_start = {}
        self.ordered = []
        self.unallocated = 0

    def begin_pass(self):
        self.unallocated = 0
        for storage in self.ordered:
            storage.written = storage.grew_after_written = False

    def grew_after_written(self):
        return any(storage.grew_after_written for storage in self.ordered)

    def ref(self, tensor):
        start = tensor.data_ptr() - tensor.storage_offset() * tensor.dtype.itemsize
        if tensor.data_ptr() == 0:
            # Memory never allocated (an empty tensor's) has no address to share by: each such
            # tensor has its own storage, named by its place in the walk (the same in every pass).
            start = ("unallocated", self.unallocated)
            self.unallocated += 1
        storage = self.by_start.get(start)
        if storage is None:
            storage = self.by_start[start] = _SavedStorage(str(len(self.ordered)), tensor)
            self.ordered.append(storage)
        elif storage.dtype != tensor.dtype:
            raise RuntimeError("Cannot save multiple tensors or storages that view the same data "
                               "as different types")
        storage.cover(tensor)
        root = tensor
        while root._base is not None:  # the tensor a view was taken from reaches further
            root = root._base
        storage.cover(root)
        return _StorageRef(storage)


# --- the pickler ---------------------------------------------------------------------------------
class _Reductions:
    """How opscope's objects pickle: a tensor as torch's rebuild call on a storage reference, a
    Parameter as torch's _rebuild_parameter, a device and a Size by their values."""

    def reducer_override(self, obj):
        if isinstance(obj, opscope.Tensor):
            return self._reduce_tensor(obj)
        if type(obj) is opscope.device:
            return (opscope.device, (obj.type,) if obj.index is None else (obj.type, obj.index))
        if type(obj) is opscope.Size:
            return (opscope.Size, (tuple(obj),))
        return NotImplemented

    def _reduce_tensor(self, tensor):
        if isinstance(tensor, opscope.nn.Parameter):
            return (_rebuild_parameter,
                    (tensor.detach(), tensor.requires_grad, collections.OrderedDict()))
        if tensor.is_meta:
            raise RuntimeError("opscope.save cannot save a meta tensor: it has no data")
        if not opscope._C._has_storage(tensor):
            # A wrapper subclass (Tensor._make_wrapper_subclass) has no data of its own: as torch,
            # its geometry and its attributes (where its data is) are saved.
            if tensor.data_ptr() != 0:
                raise NotImplementedError(
                    "python bindings to nullptr storage (e.g., from torch.Tensor._make_wrapper_"
                    "subclass) are currently unsafe and thus disabled.  See https://github.com/"
                    "pytorch/pytorch/issues/61669 for more details")
            args = (type(tensor), tensor.dtype, tuple(tensor.shape), tensor.stride(),
                    tensor.storage_offset(), None, tensor.device, tensor.requires_grad)
            return (_rebuild_from_type_v2,
                    (_rebuild_wrapper_subclass, type(tensor), args, tensor.__getstate__()))
        args = (self.storages.ref(tensor), tensor.storage_offset(), tuple(tensor.shape),
                tensor.stride(), tensor.requires_grad, collections.OrderedDict())
        if type(tensor) is opscope.Tensor:
            return (_rebuild_tensor_v2, args)
        state = tensor.__getstate__()  # a Tensor subclass: its attributes go along
        return (_rebuild_from_type_v2, (_rebuild_tensor_v2, type(tensor), args, state))


class _TorchNamesPickler(_Reductions, pickle._Pickler):
    """A pickler that writes opscope's objects under torch's names (torch._utils
    ._rebuild_tensor_v2, torch.FloatStorage, torch.Size, ...). The pure-Python pickler, because
    the C one looks every global up by importing its module, and torch is not imported here."""

    def __init__(self, file, protocol, storages, legacy=False):
        super().__init__(file, protocol)
        self.storages = storages
        self.legacy = legacy

    def persistent_id(self, obj):
        if type(obj) is _StorageRef:
            pid = obj.storage.persistent_id()
            return pid + (None,) if self.legacy else pid
        return None

    def reducer_override(self, obj):
        if _torch_name(obj) is not None:
            return "torch name"  # a global: save_global below writes it
        return super().reducer_override(obj)

    def save_global(self, obj, name=None):
        torch_name = _torch_name(obj)
        if torch_name is None:
            return super().save_global(obj, name)
        module, name = torch_name
        self.write(pickle.GLOBAL + f"{module}\n{name}\n".encode("utf-8"))
        self.memoize(obj)


def _torch_name(obj):
    """torch's (module, name) for an opscope global, or None. opscope.nn's modules sit where
    torch.nn's do (opscope.nn.modules.linear.Linear, ...) and hold the same attributes, so a
    whole model pickles under torch's class names and torch.load rebuilds torch's modules."""
    name = _TORCH_NAME_OF.get(id(obj))
    if name is None and isinstance(obj, type) and obj.__module__.startswith("opscope.nn.modules"):
        if issubclass(obj, opscope.nn.Module):
            name = ("torch" + obj.__module__[len("opscope"):], obj.__qualname__)
    return name


def _pickler_class(pickle_module):
    base = getattr(pickle_module, "Pickler", pickle._Pickler)
    if base is pickle._Pickler or not issubclass(base, pickle._Pickler):
        return _TorchNamesPickler
    return type("_TorchNamesPickler", (_TorchNamesPickler, base), {})  # dill and friends


def _dump(obj, pickle_module, protocol, legacy=False):
    """The pickle of obj, and its storages. A storage's length goes into the pickle with the
    first tensor of it; when a later tensor reaches further (tensors that share memory without
    being views of one another: loaded ones, detached ones), obj is pickled again with the
    lengths the first pass found."""
    pickler = _pickler_class(pickle_module)
    storages = _Storages()
    while True:
        data = io.BytesIO()
        storages.begin_pass()
        pickler(data, protocol, storages, legacy).dump(obj)
        if not storages.grew_after_written():
            return data, storages


# --- zip records ---------------------------------------------------------------------------------
class _ZipWriter:
    """A zip archive as torch writes one: stored records, each starting at a multiple of 64
    bytes, zip64 fields only where a size or offset needs them."""

    _LIMIT = 0xFFFFFFFF  # past this, zip64 (a class attribute so a test can lower it)

    def __init__(self, file, archive_name):
        self.file = file
        self.prefix = archive_name + "/"
        self.offset = 0
        self.entries = []  # (name, crc, size, header offset)

    def _write(self, data):
        self.file.write(data)
        self.offset += len(data)

    def write_record(self, name, data):
        name = (self.prefix + name).encode("utf-8")
        size = len(data)
        crc = zlib.crc32(data)
        zip64 = size >= self._LIMIT
        extra = struct.pack("<HHQQ", 1, 16, size, size) if zip64 else b""
        fixed = 30 + len(name) + len(extra) + 4
        pad = -(self.offset + fixed) % _ALIGNMENT
        extra += struct.pack("<HH", 0x4246, pad) + b"Z" * pad  # "FB" block
        shown = 0xFFFFFFFF if zip64 else size
        self.entries.append((name, crc, size, self.offset))
        self._write(struct.pack("<IHHHHHIIIHH", 0x04034B50, 45 if zip64 else 20, 0, 0, 0, 0x21,
                                crc, shown, shown, len(name), len(extra)) + name + extra)
        self._write(data)

    def finish(self):
        directory_start = self.offset
        for name, crc, size, header in self.entries:
            # Past the limit, all three fields move to the zip64 block: miniz (torch's reader)
            # checks offset + size against the file's length when the size is not moved.
            big = size >= self._LIMIT or header >= self._LIMIT
            extra = struct.pack("<HHQQQ", 1, 24, size, size, header) if big else b""
            shown_size, shown_header = (0xFFFFFFFF, 0xFFFFFFFF) if big else (size, header)
            self._write(struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 45 if big else 20,
                                    45 if big else 20, 0, 0, 0, 0x21, crc, shown_size,
                                    shown_size, len(name), len(extra), 0, 0, 0, 0, shown_header)
                        + name + extra)
        count, directory_size = len(self.entries), self.offset - directory_start
        if count >= 0xFFFF or directory_start >= self._LIMIT or directory_size >= self._LIMIT:
            zip64_end = self.offset
            self._write(struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 45, 45, 0, 0, count, count,
                                    directory_size, directory_start))
            self._write(struct.pack("<IIQI", 0x07064B50, 0, zip64_end, 1))
            count, directory_size, directory_start = 0xFFFF, 0xFFFFFFFF, 0xFFFFFFFF
        self._write(struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, count, count, directory_size,
                                directory_start, 0))


def _archive_name(path):
    """The folder the records go in: the file's name without its last extension, as torch's."""
    return os.path.splitext(os.path.basename(os.fspath(path)))[0]


def _save_zip(obj, file, archive_name, pickle_module, protocol):
    data, storages = _dump(obj, pickle_module, protocol)
    writer = _ZipWriter(file, archive_name)
    writer.write_record("data.pkl", data.getbuffer())
    for storage in sorted(storages.ordered, key=lambda s: s.key):
        flat, memory = storage.memory()
        writer.write_record("data/" + storage.key, memory)
        del flat, memory
    writer.write_record("version", _ZIP_VERSION)
    writer.finish()


def _save_legacy(obj, file, pickle_module, protocol):
    sys_info = dict(protocol_version=LEGACY_PROTOCOL_VERSION,
                    little_endian=sys.byteorder == "little",
                    type_sizes=dict(short=struct.calcsize("=h"), int=struct.calcsize("=i"),
                                    long=struct.calcsize("=l")))
    for header in (LEGACY_MAGIC_NUMBER, LEGACY_PROTOCOL_VERSION, sys_info):
        pickle_module.dump(header, file, protocol=protocol)
    data, storages = _dump(obj, pickle_module, protocol, legacy=True)
    file.write(data.getbuffer())
    ordered = sorted(storages.ordered, key=lambda s: s.key)
    pickle_module.dump([s.key for s in ordered], file, protocol=protocol)
    for storage in ordered:
        flat, memory = storage.memory()
        file.write(struct.pack("<q", storage.numel))
        file.write(memory)
        del flat, memory


def save(obj, f, pickle_module=pickle, pickle_protocol=DEFAULT_PROTOCOL,
         _use_new_zipfile_serialization=True):
    """save(obj, f, pickle_module=pickle, pickle_protocol=2, _use_new_zipfile_serialization=True)

    Saves an object to a disk file (a path) or a file-like object (with write and flush), in the
    format torch.save writes: torch.load reads it, and opscope.load reads torch's files.
    Tensors that share a storage keep sharing one after loading."""
    if isinstance(f, (str, os.PathLike)):
        with _open_for_writing(f, _use_new_zipfile_serialization) as file:
            _save(obj, file, _archive_name(f), pickle_module, pickle_protocol,
                  _use_new_zipfile_serialization)
    else:
        _save(obj, f, "archive", pickle_module, pickle_protocol, _use_new_zipfile_serialization)
        f.flush()


def _open_for_writing(path, zip_format):
    if not zip_format:  # the legacy format opens the file as Python does, errors and all
        return open(path, "wb")
    # The zip format's errors are those of torch's C++ file writer.
    parent = os.path.dirname(os.fspath(path))
    if parent and not os.path.isdir(parent):
        raise RuntimeError(f"Parent directory {parent} does not exist.")
    try:
        return open(path, "wb")
    except OSError:
        raise RuntimeError(f"File {os.fspath(path)} cannot be opened.") from None


def _save(obj, file, archive_name, pickle_module, protocol, zip_format):
    if zip_format:
        _save_zip(obj, file, archive_name, pickle_module, protocol)
    else:
        _save_legacy(obj, file, pickle_module, protocol)


# --- loading -------------------------------------------------------------------------------------
def _restore_location(map_location):
    """map_location as torch takes it -> (flat tensor, location tag) -> flat tensor there."""
    restore = default_restore_location
    if map_location is None:
        return restore
    if isinstance(map_location, dict):
        return lambda flat, location: restore(flat, map_location.get(location, location))
    if isinstance(map_location, str):
        return lambda flat, location: restore(flat, map_location)
    if isinstance(map_location, opscope.device):
        return lambda flat, location: restore(flat, str(map_location))

    def call(flat, location):
        result = map_location(flat, location)
        return restore(flat, location) if result is None else result
    return call


def default_restore_location(flat, location):
    """The storage (a flat tensor) moved to the location a file names: 'cpu' or 'cuda:N'."""
    if location == "cpu":
        return flat
    if location.startswith("cuda"):
        index = int(location.split(":")[1]) if ":" in location else 0
        if not opscope.cuda.is_available():
            raise RuntimeError("Attempting to deserialize object on a CUDA device but "
                               "torch.cuda.is_available() is False. If you are running on a "
                               "CPU-only machine, please use torch.load with "
                               "map_location=torch.device('cpu') to map your storages to the "
                               "CPU.")
        count = opscope.cuda.device_count()
        if index >= count:
            raise RuntimeError(f"Attempting to deserialize object on CUDA device {index} but "
                               f"torch.cuda.device_count() is {count}. Please use torch.load "
                               "with map_location to map your storages to an existing device.")
        return flat.cuda(index)
    raise RuntimeError("don't know how to restore data location of torch.storage.UntypedStorage "
                       f"(tagged with {location})")


def _text(value):
    return value.decode("ascii") if isinstance(value, bytes) else value


def _unpickler_class(pickle_module, weights_only):
    class Unpickler(pickle_module.Unpickler):
        """Maps torch's names to opscope's, and storage ids to the storages the load made."""

        def __init__(self, file, persistent_load, **kwargs):
            super().__init__(file, **kwargs)
            self._persistent_load = persistent_load

        def find_class(self, module, name):
            if weights_only:
                if (module, name) not in _WEIGHTS_ONLY_GLOBALS:
                    raise RuntimeError(f"Unsupported class {module}.{name}")
                return _WEIGHTS_ONLY_GLOBALS[(module, name)]
            if module == "torch" or module.startswith("torch."):
                return _torch_global(module, name)
            return super().find_class(module, name)

        def persistent_load(self, pid):
            if weights_only and (not isinstance(pid, tuple) or not pid
                                 or _text(pid[0]) != "storage"):
                what = pid[0] if isinstance(pid, tuple) and pid else pid
                raise RuntimeError(f"Only persistent_load of storage is allowed, but got {what}")
            return self._persistent_load(pid)
    return Unpickler


def _read_into(file, flat, nbytes):
    """Reads nbytes from file straight into the flat tensor's memory."""
    if nbytes == 0:
        return
    target = memoryview((ctypes.c_char * nbytes).from_address(flat.data_ptr())).cast("B")
    done = 0
    while done < nbytes:
        n = file.readinto(target[done:])
        if not n:
            raise RuntimeError("PytorchStreamReader failed reading file: file is truncated")
        done += n


def _swap_bytes(flat):
    """Reverses the bytes of every element, in place: a file from a machine of the other order."""
    size = flat.dtype.itemsize
    if size > 1 and flat.numel():
        import numpy as np
        memory = (ctypes.c_char * (flat.numel() * size)).from_address(flat.data_ptr())
        np.frombuffer(memory, dtype=f"u{size}").byteswap(inplace=True)


def _record_start(file, info):
    """Where a stored zip record's bytes begin: after its local header and that header's own
    extra field (not the central directory's, which may differ)."""
    file.seek(info.header_offset)
    header = file.read(30)
    name_length, extra_length = struct.unpack("<HH", header[26:30])
    return info.header_offset + 30 + name_length + extra_length


def _load_zip(file, restore, unpickler_class, load_args):
    try:
        archive = zipfile.ZipFile(file)
    except zipfile.BadZipFile:  # torch's words: its reader looks for the directory at the end
        raise RuntimeError("PytorchStreamReader failed reading zip archive: failed finding "
                           "central directory") from None
    names = archive.namelist()
    if any(n.endswith("/constants.pkl") for n in names):  # torch.load passes these to jit.load
        raise RuntimeError("opscope.load cannot read a TorchScript archive (torch.jit.save): "
                           "it has no TorchScript")
    pkl = [n for n in names if n.endswith("data.pkl") and n.count("/") == 1]
    if not pkl:
        raise RuntimeError("PytorchStreamReader failed locating file data.pkl: file not found")
    prefix = pkl[0][:-len("data.pkl")]
    # torch 1.13 writes no byteorder record (its files are little-endian); later versions do.
    swap = (prefix + "byteorder" in names
            and archive.read(prefix + "byteorder").strip() != sys.byteorder.encode())
    storages = {}

    def persistent_load(pid):
        typename, storage_type, key, location, numel = pid
        assert _text(typename) == "storage", (
            f"Unknown typename for persistent_load, expected 'storage' but got '{typename}'")
        if key not in storages:
            flat = opscope.empty(numel, dtype=storage_type.dtype)
            try:
                info = archive.getinfo(f"{prefix}data/{key}")
            except KeyError:
                raise RuntimeError(f"PytorchStreamReader failed locating file data/{key}: file "
                                   "not found") from None
            nbytes = numel * storage_type.dtype.itemsize
            if info.file_size < nbytes:
                raise RuntimeError(f"PytorchStreamReader: record data/{key} holds "
                                   f"{info.file_size} bytes, its storage needs {nbytes}")
            if info.compress_type == zipfile.ZIP_STORED:
                file.seek(_record_start(file, info))
                _read_into(file, flat, nbytes)
            else:
                ctypes.memmove(flat.data_ptr(), archive.read(info), nbytes)
            if swap:
                _swap_bytes(flat)
            storages[key] = _LoadedStorage(restore(flat, _text(location)))
        return storages[key]

    data = io.BytesIO(archive.read(pkl[0]))
    return unpickler_class(data, persistent_load, **load_args).load()


def _load_legacy(file, restore, unpickler_class, pickle_module, load_args):
    magic = pickle_module.load(file, **load_args)
    if magic != LEGACY_MAGIC_NUMBER:
        raise RuntimeError("Invalid magic number; corrupt file?")
    protocol = pickle_module.load(file, **load_args)
    if protocol != LEGACY_PROTOCOL_VERSION:
        raise RuntimeError(f"Invalid protocol version: {protocol}")
    pickle_module.load(file, **load_args)  # sys info: sizes and byte order of the writer
    pickle_start = file.tell()
    flats, locations = {}, {}  # key -> the storage on the CPU, its location tag

    def storage_of(pid, flat_of):
        typename = _text(pid[0])
        if typename == "module":  # torch.save(model): the class, and its source to compare
            return pid[1]
        if typename != "storage":
            raise RuntimeError(f"Unknown saved id type: {pid[0]}")
        storage_type, key, location, numel, view = pid[1:]
        if key not in flats:
            flats[key] = opscope.empty(numel, dtype=storage_type.dtype)
            locations[key] = _text(location)
        offset = 0 if view is None else view[1]  # (view key, offset, size): a storage's part
        return _LoadedStorage(flat_of(key), offset)

    # The storages' bytes come after the pickle: its tensors are built on CPU storages, filled
    # afterwards. Where map_location puts a storage elsewhere, the pickle is read a second time
    # with the filled, moved storages.
    result = unpickler_class(file, lambda pid: storage_of(pid, flats.get), **load_args).load()
    for key in pickle_module.load(file, **load_args):
        flat = flats[key]
        (numel,) = struct.unpack("<q", file.read(8))
        _read_into(file, flat, numel * flat.dtype.itemsize)
    moved = {key: restore(flat, locations[key]) for key, flat in flats.items()}
    if all(moved[key] is flats[key] for key in flats):
        return result
    end = file.tell()
    file.seek(pickle_start)
    result = unpickler_class(file, lambda pid: storage_of(pid, moved.get), **load_args).load()
    file.seek(end)
    return result


def _is_zipfile(file):
    start = file.tell()
    magic = file.read(4)
    file.seek(start)
    return magic == b"PK\x03\x04"


def load(f, map_location=None, pickle_module=None, *, weights_only=False, **pickle_load_args):
    """load(f, map_location=None, pickle_module=pickle, *, weights_only=False, **pickle_load_args)

    Loads an object saved with opscope.save or torch.save (either format) from a path or a
    file-like object. map_location moves storages: a location string ('cpu'), a device, a dict
    from location to location, or a callable (flat tensor of a storage, location) -> tensor or
    None. weights_only=True accepts only tensors, Parameters, containers and primitives."""
    if os.getenv("TORCH_FORCE_WEIGHTS_ONLY_LOAD", "0").lower() in ["1", "y", "yes", "true"]:
        weights_only = True
    if weights_only:
        if pickle_module is not None:
            raise RuntimeError("Can not safely load weights when expiclit picke_module is "
                               "specified")
        pickle_module = pickle
    elif pickle_module is None:
        pickle_module = pickle
    pickle_load_args.setdefault("encoding", "utf-8")
    restore = _restore_location(map_location)
    unpickler_class = _unpickler_class(pickle_module, weights_only)

    def read(file):
        if _is_zipfile(file):
            return _load_zip(file, restore, unpickler_class, pickle_load_args)
        return _load_legacy(file, restore, unpickler_class, pickle_module, pickle_load_args)

    try:
        if isinstance(f, (str, os.PathLike)):
            with open(f, "rb") as file:
                return read(file)
        return read(f)
    except RuntimeError as e:
        if weights_only:
            raise pickle.UnpicklingError(_UNSAFE_MESSAGE + str(e)) from None
        raise
