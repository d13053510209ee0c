"""``opscope.ops.<namespace>.<op>.<overload>``: every declared op, by its schema name, as torch.ops.

>>> import opscope
>>> opscope.ops.aten.add.Tensor(opscope.ones(2), opscope.ones(2), alpha=3)
tensor([4., 4.])
>>> f = opscope.ops.aten.mm.default
>>> str(f), f.name(), f.overloadpacket is opscope.ops.aten.mm
('aten.mm.default', 'aten::mm', True)
>>> print(f._schema)
aten::mm(Tensor self, Tensor mat2) -> Tensor

``opscope.ops.aten.add`` is the OpOverloadPacket: calling it tries each overload in turn, like
``torch.ops.aten.add``; ``.Tensor`` / ``.Scalar`` / ``.out`` / ``.default`` are OpOverloads, each
exactly one schema. These objects are what ``__torch_dispatch__`` handlers receive as ``func``,
one object per overload (``func is opscope.ops.aten.mm.default`` holds). Calling an OpOverload
calls the schema-derived C++ callable it wraps (opscope._C._op_overload).
"""

from opscope import _C


class Argument:
    """One argument (or return) of a schema: ``name``, ``type`` (as written), ``default_value``
    (its text, None when it has none), ``kwarg_only``, ``is_out`` (written in place)."""

    def __init__(self, info):
        self.name = info["name"]
        self.type = info["type"]
        self.default_value = info["default"]
        self.kwarg_only = info["kwarg_only"]
        self.is_out = info["is_write"]
        self._text = info["text"]

    def __str__(self):
        return self._text

    __repr__ = __str__


class FunctionSchema:
    """An op's schema, as ``torch._C.FunctionSchema``: ``name`` ("aten::add"),
    ``overload_name`` ("Tensor"), ``arguments``, ``returns``; prints as the schema text."""

    def __init__(self, full_name):
        info = _C._op_schema_info(full_name)
        self.name = info["name"]
        self.overload_name = info["overload_name"]
        self.arguments = [Argument(a) for a in info["arguments"]]
        self.returns = [Argument(r) for r in info["returns"]]
        self._text = info["text"]

    def __str__(self):
        return self._text

    __repr__ = __str__


class OpOverload:
    """Exactly one overload of an op (``aten::add.Tensor``): callable, with its schema."""

    def __init__(self, packet, overload_name):
        self._overloadpacket = packet
        self._overloadname = overload_name
        qualified = packet._qualified_op_name
        self._name = qualified if overload_name == "default" else f"{qualified}.{overload_name}"
        self._op = _C._op_overload(self._name)
        self._schema = FunctionSchema(self._name)
        self.__name__ = f"{packet.__name__}.{overload_name}"
        self.__qualname__ = self._name
        self.__module__ = packet.__module__
        self.__doc__ = str(self._schema)

    @property
    def overloadpacket(self):
        return self._overloadpacket

    @property
    def op(self):
        return self._op

    def name(self):
        """"aten::add.Tensor" ("aten::mm" for a default overload)."""
        return self._name

    def namespace(self):
        return self._schema.name.split("::")[0]

    def __call__(self, *args, **kwargs):
        return self._op(*args, **kwargs)

    def __repr__(self):
        ns, name = self._schema.name.split("::")
        return f"<OpOverload(op='{ns}.{name}', overload='{self._overloadname}')>"

    def __str__(self):
        ns, name = self._schema.name.split("::")
        return f"{ns}.{name}.{self._overloadname}"

    def __deepcopy__(self, memo=None):
        return self

    @property
    def _overloads(self):
        return [self._name]


class OpOverloadPacket:
    """All overloads of one op, e.g. ``aten::add``; ``.Tensor`` gives one OpOverload."""

    def __init__(self, qualified_name):
        self._qualified_op_name = qualified_name
        self._overload_names = _C._op_overload_names(qualified_name)
        ns, name = qualified_name.split("::")
        if not self._overload_names:
            raise AttributeError(f"'_OpNamespace' '{ns}' object has no attribute '{name}'")
        self.__name__ = name
        self.__module__ = f"opscope.ops.{ns}"
        self._cache = {}

    def overloads(self):
        return list(self._overload_names)

    @property
    def op(self):
        return self

    def __getattr__(self, overload):
        if overload.startswith("__"):
            raise AttributeError(overload)
        if overload not in self._overload_names:
            raise AttributeError(
                f"The underlying op of '{self}' has no overload name '{overload}'")
        found = self._cache.get(overload)
        if found is None:
            found = self._cache[overload] = OpOverload(self, overload)
            # The next lookup is a plain attribute read.
            object.__setattr__(self, overload, found)
        return found

    def __call__(self, *args, **kwargs):
        errors = []
        for name in self._overload_names:
            try:
                return getattr(self, name)(*args, **kwargs)
            except TypeError as e:  # this overload's schema does not accept the arguments
                errors.append(f"  {name}: {e}")
        raise TypeError(f"{self._qualified_op_name}: no overload accepts these arguments:\n" + "\n".join(errors))

    def __repr__(self):
        ns, name = self._qualified_op_name.split("::")
        return f"<OpOverloadPacket(op='{ns}.{name}')>"

    def __str__(self):
        return self._qualified_op_name.replace("::", ".")

    def __deepcopy__(self, memo=None):
        return self


class _OpNamespace:
    def __init__(self, name):
        self._name = name

    def __getattr__(self, op):
        if op.startswith("__"):
            raise AttributeError(op)
        packet = OpOverloadPacket(f"{self._name}::{op}")
        setattr(self, op, packet)
        return packet


class _Ops:
    def __getattr__(self, ns):
        if ns.startswith("__"):
            raise AttributeError(ns)
        namespace = _OpNamespace(ns)
        setattr(self, ns, namespace)
        return namespace


ops = _Ops()


def _overload_of(full_name):
    """The OpOverload for "aten::add.Tensor" / "aten::mm" (what the Python key hands handlers)."""
    ns, rest = full_name.split("::")
    name, _, overload = rest.partition(".")
    return getattr(getattr(getattr(ops, ns), name), overload or "default")


def _forget(ns, name):
    """Drops the cached packet of ``ns::name`` (its overloads changed: a Library came or went)."""
    namespace = ops.__dict__.get(ns)
    if namespace is not None:
        namespace.__dict__.pop(name, None)
