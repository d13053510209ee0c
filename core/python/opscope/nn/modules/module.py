"""``Module``: the base class of layers and models, with torch 1.13's interface.

A Module holds three ordered name -> value tables: ``_parameters`` (Parameters), ``_buffers``
(tensors that are state but not trained, like BatchNorm's running mean; non-persistent ones stay
out of the state_dict) and ``_modules`` (children). Assigning an attribute files a Parameter or a
Module in its table; reading one looks the tables up. Everything else — traversal, state_dict,
conversions, train / eval, printing — walks these tables in order, so names, order and printing
match torch's.

>>> import opscope
>>> from opscope import nn
>>> class Net(nn.Module):
...     def __init__(self):
...         super().__init__()
...         self.fc = nn.Linear(2, 3)
...         self.register_buffer("steps", opscope.zeros(()))
...     def forward(self, x):
...         return self.fc(x).relu()
>>> net = Net()
>>> list(net.state_dict())
['steps', 'fc.weight', 'fc.bias']
>>> net
Net(
  (fc): Linear(in_features=2, out_features=3, bias=True)
)
"""

import functools
import itertools
import warnings
from collections import OrderedDict, namedtuple
from collections.abc import Mapping

import opscope
from opscope.autograd import Function
from opscope.nn.parameter import Parameter
from opscope.utils.hooks import RemovableHandle

__all__ = ["Module", "register_module_forward_pre_hook", "register_module_forward_hook",
           "register_module_full_backward_hook"]

_EXTRA_STATE_KEY_SUFFIX = "_extra_state"

# Hooks every Module runs (torch.nn.modules.module.register_module_forward_hook & co.).
_global_forward_pre_hooks = OrderedDict()
_global_forward_hooks = OrderedDict()
_global_backward_hooks = OrderedDict()
_hook_ids = itertools.count()


def _add_hook(table, hook):
    """Files hook in table under a fresh id; returns the handle that removes it."""
    hook_id = next(_hook_ids)
    table[hook_id] = hook
    return RemovableHandle(lambda: table.pop(hook_id, None), hook_id)


def register_module_forward_pre_hook(hook):
    """hook(module, input) before every Module's forward (may return a replacement input)."""
    return _add_hook(_global_forward_pre_hooks, hook)


def register_module_forward_hook(hook):
    """hook(module, input, output) after every Module's forward (may return a replacement output)."""
    return _add_hook(_global_forward_hooks, hook)


def register_module_full_backward_hook(hook):
    """hook(module, grad_input, grad_output) when the gradients of every Module's inputs are known."""
    return _add_hook(_global_backward_hooks, hook)


def _typename(obj):
    """torch.typename: 'torch.FloatTensor' style for tensors, the qualified class name otherwise."""
    if isinstance(obj, opscope.Tensor):
        return "torch." + {"float32": "Float", "float64": "Double", "float16": "Half",
                           "bfloat16": "BFloat16", "int64": "Long", "int32": "Int", "int16": "Short",
                           "int8": "Char", "uint8": "Byte", "bool": "Bool"}.get(
            str(obj.dtype)[len("torch."):], "") + "Tensor"
    module = getattr(type(obj), "__module__", "") or ""
    name = type(obj).__qualname__
    return name if module in ("builtins", "__builtin__") else f"{module}.{name}"


def _addindent(text, spaces):
    """text with every line after the first indented by `spaces` (how a child's repr nests)."""
    lines = text.split("\n")
    if len(lines) == 1:
        return text
    return lines[0] + "\n" + "\n".join(" " * spaces + line for line in lines[1:])


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    """What load_state_dict returns: the keys the module wanted and did not get, and the keys it
    got and does not have."""

    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


class _BackwardHookFunction(Function):
    """Identity on the tensors it is given, whose backward hands their gradients to a callback
    (which may replace them): how full backward hooks see a module's grad_input / grad_output."""

    @staticmethod
    def forward(ctx, callback, *tensors):
        ctx.callback = callback
        return tuple(t.view_as(t) for t in tensors)

    @staticmethod
    def backward(ctx, *grads):
        replaced = ctx.callback(grads)
        return (None,) + tuple(grads if replaced is None else replaced)


class _BackwardHookCall:
    """One forward's full backward hooks: the gradients reaching the outputs are kept; once the
    inputs' gradients are known the hooks run as hook(module, grad_input, grad_output)."""

    def __init__(self, module, hooks):
        self.module, self.hooks = module, hooks
        self.grad_output = None
        self.n_inputs = 0
        self.input_positions = []

    def _wrap(self, values, callback):
        """values (a tuple, or one value) with its tensors that require grad run through the
        identity above."""
        single = not isinstance(values, tuple)
        items = (values,) if single else values
        positions = [i for i, v in enumerate(items)
                     if isinstance(v, opscope.Tensor) and v.requires_grad]
        if not positions or not opscope.is_grad_enabled():
            return values, []
        wrapped = _BackwardHookFunction.apply(callback, *(items[i] for i in positions))
        wrapped = wrapped if isinstance(wrapped, tuple) else (wrapped,)
        items = list(items)
        for i, w in zip(positions, wrapped):
            items[i] = w
        return (items[0] if single else tuple(items)), positions

    def setup_input(self, args):
        self.n_inputs = len(args)
        wrapped, self.input_positions = self._wrap(args, self._on_grad_input)
        return wrapped

    def setup_output(self, result):
        wrapped, _ = self._wrap(result, self._on_grad_output)
        return wrapped

    def _on_grad_output(self, grads):
        self.grad_output = grads
        if not self.input_positions:  # no input needs a gradient: the hooks run now
            self._run(tuple(None for _ in range(self.n_inputs)))
        return None

    def _on_grad_input(self, grads):
        grad_input = [None] * self.n_inputs
        for i, g in zip(self.input_positions, grads):
            grad_input[i] = g
        result = self._run(tuple(grad_input))
        if result is None:
            return None
        return tuple(result[i] for i in self.input_positions)

    def _run(self, grad_input):
        for hook in self.hooks:
            out = hook(self.module, grad_input, self.grad_output)
            if out is not None:
                out = tuple(out) if isinstance(out, (tuple, list)) else (out,)
                if len(out) != len(grad_input):
                    raise RuntimeError(f"Backward hook returned an invalid number of grad_input, "
                                       f"got {len(out)}, but expected {len(grad_input)}")
                grad_input = out
        return grad_input


class Module:
    """Base class of layers and models: assign Parameters and Modules as attributes, write
    forward(), call the module."""

    dump_patches = False
    _version = 1
    training: bool

    def __init__(self):
        d = self.__dict__
        d["training"] = True
        d["_parameters"] = OrderedDict()
        d["_buffers"] = OrderedDict()
        d["_non_persistent_buffers_set"] = set()
        d["_backward_hooks"] = OrderedDict()
        d["_is_full_backward_hook"] = None
        d["_forward_hooks"] = OrderedDict()
        d["_forward_pre_hooks"] = OrderedDict()
        d["_state_dict_hooks"] = OrderedDict()
        d["_load_state_dict_pre_hooks"] = OrderedDict()
        d["_load_state_dict_post_hooks"] = OrderedDict()
        d["_modules"] = OrderedDict()

    def forward(self, *input):
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required "forward" function')

    # --- registration -------------------------------------------------------------------------
    def register_buffer(self, name, tensor, persistent=True):
        """Adds a tensor that is state but not a parameter (saved in state_dict unless
        persistent=False)."""
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        if not isinstance(name, str):
            raise TypeError("buffer name should be a string. Got {}".format(_typename(name)))
        if "." in name:
            raise KeyError("buffer name can't contain \".\"")
        if name == "":
            raise KeyError("buffer name can't be empty string \"\"")
        if hasattr(self, name) and name not in self._buffers:
            raise KeyError("attribute '{}' already exists".format(name))
        if tensor is not None and not isinstance(tensor, opscope.Tensor):
            raise TypeError("cannot assign '{}' object to buffer '{}' (torch Tensor or None required)"
                            .format(_typename(tensor), name))
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def register_parameter(self, name, param):
        """Adds a Parameter (or None: a declared parameter that is absent, like bias=False)."""
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        if not isinstance(name, str):
            raise TypeError("parameter name should be a string. Got {}".format(_typename(name)))
        if "." in name:
            raise KeyError("parameter name can't contain \".\"")
        if name == "":
            raise KeyError("parameter name can't be empty string \"\"")
        if hasattr(self, name) and name not in self._parameters:
            raise KeyError("attribute '{}' already exists".format(name))
        if param is None:
            self._parameters[name] = None
        elif not isinstance(param, Parameter):
            raise TypeError("cannot assign '{}' object to parameter '{}' (torch.nn.Parameter or None required)"
                            .format(_typename(param), name))
        elif param.grad_fn is not None:
            raise ValueError(
                "Cannot assign non-leaf Tensor to parameter '{0}'. Model parameters must be created "
                "explicitly. To express '{0}' as a function of another Tensor, compute the value in "
                "the forward() method.".format(name))
        else:
            self._parameters[name] = param

    def add_module(self, name, module):
        """Adds a child module (or None) under name."""
        if not isinstance(module, Module) and module is not None:
            raise TypeError("{} is not a Module subclass".format(_typename(module)))
        if not isinstance(name, str):
            raise TypeError("module name should be a string. Got {}".format(_typename(name)))
        if hasattr(self, name) and name not in self._modules:
            raise KeyError("attribute '{}' already exists".format(name))
        if "." in name:
            raise KeyError("module name can't contain \".\", got: {}".format(name))
        if name == "":
            raise KeyError("module name can't be empty string \"\"")
        self._modules[name] = module

    def register_module(self, name, module):
        """Alias of add_module."""
        self.add_module(name, module)

    def _lookup(self, target, table, what):
        """get_parameter / get_buffer: the entry of `table` named by the last atom of target, in the
        submodule the others name."""
        module_path, _, name = target.rpartition(".")
        mod = self.get_submodule(module_path)
        if not hasattr(mod, name):
            raise AttributeError(mod._get_name() + " has no attribute `" + name + "`")
        value = getattr(mod, name)
        if name not in getattr(mod, table):
            raise AttributeError("`" + name + "` is not " + what)
        return value

    def get_submodule(self, target):
        """The submodule at a dotted path ('' is self): net.get_submodule('encoder.0')."""
        if target == "":
            return self
        mod = self
        for item in target.split("."):
            if not hasattr(mod, item):
                raise AttributeError(mod._get_name() + " has no attribute `" + item + "`")
            mod = getattr(mod, item)
            if not isinstance(mod, Module):
                raise AttributeError("`" + item + "` is not an nn.Module")
        return mod

    def get_parameter(self, target):
        """The parameter at a dotted path: net.get_parameter('encoder.0.weight')."""
        return self._lookup(target, "_parameters", "an nn.Parameter")

    def get_buffer(self, target):
        """The buffer at a dotted path: net.get_buffer('bn.running_mean')."""
        return self._lookup(target, "_buffers", "a buffer")

    def get_extra_state(self):
        raise RuntimeError(
            "Reached a code path in Module.get_extra_state() that should never be called. "
            "Please file an issue at https://github.com/pytorch/pytorch/issues/new?template=bug-report.yml "
            "to report this bug.")

    def set_extra_state(self, state):
        raise RuntimeError(
            "Reached a code path in Module.set_extra_state() that should never be called. "
            "Please file an issue at https://github.com/pytorch/pytorch/issues/new?template=bug-report.yml "
            "to report this bug.")

    # --- conversions --------------------------------------------------------------------------
    def _apply(self, fn):
        """fn applied to every parameter, gradient and buffer, children first. A parameter keeps
        its identity (its data is replaced), as torch 1.13 does, so optimizers built before
        .to() / .double() still hold the module's parameters."""
        for module in self.children():
            module._apply(fn)
        for key, param in self._parameters.items():
            if param is None:
                continue
            with opscope.no_grad():
                applied = fn(param)
            param.data = applied
            if param.grad is not None:
                with opscope.no_grad():
                    grad_applied = fn(param.grad)
                param.grad = grad_applied.requires_grad_(param.grad.requires_grad)
        for key, buf in self._buffers.items():
            if buf is not None:
                self._buffers[key] = fn(buf)
        return self

    def apply(self, fn):
        """Calls fn(module) on every submodule (children first) and then on self; returns self.
        The usual way to initialise a model: net.apply(init_weights)."""
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    def cuda(self, device=None):
        """Moves parameters and buffers to a CUDA device (torch's error where there is none)."""
        target = opscope.device("cuda") if device is None else (
            opscope.device("cuda", device) if isinstance(device, int) else opscope.device(device))
        return self._apply(lambda t: t.to(device=target))

    def cpu(self):
        """Moves parameters and buffers to the CPU."""
        return self._apply(lambda t: t.to(device=opscope.device("cpu")))

    def type(self, dst_type):
        """Casts all parameters and buffers to dst_type."""
        return self._apply(lambda t: t.to(dtype=dst_type))

    def float(self):
        """Casts floating point parameters and buffers to float32."""
        return self._apply(lambda t: t.float() if t.is_floating_point() else t)

    def double(self):
        """Casts floating point parameters and buffers to float64."""
        return self._apply(lambda t: t.double() if t.is_floating_point() else t)

    def half(self):
        """Casts floating point parameters and buffers to float16."""
        return self._apply(lambda t: t.half() if t.is_floating_point() else t)

    def bfloat16(self):
        """Casts floating point parameters and buffers to bfloat16."""
        return self._apply(lambda t: t.bfloat16() if t.is_floating_point() else t)

    def to(self, *args, **kwargs):
        """to(device=None, dtype=None, non_blocking=False) / to(dtype, non_blocking=False) /
        to(tensor, non_blocking=False): moves and / or casts the parameters and buffers (only the
        floating point ones change dtype). Modifies the module in place and returns it."""
        device, dtype, non_blocking = _parse_to(args, kwargs)
        if dtype is not None and not (dtype.is_floating_point or getattr(dtype, "is_complex", False)):
            raise TypeError("nn.Module.to only accepts floating point or complex dtypes, but got "
                            "desired dtype={}".format(dtype))

        def convert(t):
            return t.to(device=device, dtype=dtype if t.is_floating_point() else None,
                        non_blocking=non_blocking)

        return self._apply(convert)

    def share_memory(self):
        return self._apply(lambda t: t.share_memory_())

    # --- hooks --------------------------------------------------------------------------------
    def register_forward_pre_hook(self, hook):
        """hook(module, input) before forward; it may return a replacement input (a value that is
        not a tuple is wrapped in one)."""
        return _add_hook(self._forward_pre_hooks, hook)

    def register_forward_hook(self, hook):
        """hook(module, input, output) after forward; it may return a replacement output."""
        return _add_hook(self._forward_hooks, hook)

    def register_full_backward_hook(self, hook):
        """hook(module, grad_input, grad_output) once the gradients w.r.t. the module's positional
        inputs are computed; it may return replacement grad_input."""
        if self._is_full_backward_hook is False:
            raise RuntimeError("Cannot use both regular backward hooks and full backward hooks on a "
                               "single Module. Please use only one of them.")
        self._is_full_backward_hook = True
        return _add_hook(self._backward_hooks, hook)

    def _register_state_dict_hook(self, hook):
        return _add_hook(self._state_dict_hooks, hook)

    def _register_load_state_dict_pre_hook(self, hook, with_module=False):
        return _add_hook(self._load_state_dict_pre_hooks,
                         functools.partial(hook, self) if with_module else hook)

    def register_load_state_dict_post_hook(self, hook):
        """hook(module, incompatible_keys) after load_state_dict; it may edit the key lists."""
        return _add_hook(self._load_state_dict_post_hooks, hook)

    # --- calling ------------------------------------------------------------------------------
    def _call_impl(self, *input, **kwargs):
        if not (self._forward_hooks or self._forward_pre_hooks or self._backward_hooks
                or _global_forward_hooks or _global_forward_pre_hooks or _global_backward_hooks):
            return self.forward(*input, **kwargs)
        for hook in (*_global_forward_pre_hooks.values(), *self._forward_pre_hooks.values()):
            result = hook(self, input)
            if result is not None:
                input = result if isinstance(result, tuple) else (result,)
        backward_hooks = [*_global_backward_hooks.values(), *self._backward_hooks.values()]
        bw = _BackwardHookCall(self, backward_hooks) if backward_hooks else None
        if bw is not None:
            input = bw.setup_input(input)
        result = self.forward(*input, **kwargs)
        for hook in (*_global_forward_hooks.values(), *self._forward_hooks.values()):
            hook_result = hook(self, input, result)
            if hook_result is not None:
                result = hook_result
        if bw is not None:
            result = bw.setup_output(result)
        return result

    __call__ = _call_impl

    # --- attributes ---------------------------------------------------------------------------
    def __setstate__(self, state):
        self.__dict__.update(state)
        for name, default in (("_forward_pre_hooks", OrderedDict), ("_state_dict_hooks", OrderedDict),
                              ("_load_state_dict_pre_hooks", OrderedDict),
                              ("_load_state_dict_post_hooks", OrderedDict),
                              ("_non_persistent_buffers_set", set)):
            if name not in self.__dict__:
                self.__dict__[name] = default()
        if "_is_full_backward_hook" not in self.__dict__:
            self._is_full_backward_hook = None

    def __getattr__(self, name):
        d = self.__dict__
        for table in ("_parameters", "_buffers", "_modules"):
            if table in d and name in d[table]:
                return d[table][name]
        raise AttributeError("'{}' object has no attribute '{}'".format(type(self).__name__, name))

    def __setattr__(self, name, value):
        def remove_from(*tables):
            for t in tables:
                if name in t:
                    if isinstance(t, dict):
                        del t[name]
                    else:
                        t.discard(name)

        params = self.__dict__.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            remove_from(self.__dict__, self._buffers, self._modules, self._non_persistent_buffers_set)
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError("cannot assign '{}' as parameter '{}' (torch.nn.Parameter or None expected)"
                                .format(_typename(value), name))
            self.register_parameter(name, value)
        else:
            modules = self.__dict__.get("_modules")
            if isinstance(value, Module):
                if modules is None:
                    raise AttributeError("cannot assign module before Module.__init__() call")
                remove_from(self.__dict__, self._parameters, self._buffers, self._non_persistent_buffers_set)
                modules[name] = value
            elif modules is not None and name in modules:
                if value is not None:
                    raise TypeError("cannot assign '{}' as child module '{}' (torch.nn.Module or None expected)"
                                    .format(_typename(value), name))
                modules[name] = value
            else:
                buffers = self.__dict__.get("_buffers")
                if buffers is not None and name in buffers:
                    if value is not None and not isinstance(value, opscope.Tensor):
                        raise TypeError("cannot assign '{}' as buffer '{}' (torch.Tensor or None expected)"
                                        .format(_typename(value), name))
                    buffers[name] = value
                else:
                    object.__setattr__(self, name, value)

    def __delattr__(self, name):
        if name in self._parameters:
            del self._parameters[name]
        elif name in self._buffers:
            del self._buffers[name]
            self._non_persistent_buffers_set.discard(name)
        elif name in self._modules:
            del self._modules[name]
        else:
            object.__delattr__(self, name)

    def __dir__(self):
        keys = (dir(self.__class__) + list(self.__dict__) + list(self._parameters)
                + list(self._modules) + list(self._buffers))
        return sorted(k for k in keys if not k[0].isdigit())

    # --- state_dict ---------------------------------------------------------------------------
    def _save_to_state_dict(self, destination, prefix, keep_vars):
        """This module's own parameters and persistent buffers (not its children's)."""
        for name, param in self._parameters.items():
            if param is not None:
                destination[prefix + name] = param if keep_vars else param.detach()
        for name, buf in self._buffers.items():
            if buf is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = buf if keep_vars else buf.detach()
        if type(self).get_extra_state is not Module.get_extra_state:
            destination[prefix + _EXTRA_STATE_KEY_SUFFIX] = self.get_extra_state()

    def state_dict(self, *args, destination=None, prefix="", keep_vars=False):
        """name -> tensor for every parameter and persistent buffer, children after their
        parent's own entries; detached unless keep_vars. The OrderedDict carries `_metadata`
        (each module's _version), which load_state_dict hands back to _load_from_state_dict."""
        if args:
            if destination is None:
                destination = args[0]
            if len(args) > 1 and prefix == "":
                prefix = args[1]
            if len(args) > 2 and keep_vars is False:
                keep_vars = args[2]
            warnings.warn(
                "Positional args are being deprecated, use kwargs instead. Refer to "
                "https://pytorch.org/docs/master/generated/torch.nn.Module.html#torch.nn.Module.state_dict"
                " for details.")
        if destination is None:
            destination = OrderedDict()
            destination._metadata = OrderedDict()
        local_metadata = dict(version=self._version)
        if hasattr(destination, "_metadata"):
            destination._metadata[prefix[:-1]] = local_metadata
        self._save_to_state_dict(destination, prefix, keep_vars)
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(destination=destination, prefix=prefix + name + ".", keep_vars=keep_vars)
        for hook in self._state_dict_hooks.values():
            hook_result = hook(self, destination, prefix, local_metadata)
            if hook_result is not None:
                destination = hook_result
        return destination

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys,
                              unexpected_keys, error_msgs):
        """Copies this module's own entries from state_dict (under prefix) and records what is
        missing, unexpected or mismatched. Subclasses whose layout changed between versions read
        local_metadata['version'] here (BatchNorm does)."""
        for hook in self._load_state_dict_pre_hooks.values():
            hook(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs)
        persistent = {k: v for k, v in self._buffers.items() if k not in self._non_persistent_buffers_set}
        local_state = {k: v for k, v in itertools.chain(self._parameters.items(), persistent.items())
                       if v is not None}
        for name, param in local_state.items():
            key = prefix + name
            if key not in state_dict:
                if strict:
                    missing_keys.append(key)
                continue
            input_param = state_dict[key]
            if not isinstance(input_param, opscope.Tensor):
                error_msgs.append('While copying the parameter named "{}", expected torch.Tensor or '
                                  'Tensor-like object from checkpoint but received {}'
                                  .format(key, type(input_param)))
                continue
            if len(param.shape) == 0 and len(input_param.shape) == 1:
                input_param = input_param[0]
            if input_param.shape != param.shape:
                error_msgs.append("size mismatch for {}: copying a param with shape {} from checkpoint, "
                                  "the shape in current model is {}.".format(key, input_param.shape, param.shape))
                continue
            try:
                with opscope.no_grad():
                    param.copy_(input_param)
            except Exception as ex:
                error_msgs.append('While copying the parameter named "{}", whose dimensions in the model are {} '
                                  'and whose dimensions in the checkpoint are {}, an exception occurred : {}.'
                                  .format(key, param.size(), input_param.size(), ex.args))
        extra_state_key = prefix + _EXTRA_STATE_KEY_SUFFIX
        if type(self).set_extra_state is not Module.set_extra_state:
            if extra_state_key in state_dict:
                self.set_extra_state(state_dict[extra_state_key])
            elif strict:
                missing_keys.append(extra_state_key)
        elif strict and extra_state_key in state_dict:
            unexpected_keys.append(extra_state_key)
        if strict:
            for key in state_dict.keys():
                if key.startswith(prefix) and key != extra_state_key:
                    input_name = key[len(prefix):].split(".", 1)[0]
                    if input_name not in self._modules and input_name not in local_state:
                        unexpected_keys.append(key)

    def load_state_dict(self, state_dict, strict=True):
        """Copies parameters and buffers from state_dict into this module and its children.
        strict: every key must match (RuntimeError listing the differences otherwise). Returns
        _IncompatibleKeys(missing_keys, unexpected_keys)."""
        if not isinstance(state_dict, Mapping):
            raise TypeError("Expected state_dict to be dict-like, got {}.".format(type(state_dict)))
        missing_keys, unexpected_keys, error_msgs = [], [], []
        metadata = getattr(state_dict, "_metadata", None)
        state_dict = OrderedDict(state_dict)
        if metadata is not None:
            state_dict._metadata = metadata

        def load(module, local_state_dict, prefix=""):
            local_metadata = {} if metadata is None else metadata.get(prefix[:-1], {})
            module._load_from_state_dict(local_state_dict, prefix, local_metadata, True, missing_keys,
                                         unexpected_keys, error_msgs)
            for name, child in module._modules.items():
                if child is not None:
                    child_prefix = prefix + name + "."
                    child_state = {k: v for k, v in local_state_dict.items() if k.startswith(child_prefix)}
                    load(child, child_state, child_prefix)
            incompatible = _IncompatibleKeys(missing_keys, unexpected_keys)
            for hook in module._load_state_dict_post_hooks.values():
                out = hook(module, incompatible)
                assert out is None, ("Hooks registered with ``register_load_state_dict_post_hook`` "
                                     "are not expected to return new values, if incompatible_keys "
                                     "need to be modified, it should be done inplace.")

        load(self, state_dict)
        if strict:
            if unexpected_keys:
                error_msgs.insert(0, "Unexpected key(s) in state_dict: {}. ".format(
                    ", ".join('"{}"'.format(k) for k in unexpected_keys)))
            if missing_keys:
                error_msgs.insert(0, "Missing key(s) in state_dict: {}. ".format(
                    ", ".join('"{}"'.format(k) for k in missing_keys)))
        if error_msgs:
            raise RuntimeError("Error(s) in loading state_dict for {}:\n\t{}".format(
                self.__class__.__name__, "\n\t".join(error_msgs)))
        return _IncompatibleKeys(missing_keys, unexpected_keys)

    # --- traversal ----------------------------------------------------------------------------
    def _named_members(self, get_members, prefix="", recurse=True, remove_duplicate=True):
        seen = set()
        modules = self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate) if recurse \
            else [(prefix, self)]
        for module_prefix, module in modules:
            for k, v in get_members(module):
                if v is None or (remove_duplicate and id(v) in seen):
                    continue
                seen.add(id(v))
                yield module_prefix + ("." if module_prefix else "") + k, v

    def parameters(self, recurse=True):
        """Every parameter of this module and (recurse) its submodules, each once."""
        for _, p in self.named_parameters(recurse=recurse):
            yield p

    def named_parameters(self, prefix="", recurse=True, remove_duplicate=True):
        """(dotted name, parameter) pairs: '0.weight', '0.bias', ..."""
        yield from self._named_members(lambda m: m._parameters.items(), prefix, recurse, remove_duplicate)

    def buffers(self, recurse=True):
        for _, b in self.named_buffers(recurse=recurse):
            yield b

    def named_buffers(self, prefix="", recurse=True, remove_duplicate=True):
        """(dotted name, buffer) pairs, the non-persistent buffers included."""
        yield from self._named_members(lambda m: m._buffers.items(), prefix, recurse, remove_duplicate)

    def children(self):
        for _, m in self.named_children():
            yield m

    def named_children(self):
        """(name, module) for each direct child, each module once."""
        seen = set()
        for name, module in self._modules.items():
            if module is not None and id(module) not in seen:
                seen.add(id(module))
                yield name, module

    def modules(self):
        for _, m in self.named_modules():
            yield m

    def named_modules(self, memo=None, prefix="", remove_duplicate=True):
        """(dotted name, module) for self ('' or prefix) and every submodule, depth first; a
        module reachable twice comes once unless remove_duplicate=False."""
        if memo is None:
            memo = set()
        if id(self) in memo:
            return
        if remove_duplicate:
            memo.add(id(self))
        yield prefix, self
        for name, module in self._modules.items():
            if module is None:
                continue
            yield from module.named_modules(memo, prefix + ("." if prefix else "") + name, remove_duplicate)

    # --- modes and gradients ------------------------------------------------------------------
    def train(self, mode=True):
        """Sets training mode (Dropout drops, BatchNorm uses batch statistics) on self and every
        submodule; returns self."""
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for module in self.children():
            module.train(mode)
        return self

    def eval(self):
        """train(False)."""
        return self.train(False)

    def requires_grad_(self, requires_grad=True):
        """Sets requires_grad on every parameter (freezing or unfreezing); returns self."""
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none=True):
        """Clears every parameter's gradient: with ``set_to_none=True``, the default, sets it to
        None; with False detaches it from any graph and fills it with zeros.

        The default is torch 2.x's, as Optimizer.zero_grad's, not torch 1.13's (False): after it
        ``p.grad`` reads None, and a parameter the next step leaves unused keeps no gradient.
        Pass ``set_to_none=False`` for 1.13's behaviour."""
        for p in self.parameters():
            if p.grad is not None:
                if set_to_none:
                    p.grad = None
                else:
                    if p.grad.grad_fn is not None:
                        p.grad.detach_()
                    else:
                        p.grad.requires_grad_(False)
                    p.grad.zero_()

    # --- printing -----------------------------------------------------------------------------
    def _get_name(self):
        return self.__class__.__name__

    def extra_repr(self):
        """The module's own settings for its repr, one line or several; '' for none."""
        return ""

    def __repr__(self):
        extra = self.extra_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = ["(" + key + "): " + _addindent(repr(module), 2) for key, module in self._modules.items()]
        lines = extra_lines + child_lines
        text = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                text += extra_lines[0]
            else:
                text += "\n  " + "\n  ".join(lines) + "\n"
        return text + ")"


def _parse_to(args, kwargs):
    """torch._C._nn._parse_to: (device, dtype, non_blocking) from Module.to's three forms."""
    device = kwargs.pop("device", None)
    dtype = kwargs.pop("dtype", None)
    non_blocking = kwargs.pop("non_blocking", False)
    kwargs.pop("copy", None)
    memory_format = kwargs.pop("memory_format", None)
    if kwargs:
        raise TypeError("to() got an unexpected keyword argument '{}'".format(next(iter(kwargs))))
    del memory_format  # only contiguous tensors here: every format is the same
    rest = list(args)
    if rest and isinstance(rest[0], opscope.Tensor):
        other = rest.pop(0)
        device, dtype = other.device, other.dtype
    elif rest and isinstance(rest[0], opscope.dtype):
        dtype = rest.pop(0)
    elif rest and (isinstance(rest[0], (str, opscope.device)) or
                   (isinstance(rest[0], int) and not isinstance(rest[0], bool))):
        device = rest.pop(0)
        if rest and isinstance(rest[0], opscope.dtype):
            dtype = rest.pop(0)
    if rest and isinstance(rest[0], bool):
        non_blocking = rest.pop(0)
    if rest:
        raise TypeError("to() received an invalid combination of arguments - got ({})".format(
            ", ".join(type(a).__name__ for a in args)))
    if device is not None:
        device = opscope.device("cuda", device) if isinstance(device, int) else opscope.device(device)
    return device, dtype, non_blocking
