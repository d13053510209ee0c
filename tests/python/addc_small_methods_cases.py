"""The cases make_torch_reference_l.py records under torch 1.13 and test_addcmul_addcdiv.py /
test_small_methods.py replay under opscope: lines of Python over ``m``, the tensor module, and the
tensors ``env(m)`` makes fresh for each case."""


def env(m):
    """The names a case may use, fresh for each case (in-place cases change them)."""
    return {
        "f": m.tensor([[1.5, -2.0, 0.25], [3.0, 0.5, -1.0]]),   # (2, 3)
        "g": m.tensor([0.5, 4.0, -1.0]),                          # (3,)
        "h": m.tensor([[2.0], [-0.5]]),                           # (2, 1)
        "d": m.tensor([[1.5, -2.0, 0.25], [3.0, 0.5, -1.0]], dtype=m.float64),
        "s": m.tensor(2.5),                                       # 0-d
        "i": m.tensor([7, -3, 2]),
        "j": m.tensor([2, 5, -4]),
        "b": m.tensor([True, False, True]),
        "e": m.zeros(0, 3),
        "x": m.arange(12.).reshape(3, 4),
    }


ADDC = [
    # values, broadcasting, value=
    "m.addcmul(f, g, h)", "m.addcmul(f, g, h, value=0.5)", "m.addcmul(f, g, h, value=-2)",
    "m.addcdiv(f, g, h)", "m.addcdiv(f, g, h, value=0.25)", "m.addcmul(g, h, h)",
    "f.addcmul(g, h)", "f.addcdiv(g, h, value=3)", "m.addcmul(f, g, h, value=m.tensor(2.))",
    "m.addcmul(f, g, h, value=True)",
    # in place: the result keeps self's shape and dtype
    "f.addcmul_(g, h, value=0.5)", "f.addcdiv_(g, h)", "g.addcmul_(f, h)", "g.addcdiv_(g, h)",
    "i.addcmul_(g, g)", "i.addcmul_(i, j, value=2)", "f.addcmul_(i, j)", "d.addcmul_(f, g)",
    # dtypes and promotion
    "m.addcmul(i, i, j)", "m.addcmul(i, i, j, value=2)", "m.addcmul(i, i, j, value=0.5)",
    "m.addcmul(i, i, j, value=-1.5)", "m.addcmul(i, g, j)", "m.addcmul(d, f, g)", "m.addcmul(f, d, s)",
    "m.addcmul(f, g, s.double())", "m.addcmul(i, i, s)", "m.addcmul(i, j, s.double())",
    "m.addcmul(i.to(m.int8), i.to(m.int8), j.to(m.int8), value=3)",
    "m.addcmul(i.to(m.uint8), i.to(m.uint8), j.to(m.uint8))",
    "m.addcmul(i.to(m.int16), j.to(m.int32), j)", "m.addcmul(i.to(m.int8), i, j, value=300)",
    "m.addcmul(f.bfloat16(), g.bfloat16(), h.bfloat16(), value=0.1)",
    "m.addcdiv(f.bfloat16(), g.bfloat16(), h.bfloat16())",
    "m.addcdiv(f, b, g)", "m.addcdiv(i, g, j)", "m.addcdiv(i, i, g, value=0.5)", "m.addcdiv(d, g, h)",
    "m.addcdiv(f, g, m.zeros(3))", "m.addcdiv(f, -g, m.zeros(3))", "m.addcdiv(g, m.zeros(3), m.zeros(3))",
    # errors
    "m.addcdiv(i, i, j)", "m.addcdiv(f, i, j)", "m.addcdiv(f, b, b)", "m.addcdiv(f, b, i)",
    "m.addcdiv(f, i, m.zeros(4, dtype=m.int64))",
    "m.addcmul(b, b, b)", "m.addcmul(b, b, b, value=2)", "m.addcmul(f.half(), f.half(), f.half())",
    "m.addcdiv(f.half(), f.half(), f.half())", "m.addcmul(f, g, m.zeros(4))",
    "m.addcmul(f, g, h, value=1e39)", "m.addcmul(i.to(m.uint8), i.to(m.uint8), j.to(m.uint8), value=300)",
    "m.addcmul(f, g, h, out=m.empty(2, 3, dtype=m.int64))",
    # out=
    "m.addcmul(f, g, h, out=m.empty(0))", "m.addcdiv(f, g, h, out=m.empty(2, 3))",
    "m.addcmul(i, i, j, out=m.empty(3, dtype=m.int64))",
    "m.addcmul(i, i, j, out=m.empty(3))", "m.addcdiv(i, g, j, out=m.empty(5, 5))",
    # shapes: empty, 0-d, non-contiguous, expanded
    "m.addcmul(e, e, g)", "m.addcdiv(e, g, e)", "m.addcmul(s, s, s)", "m.addcdiv(s, s, s, value=2)",
    "m.addcmul(s, g, s)", "m.addcmul(f.t(), h.t(), g.view(3, 1))", "m.addcdiv(x[:, ::2], x.t()[::2, :3].t(), s)",
    "m.addcmul(x.t(), x.t(), x.t(), value=0.5)", "m.addcmul(g.expand(2, 3), g, h)",
    "m.addcmul(x[::2], x[1::2], x[::2].flip(0))",
    # gradients and nodes
    "m.autograd.grad(m.addcmul(f.requires_grad_(), g.requires_grad_(), h.requires_grad_(), value=0.5).sum(), [f, g, h])",
    "m.autograd.grad(m.addcdiv(f.requires_grad_(), g.requires_grad_(), h.requires_grad_(), value=-3).sum(), [f, g, h])",
    "m.autograd.grad((d.requires_grad_() * 1).addcmul_(d, d, value=2).sum(), [d])",
    "m.autograd.grad(m.addcdiv(f, g.requires_grad_(), g).sum(), [g])",
    "m.addcmul(f.requires_grad_(), g, h).grad_fn.name()",
    "m.addcdiv(f, g.requires_grad_(), h).grad_fn.name()",
    "(f.requires_grad_() * 1).addcmul_(g, h).grad_fn.name()",
    "(f.requires_grad_() * 1).addcdiv_(g, h).grad_fn.name()",
    "f.requires_grad_().addcmul_(g, h)",
    "m.addcmul(f.requires_grad_(), g, h, out=m.empty(2, 3))",
]

SMALL = [
    # ravel
    "f.ravel()", "f.t().ravel()", "m.ravel(s)", "m.ravel(e)", "f.t().ravel().is_contiguous()",
    "x[:, 1:].ravel()", "m.ravel(x).stride()",
    # broadcast_to
    "m.broadcast_to(g, (2, 3))", "g.broadcast_to((2, -1))", "m.broadcast_to(s, [2, 2])",
    "m.broadcast_to(g, (2, 3)).stride()", "m.broadcast_to(g, (-1, 3))", "m.broadcast_to(g, (2, 2))",
    "m.broadcast_to(f, (3,))", "m.broadcast_to(e, (2, 0, 3))", "m.broadcast_to(g, 3)",
    "m.ravel(3)", "m.is_nonzero(3)",
    # reshape_as, type_as
    "f.reshape_as(m.zeros(3, 2))", "f.t().reshape_as(g.view(1, 3).expand(2, 3))",
    "g.reshape_as(f)", "s.reshape_as(m.zeros(1, 1))",
    "f.type_as(i)", "i.type_as(f)", "i.type_as(d)", "b.type_as(i)", "f.type_as(f) is f", "f.type_as(3)",
    # mT, mH
    "x.mT", "x.mH", "m.zeros(2, 3, 4).mT.shape", "x.mT.stride()", "x.mH.stride()", "g.mT", "g.mH",
    "s.mT", "s.mH", "s.mT is s", "s.mH is s", "e.mT.shape",
    # predicates
    "f.is_complex()", "m.is_complex(f)", "m.is_complex(i)", "m.is_complex(1)",
    "i.is_signed()", "i.to(m.uint8).is_signed()", "b.is_signed()", "f.half().is_signed()",
    "m.is_signed(f)", "m.is_signed(b)",
    "m.tensor([2.]).is_nonzero()", "m.tensor(0).is_nonzero()", "m.tensor(float('nan')).is_nonzero()",
    "m.tensor([True]).is_nonzero()", "m.tensor([[0.]]).is_nonzero()", "m.tensor(-0.0).is_nonzero()",
    "m.is_nonzero(e)", "m.is_nonzero(g)", "m.is_nonzero(m.tensor([3]))",
    "f.get_device()", "m.get_device(f)", "m.get_device(3)",
    "f.is_same_size(f.t())", "f.is_same_size(m.ones(2, 3, dtype=m.int64))", "m.is_same_size(g, f)",
    "m.is_same_size(e, m.zeros(0, 3))", "f.is_same_size(3)",
    # trace
    "m.trace(x)", "x.trace()", "m.trace(x.long())", "m.trace(x.to(m.int8) * 20)", "m.trace(x.t())",
    "m.trace(x[:, 1:])", "m.trace(x[::2, ::3])", "m.trace(m.ones(0, 3))", "m.trace(x.double())",
    "m.trace(x.to(m.uint8))", "m.trace(x.to(m.int16))", "m.trace(x.to(m.int32))",
    "m.trace(g)", "m.trace(s)", "m.trace(m.ones(2, 2, 2))", "m.trace(x.bool())", "m.trace(x.half())",
    "m.trace(x.bfloat16())", "m.trace(input=x)",
    "m.autograd.grad(m.trace(x.requires_grad_()), [x])",
    "m.autograd.grad(m.trace(x.t().requires_grad_()), [x])",
    "m.trace(x.requires_grad_()).grad_fn.name()",
    # broadcast_shapes, broadcast_tensors
    "m.broadcast_shapes((3, 1), (2,))", "m.broadcast_shapes((2,), (3, 1), (1, 1, 1))",
    "m.broadcast_shapes(5, (3, 1))", "m.broadcast_shapes()", "m.broadcast_shapes([2, 1], [1, 3])",
    "m.broadcast_shapes(m.Size([2, 1]), (0,))", "m.broadcast_shapes((3, 1), (1, 4), 5)",
    "m.broadcast_shapes((-1,), (2,))", "m.broadcast_shapes((0,), (1,))", "m.broadcast_shapes((0,), (2,))",
    "m.broadcast_shapes('a')", "m.broadcast_shapes((2.0,))",
    "m.broadcast_tensors(f, g)", "m.broadcast_tensors(g, h, s)", "m.broadcast_tensors(f)",
    "m.broadcast_tensors(f, m.zeros(4))", "m.broadcast_tensors(f, g)[1].stride()",
    "m.broadcast_tensors(f, g)[0] is f", "m.broadcast_tensors()", "m.broadcast_tensors([f, g])",
    "m.broadcast_tensors(f, 2)",
    "m.autograd.grad(m.broadcast_tensors(f, g.requires_grad_())[1].sum(), [g])",
    # sum_to_size
    "x.sum_to_size(1, 4)", "x.sum_to_size((4,))", "x.sum_to_size([3, 1])", "x.sum_to_size(3, 4)",
    "x.sum_to_size(3, 4) is x", "x.sum_to_size(1, 1)", "x.sum_to_size(())", "i.view(3, 1).sum_to_size(1)",
    "x.sum_to_size(2, 4)", "x.sum_to_size(1, 1, 4)", "x.long().sum_to_size(4)", "b.sum_to_size(1)",
    "m.autograd.grad(x.requires_grad_().sum_to_size(4).sum(), [x])",
    "x.requires_grad_().sum_to_size(1, 4).grad_fn.name()",
    # new_empty_strided
    "f.new_empty_strided((2, 3), (1, 2)).stride()", "f.new_empty_strided((2, 3), (1, 2)).dtype",
    "f.new_empty_strided((2, 3), (3, 1), dtype=m.int32).dtype", "f.new_empty_strided([4], [2]).shape",
    "i.new_empty_strided((2,), (1,)).dtype", "f.new_empty_strided((2, 3), (1,))",
    "f.requires_grad_().new_empty_strided((2,), (1,)).requires_grad",
    # node names of the composites
    "f.requires_grad_().ravel().grad_fn.name()", "f.requires_grad_().t().ravel().grad_fn.name()",
    "m.broadcast_to(g.requires_grad_(), (2, 3)).grad_fn.name()",
    "x.requires_grad_().mT.grad_fn.name()", "x.requires_grad_().mH.grad_fn.name()",
    "f.requires_grad_().type_as(d).grad_fn.name()", "f.requires_grad_().reshape_as(g.view(3, 1).expand(3, 2)).grad_fn.name()",
]

TRACES = [
    "m.addcmul(f, g, h)", "f.addcmul_(g, h, value=0.5)", "m.addcdiv(f, g, h)", "f.addcdiv_(g, h)",
    "m.addcmul(f, g, h, out=m.empty(2, 3))", "m.addcdiv(f, g, h, out=m.empty(2, 3))",
    "f.ravel()", "f.t().ravel()", "m.broadcast_to(g, (2, 3))", "f.reshape_as(m.zeros(3, 2))",
    "f.type_as(i)", "x.mT", "x.mH", "m.trace(x)", "x.sum_to_size(1, 4)",
    "f.new_empty_strided((2, 3), (1, 2))", "m.broadcast_tensors(f, g)",
    "m.tensor([2.]).is_nonzero()", "f.is_same_size(f)",
]
