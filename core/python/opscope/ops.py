"""``opscope.ops.<namespace>.<op>.<overload>``: every declared op, by its schema name.

>>> import opscope
>>> opscope.ops.aten.add.Tensor(opscope.ones(2), opscope.ones(2), alpha=3)
tensor([4., 4.])
>>> opscope.ops.aten.mm.default._overloads
['aten::mm']

``opscope.ops.aten.add`` is the overload packet: calling it tries each overload in turn, like
``torch.ops.aten.add``; ``.Tensor`` / ``.Scalar`` / ``.out`` / ``.default`` pick exactly one.
"""

from opscope import _C


class OpOverloadPacket:
    """All overloads of one op, e.g. ``aten::add``."""

    def __init__(self, qualified_name):
        self._qualified_name = qualified_name
        self._overload_names = _C._op_overload_names(qualified_name)
        if not self._overload_names:
            ns, name = qualified_name.split("::")
            raise AttributeError(f"'_OpNamespace' '{ns}' object has no attribute '{name}'")
        self._cache = {}

    def overloads(self):
        return list(self._overload_names)

    def __getattr__(self, overload):
        if overload.startswith("__"):
            raise AttributeError(overload)
        if overload not in self._overload_names:
            raise AttributeError(
                f"The underlying op of '{self._qualified_name}' has no overload name '{overload}'")
        if overload not in self._cache:
            full = self._qualified_name if overload == "default" else f"{self._qualified_name}.{overload}"
            self._cache[overload] = _C._op_overload(full)
        return self._cache[overload]

    def __call__(self, *args, **kwargs):
        errors = []
        for name in self._overload_names:
            try:
                return getattr(self, name)(*args, **kwargs)
            except TypeError as e:  # this overload's schema does not accept the arguments
                errors.append(f"  {name}: {e}")
        raise TypeError(f"{self._qualified_name}: no overload accepts these arguments:\n" + "\n".join(errors))

    def __repr__(self):
        return f"<OpOverloadPacket(op='{self._qualified_name}')>"


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
