"""``opscope.autograd.gradcheck``: analytical gradients against finite differences, as
``torch.autograd.gradcheck``.

For every differentiable input x and output y of ``func``, the numerical Jacobian — central
differences (f(x + eps) - f(x - eps)) / 2 eps, one element of x at a time — must match the
analytical one, whose rows the engine computes by backpropagating each one-hot grad_output.
Inputs should be float64: float32 differences are too coarse for the default tolerances.

>>> import opscope
>>> x = opscope.randn(3, dtype=opscope.float64, requires_grad=True)
>>> opscope.autograd.gradcheck(lambda t: (t * t).exp(), (x,))
True
"""

import itertools

import opscope

# NumPy is imported where used, not at `import opscope` (see opscope/_tensor_str.py).

__all__ = ["gradcheck", "gradgradcheck", "GradcheckError"]


class GradcheckError(RuntimeError):
    """A gradient that does not match its finite-difference estimate."""


def _as_tuple(x):
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def _values(outputs):
    import numpy as np  # noqa: PLC0415
    return [np.array(o.detach().tolist(), dtype=np.float64).reshape(-1) for o in outputs]


def _numerical_jacobians(func, inputs, diff, eps):
    """J[j][i]: (numel(output j), numel(input i)) by central differences."""
    import numpy as np  # noqa: PLC0415
    cols = {}
    for i in diff:
        x = inputs[i]
        data = x.detach()  # shares storage: writing it perturbs x
        per_output = None
        for k, idx in enumerate(itertools.product(*[range(s) for s in x.shape])):
            orig = data[idx].item()
            data[idx] = orig + eps  # `data` is detached: these writes record nothing
            plus = _values(_as_tuple(func(*inputs)))
            data[idx] = orig - eps
            minus = _values(_as_tuple(func(*inputs)))
            data[idx] = orig
            if per_output is None:
                per_output = [np.zeros((p.size, x.numel())) for p in plus]
            for j, (p, m) in enumerate(zip(plus, minus)):
                per_output[j][:, k] = (p - m) / (2 * eps)
        cols[i] = per_output
    return cols


def _analytical_jacobians(outputs, inputs, diff):
    """J[j][i] by one backward pass per element of output j (one-hot grad_output)."""
    import numpy as np  # noqa: PLC0415
    result = {}
    wrt = [inputs[i] for i in diff]
    for j, y in enumerate(outputs):
        if not y.requires_grad:
            continue
        rows = {i: np.zeros((y.numel(), inputs[i].numel())) for i in diff}
        for m in range(y.numel()):
            onehot = opscope.zeros(y.numel(), dtype=y.dtype)
            onehot[m] = 1
            grads = opscope.autograd.grad(y, wrt, onehot.view(y.shape), retain_graph=True,
                                          allow_unused=True)
            for i, g in zip(diff, grads):
                if g is not None:
                    rows[i][m, :] = np.array(g.tolist(), dtype=np.float64).reshape(-1)
        result[j] = rows
    return result


def gradcheck(func, inputs, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True):
    """True when the gradients of func at `inputs` match finite differences (for each input that
    requires grad); otherwise raises GradcheckError (or returns False)."""
    import numpy as np  # noqa: PLC0415
    inputs = _as_tuple(inputs)
    diff = [i for i, t in enumerate(inputs) if isinstance(t, opscope.Tensor) and t.requires_grad]
    if not diff:
        raise ValueError("gradcheck expects at least one input tensor to require gradient, but "
                         "none of the them have requires_grad=True.")
    outputs = _as_tuple(func(*inputs))
    # Analytical first: the finite differences write into the inputs, which bumps their
    # versions, and a graph that saved them could not be run after that.
    analytical = _analytical_jacobians(outputs, inputs, diff)
    numerical = _numerical_jacobians(func, inputs, diff, eps)
    for j, y in enumerate(outputs):
        for i in diff:
            n = numerical[i][j]
            a = analytical[j][i] if j in analytical else np.zeros_like(n)
            if not np.allclose(a, n, rtol=rtol, atol=atol):
                message = (f"Jacobian mismatch for output {j} with respect to input {i},\n"
                           f"numerical:{n}\nanalytical:{a}\n"
                           f"largest difference {np.abs(a - n).max():.3g}\n")
                if raise_exception:
                    raise GradcheckError(message)
                return False
    return True


def gradgradcheck(func, inputs, grad_outputs=None, *, eps=1e-6, atol=1e-5, rtol=1e-3,
                  raise_exception=True):
    """gradcheck of the gradients themselves (create_graph=True): second derivatives against
    finite differences of the first."""
    import numpy as np  # noqa: PLC0415
    inputs = _as_tuple(inputs)
    diff = [i for i, t in enumerate(inputs) if isinstance(t, opscope.Tensor) and t.requires_grad]
    outputs = _as_tuple(func(*inputs))
    if grad_outputs is None:
        gen = np.random.default_rng(0)
        grad_outputs = tuple(opscope.tensor(gen.standard_normal(o.shape), dtype=o.dtype)
                             for o in outputs)
    grad_outputs = _as_tuple(grad_outputs)

    def first_derivatives(*args):
        outs = _as_tuple(func(*args))
        wrt = [args[i] for i in diff]
        grads = opscope.autograd.grad(outs, wrt, grad_outputs, create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(first_derivatives, inputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception)
