"""The spellings tutorials reach for (aliases, keepdims= / axis=, out=, range indexing, in-place
shape ops, legacy tensor types, Variable, as_tensor, backends flags, multinomial / randperm
errors): lines of Python whose outcome under torch 1.13 make_torch_reference_spellings.py records
into data/spellings_torch.json and test_spellings.py replays under opscope. ``m`` is the tensor
module; ``x``, ``a``, ... are made fresh for every case by ``env(m)``."""

import numpy as np


def sets(t, index, value):
    """t[index] = value, as an expression: returns t."""
    t[index] = value
    return t


def flags_probe(m):
    """cudnn's switches inside a `with backends.cudnn.flags(...)` block, then after it."""
    cudnn = m.backends.cudnn
    with cudnn.flags(enabled=False, benchmark=True):
        inside = (cudnn.enabled, cudnn.benchmark, cudnn.allow_tf32)
    return inside + (cudnn.enabled, cudnn.benchmark, cudnn.allow_tf32)


def env(m):
    """The names a case may use, fresh for each case (in-place cases change them)."""
    return {
        "flags_probe": lambda: flags_probe(m),
        "x": m.arange(12.).reshape(4, 3),
        "a": m.tensor([1.5, -2.0, 0.25]),
        "b": m.tensor([0.5, 4.0, -1.0]),
        "c": m.tensor([0.5, -0.25, 0.0]),
        "i": m.tensor([7, -3, 2]),
        "y": m.arange(6.).reshape(3, 2),
        "v": m.tensor([1., 2., 3.]),
        "p": m.tensor([0.0, 0.05, 0.3, 0.7, 1.0]),
        "bx": m.arange(24.).reshape(2, 3, 4),
        "by": m.arange(16.).reshape(2, 4, 2),
        "leaf": m.ones(2, 3, requires_grad=True),
        "sets": sets,
    }


ALIASES = [
    "m.multiply(a, b)", "m.multiply(a, 2)", "a.multiply(b)", "a.multiply_(b)", "m.multiply(i, 2)",
    "m.divide(a, b)", "m.divide(a, b, rounding_mode='floor')", "m.divide(i, 2)", "a.divide_(2)",
    "m.true_divide(i, 2)", "i.true_divide(4)", "m.true_divide(a, b)",
    "m.subtract(a, b)", "m.subtract(a, b, alpha=2)", "a.subtract(1)", "a.subtract_(b)",
    "m.greater(a, b)", "m.greater(a, 0)", "a.greater_equal(b)", "m.less(a, b)", "m.less_equal(a, 0.25)",
    "m.not_equal(a, b)", "a.not_equal_(b)", "a.greater_(b)",
    "m.negative(a)", "a.negative()", "a.negative_()", "m.negative(i)",
    "m.arccos(c)", "m.arcsin(c)", "m.arctan(a)", "c.arccos_()", "m.absolute(a)",
    "m.fix(a)", "a.fix()", "a.fix_()", "m.clip(a, -1, 1)", "a.clip(min=0)",
    "m.swapaxes(x, 0, 1).shape", "m.swapdims(x, 0, 1).stride()", "m.moveaxis(bx, 0, 2).shape",
    "m.concat([a, b])", "m.concat([x, x], 1).shape", "hasattr(m, 'concatenate')",
    "m.special.expit(a)", "m.special.erf(a)", "m.special.exp2(a)", "m.special.expm1(a)",
    "m.special.log1p(c)", "m.special.round(a, decimals=1)", "m.special.logsumexp(x, 1)",
    "m.special.logsumexp(x, [0, 1], keepdim=True)", "m.special.softmax(x, 1)",
    "m.special.softmax(x, 0, dtype=m.float64)", "m.special.log_softmax(x, 0)",
    "m.special.expit(i)",
    "m.logit(p)", "m.logit(p, 0.25)", "m.logit(p, eps=0.1)", "m.logit(i)", "m.logit(p.half())",
    "m.logit(p.bfloat16(), 0.2)", "m.logit(p.bfloat16())", "m.logit(p.double(), 1e-3)", "p.logit()",
    "p.logit_(0.1)", "m.logit_(p)", "m.logit(p, out=m.empty(0))", "m.special.logit(p)",
    "m.special.logit(p, eps=0.3)", "m.special.logit(p, out=m.empty(5))",
    "type(m.logit(leaf.sigmoid()).grad_fn).__name__",
    "(lambda t: (m.logit(t, 0.1).sum().backward(), t.grad)[1])(m.tensor([0.05, 0.5, 0.95], requires_grad=True))",
]

KEYWORDS = [
    "m.sum(x, 0, keepdims=True)", "m.sum(x, axis=1)", "x.sum(axis=0, keepdims=True)",
    "m.mean(x, axis=0, keepdims=True)", "x.mean(1, keepdims=True)", "m.std(x, axis=0)",
    "m.max(x, axis=1, keepdims=True)", "m.amax(x, axis=0)", "m.argmax(x, axis=1, keepdims=True)",
    "m.logsumexp(x, axis=1)", "m.softmax(x, axis=1)", "m.cumsum(x, axis=0)",
    "m.add(x, x2=x)", "m.sum(input=x, axis=0)", "m.sum(x, keepdim=True, keepdims=True)",
    "m.sum(x, dim=0, axis=1)", "m.mul(x1=a, other=b)", "m.sum(a=x)",
    "m.prod(x, axis=1)", "m.all(x > 0, axis=1)", "m.any(x > 3, axis=0, keepdims=True)",
    "m.var(x, axis=1, keepdims=True)", "m.squeeze(x[None], axis=0).shape",
]

OUT = [
    "m.matmul(v, v, out=m.empty(0))", "m.matmul(y.t(), v, out=m.empty(0))",
    "m.matmul(x, y.t()[:3, :2].t(), out=m.empty(0))", "m.matmul(x, y, out=m.empty(5))",
    "m.matmul(bx, by, out=m.empty(0))", "m.matmul(bx, by[0], out=m.empty(0))",
    "m.matmul(v, y, out=m.empty(0))", "m.matmul(x, y, out=m.empty(0, dtype=m.int64))",
    "m.matmul(x, v[:2], out=m.empty(0))", "m.matmul(leaf, v, out=m.empty(0))",
    "m.mm(x, y, out=m.empty(4, 2))", "m.bmm(bx, by, out=m.empty(0))",
    "m.multiply(a, b, out=m.empty(3))", "m.divide(a, b, out=m.empty(3))",
    "m.greater(a, b, out=m.empty(3, dtype=m.bool))", "m.negative(a, out=m.empty(3))",
    "m.cat([a, b], out=m.empty(0))", "m.stack([a, b], out=m.empty(0))",
    "m.sum(x, 0, out=m.empty(0))", "m.mean(x, 1, keepdims=True, out=m.empty(0))",
    "m.add(a, b, out=m.empty(3))", "m.exp(a, out=m.empty(3))", "m.log(v, out=m.empty(3))",
    "m.where(a > 0, a, b, out=m.empty(3))", "m.special.expit(a, out=m.empty(3))",
    "m.sub(a, b, out=m.empty(3))", "m.div(a, b, out=m.empty(3))", "m.mul(a, b, out=m.empty(3))",
    "m.arange(5, out=m.empty(0, dtype=m.int32))", "m.arange(1, 2, 0.25, out=m.empty(0))",
    "m.arange(3, out=m.empty(0, dtype=m.float16))", "m.arange(5, out=m.empty(0, dtype=m.bool))",
    "m.zeros(2, out=m.empty(5))", "m.zeros(2, 3, out=m.empty(0, dtype=m.int64))",
    "m.ones((2,), out=m.empty(0))", "m.full((2,), 7, out=m.empty(0, dtype=m.int8))",
    "m.full((2,), 1.5, out=m.empty(0, dtype=m.long))", "m.empty(2, 3, out=m.empty(0)).shape",
    "m.eye(2, 3, out=m.empty(0, dtype=m.long))", "m.eye(2, out=m.empty(0))",
    "m.linspace(0, 1, 3, out=m.empty(1))", "m.rand(3, out=m.empty(0)).shape",
    "m.randn(2, 2, out=m.empty(0)).shape", "m.randint(3, 5, (4,), out=m.empty(0, dtype=m.long)).shape",
    "m.randint(3, (4,), out=m.empty(0)).shape",
    "bool(((m.randint(3, 5, (40,), out=m.empty(0, dtype=m.long)) - 3) // 2 == 0).all())",
    "m.rand(2, out=m.empty(0, dtype=m.long))", "m.randn(2, out=m.empty(0, requires_grad=True))",
    "m.zeros(2, out=m.empty(0, requires_grad=True))",
    "m.rand(2, generator=m.Generator(), out=m.empty(0)).shape",
    "m.randn(3, generator=m.Generator(), out=m.empty(0)).shape",
    "m.randint(0, 2, (3,), generator=m.Generator(), out=m.empty(0, dtype=m.long)).shape",
    "m.zeros(2, out=m.empty(0), dtype=m.float32)", "m.zeros(2, out=m.empty(0), dtype=m.float64)",
    "m.arange(3, out=m.empty(0, dtype=m.int64), dtype=m.int64)", "m.zeros(2.5)",
    "m.randint(3, (2,), out=m.empty(0, dtype=m.int32), dtype=m.int64)",
]

INDEXING = [
    "x[range(2)]", "x[range(4), m.tensor([0, 2, 1, 0])]", "x[range(4), [0, 1, 2, 0]]",
    "x[(0, 2),]", "x[[0, 2]]", "x[range(1, 3), 1]", "x[np.array([[0, 1], [1, 0]])]",
    "x[(range(2), range(2))]", "x[range(2),]", "x[range(0)]", "x[range(3, 0, -1), :2]",
    "x[:, range(2)]", "x[..., range(1, 3)]", "x[range(5)]", "x[range(-2, 0)]",
    "x[np.array([0, 3])]", "x[[[0, 1], [1, 0]]]", "x[[0, 1], [1, 2]]",
    "sets(x, range(2), 0)", "sets(x, (range(4), [0, 1, 2, 0]), -1)", "sets(x, range(1, 3), m.ones(3))",
    "sets(x, np.array([0, 1]), 5.0)", "sets(x, (range(2), 1), m.tensor([7., 8.]))",
    "m.tensor(range(5))", "m.tensor(range(3), dtype=m.float32)", "m.tensor(range(0))",
    "m.as_tensor(range(2, 4))", "m.Tensor(range(3))", "m.LongTensor(range(3))",
]

INPLACE_SHAPE = [
    "x.unsqueeze_(0).shape", "x.unsqueeze_(-1).stride()", "x.unsqueeze_(2).shape",
    "x[None].squeeze_().shape", "x[None].squeeze_(0).shape", "x.squeeze_(0).shape",
    "x.t_().stride()", "v.t_().shape", "bx.t_()", "x.transpose_(0, 1).stride()",
    "bx.transpose_(0, 2).shape", "bx.transpose_(0, 3)", "x.unsqueeze_(5)",
    "x.swapaxes_(0, 1).shape", "x.swapdims_(1, 0).stride()",
    "x.as_strided_((2, 2), (1, 2))", "x.as_strided_((2,), (1,), 3)", "x.as_strided_((20,), (1,))",
    "m.as_strided_(x, (3,), (4,))",
    "x.resize_(2, 3)", "x.resize_(2, 3).stride()", "a.resize_(5).shape", "x.resize_(4, 3)",
    "x.t().resize_(2, 2).stride()", "x.resize_(-1, 2)",
    "leaf.unsqueeze_(0)", "leaf.t_()", "leaf.resize_(6)", "leaf.as_strided_((2,), (1,))",
    "(x.unsqueeze_(0), x._version)[1]", "(x.t_(), x._version)[1]", "(x.resize_(2, 2), x._version)[1]",
    "(x[0].unsqueeze_(0), x._version)[1]",
    "x[0].unsqueeze_(0)._base is x", "x.t_() is x",
    "type((leaf * 2).t_().grad_fn).__name__", "type((leaf * 2).unsqueeze_(0).grad_fn).__name__",
    "type((leaf * 2).squeeze_().grad_fn).__name__", "type((leaf * 2).squeeze_(0).grad_fn).__name__",
    "type((leaf * 2).transpose_(0, 1).grad_fn).__name__",
    "type((leaf * 2).swapdims_(0, 1).grad_fn).__name__", "(leaf * 2).t_().shape",
]

LEGACY = [
    "m.FloatTensor([1, 2])", "m.LongTensor([1.7, 2])", "m.BoolTensor([1, 0])", "m.ByteTensor(3).dtype",
    "m.IntTensor([[1, 2]])", "m.DoubleTensor(np.array([1, 2]))", "m.FloatTensor(2, 3).shape",
    "m.FloatTensor(m.Size([2, 3])).shape", "m.FloatTensor((2, 3))", "m.FloatTensor(2.5)",
    "m.FloatTensor('a')", "m.FloatTensor(2, dtype=m.float64)", "m.FloatTensor(-1)",
    "m.FloatTensor()", "m.LongTensor(m.ones(2))", "m.FloatTensor(m.ones(2))",
    "m.FloatTensor(2, device='cpu').shape", "m.HalfTensor([1]).dtype", "m.CharTensor(2).dtype",
    "m.ShortTensor([3]).dtype", "m.BFloat16Tensor([1]).dtype",
    "m.Tensor([1, 2])", "m.Tensor(2, 3).shape", "m.Tensor()", "m.Tensor(m.Size([2, 3])).shape",
    "m.Tensor((2, 3))", "m.Tensor(2.5)", "m.Tensor('a')", "m.Tensor(-1)",
    "m.Tensor(2, requires_grad=True)", "m.Tensor([1, 2], dtype=m.int64)",
    "m.Tensor(np.array([1, 2]))", "m.Tensor(m.ones(2, dtype=m.int64))",
    "m.FloatTensor.dtype", "m.LongTensor.dtype", "m.FloatTensor.__name__", "m.FloatTensor.is_cuda",
    "isinstance(m.ones(2), m.FloatTensor)", "isinstance(m.ones(2), m.DoubleTensor)",
    "isinstance(m.ones(2, dtype=m.long), m.LongTensor)", "isinstance(3, m.LongTensor)",
    "issubclass(m.FloatTensor, m.Tensor)", "type(m.FloatTensor(2)) is m.Tensor",
    "a.type()", "i.type()", "a.double().type()", "a.half().type()", "a.bfloat16().type()",
    "(a > 0).type()", "a.to(m.int8).type()", "a.to(m.int16).type()", "a.to(m.int32).type()",
    "a.to(m.uint8).type()", "a.type() == 'torch.FloatTensor'",
    "a.type(m.int32)", "a.type('torch.LongTensor')", "a.type(m.LongTensor)", "a.type(m.float32) is a",
    "a.type(dtype=m.float64)", "a.type('torch.Foo')", "a.type(5)", "a.type('torch.float64')",
    "a.type('torch.HalfTensor').dtype", "a.type('torch.BoolTensor')",
    "x.new(2, 3).shape", "x.new([1, 2])", "x.new().shape", "x.long().new([1.5])",
    "x.new(m.ones(2, dtype=m.long))", "x.new(m.ones(2))", "x.new(2, dtype=m.long)", "x.new(2.5)",
    "x.new_tensor([1, 2])", "x.new_tensor([1, 2], dtype=m.long)", "x.new_tensor([1.], requires_grad=True)",
    "x.new_tensor(3)", "x.new_tensor(m.ones(2)).requires_grad", "x.new_full((2,), 3)",
    "x.new_full((2,), 3, dtype=m.long)", "x.new_full([2], 1.5, requires_grad=True)",
    "x.long().new_full((2,), 2.5)",
    "m.typename(x)", "m.typename(i)", "m.typename(3)", "m.typename(m.Tensor)", "m.is_storage(x)",
    "m.set_default_tensor_type(m.LongTensor)", "m.set_default_tensor_type('torch.cuda.FloatTensor')",
    "m.set_default_tensor_type(m.float64)", "m.set_default_tensor_type(3)",
    "m.set_default_tensor_type('torch.Foo')",
]

AS_TENSOR = [
    "m.as_tensor([1, 2.5])", "m.as_tensor(3)", "m.as_tensor('a')", "m.as_tensor([1, 2], dtype=m.float64)",
    "m.as_tensor(np.array([1, 2]), dtype=m.float64)", "m.as_tensor(np.float32(3))",
    "m.as_tensor(a) is a", "m.as_tensor(a, dtype=m.float32) is a", "m.as_tensor(a, dtype=m.float64)",
    "m.as_tensor(a, device='cpu') is a", "m.as_tensor(np.array([1, 2])[::-1])",
    "m.as_tensor(leaf, dtype=m.float64).requires_grad",
]

VARIABLE = [
    "type(m.autograd.Variable(a)).__name__", "m.autograd.Variable(a).requires_grad",
    "m.autograd.Variable(a, requires_grad=True).requires_grad", "m.autograd.Variable(a, True).is_leaf",
    "m.autograd.Variable(a, requires_grad=True).grad_fn", "m.autograd.Variable(leaf * 2).grad_fn",
    "m.autograd.Variable(leaf * 2).requires_grad", "m.autograd.Variable()", "m.autograd.Variable(3)",
    "m.autograd.Variable(i, requires_grad=True)", "isinstance(a, m.autograd.Variable)",
    "isinstance(3, m.autograd.Variable)", "m.autograd.Variable(a) is a",
    "m.autograd.Variable(a)._base", "m.autograd.Variable(a).data_ptr() == a.data_ptr()",
    "(lambda w: (a.add_(1), w._version)[1])(m.autograd.Variable(a))",
]

RANDOM = [
    "m.multinomial(m.tensor([-1., 1.]), 1)", "m.multinomial(m.tensor([float('inf'), 1.]), 1)",
    "m.multinomial(m.tensor([float('nan'), 1.]), 1)", "m.multinomial(m.tensor([0., 0.]), 1)",
    "m.multinomial(m.tensor([[0., 0.], [1., 1.]]), 1)", "m.multinomial(m.tensor([1., 1.]), 3)",
    "m.multinomial(m.tensor([1., 1.]), 3, True).shape", "m.multinomial(m.tensor([1., 1.]), 0)",
    "m.multinomial(m.tensor([1., 1.]), -1)", "m.multinomial(m.tensor(1.), 1)",
    "m.multinomial(m.ones(2, 2, 2), 1)", "m.multinomial(m.tensor([1, 1]), 1)",
    "m.multinomial(m.ones(0, 3), 1)", "m.multinomial(m.ones(0, 3), 1, True)",
    "m.multinomial(m.ones(3, 0), 1)", "m.multinomial(m.ones(3).half(), 1)",
    "m.multinomial(m.ones(3).double(), 1).dtype", "m.multinomial(m.ones(2, 2 ** 24 + 1), 1)",
    "m.multinomial(m.tensor([-1., 1.]), 1, True)", "m.multinomial(m.tensor([float('inf'), 1.]), 1, True)",
    "m.multinomial(m.tensor([float('nan'), 1.]), 1, True)", "m.multinomial(m.tensor([0., 0.]), 1, True)",
    "m.multinomial(m.tensor([[1., 1.], [0., 0.]]), 2, True)", "m.multinomial(m.tensor([1., 1.]), 0, True)",
    "m.multinomial(m.ones(3), 1, True, out=m.empty(1))", "m.multinomial(m.ones(3), 2, out=m.empty(1, dtype=m.long)).shape",
    "m.multinomial(m.tensor([0., 1., 0.]), 1)", "m.multinomial(m.tensor([0., 1., 0.]), 4, True)",
    "m.multinomial(m.tensor([[0., 0., 2.], [3., 0., 0.]]), 3, replacement=True)",
    "m.multinomial(m.tensor([[0., 0., 2.], [3., 0., 0.]]), 1)",
    "m.multinomial(m.tensor([1., 0., 1.]), 3)[2]", "m.multinomial(m.tensor([1., 0., 1.]), 3)[:2].sort()[0]",
    "m.multinomial(m.tensor([0., 5.], dtype=m.float64), 2, True)",
    "m.multinomial(m.ones(4, 3)[:, 0], 1).shape", "m.multinomial(m.ones(3, 4).t(), 5, True).shape",
    "m.ones(3).multinomial(2).shape", "m.multinomial(m.ones(3, requires_grad=True), 2).requires_grad",
    "m.multinomial(m.ones(3), 2, generator=m.Generator()).shape",
    "m.randperm(5).dtype", "m.randperm(0)", "m.randperm(-1)", "m.randperm(5, dtype=m.float32).sort()[0]",
    "m.randperm(300, dtype=m.uint8)", "m.randperm(257, dtype=m.int8)", "m.randperm(2 ** 24 + 2, dtype=m.float32)",
    "m.randperm(3, dtype=m.bool)", "m.randperm(5, dtype=m.float16).sort()[0]", "m.randperm(5, requires_grad=True)",
    "m.randperm(5, dtype=m.float, requires_grad=True).requires_grad", "m.randperm(7).sort()[0]",
    "m.randperm(256, dtype=m.uint8).sort()[0].tolist() == list(range(256))",
    "m.randperm(4, generator=m.Generator()).sort()[0]", "m.randperm(3, out=m.empty(0, dtype=m.int32))[:0]",
    "m.randperm(3, device='cpu').shape", "m.randperm(2050, dtype=m.float16)",
    "m.empty(3).exponential_(-1)", "m.empty(3).exponential_(0)", "m.empty(3, dtype=m.long).exponential_()",
    "bool((m.empty(100).exponential_() >= 0).all())",
]

BACKENDS = [
    "m.backends.cudnn.enabled", "m.backends.cudnn.benchmark", "m.backends.cudnn.deterministic",
    "m.backends.cudnn.allow_tf32", "m.backends.cudnn.is_available()", "m.backends.cudnn.version()",
    "m.backends.mps.is_available()", "m.backends.mps.is_built()", "m.backends.cuda.is_built()",
    "m.backends.cuda.matmul.allow_tf32", "m.backends.cuda.matmul.allow_fp16_reduced_precision_reduction",
    "m.backends.cuda.matmul.foo", "setattr(m.backends.cudnn, 'enabled', 3)",
    "setattr(m.backends.cudnn, 'benchmark', 1)", "setattr(m.backends.cudnn, 'deterministic', 1)",
    "setattr(m.backends.cudnn, 'allow_tf32', 1)", "setattr(m.backends.cuda.matmul, 'allow_tf32', 1)",
    "setattr(m.backends.cuda.matmul, 'foo', True)",
    "m.backends.cudnn.is_acceptable(a)", "flags_probe()",
    "m.get_float32_matmul_precision()", "m.are_deterministic_algorithms_enabled()",
    "m.is_deterministic_algorithms_warn_only_enabled()", "m.get_deterministic_debug_mode()",
    "m.use_deterministic_algorithms(1)", "m.set_deterministic_debug_mode('x')",
    "m.set_deterministic_debug_mode(5)",
]

CASES = ALIASES + KEYWORDS + OUT + INDEXING + INPLACE_SHAPE + LEGACY + AS_TENSOR + VARIABLE + RANDOM + BACKENDS

# Sequences of statements whose result (the last expression) depends on module state: run in order.
STATEFUL = [
    ["m.set_float32_matmul_precision('high')", "m.backends.cuda.matmul.allow_tf32",
     "m.get_float32_matmul_precision()"],
    ["m.set_float32_matmul_precision('medium')", "m.backends.cuda.matmul.allow_tf32"],
    ["setattr(m.backends.cuda.matmul, 'allow_tf32', False)", "m.get_float32_matmul_precision()"],
    ["m.use_deterministic_algorithms(True)", "m.are_deterministic_algorithms_enabled()",
     "m.backends.cudnn.deterministic", "m.get_deterministic_debug_mode()"],
    ["m.use_deterministic_algorithms(True, warn_only=True)",
     "m.is_deterministic_algorithms_warn_only_enabled()", "m.get_deterministic_debug_mode()"],
    ["m.use_deterministic_algorithms(False)", "m.set_deterministic_debug_mode('error')",
     "m.are_deterministic_algorithms_enabled()", "m.get_deterministic_debug_mode()",
     "m.set_deterministic_debug_mode(0)", "m.are_deterministic_algorithms_enabled()"],
    ["setattr(m.backends.cudnn, 'benchmark', True)", "m.backends.cudnn.benchmark",
     "setattr(m.backends.cudnn, 'benchmark', False)", "m.backends.cudnn.benchmark"],
    ["m.set_float32_matmul_precision('highest')", "m.get_float32_matmul_precision()"],
    ["m.set_default_tensor_type(m.DoubleTensor)", "m.get_default_dtype()", "m.tensor([1.]).dtype",
     "m.Tensor(2).dtype", "m.set_default_tensor_type('torch.FloatTensor')", "m.get_default_dtype()"],
]

# Ops whose trace names torch's profiler records (alias -> target), compared by name sequence.
TRACE_CASES = [
    "m.multiply(a, b)", "m.true_divide(a, b)", "m.greater(a, b)", "m.negative(a)", "m.arccos(c)",
    "m.fix(a)", "m.divide(a, b)", "m.subtract(a, b)", "m.not_equal(a, b)", "m.special.expit(a)",
    "m.special.erf(a)", "m.special.softmax(x, 1)", "a.multiply_(b)", "m.less_equal(a, b)",
    "m.multinomial(m.tensor([0., 1., 0.]), 1, True)", "m.randperm(4)",
    "m.matmul(x, y, out=m.empty(4, 2))", "m.special.logit(p)",
]
