"""``opscope.library``: define operators and register kernels from Python, as torch.library.

>>> import opscope
>>> lib = Library("mylib", "DEF")
>>> lib.define("twice(Tensor x) -> Tensor")
'twice'
>>> lib.impl("twice", lambda x: x * 2, "CPU")
>>> opscope.ops.mylib.twice(opscope.arange(3.0))
tensor([0., 2., 4.])
>>> del lib  # its registrations go with it

Every registration lives as long as its Library object (the dispatcher's RAII handles), shows in
``opscope._C._dispatch_dump`` with the Python file:line that made it, and a kernel written in
Python shows in traces with provenance "python kernel". Kinds: "DEF" (a new namespace), "IMPL"
(kernels for ops defined elsewhere) and "FRAGMENT" (more definitions for a namespace, as later
torch versions allow). Dispatch keys are torch 1.13's names: CPU, CUDA, Meta, Autograd,
AutogradCPU, CompositeImplicitAutograd, CompositeExplicitAutograd, Python, ...
"""

import sys

from opscope import _C

__all__ = ["Library", "impl", "define", "fallthrough_kernel"]

# (namespace/op/key) that a Python kernel overrides, across libraries: two libraries may not
# override the same thing (torch's _impls).
_impls = set()
# Namespaces a "DEF" library owns, with where it was made.
_def_namespaces = {}
_reserved_namespaces = ["prim"]


def fallthrough_kernel():
    """Registered with ``Library.impl``, makes the key fall through for the op: the dispatcher
    skips it, as if the op had no kernel there."""
    raise NotImplementedError("fallthrough_kernel() should never be called.")


def _ops_module():
    return sys.modules["opscope.ops"]


def _caller_site(depth):
    frame = sys._getframe(depth + 1)
    return f"{frame.f_code.co_filename}:{frame.f_lineno}"


def _namespace_has_ops(ns):
    prefix = ns + "::"
    return any(name.startswith(prefix) for name in _C._all_op_names())


class Library:
    """A set of registrations in namespace ``ns`` that lives as long as this object.

    ``kind``: "DEF" (the namespace's definitions), "IMPL" (kernels only) or "FRAGMENT";
    ``dispatch_key``: the key ``impl`` uses when it is given none."""

    def __init__(self, ns, kind, dispatch_key=""):
        if kind not in ("IMPL", "DEF", "FRAGMENT"):
            raise ValueError("Unsupported kind: ", kind)
        if ns in _reserved_namespaces and kind == "DEF":
            raise ValueError(ns, " is a reserved namespace. Please try creating a library with another name.")
        site = _caller_site(1)
        if kind == "DEF":
            previous = _def_namespaces.get(ns)
            if previous is None and _namespace_has_ops(ns):
                previous = "opscope's built-in operator registrations"
            if previous is not None:
                raise RuntimeError(
                    f"Only a single TORCH_LIBRARY can be used to register the namespace {ns}; please put all "
                    "of your definitions in a single TORCH_LIBRARY block.  If you were trying to specify "
                    "implementations, consider using TORCH_LIBRARY_IMPL (which can be duplicated).  If you "
                    "really intended to define operators for a single namespace in a distributed way, you "
                    "can use TORCH_LIBRARY_FRAGMENT to explicitly indicate this.  Previous registration of "
                    f"TORCH_LIBRARY was registered at {previous}; latest registration was registered at {site}")
            _def_namespaces[ns] = site
        self.m = _C._Library(kind, ns)
        self.ns = ns
        self.kind = kind
        self.dispatch_key = dispatch_key
        self._site = site
        self._handles = []     # (handle, op name it concerns), in registration order
        self._op_impls = set()

    def __repr__(self):
        return "Library(kind={}, ns={}, dispatch_key={})>".format(self.kind, self.ns, self.dispatch_key)

    def define(self, schema, alias_analysis="", *, _depth=1):
        """Declares an operator of this namespace from its schema ("foo(Tensor x) -> Tensor");
        returns its name. It becomes ``opscope.ops.<ns>.<name>``."""
        if alias_analysis not in ["", "FROM_SCHEMA", "CONSERVATIVE"]:
            raise RuntimeError("Invalid alias_analysis type {}".format(alias_analysis))
        if self.kind == "IMPL":
            raise RuntimeError(
                "Cannot define an operator inside of a TORCH_LIBRARY_IMPL block.  All def()s should be "
                "placed in the (unique) TORCH_LIBRARY block for their namespace.  (Error occurred at "
                f"{_caller_site(_depth)})")
        try:
            handle = self.m.define(schema, _depth)
        except ValueError as e:  # the schema does not parse: torch's RuntimeError
            raise RuntimeError(str(e)) from None
        name = schema.split("(", 1)[0].strip().split("::")[-1].split(".")[0]
        self._handles.append((handle, name))
        _ops_module()._forget(self.ns, name)
        return name

    def impl(self, op_name, fn, dispatch_key="", *, _depth=1):
        """Registers ``fn`` as the op's kernel for ``dispatch_key`` (default: the library's key,
        else CompositeImplicitAutograd). ``op_name``: "name", "name.overload" or an OpOverload;
        ``fn``: a callable taking the op's arguments, or ``fallthrough_kernel``."""
        if not callable(fn):
            raise TypeError("Input function is required to be a callable but found type {}".format(type(fn)))
        if dispatch_key == "":
            dispatch_key = self.dispatch_key
        if isinstance(op_name, str):
            name = op_name
        elif isinstance(op_name, _ops_module().OpOverload):
            name = op_name._schema.name
            if op_name._schema.overload_name != "":
                name = name + "." + op_name._schema.overload_name
        else:
            raise RuntimeError("impl should be passed either a name or an OpOverload object as the first argument")
        key = self.ns + "/" + name.split("::")[-1] + "/" + dispatch_key
        if key in _impls:
            raise RuntimeError("This is not allowed since there's already a kernel registered from python overriding {}"
                               "'s behavior for {} dispatch key and {} namespace.".
                               format(name.split("::")[-1], dispatch_key, self.ns))
        try:
            handle = self.m.impl(name, dispatch_key or "CompositeImplicitAutograd",
                                 None if fn is fallthrough_kernel else fn, _depth)
        except ValueError:
            raise RuntimeError(f"could not parse dispatch key: {dispatch_key}") from None
        self._handles.append((handle, None))
        _impls.add(key)
        self._op_impls.add(key)

    def _destroy(self):
        """Undoes every registration of this library (newest first)."""
        handles = getattr(self, "_handles", None)
        if not handles:
            return
        while handles:
            handle, name = handles.pop()
            handle.remove()
            if name is not None:
                _ops_module()._forget(self.ns, name)
        for key in self._op_impls:
            _impls.discard(key)
        self._op_impls = set()
        if self.kind == "DEF" and _def_namespaces.get(self.ns) == self._site:
            del _def_namespaces[self.ns]

    def __del__(self):
        try:
            self._destroy()
        except Exception:  # noqa: BLE001 - interpreter shutdown: modules may be gone
            pass


def impl(lib, name, dispatch_key=""):
    """Decorator form of ``Library.impl``."""
    def wrap(f):
        lib.impl(name, f, dispatch_key, _depth=2)
        return f
    return wrap


def define(lib, schema, alias_analysis=""):
    """Decorator: defines the op and registers the function as its CompositeImplicitAutograd
    kernel."""
    def wrap(f):
        name = lib.define(schema, alias_analysis, _depth=2)
        lib.impl(name, f, _depth=2)
        return f
    return wrap
