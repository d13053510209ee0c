"""Programs whose aten-level calls a logging dispatch mode records, shared by the torch recorder
(make_torch_reference_dispatch.py, ``m = torch``) and the tests (test_torch_dispatch.py,
``m = opscope``). Each case builds its inputs from fixed values, so both libraries run the same
program; the recorded list is ``str(func)`` of every call the mode sees, in order.
"""


def _mlp(m, x_requires_grad=False):
    lin1 = m.nn.Linear(3, 4)
    lin2 = m.nn.Linear(4, 2)
    with m.no_grad():
        lin1.weight.copy_(m.arange(12.0).reshape(4, 3) / 10)
        lin1.bias.copy_(m.arange(4.0) / 10)
        lin2.weight.copy_(m.arange(8.0).reshape(2, 4) / 10 - 0.3)
        lin2.bias.copy_(m.arange(2.0) / 10)
    x = (m.arange(6.0).reshape(2, 3) - 2).requires_grad_(x_requires_grad)
    return lin1, lin2, x


def _inputs(m):
    g = m.Generator().manual_seed(0)
    return {
        "v3": m.arange(3.0),
        "w3": m.arange(3.0) + 1,
        "a23": m.arange(6.0).reshape(2, 3),
        "b34": m.arange(12.0).reshape(3, 4),
        "batch": m.arange(24.0).reshape(2, 3, 4),
        "batch2": m.arange(40.0).reshape(2, 4, 5),
        "g": g,
        "mlp": _mlp(m),
    }


# name -> (setup(m) returning state, body(m, state) run under the mode)
def matmul_1d_1d(m, s):
    return m.matmul(s["v3"], s["w3"])


def matmul_2d_1d(m, s):
    return m.matmul(s["a23"], s["v3"])


def matmul_2d_2d(m, s):
    return m.matmul(s["a23"], s["b34"])


def matmul_batched(m, s):
    return m.matmul(s["batch"], s["batch2"])


def matmul_batched_2d(m, s):
    return m.matmul(s["batch"], s["b34"].t())


def linear(m, s):
    w = m.arange(12.0).reshape(4, 3)
    b = m.arange(4.0)
    return m.nn.functional.linear(s["a23"], w, b)


def linear_1d(m, s):
    w = m.arange(12.0).reshape(4, 3)
    return m.nn.functional.linear(s["v3"], w)


def add_mul(m, s):
    return (s["v3"] + s["w3"]) * 2


def mlp_forward(m, s):
    lin1, lin2, x = s["mlp"]
    return lin2(m.relu(lin1(x)))


FORWARD_CASES = {f.__name__: f for f in [matmul_1d_1d, matmul_2d_1d, matmul_2d_2d, matmul_batched,
                                          matmul_batched_2d, linear, linear_1d, add_mul,
                                          mlp_forward]}


def mlp_backward_setup(m):
    lin1, lin2, x = _mlp(m, x_requires_grad=True)
    loss = lin2(m.relu(lin1(x))).sum()
    return loss


def mlp_backward(m, loss):
    loss.backward()


def mm_backward_setup(m):
    a = (m.arange(6.0).reshape(2, 3) / 3).requires_grad_()
    b = (m.arange(12.0).reshape(3, 4) / 5).requires_grad_()
    return m.mm(a, b).sum()


def mm_backward(m, loss):
    loss.backward()


BACKWARD_CASES = {"mlp_backward": (mlp_backward_setup, mlp_backward),
                  "mm_backward": (mm_backward_setup, mm_backward)}


# Library definitions and their errors: each is a function of (m, lib_module); the outcome
# (value or exception type and message) is recorded.
def lib_define_twice(m, library):
    lib = library.Library("opscope_ref_a", "DEF")
    lib.define("foo(Tensor x) -> Tensor")
    lib.define("foo(Tensor x) -> Tensor")


def lib_bad_schema(m, library):
    lib = library.Library("opscope_ref_b", "DEF")
    lib.define("foo(Tensor x -> Tensor")


def lib_bad_kind(m, library):
    library.Library("opscope_ref_c", "NOPE")


def lib_def_aten(m, library):
    library.Library("aten", "DEF")


def lib_missing_kernel(m, library):
    lib = library.Library("opscope_ref_d", "DEF")
    lib.define("foo(Tensor x) -> Tensor")
    return getattr(m.ops, "opscope_ref_d").foo(m.ones(2))


def lib_impl_cpu(m, library):
    lib = library.Library("opscope_ref_e", "DEF")
    lib.define("twice(Tensor x) -> Tensor")
    lib.impl("twice", lambda x: x * 2, "CPU")
    return getattr(m.ops, "opscope_ref_e").twice(m.arange(3.0)).tolist()


def lib_impl_undefined(m, library):
    lib = library.Library("opscope_ref_f", "DEF")
    lib.impl("nothere", lambda x: x, "CPU")
    return getattr(m.ops, "opscope_ref_f").nothere(m.ones(1))


def lib_impl_in_def_twice(m, library):
    lib = library.Library("opscope_ref_g", "DEF")
    lib.define("g(Tensor x) -> Tensor")
    lib.impl("g", lambda x: x, "CPU")
    lib.impl("g", lambda x: x, "CPU")


def lib_impl_bad_key(m, library):
    lib = library.Library("opscope_ref_h", "DEF")
    lib.define("h(Tensor x) -> Tensor")
    lib.impl("h", lambda x: x, "NoSuchKey")


def lib_missing_overload(m, library):
    lib = library.Library("opscope_ref_i", "DEF")
    lib.define("k(Tensor x) -> Tensor")
    return getattr(m.ops, "opscope_ref_i").k.nope


LIBRARY_CASES = {f.__name__: f for f in [lib_define_twice, lib_bad_schema, lib_bad_kind,
                                          lib_def_aten, lib_missing_kernel, lib_impl_cpu,
                                          lib_impl_undefined, lib_impl_in_def_twice,
                                          lib_impl_bad_key, lib_missing_overload]}
