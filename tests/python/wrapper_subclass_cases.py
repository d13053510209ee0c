"""Cases for test_wrapper_subclass.py, written once for both libraries: each case takes the
module (torch under tests/python/make_torch_reference_wrapper.py, opscope in the test) and an
Env of the classes below built on it, and returns a value; what every case logged is recorded.

Two __torch_dispatch__ wrapper subclasses (made with Tensor._make_wrapper_subclass, data in
.elem): LoggingTensor wraps every tensor result again, Unwrapping returns plain results. And a
logging mode over plain tensors.
"""


def tree_map(fn, x):
    if isinstance(x, (list, tuple)):
        return type(x)(tree_map(fn, e) for e in x)
    if isinstance(x, dict):
        return {k: tree_map(fn, v) for k, v in x.items()}
    return fn(x)


class Env:
    def __init__(self, torch):
        from importlib import import_module
        self.torch = torch
        self.log = log = []
        TorchDispatchMode = import_module(torch.__name__ + ".utils._python_dispatch").TorchDispatchMode

        def new(cls, elem):
            r = torch.Tensor._make_wrapper_subclass(
                cls, elem.size(), strides=elem.stride(), storage_offset=elem.storage_offset(),
                dtype=elem.dtype, device=elem.device, requires_grad=elem.requires_grad)
            r.elem = elem
            return r

        class LoggingTensor(torch.Tensor):
            __torch_function__ = torch._C._disabled_torch_function_impl

            @classmethod
            def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
                log.append(str(func))
                unwrap = lambda e: e.elem if isinstance(e, LoggingTensor) else e  # noqa: E731
                wrap = lambda e: LoggingTensor(e) if isinstance(e, torch.Tensor) else e  # noqa: E731
                return tree_map(wrap, func(*tree_map(unwrap, args), **tree_map(unwrap, kwargs or {})))

        class Unwrapping(torch.Tensor):
            __torch_function__ = torch._C._disabled_torch_function_impl

            @classmethod
            def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
                log.append(str(func))
                unwrap = lambda e: e.elem if isinstance(e, Unwrapping) else e  # noqa: E731
                return func(*tree_map(unwrap, args), **tree_map(unwrap, kwargs or {}))

        class Mode(TorchDispatchMode):
            def __torch_dispatch__(self, func, types, args=(), kwargs=None):
                log.append(str(func))
                return func(*args, **(kwargs or {}))

        LoggingTensor.__new__ = staticmethod(new)
        Unwrapping.__new__ = staticmethod(new)
        self.L, self.U, self.Mode = LoggingTensor, Unwrapping, Mode


def _in_mode(fn):
    def case(t, env):
        with env.Mode():
            return fn(t, env)
    return case


def _backward(t, env):
    x = env.L(t.arange(6.0).reshape(2, 3).requires_grad_())
    loss = (x * 2).sum()
    env.log.clear()
    loss.backward()
    return [type(x.grad).__name__, x.grad.elem.tolist()]


CASES = {
    # reading a wrapper's values
    "item": lambda t, env: env.L(t.tensor(2.5)).item(),
    "item_int": lambda t, env: env.L(t.tensor([7])).item(),
    "float": lambda t, env: float(env.L(t.tensor(2.5))),
    "int": lambda t, env: int(env.L(t.tensor(3))),
    "bool": lambda t, env: bool(env.L(t.tensor(1.0))),
    "index": lambda t, env: [1, 2, 3][env.L(t.tensor(2))],
    "item_two_elements": lambda t, env: env.L(t.ones(2)).item(),
    "tolist": lambda t, env: env.L(t.tensor([1.5, 2.0])).tolist(),
    "tolist_unwrapping": lambda t, env: env.U(t.tensor([1.5, 2.0])).tolist(),
    "numpy": lambda t, env: env.L(t.tensor([1.5, 2.0])).numpy(),
    "array": lambda t, env: __import__("numpy").asarray(env.U(t.tensor([1.5, 2.0]))),
    "data_ptr": lambda t, env: env.L(t.tensor([1.5, 2.0])).data_ptr(),
    "data_ptr_of_view": lambda t, env: env.L(t.tensor([1.5, 2.0, 3.0]))[1:].data_ptr(),
    "element_size": lambda t, env: env.L(t.tensor([1.5, 2.0])).element_size(),
    # a wrapper where torch reads a number from a tensor
    "as_index": lambda t, env: t.arange(3.0)[env.L(t.tensor(1))].tolist(),
    "as_scalar_argument": lambda t, env: t.ones(2).add(1, alpha=env.L(t.tensor(2.0))).tolist(),
    "tensor_of_a_wrapper": lambda t, env: (lambda r: [type(r).__name__, r.elem.tolist(), r.requires_grad])(
        t.tensor(env.L(t.tensor([1.5, 2.0])), dtype=t.float64, requires_grad=True)),
    # printing an Unwrapping tensor (torch prints these; see the test for LoggingTensor)
    "repr_0d": lambda t, env: repr(env.U(t.tensor(2.5))),
    "repr_int_2d": lambda t, env: repr(env.U(t.tensor([[1, 2], [3, 4]]))),
    "repr_empty": lambda t, env: repr(env.U(t.zeros(0))),
    "repr_summarized": lambda t, env: repr(env.U(t.arange(2000.0))),
    "repr_bool_0d": lambda t, env: repr(env.U(t.tensor(True))),
    # a mode over plain tensors
    "mode_item": _in_mode(lambda t, env: t.ones(()).mul(2.5).item()),
    "mode_float": _in_mode(lambda t, env: float(t.ones(()).mul(2.5))),
    "mode_tolist": _in_mode(lambda t, env: t.ones(2).tolist()),
    "mode_scalar_argument": _in_mode(lambda t, env: t.ones(2).add(1, alpha=t.ones(()).mul(2.0)).tolist()),
    # the seed gradient of backward: ones_like of the output, a LoggingTensor
    "backward_seed": _backward,
}


def outcome(torch, name):
    """{"value": repr} or {"error", "message"}, and "ops": what the subclasses / mode logged."""
    env = Env(torch)
    try:
        result = {"value": repr(CASES[name](torch, env))}
    except Exception as e:  # noqa: BLE001 - the exception is the recorded outcome
        result = {"error": type(e).__name__, "message": str(e).split("\n")[0]}
    result["ops"] = list(env.log)
    return result
