"""The __torch_function__ observations shared by make_torch_reference_overrides.py (which runs
them on torch 1.13 and writes data/overrides_torch.json) and test_torch_function.py (which runs
them on opscope and compares). ``observe(lib)`` returns {section: {case: observation}}; every
observation is plain JSON (type and function names, never addresses).

Sections: which func / args an operator, method, property or function hands to an override and
the type of its result (``calls``); the order overrides are tried in, NotImplemented and the
TypeError when all decline (``order``); the ``types`` argument (``types``); modes, nested and
with DisableTorchFunction (``modes``); subclass preservation and nn.Parameter (``subclass``);
has_torch_function / is_tensor_like (``checks``); the seed's InterceptTensor walkthrough
(``seed``).
"""
import contextlib
import io
import re


def _name(obj):
    return getattr(obj, "__name__", type(obj).__name__)


def _tname(obj):
    return type(obj).__name__


def _outcome(fn):
    try:
        r = fn()
    except Exception as e:  # noqa: BLE001 - the outcome is what we record
        return {"error": type(e).__name__, "message": _normalize(str(e))}
    if isinstance(r, (tuple, list)):
        return {"type": _tname(r), "items": [_tname(v) for v in r]}
    return {"type": _tname(r)}


def _normalize(text):
    """Class reprs without their module (tests and recorder live in different modules), the
    library's name as torch's, no addresses."""
    text = re.sub(r"<class '(?:[\w.]+\.)?(\w+)'>", r"<class '\1'>", text)
    text = re.sub(r"0x[0-9a-f]+", "0x?", text)
    return text.replace("opscope", "torch")


# (case, expression): `x`, `w` are subclass tensors of shape (2, 2), `t` a plain one, `m` the
# library, `F` its nn.functional, `K()` a plain class with __torch_function__.
CALLS = [
    ("add", "x + 1"), ("radd", "1 + x"), ("sub", "x - 1"), ("rsub", "1 - x"), ("mul", "x * 2"),
    ("rmul", "2 * x"), ("truediv", "x / 2"), ("matmul", "x @ x"), ("pow", "x ** 2"),
    ("mod", "x % 2"), ("abs", "abs(x)"), ("neg", "-x"),
    ("iadd", "x.__iadd__(1)"), ("isub", "x.__isub__(1)"), ("imul", "x.__imul__(1)"),
    ("itruediv", "x.__itruediv__(1)"),
    ("eq", "x == 1"), ("ne", "x != 1"), ("lt", "x < 1"), ("le", "x <= 1"), ("gt", "x > 1"),
    ("ge", "x >= 1"), ("reflected_lt", "1 < x"),
    ("getitem", "x[0]"), ("getitem_tuple", "x[0, 1]"), ("setitem", "x.__setitem__(0, 1.)"),
    ("bool", "bool(t[0, 0].as_subclass(type(x)))"), ("float", "float(t[0, 0].as_subclass(type(x)))"),
    ("int", "int(t[0, 0].as_subclass(type(x)))"),
    ("and", "xl & 1"), ("or", "xl | 1"), ("xor", "xl ^ 1"), ("invert", "~xl"),
    ("plain_add_sub", "t + x"), ("plain_matmul_sub", "t @ x"), ("sub_matmul_plain", "x @ t"),
    ("relu", "m.relu(x)"), ("relu_kw", "m.relu(input=x)"), ("cat", "m.cat([t, x])"),
    ("stack_tuple", "m.stack((x, t))"), ("add_fn", "m.add(t, x)"), ("add_alpha", "m.add(t, x, alpha=2)"),
    ("where", "m.where(x > 0, x, t)"), ("max_dim", "m.max(x, 0)"), ("sort", "x.sort()"),
    ("unbind", "x.unbind(0)"), ("chunk", "x.chunk(2)"),
    ("sum", "x.sum()"), ("view", "x.view(4)"), ("transpose", "x.t()"), ("clone", "x.clone()"),
    ("detach", "x.detach()"), ("to_dtype", "x.to(m.float64)"), ("float_method", "x.float()"),
    ("size", "x.size()"), ("size_dim", "x.size(0)"), ("dim", "x.dim()"), ("numel", "x.numel()"),
    ("item", "x[0, 0].item()"), ("tolist", "x.tolist()"),
    ("shape", "x.shape"), ("dtype", "x.dtype"), ("ndim", "x.ndim"), ("requires_grad", "x.requires_grad"),
    ("grad", "x.grad"), ("T", "x.T"), ("is_leaf", "x.is_leaf"), ("device", "x.device"),
    ("F_relu", "F.relu(x)"), ("F_linear", "F.linear(x, w)"), ("F_softmax", "F.softmax(x, dim=0)"),
    ("F_mse", "F.mse_loss(x, t)"), ("norm_fn", "m.norm(x)"), ("unique_fn", "m.unique(x)"),
    ("unique_method", "x.unique()"), ("linalg_inv", "m.linalg.inv(x + 3 * m.eye(2))"),
    ("special_expit", "m.special.expit(x)"),
    ("K_relu", "m.relu(K())"), ("K_add_kw", "m.add(t, other=K(), alpha=2)"), ("K_cat", "m.cat([t, K()])"),
    ("K_method", "t.add(K())"), ("K_operator", "t + K()"), ("K_F_relu", "F.relu(K())"),
    ("K_F_linear", "F.linear(K(), t)"), ("K_view_arg", "t.view(K())"),
    ("module_linear", "m.nn.Linear(2, 2)(x)"), ("module_relu", "m.nn.ReLU()(x)"),
    ("module_mlp", "m.nn.Sequential(m.nn.Linear(2, 3), m.nn.Tanh(), m.nn.Linear(3, 1))(x)"),
]


def _calls(lib):
    m, F = lib, lib.nn.functional
    log = []

    class Sub(m.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            log.append({"func": _name(func), "args": [_tname(a) for a in args],
                        "kwargs": sorted((kwargs or {}).keys()),
                        "types": [t.__name__ for t in types]})
            return super().__torch_function__(func, types, args, kwargs)

    class K:
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            log.append({"func": _name(func), "args": [_tname(a) for a in args],
                        "kwargs": sorted((kwargs or {}).keys()),
                        "types": [t.__name__ for t in types]})
            return "K"

    out = {}
    for case, expr in CALLS:
        t = m.arange(1., 5.).reshape(2, 2)
        x = t.clone().as_subclass(Sub)
        w = m.ones(2, 2).as_subclass(Sub)
        xl = t.long().as_subclass(Sub)
        scope = {"m": m, "F": F, "x": x, "w": w, "t": t, "xl": xl, "K": K}
        log.clear()
        result = _outcome(lambda: eval(expr, scope))  # noqa: S307 - our own cases
        out[case] = {"log": list(log), **result}
    return out


def _order(lib):
    m = lib
    calls = []

    def declining(name, base=object):
        def tf(cls, func, types, args=(), kwargs=None):
            calls.append(name)
            return NotImplemented
        return type(name, (base,), {"__torch_function__": classmethod(tf)})

    A = declining("A")
    B = declining("B", A)
    C = declining("C")
    T1 = declining("T1", m.Tensor)
    T2 = declining("T2", T1)

    def accepting(name, base):
        def tf(cls, func, types, args=(), kwargs=None):
            calls.append(name)
            return name
        return type(name, (base,), {"__torch_function__": classmethod(tf)})

    D = accepting("D", A)
    t = m.ones(2)
    t1, t2 = t.as_subclass(T1), t.as_subclass(T2)
    cases = {
        "one": lambda: m.relu(A()),
        "sub_before_parent": lambda: m.add(A(), B()),
        "left_to_right": lambda: m.add(A(), C()),
        "right_sub_first": lambda: m.add(C(), B()),
        "three": lambda: m.cat([A(), C(), B()]),
        "same_type_once": lambda: m.add(A(), A()),
        "accept_after_decline": lambda: m.add(C(), D()),
        "tensor_subclasses": lambda: m.add(t1, t2),
        "method": lambda: t.add(A()),
        "operator": lambda: t + A(),
        "F": lambda: m.nn.functional.relu(C()),
        "F_two": lambda: m.nn.functional.mse_loss(A(), B()),
        "property": lambda: t1.shape,
        "kwarg": lambda: m.add(t, other=C()),
    }
    out = {}
    for case, fn in cases.items():
        calls.clear()
        out[case] = {"calls": list(calls), **_outcome(fn)}
        out[case]["calls"] = list(calls)
    return out


def _types(lib):
    m = lib
    seen = {}

    class P:
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            seen["types"] = [t.__name__ for t in types]
            return None

    class S(m.Tensor):
        pass

    class S2(S):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            seen["types"] = [t.__name__ for t in types]
            return None

    t = m.ones(2)
    cases = {
        "proxy_and_number": lambda: m.add(P(), 3.14),
        "proxy_and_tensor": lambda: m.add(t, P()),
        "two_kinds": lambda: m.add(t.as_subclass(S), P()),
        "sub_and_parent": lambda: m.add(t.as_subclass(S), t.as_subclass(S2)),
        "list": lambda: m.cat([t, P(), t.as_subclass(S2)]),
    }
    out = {}
    for case, fn in cases.items():
        seen.clear()
        fn()
        out[case] = seen.get("types")
    return out


def _modes(lib):
    m = lib
    from_overrides = __import__(lib.__name__ + ".overrides", fromlist=["TorchFunctionMode"])
    TorchFunctionMode = from_overrides.TorchFunctionMode
    log = []

    class Tag(TorchFunctionMode):
        def __init__(self, tag):
            self.tag = tag

        def __torch_function__(self, func, types, args=(), kwargs=None):
            log.append([self.tag, _name(func), [t.__name__ for t in types]])
            return func(*args, **(kwargs or {}))

    class Sub(m.Tensor):
        pass

    x = m.ones(2)
    out = {}

    def run(case, body):
        log.clear()
        result = _outcome(body)
        out[case] = {"log": list(log), **result}

    def nested():
        with Tag("outer"):
            with Tag("inner"):
                m.relu(x)
                m.zeros(2)
                x + 1
                x.shape
                m.nn.functional.relu(x)
                r = x.as_subclass(Sub) * 2
        return r

    run("nested", nested)

    def disable():
        with Tag("mode"):
            with m._C.DisableTorchFunction():
                m.relu(x)
                enabled = m._C._is_torch_function_enabled()
        return enabled

    run("disable_keeps_mode", disable)

    def stack():
        with Tag("a") as a:
            with Tag("b"):
                n = from_overrides._len_torch_function_stack()
        return [n, from_overrides._len_torch_function_stack(), a.tag]

    out["stack_len"] = stack()

    def after():
        with Tag("gone"):
            pass
        return m.relu(x)

    run("after_exit", after)

    def error():
        with Tag("err"):
            m.relu("not a tensor")

    run("error_inside", error)
    return out


def _subclass(lib):
    m = lib
    out = {}

    class Sub(m.Tensor):
        pass

    a = m.randn(2, 2, requires_grad=True)
    s = a.as_subclass(Sub)
    out["as_subclass"] = {"type": _tname(s), "grad_fn": _tname(s.grad_fn),
                          "requires_grad": s.requires_grad, "is_leaf": s.is_leaf,
                          "base_is_source": s._base is a}
    y = (s * 2).sum()
    out["result_grad_fn"] = [_tname(s * 2), _tname((s * 2).grad_fn)]
    y.backward()
    out["grad_after_backward"] = [_tname(a.grad), _tname(s.grad)]
    x = m.ones(3).as_subclass(Sub)
    out["inplace_same_object"] = x.add_(1) is x
    out["iadd_same_object"] = x.__iadd__(1) is x
    out["getitem"] = _tname(x[0])
    out["slice"] = _tname(x[1:])
    out["iteration"] = [_tname(v) for v in x]
    out["tuple_result"] = [_tname(v) for v in m.max(m.ones(2, 2).as_subclass(Sub), 0)]
    out["list_result"] = [_tname(v) for v in x.split(1)]
    out["disabled"] = {}
    with m._C.DisableTorchFunction():
        out["disabled"] = [_tname(m.relu(x)), _tname(x + 1), m._C._is_torch_function_enabled()]
    out["enabled_after"] = m._C._is_torch_function_enabled()
    out["disabled_impl"] = _tname(m._C._disabled_torch_function_impl(m.relu, (Sub,), (x,), {}))

    class Super(m.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            r = super().__torch_function__(func, types, args, kwargs)
            return ("wrapped", _tname(r))

    out["super_call"] = list(m.relu(m.ones(2).as_subclass(Super)))

    p = m.nn.Parameter(m.randn(2))
    out["parameter"] = [_tname(p * 2), _tname(p.detach()), _tname(p[0]), _tname(m.relu(p)),
                        _tname(p.data), _tname(p.clone())]
    out["parameter_tf_is_disabled"] = (m.nn.Parameter.__torch_function__ is
                                       m._C._disabled_torch_function_impl)
    out["tensor_tf_bound"] = _tname(m.Tensor.__torch_function__)
    out["as_subclass_not_tensor"] = _outcome(lambda: m.ones(1).as_subclass(int))
    out["convert_nested_kept"] = _tname(m.ones(2).as_subclass(Sub).tolist())
    grad_sub = m.arange(4.).reshape(2, 2).requires_grad_().as_subclass(Sub)
    out["repr"] = [repr(m.ones(2).as_subclass(Sub)), repr(grad_sub * 2), repr(m.nn.Parameter(m.ones(1)))]
    return out


def _checks(lib):
    m = lib
    ov = __import__(lib.__name__ + ".overrides", fromlist=["has_torch_function"])

    class P:
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            return None

    class S(m.Tensor):
        pass

    t = m.ones(1)
    p = m.nn.Parameter(m.ones(1))
    s = t.as_subclass(S)
    return {
        "has_plain": ov.has_torch_function((t, 1, None)),
        "has_parameter": ov.has_torch_function((p,)),
        "has_subclass": ov.has_torch_function((t, s)),
        "has_proxy": ov.has_torch_function([P()]),
        "unary_plain": ov.has_torch_function_unary(t),
        "unary_sub": ov.has_torch_function_unary(s),
        "variadic": [ov.has_torch_function_variadic(t, 1), ov.has_torch_function_variadic(t, P())],
        "tensor_like": [ov.is_tensor_like(t), ov.is_tensor_like(s), ov.is_tensor_like(P()),
                        ov.is_tensor_like(6), ov.is_tensor_like(None), ov.is_tensor_like(p)],
        "method_or_property": [ov.is_tensor_method_or_property(m.Tensor.add),
                               ov.is_tensor_method_or_property(m.add),
                               ov.is_tensor_method_or_property(m.Tensor.shape.__get__)],
        "ignored": [m.Tensor.as_subclass in ov.get_ignored_functions(),
                    m.add in ov.get_ignored_functions(), m.zeros in ov.get_ignored_functions()],
        "handle": ov.handle_torch_function(m.relu, (P(),), P()),
        "handle_subclass": _outcome(lambda: ov.handle_torch_function(
            m.nn.functional.relu, (S(),), S())),
    }


SEED = '''
class InterceptTensor:
    """自定义类，实现 __torch_function__ 协议"""

    def __init__(self, data):
        self.data = data

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        print(f"拦截到: {func.__name__}")
        print(f"  参数类型: {types}")
        print(f"  位置参数: {args}")

        # 提取真实数据
        real_args = tuple(
            a.data if isinstance(a, InterceptTensor) else a
            for a in args
        )

        # 调用真实函数
        result = func(*real_args, **(kwargs or {}))

        # 包装结果
        return InterceptTensor(result)

# 测试
x = InterceptTensor(torch.randn(3))
y = torch.relu(x)  # 会打印 "拦截到: relu"
z = torch.add(x, y)
w = torch.nn.functional.relu(x)
print(type(y).__name__, type(y.data).__name__, type(w.data).__name__, y.data.shape)
'''


def _seed(lib):
    """The seed's InterceptTensor example, run as written with `lib` as torch: its output."""
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(SEED, {"torch": lib, "__name__": "__main__"})  # noqa: S102 - our own example
    return _normalize(buf.getvalue()).splitlines()


def observe(lib):
    return {"calls": _calls(lib), "order": _order(lib), "types": _types(lib), "modes": _modes(lib),
            "subclass": _subclass(lib), "checks": _checks(lib), "seed": _seed(lib)}
