"""``opscope.optim.Optimizer``: parameter groups, per-parameter state, zero_grad, state_dict /
load_state_dict, printing and the step loop, as torch.optim.Optimizer, with the pieces the
optimizers share (argument checks, state, path choice, maximize / weight decay); each optimizer's
own update rule is in its own file.

Each optimizer updates a group in one of three ways, chosen like torch 2.x's ``foreach=`` and
``fused=`` arguments (see _implementation):

- ``"single"``: tensor by tensor with ordinary ops (mul_, add_, ...), torch 1.13's for-loop;
- ``"foreach"``: the same arithmetic over all parameters at once with the ``opscope._foreach_*``
  ops, one call per step of the formula;
- ``"fused"``: one ``opscope._fused_*`` op that reads and writes each parameter's memory once
  (SGD, Adam, AdamW, RMSprop) — the default where the parameters allow it. RMSprop's
  (_fused_rmsprop_) is opscope's own: torch has none.

The path changes the speed, not the formula (results agree to rounding). Where torch 1.13's
foreach=True and its for-loop use different formulas (NAdam, RAdam, ASGD), the formula follows
the foreach argument as 1.13's does, whichever path runs (_torch_foreach_numbers).

The foreach and fused paths take CPU and CUDA parameters (the ops have a kernel for each), one
call per device and dtype (_per_device_and_dtype, as torch 2.x's
_group_tensors_by_device_and_dtype): one optimizer may hold parameters on several devices, each
device gets its own launch, and a group whose parameters share a device and a dtype — the usual
case — runs as one call, as before. State tensors (momentum buffers, moving averages) are made on
their parameter's device.
"""
from collections import defaultdict
from copy import deepcopy
from itertools import chain
import warnings

import opscope

__all__ = ["Optimizer", "required"]


class _RequiredParameter:
    """Singleton class representing a required parameter for an Optimizer."""

    def __repr__(self):
        return "<required parameter>"


required = _RequiredParameter()


def _typename(obj):
    """torch.typename: "torch.FloatTensor" for a float tensor, else the qualified class name."""
    if isinstance(obj, opscope.Tensor):
        return obj.type()
    module = type(obj).__module__
    return (module + "." if module not in (None, "builtins") else "") + type(obj).__qualname__


_FLOAT_DTYPES = (opscope.float32, opscope.float64)


def _kernel_groups(params, grads):
    """Whether the opscope._foreach_* / _fused_* kernels take these parameters — CPU or CUDA
    float32 / float64 tensors with dense (not sparse) gradients of their dtype and sizes — and how
    they split into one call per device and dtype: (False, None) when the kernels do not take
    them, (True, None) when they share one device and dtype (the usual case: one call), else
    (True, the index lists of _device_dtype_groups). One pass over the parameters: this runs for
    every group at every step. (A gradient on another device than its parameter is the kernel's
    error to raise, as torch's.)"""
    first = params[0]
    dtype, on_cpu = first.dtype, first.is_cpu
    # is_cpu / is_cuda, not device.type: one attribute instead of a Device object per parameter
    # (0.02 against 0.45 us).
    mixed = not on_cpu  # CUDA parameters: their devices are told apart below
    for p, g in zip(params, grads):
        d = p.dtype
        if d not in _FLOAT_DTYPES or g.dtype != d or g.shape != p.shape:
            return False, None
        if p.is_cpu:
            mixed = mixed or d is not dtype
        elif p.is_cuda:
            mixed = True
        else:
            return False, None
    return True, (_device_dtype_groups(params) if mixed else None)


def _supported_devices():
    return ["cpu", "cuda"] if opscope.cuda._is_compiled() else ["cpu"]


_gpu_count = None  # visible GPUs, read once (they cannot change in a process)


def _device_dtype_groups(tensors):
    """The indices of `tensors` grouped by (device, dtype), groups in order of first appearance
    (torch 2.x's _group_tensors_by_device_and_dtype); None when all share one device and dtype.
    With one GPU, is_cpu tells the devices apart without a Device object per tensor."""
    global _gpu_count
    if _gpu_count is None:
        _gpu_count = opscope.cuda.device_count()
    one_gpu = _gpu_count <= 1
    groups = {}
    for i, t in enumerate(tensors):
        device = "cpu" if t.is_cpu else "cuda" if one_gpu and t.is_cuda else str(t.device)
        groups.setdefault((device, t.dtype), []).append(i)
    return None if len(groups) == 1 else list(groups.values())


def _per_device_and_dtype(update, groups):
    """`update(params, grads, *lists, **options)` (a foreach or fused path) run once per group of
    `groups` (_kernel_groups'; None: one call over everything), each list cut to the group's
    indices: a launch never mixes devices. Entries the update sets in a list (SGD's first momentum
    buffers) are written back at their indices; an empty list (a buffer the options leave out)
    stays empty."""
    if groups is None:
        return update

    def run(params, grads, *lists, **options):
        for idx in groups:
            parts = [[values[i] for i in idx] if values else values for values in lists]
            update([params[i] for i in idx], [grads[i] for i in idx], *parts, **options)
            for values, part in zip(lists, parts):
                for i, value in zip(idx, part):
                    values[i] = value
    return run


def _implementation(group, params, grads, has_fused=True):
    """How step() updates one group — "fused", "foreach" or "single" (see the module docstring) —
    and its parameters' device and dtype groups for the first two (_kernel_groups).

    ``fused=True`` or ``foreach=True`` ask for that path (both: torch's error); with both left
    None, the fused kernel is used where the optimizer has one and the parameters allow it, then
    foreach; ``False`` for both gives torch 1.13's tensor-by-tensor loop."""
    fused, foreach = group.get("fused"), group.get("foreach")
    if fused and foreach:
        raise RuntimeError("`fused` and `foreach` cannot be `True` together.")
    ok, groups = _kernel_groups(params, grads)
    if fused:
        if not has_fused:
            raise RuntimeError("`fused=True` is not supported by this optimizer")
        if not ok:
            raise RuntimeError("`fused=True` requires all the params to be floating point Tensors "
                               "of supported devices: {}.".format(_supported_devices()))
        return "fused", groups
    if foreach:
        return ("foreach", groups) if ok else ("single", None)
    if fused is None and foreach is None and ok:
        return ("fused" if has_fused else "foreach"), groups
    return "single", None


def _equal_or_none(values):
    """The one value all of `values` share, or None when they differ: a foreach op takes one
    Scalar, so per-parameter scalars (bias corrections at different steps) fall back to a loop."""
    first = values[0]
    return first if all(v == first for v in values) else None


_ARG_NAMES = {"lr": "learning rate", "eps": "epsilon value"}


def _check_args(**values):
    """torch's checks of hyper-parameters, in the order given: each must be >= 0 ("Invalid
    learning rate: -1", "Invalid momentum value: -1", ...); `rho` must also be <= 1 and each of
    `betas` < 1 ("Invalid beta parameter at index 0: 1.0")."""
    for name, value in values.items():
        if name == "betas":
            for i in (0, 1):
                if not 0.0 <= value[i] < 1.0:
                    raise ValueError("Invalid beta parameter at index {}: {}".format(i, value[i]))
        elif not (0.0 <= value <= 1.0 if name == "rho" else 0.0 <= value):
            raise ValueError("Invalid {}: {}".format(_ARG_NAMES.get(name, name + " value"), value))


def _zeros(param):
    """A state buffer for `param`: zeros of its sizes, dtype and layout."""
    return opscope.zeros_like(param, memory_format=opscope.preserve_format)


def _direction(param, grad, maximize, weight_decay):
    """The gradient a tensor-by-tensor step follows: negated to maximize, plus L2 weight decay."""
    grad = grad if not maximize else -grad
    return grad.add(param, alpha=weight_decay) if weight_decay != 0 else grad


def _foreach_directions(params, grads, maximize, weight_decay):
    """_direction over all of a group's parameters with the _foreach_* ops."""
    if maximize:
        grads = opscope._foreach_neg(grads)
    if weight_decay != 0:
        grads = opscope._foreach_add(grads, params, alpha=weight_decay)
    return grads


def _torch_foreach_numbers(group):
    """Whether torch 1.13 runs this group with its foreach implementation: only when foreach=True
    is given (its default, None, means the for-loop). Where 1.13's two implementations use
    different formulas (NAdam's momentum product, RAdam's epsilon, ASGD's eta: see those files),
    each path here computes what torch 1.13 computes for the same arguments — the path chosen
    (_implementation) is a matter of speed, not of the formula."""
    return group["foreach"] is True


def _float_tensor(value):
    """torch.tensor(float(value)): a 0-d float32 tensor."""
    return opscope.tensor(float(value))


def _old_scalars_as_tensors(state, **to_tensor):
    """torch 1.13's __setstate__ for a state saved by an older torch, which kept 'step' (and
    NAdam's mu_product, ASGD's eta and mu) as Python numbers: each key given becomes a 0-d tensor
    by its function when the first parameter's state holds a number there (torch looks at the
    first one only)."""
    values = list(state.values())
    for key, make in to_tensor.items():
        if values and not isinstance(values[0][key], opscope.Tensor):
            for s in values:
                s[key] = make(s[key])


def _state_copy(value):
    """A deep copy of a state_dict's value: tensors cloned, containers rebuilt."""
    if isinstance(value, opscope.Tensor):
        return value.detach().clone()
    if isinstance(value, dict):
        return type(value)((k, _state_copy(v)) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return type(value)(_state_copy(v) for v in value)
    return deepcopy(value)


class Optimizer:
    r"""Base class for all optimizers: parameter groups (dicts with 'params' and the
    hyper-parameters, defaults filled in) and per-parameter state; subclasses implement step().

    Args:
        params (iterable): an iterable of :class:`opscope.Tensor` s or :class:`dict` s.
        defaults (dict): the optimization options a group gets when it does not set them.
    """

    def __init__(self, params, defaults):
        self.defaults = defaults
        if isinstance(params, opscope.Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of "
                            "Tensors or dicts, but got " + _typename(params))
        self.state = defaultdict(dict)
        self.param_groups = []
        param_groups = list(params)
        if len(param_groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(param_groups[0], dict):
            param_groups = [{"params": param_groups}]
        for param_group in param_groups:
            self.add_param_group(param_group)

    def __getstate__(self):
        return {"defaults": self.defaults, "state": self.state, "param_groups": self.param_groups}

    # the group options an optimizer's __setstate__ fills in when an older pickle lacks them
    _group_defaults = ()

    def __setstate__(self, state):
        self.__dict__.update(state)
        for group in self.param_groups:
            for key, value in self._group_defaults:
                group.setdefault(key, value)

    def __repr__(self):
        format_string = self.__class__.__name__ + " ("
        for i, group in enumerate(self.param_groups):
            format_string += "\n"
            format_string += "Parameter Group {0}\n".format(i)
            for key in sorted(group.keys()):
                if key != "params":
                    format_string += "    {0}: {1}\n".format(key, group[key])
        format_string += ")"
        return format_string

    def state_dict(self):
        r"""The optimizer's state as a dict, in torch's structure:

        * ``state``: each parameter's state, keyed by the parameter's index (counted over the
          groups in order);
        * ``param_groups``: each group's options, with ``'params'`` the list of its indices.
        """
        param_mappings = {}
        start_index = 0

        def pack_group(group):
            nonlocal start_index
            packed = {k: v for k, v in group.items() if k != "params"}
            param_mappings.update({id(p): i for i, p in enumerate(group["params"], start_index)
                                   if id(p) not in param_mappings})
            packed["params"] = [param_mappings[id(p)] for p in group["params"]]
            start_index += len(packed["params"])
            return packed

        param_groups = [pack_group(g) for g in self.param_groups]
        packed_state = {(param_mappings[id(k)] if isinstance(k, opscope.Tensor) else k): v
                        for k, v in self.state.items()}
        return {"state": packed_state, "param_groups": param_groups}

    def load_state_dict(self, state_dict):
        r"""Loads a state from :meth:`state_dict` (a copy of it): the groups must match in number
        and sizes; state tensors are cast to their parameter's dtype (floating parameters; 'step'
        is kept as it is) and device."""
        state_dict = _state_copy(state_dict)
        groups = self.param_groups
        saved_groups = state_dict["param_groups"]
        if len(groups) != len(saved_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        param_lens = (len(g["params"]) for g in groups)
        saved_lens = (len(g["params"]) for g in saved_groups)
        if any(p_len != s_len for p_len, s_len in zip(param_lens, saved_lens)):
            raise ValueError("loaded state dict contains a parameter group that doesn't match the "
                             "size of optimizer's group")
        id_map = {old_id: p for old_id, p in
                  zip(chain.from_iterable(g["params"] for g in saved_groups),
                      chain.from_iterable(g["params"] for g in groups))}

        def cast(param, value, key=None):
            if isinstance(value, opscope.Tensor):
                if key != "step":
                    if param.is_floating_point():
                        value = value.to(param.dtype)
                    value = value.to(param.device)
                return value
            if isinstance(value, dict):
                return {k: cast(param, v, key=k) for k, v in value.items()}
            if isinstance(value, (list, tuple)):
                return type(value)(cast(param, v) for v in value)
            return value

        state = defaultdict(dict)
        for k, v in state_dict["state"].items():
            if k in id_map:
                param = id_map[k]
                state[param] = cast(param, v)
            else:
                state[k] = v

        def update_group(group, new_group):
            new_group["params"] = group["params"]
            return new_group

        param_groups = [update_group(g, ng) for g, ng in zip(groups, saved_groups)]
        self.__setstate__({"state": state, "param_groups": param_groups})

    def zero_grad(self, set_to_none=True):
        r"""Clears the gradients of all optimized tensors: with ``set_to_none=True``, the default,
        sets them to None (no memory written, and the next backward's gradient is kept without a
        copy); with False detaches them from any graph and fills them with zeros (float32 /
        float64 gradients with one _foreach_zero_ call).

        The default is torch 2.x's, not torch 1.13's (False), which the rest of this module
        follows. It changes what 1.13 code computes in one case: a parameter a step leaves unused
        gets no gradient, so the optimizer skips it (momentum no longer moves it, weight decay no
        longer shrinks it); and ``p.grad`` reads None after zero_grad. Pass
        ``set_to_none=False`` for 1.13's results."""
        zeros = []  # the float gradients, zeroed by one _foreach_zero_ per device and dtype
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                if set_to_none:
                    p.grad = None
                    continue
                if p.grad.grad_fn is not None:
                    p.grad.detach_()
                else:
                    p.grad.requires_grad_(False)
                if p.grad.dtype in _FLOAT_DTYPES:
                    zeros.append(p.grad)
                else:
                    p.grad.zero_()
        groups = _device_dtype_groups(zeros) if zeros else []
        for part in [zeros] if groups is None else [[zeros[i] for i in idx] for idx in groups]:
            opscope._foreach_zero_(part)

    @opscope.no_grad()
    def step(self, closure=None):
        r"""Performs a single optimization step (parameter update); `closure` re-evaluates the
        model and returns the loss. The optimizers here update each group's parameters that have
        a gradient with their _update_group; other subclasses override step()."""
        if type(self)._update_group is Optimizer._update_group:
            raise NotImplementedError
        loss = None
        if closure is not None:
            with opscope.enable_grad():
                loss = closure()
        for group in self.param_groups:
            params, grads = [], []
            for p in group["params"]:
                if p.grad is not None:
                    params.append(p)
                    grads.append(p.grad)
            if params:
                self._update_group(group, params, grads)
        return loss

    def _update_group(self, group, params, grads):
        """One step of `group` over `params` (those with a gradient) and their `grads`."""
        raise NotImplementedError

    def add_param_group(self, param_group):
        r"""Adds a parameter group (a dict with 'params' and, optionally, options that override
        the defaults), checking what torch checks: tensors, leaves, no parameter in two groups,
        every required option given."""
        assert isinstance(param_group, dict), "param group must be a dict"
        params = param_group["params"]
        if isinstance(params, opscope.Tensor):
            param_group["params"] = [params]
        elif isinstance(params, set):
            raise TypeError("optimizer parameters need to be organized in ordered collections, but "
                            "the ordering of tensors in sets will change between runs. Please use "
                            "a list instead.")
        else:
            param_group["params"] = list(params)
        for param in param_group["params"]:
            if not isinstance(param, opscope.Tensor):
                raise TypeError("optimizer can only optimize Tensors, but one of the params is "
                                + _typename(param))
            if not self.defaults.get("differentiable", None) and not (
                    param.is_leaf or param.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError("parameter group didn't specify a value of required "
                                 "optimization parameter " + name)
            param_group.setdefault(name, default)
        params = param_group["params"]
        if len(params) != len(set(map(id, params))):
            warnings.warn("optimizer contains a parameter group with duplicate parameters; in "
                          "future, this will cause an error; see "
                          "github.com/pytorch/pytorch/issues/40967 for more information",
                          stacklevel=3)
        param_set = set()
        for group in self.param_groups:
            param_set.update(id(p) for p in group["params"])
        if not param_set.isdisjoint(id(p) for p in param_group["params"]):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)

    # --- for the subclasses' _update_group() ---------------------------------------------

    def _states(self, params, init=None):
        """Each parameter's state dict; `init(param, state)` fills the empty ones (first step)."""
        states = [self.state[p] for p in params]
        if init is not None:
            for p, state in zip(params, states):
                if len(state) == 0:
                    init(p, state)
        return states

    @staticmethod
    def _path(group, params, grads, single, foreach, fused=None):
        """The update function of the path _implementation picks for this group (`fused` None:
        the optimizer has no fused kernel); foreach and fused run per device and dtype."""
        how, groups = _implementation(group, params, grads, has_fused=fused is not None)
        if how == "single":
            return single
        return _per_device_and_dtype(foreach if how == "foreach" else fused, groups)
