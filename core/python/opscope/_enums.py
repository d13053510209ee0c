"""Layouts and memory formats: the small singleton objects torch passes as ``layout=`` and
``memory_format=``. Each carries the integer the C++ schema parser reads (``_opscope_enum``)."""


class _Enum:
    __slots__ = ("_name", "_opscope_enum")

    def __init__(self, name, value):
        self._name = name
        self._opscope_enum = value

    def __repr__(self):
        return "torch." + self._name

    def __reduce__(self):
        return self._name


class layout(_Enum):
    """The memory layout of a tensor; opscope has dense strided tensors only."""


class memory_format(_Enum):
    """How a tensor's elements are ordered in memory (``contiguous_format`` is row-major)."""


strided = layout("strided", 0)
contiguous_format = memory_format("contiguous_format", 0)
preserve_format = memory_format("preserve_format", 1)
channels_last = memory_format("channels_last", 2)
