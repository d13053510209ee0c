"""Custom autograd Functions (opscope/autograd/function.py, core/python/nodes.cpp), hooks on
grad_fn nodes, saved-tensor hooks (opscope/autograd/graph.py) and grad_fn._saved_* attributes,
as torch 1.13 behaves: values, which hooks run, how often, in which order and with what, and
the errors. The "Learning PyTorch with Examples" tutorial's LegendrePolynomial3 closes the file,
checked against the same gradient descent in NumPy.

    PYTHONPATH=core/python /usr/bin/python3 -m pytest -q tests/python/test_autograd_function.py
"""
import math

import numpy as np
import pytest

import opscope
from conftest import assert_close
from opscope.autograd import Function, gradcheck, gradgradcheck
from opscope.autograd.function import once_differentiable

F64 = opscope.float64

FREED = "Trying to backward through the graph a second time"


def values(grads):
    """A tuple of gradients (None kept) as lists, to compare what a hook saw."""
    return tuple(None if g is None else g.tolist() for g in grads)


# --- Functions used by several tests --------------------------------------------------------------

class MyExp(Function):
    @staticmethod
    def forward(ctx, x):
        y = x.exp()
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, grad):
        y, = ctx.saved_tensors
        return grad * y


class Cube(Function):
    """x^3 with a backward made of differentiable ops: create_graph gives a second derivative."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return grad * 3 * x ** 2


class CubeOnce(Function):
    """Cube whose backward is marked once_differentiable."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    @once_differentiable
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return grad * 3 * x ** 2


class SaveInput(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * 2

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return grad * x


# --- custom Functions -----------------------------------------------------------------------------

def test_the_node_is_the_ctx_and_named_after_the_class():
    seen = {}

    class Keep(Function):
        @staticmethod
        def forward(ctx, x):
            seen["ctx"] = ctx
            ctx.save_for_backward(x, None)
            ctx.extra = [1, 2]
            return x.clone()

        @staticmethod
        def backward(ctx, grad):
            x, nothing = ctx.saved_tensors
            seen["backward"] = (nothing, ctx.extra, x.tolist())
            return grad * 3

    x = opscope.tensor([1.0, 2.0], requires_grad=True)
    y = Keep.apply(x)
    assert y.grad_fn is seen["ctx"]
    assert type(y.grad_fn).__name__ == "KeepBackward" and y.grad_fn.name() == "KeepBackward"
    assert isinstance(y.grad_fn, opscope.autograd.function.BackwardCFunction)
    assert isinstance(y.grad_fn, opscope.autograd.function.FunctionCtx)
    assert repr(y).endswith("grad_fn=<KeepBackward>)")
    assert y.requires_grad and not y.is_leaf
    ((acc, nr),) = y.grad_fn.next_functions
    assert type(acc).__name__ == "AccumulateGrad" and acc.variable is x and nr == 0
    assert y.grad_fn.extra == [1, 2]
    saved = y.grad_fn.saved_tensors
    assert saved[0] is x and saved[1] is None  # an input is saved as itself
    assert y.grad_fn.metadata == {}
    y.sum().backward()
    assert seen["backward"] == (None, [1, 2], [1.0, 2.0])
    assert x.grad.tolist() == [3.0, 3.0]
    with pytest.raises(RuntimeError, match=FREED):
        y.sum().backward()
    with pytest.raises(RuntimeError, match=FREED):
        y.grad_fn.saved_tensors


def test_exp_values_and_no_node_without_grad():
    x = opscope.tensor([0.0, 1.0], requires_grad=True)
    y = MyExp.apply(x)
    assert_close(y, np.exp([0.0, 1.0]), what="MyExp forward")
    y.sum().backward(retain_graph=True)
    assert_close(x.grad, np.exp([0.0, 1.0]), what="MyExp backward")
    y.backward(opscope.tensor([2.0, 0.5]))  # the graph was retained: accumulates
    assert_close(x.grad, np.exp([0.0, 1.0]) * [3.0, 1.5], what="MyExp second backward")

    z = MyExp.apply(opscope.tensor([1.0]))  # no input requires grad: no node
    assert z.grad_fn is None and not z.requires_grad
    with opscope.no_grad():
        z = MyExp.apply(x)
    assert z.grad_fn is None and not z.requires_grad


def test_needs_input_grad_non_tensor_arguments_and_outputs():
    seen = []

    class Scale(Function):
        @staticmethod
        def forward(ctx, a, k, b, flag):
            ctx.k = k
            ctx.flag = flag
            seen.append(("forward", ctx.needs_input_grad, opscope.is_grad_enabled()))
            return a * k + b, k * 2

        @staticmethod
        def backward(ctx, grad, grad_k):
            seen.append(("backward", ctx.needs_input_grad, ctx.k, ctx.flag, grad_k))
            return grad * ctx.k, None, None, None

    a = opscope.tensor([1.0, 2.0], requires_grad=True)
    b = opscope.tensor([3.0, 4.0])
    out, k2 = Scale.apply(a, 3.0, b, "hi")
    assert out.tolist() == [6.0, 10.0] and k2 == 6.0 and type(k2) is float
    assert type(out.grad_fn).__name__ == "ScaleBackward"
    # one edge per tensor argument: a's AccumulateGrad, None for b (needs no grad)
    assert [(type(f).__name__ if f else None, n) for f, n in out.grad_fn.next_functions] == [
        ("AccumulateGrad", 0), (None, 0)]
    out.sum().backward()
    assert a.grad.tolist() == [3.0, 3.0]
    assert seen == [("forward", (True, False, False, False), False),
                    ("backward", (True, False, False, False), 3.0, "hi", None)]
    seen.clear()
    out, _ = Scale.apply(b, 2.0, b, 1)
    assert out.grad_fn is None
    assert seen == [("forward", (False, False, False, False), False)]


def test_outputs_that_are_not_tensors_get_none_gradients():
    seen = []

    class Mixed(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2, "s", 5

        @staticmethod
        def backward(ctx, grad, grad_s, grad_5):
            seen.append((grad.tolist(), grad_s, grad_5))
            return grad * 2

    x = opscope.tensor([1.0, 2.0], requires_grad=True)
    f, s, n = Mixed.apply(x)
    assert (s, n) == ("s", 5)
    f.sum().backward()
    assert seen == [([1.0, 1.0], None, None)]
    assert x.grad.tolist() == [2.0, 2.0]


def test_an_input_returned_as_it_is_comes_back_as_a_view():
    class Identity(Function):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, grad):
            return grad * 5

    x = opscope.tensor([1.0, 2.0], requires_grad=True)
    r = Identity.apply(x)
    assert r is not x and r._base is x and r.data_ptr() == x.data_ptr()
    assert r.grad_fn.name() == "IdentityBackward" and not r.is_leaf
    r.sum().backward()
    assert x.grad.tolist() == [5.0, 5.0]


class AddOne_(Function):
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, grad):
        return grad * 2


def test_mark_dirty():
    a = opscope.tensor([1.0, 2.0], requires_grad=True)
    h = a * 1
    r = AddOne_.apply(h)
    assert r is h and h.tolist() == [2.0, 3.0] and r._base is None
    assert h.grad_fn.name() == "AddOne_Backward"
    assert [f.name() for f, _ in h.grad_fn.next_functions] == ["MulBackward0"]
    (r * 3).sum().backward()
    assert a.grad.tolist() == [6.0, 6.0]
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad has been used in an "
                                           "in-place operation."):
        AddOne_.apply(a)

    # written through a view: the base's history is rewritten (CopySlices), as for in-place ops
    a = opscope.tensor([1.0, 2.0], requires_grad=True)  # forward did write the leaf above
    h = a * 1
    v = h[:1]
    r = AddOne_.apply(v)
    assert r is v and h.tolist() == [2.0, 2.0]
    assert v.grad_fn.name() == "AsStridedBackward0" and h.grad_fn.name() == "torch::autograd::CopySlices"
    h.sum().backward()
    assert a.grad.tolist() == [2.0, 1.0]


def test_mark_dirty_bumps_the_version():
    h = opscope.tensor([1.0, 2.0], requires_grad=True) * 1
    before = h._version
    AddOne_.apply(h)
    assert h._version - before == 2


def test_mark_non_differentiable_and_integer_outputs():
    seen = []

    class Sort(Function):
        @staticmethod
        def forward(ctx, x):
            vals, idx = x.sort()
            ctx.mark_non_differentiable(idx)
            ctx.save_for_backward(x, idx)
            return vals, idx

        @staticmethod
        def backward(ctx, grad_vals, grad_idx):
            seen.append((grad_vals.tolist(), grad_idx.tolist(), grad_idx.dtype))
            x, idx = ctx.saved_tensors
            return opscope.zeros_like(x).index_add_(0, idx, grad_vals)

    x = opscope.tensor([3.0, 1.0, 2.0], requires_grad=True)
    vals, idx = Sort.apply(x)
    assert vals.requires_grad and vals.grad_fn.name() == "SortBackward"
    assert not idx.requires_grad and idx.grad_fn is None and idx.dtype == opscope.int64
    (vals * opscope.tensor([1.0, 10.0, 100.0])).sum().backward()
    assert seen == [([1.0, 10.0, 100.0], [0, 0, 0], opscope.int64)]  # a zero gradient for idx
    assert x.grad.tolist() == [100.0, 1.0, 10.0]

    class Two(Function):
        @staticmethod
        def forward(ctx, x):
            a, b = x * 2, x * 3
            ctx.mark_non_differentiable(b)
            return a, b, x.long()  # an integer output is not differentiable either

        @staticmethod
        def backward(ctx, grad_a, grad_b, grad_i):
            seen.append((grad_a.tolist(), grad_b.tolist(), grad_i.tolist(), grad_i.dtype))
            return grad_a * 2

    seen.clear()
    x = opscope.tensor([1.0, 2.0], requires_grad=True)
    p, q, i = Two.apply(x)
    assert p.requires_grad and not q.requires_grad and not i.requires_grad
    assert q.grad_fn is None and i.grad_fn is None
    p.sum().backward()
    assert seen == [([1.0, 1.0], [0.0, 0.0], [0, 0], opscope.int64)]
    assert x.grad.tolist() == [2.0, 2.0]


def test_set_materialize_grads():
    seen = []

    class Pair(Function):
        @staticmethod
        def forward(ctx, x, materialize):
            ctx.set_materialize_grads(materialize)
            return x * 2, x * 3

        @staticmethod
        def backward(ctx, g1, g2):
            seen.append(values((g1, g2)))
            total = 0
            if g1 is not None:
                total = total + g1 * 2
            if g2 is not None:
                total = total + g2 * 3
            return total, None

    for materialize, second in ((True, [0.0, 0.0]), (False, None)):
        seen.clear()
        x = opscope.tensor([1.0, 2.0], requires_grad=True)
        u, _ = Pair.apply(x, materialize)
        u.sum().backward()
        assert seen == [([1.0, 1.0], second)], materialize
        assert x.grad.tolist() == [2.0, 2.0]


def test_saved_tensors_checks():
    a = opscope.tensor([1.0, 2.0], requires_grad=True)
    h = a * 1
    out = SaveInput.apply(h)
    h.add_(1)
    with pytest.raises(RuntimeError, match=r"one of the variables needed for gradient computation "
                       r"has been modified by an inplace operation: \[torch.FloatTensor \[2\]\], "
                       r"which is output 0 of AddBackward0, is at version 1; expected version 0 "
                       r"instead"):
        out.sum().backward()

    class SaveNumber(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x, 3)
            return x * 2

    with pytest.raises(TypeError, match="save_for_backward can only save variables, but argument 1 "
                                        "is of type int"):
        SaveNumber.apply(a)


def test_backward_errors_as_torch():
    a = opscope.tensor([1.0, 2.0], requires_grad=True)
    b = opscope.tensor([3.0, 4.0])

    class TooFew(Function):
        @staticmethod
        def forward(ctx, x, y):
            return x + y

        @staticmethod
        def backward(ctx, grad):
            return grad

    with pytest.raises(RuntimeError, match=r"function TooFewBackward returned an incorrect number "
                                           r"of gradients \(expected 2, got 1\)"):
        TooFew.apply(a, b).sum().backward()

    class GradForNumber(Function):
        @staticmethod
        def forward(ctx, x, k):
            return x * k

        @staticmethod
        def backward(ctx, grad):
            return grad, grad

    with pytest.raises(RuntimeError, match="function GradForNumberBackward returned a gradient "
                                           "different than None at position 2, but the "
                                           "corresponding forward input was not a Variable"):
        GradForNumber.apply(a, 2.0).sum().backward()

    class ExtraNones(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, grad):
            return grad * 2, None, None

    ExtraNones.apply(a).sum().backward()  # trailing Nones are allowed
    assert a.grad.tolist() == [2.0, 2.0]

    class TooMany(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, grad):
            return grad * 2, grad

    with pytest.raises(RuntimeError, match=r"function TooManyBackward returned an incorrect number "
                                           r"of gradients \(expected 1, got 2\)"):
        TooMany.apply(a).sum().backward()

    class Legacy(Function):
        def forward(self, x):
            return x

    with pytest.warns(DeprecationWarning, match="should not be instantiated"):
        legacy = Legacy()
    with pytest.raises(RuntimeError, match="Legacy autograd function with non-static forward "
                                           "method is deprecated"):
        legacy(a)

    class NoBackward(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

    with pytest.raises(NotImplementedError, match="You must implement either the backward or vjp "
                                                  "method for your custom autograd.Function"):
        NoBackward.apply(a).sum().backward()


def test_backward_returning_a_number_as_torch():
    class ReturnsNumber(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, grad):
            return 3

    a = opscope.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match=r"^expected Variable or None \(got int\)$"):
        ReturnsNumber.apply(a).sum().backward()


def test_double_backward_through_a_custom_function():
    x = opscope.tensor([1.0, 2.0, 3.0], requires_grad=True)
    g, = opscope.autograd.grad(Cube.apply(x).sum(), x, create_graph=True)
    assert g.tolist() == [3.0, 12.0, 27.0]
    assert g.requires_grad and g.grad_fn.name() == "MulBackward0"  # recorded by Cube.backward
    g2, = opscope.autograd.grad(g.sum(), x)
    assert g2.tolist() == [6.0, 12.0, 18.0]

    g, = opscope.autograd.grad(Cube.apply(x).sum(), x)  # without create_graph: no graph
    assert not g.requires_grad and g.grad_fn is None


def test_once_differentiable():
    x = opscope.tensor([1.0, 2.0, 3.0], requires_grad=True)
    CubeOnce.apply(x).sum().backward()
    assert x.grad.tolist() == [3.0, 12.0, 27.0]
    assert CubeOnce.backward.__name__ == "backward"

    # the incoming gradient needs no grad: the result is plain, even with create_graph
    g, = opscope.autograd.grad(CubeOnce.apply(x).sum(), x, create_graph=True)
    assert g.tolist() == [3.0, 12.0, 27.0] and not g.requires_grad and g.grad_fn is None

    # it does: the result goes through an Error node that fails on a second backward
    v = opscope.tensor([1.0, 1.0, 2.0], requires_grad=True)
    g, = opscope.autograd.grad(CubeOnce.apply(x), x, v, create_graph=True)
    assert g.tolist() == [3.0, 12.0, 54.0] and g.requires_grad and not g.is_leaf
    assert type(g.grad_fn).__name__ == "Error"
    assert [type(f).__name__ for f, _ in g.grad_fn.next_functions] == ["AccumulateGrad"]
    with pytest.raises(RuntimeError, match="trying to differentiate twice a function that was "
                                           "marked with @once_differentiable"):
        g.sum().backward()
    assert v.grad is None and x.grad.tolist() == [3.0, 12.0, 27.0]
    g, = opscope.autograd.grad(CubeOnce.apply(x), x, v, create_graph=True)
    with pytest.raises(RuntimeError, match="One of the differentiated Tensors appears to not have "
                                           "been used in the graph"):
        opscope.autograd.grad(g.sum(), v)


def test_gradcheck_on_custom_functions():
    x = opscope.tensor([0.3, -1.2, 2.0], dtype=F64, requires_grad=True)
    assert gradcheck(Cube.apply, (x,)) and gradgradcheck(Cube.apply, (x,))
    assert gradcheck(MyExp.apply, (x,))

    class Linear(Function):  # the torch docs' "Extending torch.autograd" example
        @staticmethod
        def forward(ctx, input, weight, bias=None):
            ctx.save_for_backward(input, weight, bias)
            output = input.mm(weight.t())
            if bias is not None:
                output += bias.unsqueeze(0).expand_as(output)
            return output

        @staticmethod
        def backward(ctx, grad_output):
            input, weight, bias = ctx.saved_tensors
            grad_input = grad_weight = grad_bias = None
            if ctx.needs_input_grad[0]:
                grad_input = grad_output.mm(weight)
            if ctx.needs_input_grad[1]:
                grad_weight = grad_output.t().mm(input)
            if bias is not None and ctx.needs_input_grad[2]:
                grad_bias = grad_output.sum(0)
            return grad_input, grad_weight, grad_bias

    inp = opscope.tensor([[0.1, 0.2, -0.3], [1.0, -2.0, 0.5]], dtype=F64, requires_grad=True)
    w = opscope.tensor([[0.5, -0.1, 0.2], [0.3, 0.3, -1.0], [2.0, 0.0, 1.0], [-0.4, 0.7, 0.1]],
                       dtype=F64, requires_grad=True)
    b = opscope.tensor([0.1, 0.2, 0.3, 0.4], dtype=F64, requires_grad=True)
    assert gradcheck(Linear.apply, (inp, w, b)) and gradcheck(Linear.apply, (inp, w))
    assert gradgradcheck(Linear.apply, (inp, w, b))

    class WrongCube(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        def backward(ctx, grad):
            x, = ctx.saved_tensors
            return grad * 2 * x ** 2

    with pytest.raises(opscope.autograd.GradcheckError,
                       match="Jacobian mismatch for output 0 with respect to input 0"):
        gradcheck(WrongCube.apply, (x,))
    assert gradcheck(WrongCube.apply, (x,), raise_exception=False) is False


# --- Learning PyTorch with Examples: "PyTorch: Defining New autograd Functions" -----------------

LEGENDRE_STEPS = 300  # the tutorial runs 2000


def numpy_legendre_fit(coefficients, learning_rate, steps):
    """The tutorial's fit, y = a + b * P3(c + d * x), by the same gradient descent in float64.
    Returns the final (a, b, c, d) and the losses printed at t % 100 == 99."""
    x = np.linspace(-math.pi, math.pi, 2000)
    y = np.sin(x)
    a, b, c, d = coefficients
    losses = []
    for t in range(steps):
        u = c + d * x
        p3 = 0.5 * (5 * u ** 3 - 3 * u)
        residual = a + b * p3 - y
        if t % 100 == 99:
            losses.append(np.square(residual).sum())
        g = 2.0 * residual
        g_u = g * b * 1.5 * (5 * u ** 2 - 1)
        grads = (g.sum(), (g * p3).sum(), g_u.sum(), (g_u * x).sum())
        a, b, c, d = (v - learning_rate * gv for v, gv in zip((a, b, c, d), grads))
    return np.array([a, b, c, d]), np.array(losses)


def test_learning_pytorch_legendre_polynomial_custom_function():
    import opscope as torch

    class LegendrePolynomial3(torch.autograd.Function):
        """
        We can implement our own custom autograd Functions by subclassing
        torch.autograd.Function and implementing the forward and backward passes
        which operate on Tensors.
        """

        @staticmethod
        def forward(ctx, input):
            """
            In the forward pass we receive a Tensor containing the input and return
            a Tensor containing the output. ctx is a context object that can be used
            to stash information for backward computation. You can cache arbitrary
            objects for use in the backward pass using the ctx.save_for_backward method.
            """
            ctx.save_for_backward(input)
            return 0.5 * (5 * input ** 3 - 3 * input)

        @staticmethod
        def backward(ctx, grad_output):
            """
            In the backward pass we receive a Tensor containing the gradient of the loss
            with respect to the output, and we need to compute the gradient of the loss
            with respect to the input.
            """
            input, = ctx.saved_tensors
            return grad_output * 1.5 * (5 * input ** 2 - 1)

    dtype = torch.float
    device = torch.device("cpu")
    # device = torch.device("cuda:0")  # Uncomment this to run on GPU

    # Create Tensors to hold input and outputs.
    # By default, requires_grad=False, which indicates that we do not need to
    # compute gradients with respect to these Tensors during the backward pass.
    x = torch.linspace(-math.pi, math.pi, 2000, device=device, dtype=dtype)
    y = torch.sin(x)

    # Create random Tensors for weights. For this example, we need
    # 4 weights: y = a + b * P3(c + d * x), these weights need to be initialized
    # not too far from the correct result to ensure convergence.
    # Setting requires_grad=True indicates that we want to compute gradients with
    # respect to these Tensors during the backward pass.
    a = torch.full((), 0.0, device=device, dtype=dtype, requires_grad=True)
    b = torch.full((), -1.0, device=device, dtype=dtype, requires_grad=True)
    c = torch.full((), 0.0, device=device, dtype=dtype, requires_grad=True)
    d = torch.full((), 0.3, device=device, dtype=dtype, requires_grad=True)

    losses = []
    learning_rate = 5e-6
    for t in range(LEGENDRE_STEPS):
        # To apply our Function, we use Function.apply method. We alias this as 'P3'.
        P3 = LegendrePolynomial3.apply

        # Forward pass: compute predicted y using operations; we compute
        # P3 using our custom autograd operation.
        y_pred = a + b * P3(c + d * x)

        # Compute and print loss
        loss = (y_pred - y).pow(2).sum()
        if t % 100 == 99:
            print(t, loss.item())
            losses.append(loss.item())

        # Use autograd to compute the backward pass.
        loss.backward()

        # Update weights using gradient descent
        with torch.no_grad():
            a -= learning_rate * a.grad
            b -= learning_rate * b.grad
            c -= learning_rate * c.grad
            d -= learning_rate * d.grad

            # Manually zero the gradients after updating weights
            a.grad = None
            b.grad = None
            c.grad = None
            d.grad = None

    print(f'Result: y = {a.item()} + {b.item()} * P3({c.item()} + {d.item()} x)')

    coef, np_losses = numpy_legendre_fit((0.0, -1.0, 0.0, 0.3), learning_rate, LEGENDRE_STEPS)
    # float32 against float64: sums of 2000 terms, a few hundred steps (as test_tutorials.py)
    assert_close(np.array([a.item(), b.item(), c.item(), d.item()]), coef, rtol=1e-3, atol=1e-4,
                 what="fitted coefficients")
    assert_close(np.array(losses), np_losses, rtol=1e-3, what="losses")
    assert np_losses[-1] < np_losses[0]  # it does fit
    assert a.is_leaf and a.requires_grad and a.grad is None
