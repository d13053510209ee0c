"""Record what PyTorch 1.13 does, as reference data for the opscope test suites.

Run with a Python that has torch 1.13 (here Debian's), from anywhere:

    /usr/bin/python3 tests/python/make_torch_reference.py

Every case below is a line of Python in which ``m`` is the tensor module; it is evaluated with
``m = torch`` and its outcome (a tensor's dtype / shape / values, a plain value, or an exception's
type and message; see reference_cases.py) is written to data/<family>_torch.json:

    elementwise_torch.json   result dtypes and values of every binary op for every dtype pair,
                             tensor/0-d tensor/Python scalar operand, and the elementwise errors
    views_torch.json         view and indexing cases and errors
    factories_torch.json     factory results (dtype inference, values) and errors
    printing_tensors_torch.json  repr() (= str()) of tensors built by an expression

The tests evaluate the same text with ``m = opscope`` and never import torch.
"""

import json
import os
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from reference_cases import outcome  # noqa: E402

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64",
          "float16", "bfloat16", "float32", "float64"]
FLOATS = ["float16", "bfloat16", "float32", "float64"]

# --- elementwise: the promotion / value table ------------------------------------------------
# Operands: `a` and `b` hold 3 values chosen per dtype (negative where the dtype allows it, no
# zero divisor); the forms make one of them 0-d or replace `b` by a Python scalar `s`.
A_VALUES = {"bool": [True, False, True], "uint8": [5, 7, 2], "int": [5, -7, 2], "float": [5.5, -7.25, 2.0]}
B_VALUES = {"bool": [True, True, True], "uint8": [2, 3, 1], "int": [2, 3, -1], "float": [2.0, 3.0, -1.5]}
SCALARS = ["3", "-2.5", "True"]


def operand_values(table, dtype):
    if dtype in ("bool", "uint8"):
        return table[dtype]
    return table["float" if dtype.startswith(("float", "bfloat")) else "int"]


# Every binary expression, run for every (dtype a, dtype b) pair with 1-d operands.
PAIR_EXPRS = [
    "m.add(a, b)", "m.add(a, b, alpha=2)", "m.sub(a, b)", "m.sub(a, b, alpha=2)", "m.rsub(a, b)",
    "m.mul(a, b)", "m.div(a, b)", "m.div(a, b, rounding_mode='trunc')",
    "m.div(a, b, rounding_mode='floor')", "m.pow(a, b)",
    "m.eq(a, b)", "m.ne(a, b)", "m.lt(a, b)", "m.le(a, b)", "m.gt(a, b)", "m.ge(a, b)",
    "m.bitwise_and(a, b)", "m.bitwise_or(a, b)", "m.bitwise_xor(a, b)",
    "a + b", "a - b", "a * b", "a / b", "a ** b", "a & b", "a | b", "a ^ b", "a < b", "a == b",
    "a.add_(b)", "a.sub_(b)", "a.mul_(b)", "a.div_(b)", "a.div_(b, rounding_mode='floor')",
    "a.pow_(b)", "a.eq_(b)", "a.lt_(b)", "a.bitwise_and_(b)",
]
# The subset also run with a 0-d `b` ("b0d") and a 0-d `a` ("a0d"): 0-d tensors promote like
# scalars of their category.
ZERO_DIM_EXPRS = ["m.add(a, b)", "m.sub(a, b)", "m.mul(a, b)", "m.div(a, b)", "m.pow(a, b)",
                  "m.eq(a, b)", "m.bitwise_xor(a, b)", "a.add_(b)", "a.div_(b)"]
# Run for every dtype of `a` with each Python scalar `s`, including the reflected forms.
SCALAR_EXPRS = [
    "m.add(a, s)", "m.add(a, s, alpha=2)", "m.sub(a, s)", "m.rsub(a, s)", "m.mul(a, s)",
    "m.div(a, s)", "m.div(a, s, rounding_mode='floor')", "m.pow(a, s)", "m.pow(s, a)",
    "m.eq(a, s)", "m.gt(a, s)", "m.bitwise_and(a, s)", "m.bitwise_or(s, a)",
    "a + s", "s + a", "a - s", "s - a", "s * a", "a / s", "s / a", "a ** s", "s ** a",
    "a & s", "s ^ a", "a < s", "s < a", "a == s",
    "a.add_(s)", "a.sub_(s)", "a.mul_(s)", "a.div_(s)", "a.pow_(s)", "a.ne_(s)",
]
# out= : the output's dtype decides whether the (float32 + float32 / comparison) result may be
# written into it.
OUT_EXPRS = ["m.add(a, a, out=o)", "m.div(a, a, rounding_mode='floor', out=o)", "m.lt(a, a, out=o)",
             "m.neg(a, out=o)", "m.bitwise_not(a, out=o)"]

UNARY_EXPRS = ["m.neg(a)", "-a", "a.neg_()", "m.bitwise_not(a)", "~a", "a.bitwise_not_()"]


def make(dtype, values, zero_dim=False):
    t = torch.tensor(values, dtype=getattr(torch, dtype))
    return t[0] if zero_dim else t


def row(expr, **env):
    o = outcome(expr, torch, **env)
    if "error" in o:
        return [f"!{o['error']}: {o['message']}"]
    return [o["dtype"], o["values"]]


def promotion_table():
    tables = []
    for form, exprs in [("1d", PAIR_EXPRS), ("b0d", ZERO_DIM_EXPRS), ("a0d", ZERO_DIM_EXPRS)]:
        for expr in exprs:
            rows = []
            for da in DTYPES:
                for db in DTYPES:
                    a = make(da, operand_values(A_VALUES, da), zero_dim=form == "a0d")
                    b = make(db, operand_values(B_VALUES, db), zero_dim=form == "b0d")
                    rows.append([da, db] + row(expr, a=a, b=b))
            tables.append({"expr": expr, "form": form, "rows": rows})
    for expr in SCALAR_EXPRS:
        rows = []
        for da in DTYPES:
            for s in SCALARS:
                a = make(da, operand_values(A_VALUES, da))
                rows.append([da, s] + row(expr, a=a, s=eval(s)))
        tables.append({"expr": expr, "form": "scalar", "rows": rows})
    for expr in OUT_EXPRS:
        rows = []
        for da in DTYPES:
            for do in DTYPES:
                a = make(da, operand_values(A_VALUES, da))
                o = torch.empty(3, dtype=getattr(torch, do))
                rows.append([da, do] + row(expr, a=a, o=o))
        tables.append({"expr": expr, "form": "out", "rows": rows})
    for expr in UNARY_EXPRS:
        rows = [[da, None] + row(expr, a=make(da, operand_values(A_VALUES, da))) for da in DTYPES]
        tables.append({"expr": expr, "form": "unary", "rows": rows})
    return {"A_VALUES": A_VALUES, "B_VALUES": B_VALUES, "tables": tables}


ELEMENTWISE_CASES = [
    # casting rules of in-place and out= results
    "m.tensor([1, 2]).add_(0.5)",
    "m.tensor([2]).mul_(1.5)",
    "m.tensor([3]).div_(2)",
    "m.tensor([True]).add_(1)",
    "m.tensor([1], dtype=m.uint8).sub_(m.tensor([1.]))",
    "m.add(m.ones(2), m.ones(2), out=m.empty(2, dtype=m.int64))",
    "m.tensor([2]).pow_(0.5)",
    # broadcasting
    "m.ones(2, 3) + m.ones(2, 4)",
    "m.ones(3) + m.ones(4)",
    "m.ones(3, 1, 4) * m.ones(2, 5)",
    "m.ones(1, 3).add_(m.ones(2, 3))",
    "m.ones(3).add_(m.ones(2, 3))",
    "m.ones(3).lt_(m.ones(2, 3))",
    "m.ones(2, 3).mul_(m.ones(3))",
    "m.ones(3, 1, 4) + m.ones(2, 4)",
    "m.ones(0, 3) + m.ones(3)",
    "m.ones(0, 3) + m.ones(1, 1)",
    "m.ones(0) + m.ones(2)",
    # bool arithmetic
    "m.tensor([True]) - m.tensor([True])",
    "m.tensor([True]) - 1",
    "1 - m.tensor([True])",
    "m.sub(m.tensor([True]), m.tensor([True]))",
    "m.rsub(m.tensor([True]), m.tensor([True]))",
    "m.tensor([True]).sub_(m.tensor([False]))",
    "-m.tensor([True])",
    "m.neg(m.tensor([True]))",
    "m.tensor([True]).neg_()",
    "m.tensor([True, False]) + m.tensor([True, True])",
    "m.tensor([True, False]) * m.tensor([True, True])",
    "m.add(m.tensor([True]), m.tensor([True]), alpha=2)",
    # alpha
    "m.add(m.ones(2), 1, alpha=0.5)",
    "m.add(m.tensor([1]), m.tensor([1]), alpha=0.5)",
    "m.sub(m.tensor([1]), 1, alpha=2.5)",
    "m.ones(2).add_(m.ones(2), alpha=True)",
    "m.tensor([1]).add_(m.tensor([True]), alpha=1.5)",
    "m.rsub(m.tensor([1., 2.]), m.tensor([10., 20.]), alpha=3)",
    "m.rsub(m.tensor([1, 2]), 10, alpha=3)",
    # division
    "m.tensor([1]) / 0",
    "m.tensor([-1, 0, 1]) / 0",
    "m.div(m.tensor([1]), m.tensor([0]), rounding_mode='floor')",
    "m.div(m.tensor([1]), m.tensor([0]), rounding_mode='trunc')",
    "m.div(m.tensor([1]), 0, rounding_mode='trunc')",
    "m.div(m.tensor([1], dtype=m.uint8), 0, rounding_mode='floor')",
    "m.div(m.tensor([1.]), 0, rounding_mode='trunc')",
    "m.div(m.tensor([-1., 0., 1.]), 0, rounding_mode='floor')",
    "m.div(m.tensor([-7, 7]), m.tensor([2, -2]), rounding_mode='floor')",
    "m.div(m.tensor([-7, 7]), m.tensor([2, -2]), rounding_mode='trunc')",
    "m.div(m.tensor([-7.5, 7.5]), 2, rounding_mode='floor')",
    "m.div(m.tensor([1]), 2, rounding_mode='round')",
    "m.div(m.tensor([1.]), m.tensor([2.]), rounding_mode='')",
    "m.tensor([3]).div_(2, rounding_mode='floor')",
    "m.div(m.tensor([3]), 2, rounding_mode=None)",
    "m.div(m.tensor([3]), 2, rounding_mode='floor', out=m.empty(1, dtype=m.int64))",
    "m.div(m.tensor([-128], dtype=m.int8), -1, rounding_mode='trunc')",
    # overlapping writes
    "m.ones(3).expand(2, 3).add_(1)",
    "m.ones(1).expand(3).add_(m.ones(3))",
    "m.ones(1).expand(3).mul_(2)",
    "m.ones(1, 3).expand(2, 3).neg_()",
    "m.add(m.ones(2), m.ones(2), out=m.ones(1).expand(2))",
    "m.ones(2, 2).t().add_(1)",
    "(lambda a: a[1:].add_(a[:-1]))(m.arange(5.))",
    "(lambda a: m.add(a[1:], 1, out=a[:-1]))(m.arange(5.))",
    "(lambda a: m.neg(a[1:], out=a[:-1]))(m.arange(5.))",
    "(lambda a: a.t().add_(a))(m.arange(4.).view(2, 2))",
    "(lambda a: a.add_(a.t()))(m.arange(4.).view(2, 2))",
    "(lambda a: a.add_(a))(m.arange(5.))",
    "(lambda a: m.mul(a, 2, out=a.view(5)))(m.arange(5.))",
    "(lambda a: a[::2].add_(a[1::2]))(m.arange(6.))",
    "(lambda a: (a.add_(a[0]), a)[1])(m.arange(3.))",
    # out= resizing and layout
    "(lambda o: (m.add(m.ones(2, 3), 1, out=o), o.stride())[1])(m.empty(3, 2).t())",
    "(lambda o: (m.add(m.ones(2, 3), 1, out=o), o.shape, o.stride())[1:])(m.empty(0))",
    "(lambda o: (m.add(m.ones(2, 3), 1, out=o), o.shape, o.stride())[1:])(m.empty(7))",
    "(lambda o: (m.add(m.ones(2, 3).t(), 1, out=o), o.stride())[1])(m.empty(0))",
    # powers
    "m.tensor([2]) ** -1",
    "m.pow(m.tensor([2]), -1)",
    "m.tensor([2]).pow_(-1)",
    "m.tensor([2], dtype=m.int8) ** -2",
    "m.pow(m.tensor([2, -1, 1, 0]), m.tensor([-1, -3, -2, 2]))",
    "m.pow(2, m.tensor([-1, 0, 3]))",
    "m.pow(2.5, m.tensor([-1, 0, 3]))",
    "m.pow(m.tensor([0., -0., 4.]), -0.5)",
    "m.tensor([0, 1, 2]) ** 0",
    "m.tensor([2, 3]) ** 2.0",
    "m.tensor([2., 3.]) ** m.tensor([[1.], [2.]])",
    "m.pow(m.tensor([1, 2]), True)",
    "m.pow(m.tensor([True, False]), 2)",
    "m.tensor([100, -100], dtype=m.int8) * 2",
    "m.tensor([250], dtype=m.uint8) + 10",
    "m.tensor([2**62]) * 4",
    # bitwise
    "m.bitwise_and(m.ones(2), m.ones(2))",
    "m.bitwise_and(m.tensor([1]), 1.5)",
    "m.bitwise_not(m.ones(2))",
    "m.ones(2) & m.ones(2)",
    "m.ones(2) | 1",
    "m.tensor([1]) & 1.5",
    "m.tensor([5, -3]) ^ m.tensor([True, False])",
    "m.bitwise_xor(5, m.tensor([1, 2], dtype=m.uint8))",
    "~m.tensor([0, -1, 7], dtype=m.int8)",
    "~m.tensor([0, 255], dtype=m.uint8)",
    "~m.tensor([True, False])",
    # comparisons into other dtypes
    "m.tensor([1]).eq_(m.tensor([1.5]))",
    "m.tensor([1]).lt_(1.5)",
    "m.lt(m.ones(3), m.ones(3), out=m.empty(3, dtype=m.int64))",
    "m.eq(m.ones(2), m.ones(2), out=m.empty(2))",
    "m.tensor([float('nan'), 1.]) == m.tensor([float('nan'), 1.])",
    "m.tensor([float('nan'), 1.]) != m.tensor([float('nan'), 1.])",
    "m.tensor([1, 2]) < 1.5",
    "m.tensor([1, 2], dtype=m.uint8) > -1",
    "m.tensor([True, False]) > 0.5",
    "(m.tensor([1., 2.]) == None, m.tensor([1., 2.]) != None)",
    # matmul operator
    "m.ones(2, 3) @ m.ones(2, 3)",
    "m.ones(2, 3) @ m.ones(3)",
    # large integers as scalars
    "m.tensor([1], dtype=m.int8) + 1000",
    "m.tensor([1], dtype=m.uint8) + (-1)",
    "m.tensor([1.], dtype=m.float16) * 1e6",
    "m.tensor([1], dtype=m.int32) + 2**40",
    "m.tensor([1]) + 2**63",
]


# --- views and indexing ----------------------------------------------------------------------
VIEW_CASES = [
    # indexing errors
    "m.arange(3)[5]", "m.arange(3)[-4]", "m.arange(3)[0, 0]", "m.arange(6).view(2, 3)[2]",
    "m.arange(6).view(2, 3)[:, 3]", "m.arange(6).view(2, 3)[1, -4]",
    "m.arange(3)[::-1]", "m.arange(3)[::0]", "m.arange(6).view(2, 3)[:, ::-2]",
    "m.tensor(5)[0]", "m.tensor(5)[0,]", "m.tensor(5)[None, 0]",
    "m.arange(3)[1.5]", "m.arange(3)[0, ..., 0]",
    "m.arange(3)[..., ...]",
    # indexing results torch gives in corner cases
    "m.arange(6)[4:2]", "m.arange(6)[-100:100]", "m.arange(6)[10:]", "m.arange(6)[::10]",
    "m.arange(6)[True]", "m.arange(6)[False]", "m.arange(6)[None, ..., None]",
    "m.arange(12).view(3, 4)[1:, None, ..., ::2]", "m.arange(12).view(3, 4)[..., 1]",
    "m.arange(24).view(2, 3, 4)[1, ..., 2:]", "m.arange(24).view(2, 3, 4)[:, 1][..., None]",
    "m.tensor(5)[...]", "m.tensor(5)[None]", "m.tensor(5)[()]",
    # view family errors
    "m.arange(6).view(4)", "m.arange(6).view(-1, -1)", "m.arange(6).view(4, -1)",
    "m.arange(6).view(2, 3).t().view(6)", "m.arange(6).view(-2, 3)", "m.arange(0).view(-1, 0)",
    "m.arange(6).reshape(4, -1)", "m.arange(6).view(2, 3).transpose(0, 2)",
    "m.arange(6).view(2, 3).transpose(-3, 0)",
    "m.arange(6).view(2, 3).permute(0)", "m.arange(6).view(2, 3).permute(0, 0)",
    "m.arange(6).view(2, 3).permute(0, 2)",
    "m.arange(6).view(2, 3).squeeze(3)", "m.arange(6).view(2, 3).unsqueeze(4)",
    "m.arange(6).view(2, 3).unsqueeze(-4)",
    "m.arange(6).view(2, 3).expand(3, 3)", "m.arange(6).view(2, 3).expand(3)",
    "m.ones(2).expand(-1, 2)", "m.ones(2).expand(2, -2)",
    "m.arange(6).view(2, 3).narrow(0, 1, 2)", "m.arange(6).view(2, 3).narrow(2, 0, 1)",
    "m.arange(6).narrow(0, 5, 2)", "m.arange(6).narrow(0, -7, 1)", "m.tensor(1.).narrow(0, 0, 1)",
    "m.arange(6).view(2, 3).select(0, 2)", "m.arange(6).view(2, 3).select(2, 0)",
    "m.arange(6).view(2, 3).select(1, -4)", "m.tensor(1.).select(0, 0)",
    "m.arange(6).view(2, 3).flatten(1, 0)", "m.arange(6).view(2, 3).flatten(0, 2)",
    "m.arange(6).unflatten(0, (4, -1))", "m.arange(6).unflatten(0, (2, 2))",
    "m.arange(6).unflatten(0, ())", "m.arange(6).unflatten(0, (-1, -1))",
    "m.arange(6).view(2, 3).diagonal(0, 0, 0)", "m.arange(6).view(2, 3).diagonal(0, 0, 2)",
    "m.arange(6).view(2, 3).movedim(0, 2)", "m.arange(6).view(2, 3).movedim((0, 1), (0,))",
    "m.arange(6).view(2, 3).movedim((0, 0), (0, 1))",
    "m.arange(6).as_strided((3, 3), (1, 1), 10)", "m.arange(6).as_strided((3,), (-1,))",
    "m.arange(6).as_strided((3,), (1, 1))",
    "m.arange(24).view(2, 3, 4).t()", "m.arange(6).view(2, 3).unfold(1, 4, 1)",
    "m.arange(6).view(2, 3).unfold(1, 2, 0)",
    "m.arange(6).view(2, 3).contiguous(memory_format=m.channels_last)",
    # results with a shape torch decides
    "m.arange(6).view(2, 3).diagonal(5)", "m.arange(6).view(2, 3).diagonal(-1)",
    "m.arange(24).view(2, 3, 4).diagonal(1, -1, 0)", "m.arange(6).view(2, 3).unfold(1, 2, 1)",
    "m.arange(10).unfold(0, 3, 3)", "m.arange(6).view(1, 2, 1, 3).squeeze()",
    "m.arange(6).view(1, 2, 1, 3).squeeze(-2)", "m.arange(6).view(2, 3).squeeze(0)",
    "m.tensor(1.).squeeze()", "m.tensor(1.).squeeze(0)", "m.tensor(1.).unsqueeze(-1)",
    "m.tensor(1.).flatten()", "m.tensor(1.).view(1, 1)", "m.tensor(1.).t()", "m.arange(4).t()",
    "m.tensor(1.).expand(2, 3)", "m.tensor(1.).transpose(0, -1)", "m.tensor(1.).permute(())",
    "m.arange(0).view(2, 0, 3).reshape(0, -1)", "m.arange(0).view(0, 3).flatten()",
    "m.arange(24).view(2, 3, 4).flatten(1)", "m.arange(24).view(2, 3, 4).unflatten(-1, (2, -1))",
    "m.arange(24).view(2, 3, 4).movedim((0, 2), (2, 0))", "m.arange(24).view(2, 3, 4).moveaxis(-1, 0)",
    "m.arange(24).view(2, 3, 4).swapaxes(0, 2).stride()", "m.arange(24).view(2, 3, 4).swapdims(1, 2).stride()",
    "m.arange(24).view(2, 3, 4).permute(2, 0, 1).stride()", "m.arange(24).view(2, 3, 4)[:, ::2].stride()",
    "m.arange(24).view(2, 3, 4).expand(5, 2, 3, 4).stride()", "m.arange(4).view(4, 1).expand(4, 3).stride()",
    "m.arange(24).view(2, 3, 4).unbind(1)", "m.arange(24).view(2, 3, 4).diagonal(0, 1, 2).stride()",
    "m.arange(24).view(2, 3, 4).permute(2, 0, 1).contiguous().stride()",
    "m.arange(24).view(2, 3, 4).transpose(0, 1).reshape(6, 4).stride()",
    "m.arange(24).view(2, 3, 4)[:, 1:].reshape(2, 8).is_contiguous()",
    "m.arange(24).view(2, 3, 4).transpose(1, 2).clone().stride()",
    "m.arange(24).view(2, 3, 4).transpose(1, 2).clone(memory_format=m.preserve_format).stride()",
    "m.arange(24).view(2, 3, 4).expand(2, 2, 3, 4).clone(memory_format=m.preserve_format).stride()",
    "m.empty(2, 3).as_strided((3, 2), (1, 3)).stride()", "m.empty(2, 3)[:, 1:].storage_offset()",
    "m.arange(24).view(2, 3, 4)[1, 2].storage_offset()", "m.ones(2, 1, 3).squeeze(1).stride()",
    "m.ones(2, 3).unsqueeze(1).stride()", "m.ones(2, 3).t().unsqueeze(0).stride()",
    "m.ones(4, 6)[::2, 1::3].unsqueeze(2).stride()",
    "m.arange(6).view(2, 3).expand_as(m.ones(4, 2, 3))", "m.arange(6).view_as(m.ones(3, 2))",
    "m.arange(6).view(3, 2).view_as(m.ones(4))",
    # setitem
    "m.arange(6).view(2, 3).__setitem__((0, slice(None)), m.tensor([1, 2]))",
    "m.arange(6).view(2, 3).__setitem__(0, 2.7)",
    "m.arange(6).view(2, 3).__setitem__(0, m.tensor([[1, 2, 3]]))",
    "m.arange(6).view(2, 3).__setitem__(0, m.ones(2, 3))",
    "m.arange(3).__setitem__(5, 1)",
]


# --- factories -------------------------------------------------------------------------------
FACTORY_CASES = [
    # dtype inference
    "m.full((2,), 3)", "m.full((2,), 3.)", "m.full((2,), True)", "m.full((2,), 3, dtype=m.float16)",
    "m.full((2,), 1.5, dtype=m.int64)", "m.full((), 2)", "m.full([2, 1], -1.5)",
    "m.full((2,), 2**40)", "m.full((2,), 300, dtype=m.uint8)", "m.full((2,), -1, dtype=m.uint8)",
    "m.full((2,), float('inf'), dtype=m.int32)",
    "m.zeros(2, 3, dtype=m.float64)", "m.zeros(())", "m.zeros([])", "m.ones(2, 0, 3)",
    "m.ones(2, dtype=m.bool)", "m.ones((2, 2), dtype=m.bfloat16)", "m.zeros(3, dtype=m.uint8)",
    "m.scalar_tensor(3)", "m.scalar_tensor(True)", "m.scalar_tensor(2.5, dtype=m.float64)",
    # arange
    "m.arange(5)", "m.arange(5.)", "m.arange(1, 5)", "m.arange(1, 5, 2)", "m.arange(0, 1, 0.1)",
    "m.arange(0, 1, 0.1, dtype=m.float64)", "m.arange(5, 1, -1)", "m.arange(True)",
    "m.arange(0.5, 3)", "m.arange(3, dtype=m.float16)", "m.arange(10, dtype=m.uint8)",
    "m.arange(-1.5, 2.5, 0.5)", "m.arange(0, 10, 3.3)", "m.arange(0, 1, 1/3)",
    "m.arange(1, 2.5, 0.5)", "m.arange(0, -1, -0.25)", "m.arange(1e6, 1e6 + 10, 1.5)",
    "m.arange(0.5, 5.7, dtype=m.int64)", "m.arange(-3, 3, dtype=m.float64)", "m.arange(0)",
    "m.arange(2, 2)", "m.arange(0, 5, 2, dtype=m.int8)", "m.arange(start=1, end=4)",
    "m.arange(end=3)", "m.arange(0, 6, step=2)", "m.arange(-7.5, 90, 1.3, dtype=m.bfloat16)",
    "m.arange(0, 10, 0.3, dtype=m.float16)", "m.arange(1, 5, 0)", "m.arange(5, 1)",
    "m.arange(1, 5, -1)", "m.arange(float('inf'))", "m.arange(float('nan'))", "m.arange(0, 1, 1e-20)",
    "m.arange(-5, dtype=m.uint8)",
    # linspace
    "m.linspace(0, 1, 5)", "m.linspace(0, 1, 1)", "m.linspace(0, 1, 0)", "m.linspace(0, 1, -1)",
    "m.linspace(0, 10, 5, dtype=m.int64)", "m.linspace(-1, 1, 7, dtype=m.float64)",
    "m.linspace(0, 1, steps=3, dtype=m.float16)", "m.linspace(2, 3, 4, dtype=m.int32)",
    "m.linspace(1, 0, 6)", "m.linspace(-3.3, 7.7, 11)", "m.linspace(0, 255, 4, dtype=m.uint8)",
    "m.linspace(5, 5, 3)", "m.linspace(-3.3, 7.7, 101, dtype=m.int64)", "m.linspace(-3.3, 7.7, 101, dtype=m.float16)", "m.linspace(0, 1, 4, dtype=m.bfloat16)", "m.linspace(3, -3, 5, dtype=m.int8)",
    # eye
    "m.eye(3)", "m.eye(2, 3)", "m.eye(3, 2, dtype=m.int64)", "m.eye(-1)", "m.eye(2, -1)",
    "m.eye(3, dtype=m.bool)", "m.eye(0)", "m.eye(1, 0)",
    # *_like
    "m.zeros_like(m.ones(2, 3), dtype=m.int8)", "m.ones_like(m.ones(2, 3).t())",
    "m.ones_like(m.ones(2, 3).t()).stride()", "m.ones_like(m.ones(2, 3).t(), memory_format=m.contiguous_format).stride()",
    "m.ones_like(m.ones(4, 6)[::2, ::3]).stride()", "m.ones_like(m.ones(2, 1).expand(2, 3)).stride()",
    "m.full_like(m.ones(2), 7)", "m.full_like(m.ones(2, dtype=m.int64), 7.9)",
    "m.full_like(m.ones(2, dtype=m.bool), 2)", "m.zeros_like(m.tensor(3.5))",
    "m.empty_like(m.ones(2, 3, dtype=m.int16)).shape", "m.empty_like(m.ones(2, 3, dtype=m.int16)).dtype",
    "m.rand_like(m.ones(2, 3, dtype=m.float64)).dtype", "m.randn_like(m.ones(4, dtype=m.float16)).shape",
    "m.randint_like(m.ones(2), 5).dtype", "m.randint_like(m.ones(2, dtype=m.int16), 3, 5).dtype",
    "m.rand_like(m.ones(2, dtype=m.int64))", "m.randn_like(m.ones(2, dtype=m.bool))",
    # tensor()
    "m.tensor([1, 2.5])", "m.tensor([True, 2])", "m.tensor([True, False])", "m.tensor([1, True, 2.5])",
    "m.tensor([[1, 2], [3]])", "m.tensor([[1, 2], 3])", "m.tensor([])", "m.tensor([[]])",
    "m.tensor([[], []])", "m.tensor(3)", "m.tensor(3.)", "m.tensor(True)", "m.tensor(-0.)",
    "m.tensor([[[1]], [[2]]])", "m.tensor(((1, 2), (3, 4)))", "m.tensor([1.5, 2], dtype=m.int32)",
    "m.tensor([1, 2], dtype=m.float16)", "m.tensor([1.7, -1.7], dtype=m.int64)",
    "m.tensor([0.1], dtype=m.float64)", "m.tensor([0.1, 1e40])", "m.tensor([1, 2], dtype=m.bool)",
    "m.tensor([2**62, -2**62])", "m.tensor([2**63])", "m.tensor([300], dtype=m.uint8)",
    "m.tensor(np.array([1, 2], dtype=np.int32))", "m.tensor(np.array([1, 2], dtype=np.float16))",
    "m.tensor(np.array([[1.5, 2], [3, 4]]))", "m.tensor(np.array([True, False]))",
    "m.tensor(np.arange(6, dtype=np.uint8).reshape(2, 3)[:, ::2])",
    "m.tensor(np.array([1, 2], dtype=np.int64), dtype=m.float32)",
    "m.tensor(np.float64(2.5))", "m.tensor([np.int16(1)])", "m.tensor(np.float32(1.5))",
    "m.tensor([np.float16(1), 2])", "m.tensor(np.array(3))",
    "m.tensor(np.array([1, 2], dtype=np.uint16))", "m.tensor([1, 'a'])", "m.tensor('a')",
    "m.tensor([m.tensor(1), m.tensor(2)])", "m.tensor([m.tensor(1.5), 2])",
    "m.tensor(m.ones(2, dtype=m.int16))",
    # requires_grad= and device= keywords
    "m.ones(2, requires_grad=True).requires_grad", "m.zeros(2, 3, requires_grad=False).requires_grad",
    "m.rand(2, requires_grad=True).requires_grad", "m.tensor([1., 2.], requires_grad=True).requires_grad",
    "m.full((2,), 1., requires_grad=True).requires_grad", "m.linspace(0, 1, 3, requires_grad=True).requires_grad",
    "m.ones(2, dtype=m.int64, requires_grad=True)", "m.tensor([1], requires_grad=True)",
    "m.ones(2, dtype=m.int64).requires_grad_()", "m.arange(3, requires_grad=True)",
    "m.ones(2, device='cpu')", "m.ones(2, device='cpu:0')", "m.zeros(2, device=m.device('cpu')).device",
    "m.tensor([1.], device='cpu').device", "m.ones(2, device='tpu')",
    # sizes
    "m.zeros(2, -1)", "m.empty(-1)", "m.ones((2, -3))", "m.full((-1,), 1.)", "m.zeros(2.5)",
    "m.rand(-2)", "m.randint(5, (-1,))", "m.empty_strided((2, 3), (1, 2)).stride()",
    "m.empty_strided((2, 3), (1, 2)).is_contiguous()", "m.zeros((2, 3), dtype=m.float64).stride()",
    # random: dtypes, shapes and errors (the values are opscope's own stream)
    "m.randint(5, (3,)).dtype", "m.randint(3, 5, (3,)).dtype", "m.randint(5, (3,), dtype=m.float32).dtype",
    "m.randint(5, 3, (3,))", "m.randint(5, 5, (3,))", "m.randint(0, (3,))", "m.rand(2, dtype=m.int64)",
    "m.randn(2, dtype=m.int64)", "m.randn(2, 3, dtype=m.float64).dtype", "m.rand(()).shape",
    "m.rand(2, 0).shape", "m.randint(0, 2**40, (2,)).dtype", "m.randint(-5, 0, (2,), dtype=m.uint8)",
    "m.randint(0, 300, (2,), dtype=m.uint8)", "m.randint(0, 2, (4,), dtype=m.bool).dtype",
    "m.randn(3, dtype=m.bfloat16).dtype", "m.rand(3, dtype=m.float16).dtype",
    "m.ones(3).uniform_(2, 1)", "m.ones(3).normal_(0, -1)", "m.ones(3, dtype=m.int64).normal_()",
    "m.ones(3).random_(5, 2)", "m.ones(3, dtype=m.int8).random_(0, 200)",
    "m.ones(3).bernoulli_(1.5)", "m.ones(3).bernoulli_(-0.1)",
]


# --- printing --------------------------------------------------------------------------------
def literal(values):
    """A Python literal for a nested list, floats printed exactly (repr round-trips)."""
    return repr(values).replace("nan", "float('nan')").replace("inf", "float('inf')")


def random_values(shape, dtype, seed, scale=1.0):
    """Seeded values of `dtype` (a NumPy array), exactly representable in it."""
    rng = np.random.default_rng(seed)
    if dtype == "bool":
        return rng.random(shape) < 0.5
    if dtype in ("uint8",):
        return rng.integers(0, 256, shape)
    if dtype.startswith("int"):
        info = np.iinfo(getattr(np, dtype))
        return rng.integers(max(info.min, -10**6), min(info.max, 10**6), shape, endpoint=True)
    values = rng.standard_normal(shape) * scale
    # Round to the dtype with torch so that the literal holds exactly representable values.
    return torch.tensor(values, dtype=torch.float64).to(getattr(torch, dtype)).double().numpy()


def printing_cases():
    """Tensors of every dtype and layout, built from literals (or arange), printed by torch with
    the default print options and a few others."""
    exprs = []
    for dtype in DTYPES:
        d = f"m.{dtype}"
        small = random_values((2, 3), dtype, 1)
        exprs += [
            f"m.tensor({literal(small.tolist())}, dtype={d})",
            f"m.tensor({literal(small.tolist())}, dtype={d}).t()",
            f"m.tensor({literal(small.ravel()[0].item())}, dtype={d})",
            f"m.tensor([], dtype={d})",
            f"m.zeros(0, 3, dtype={d})",
            f"m.tensor({literal(random_values((4, 5), dtype, 2).tolist())}, dtype={d})[::2, 1::2]",
            f"m.tensor({literal(random_values((3,), dtype, 3).tolist())}, dtype={d}).expand(2, 3)",
            f"m.ones(40, 30, dtype={d})",
            f"m.ones(2001, dtype={d})",
        ]
    for dtype in FLOATS:
        d = f"m.{dtype}"
        exprs += [
            f"m.tensor({literal(random_values((3, 4), dtype, 4, scale=1e5).tolist())}, dtype={d})",
            f"m.tensor({literal(random_values((3,), dtype, 5, scale=1e-5).tolist())}, dtype={d})",
            f"m.tensor([1., float('nan'), float('inf'), -float('inf'), -0.], dtype={d})",
            f"m.tensor([1., 2., 3.], dtype={d}, requires_grad=True)",
            f"m.tensor(2.5, dtype={d}, requires_grad=True)",
            f"m.tensor([[1e-3, 1e3], [5., 6.]], dtype={d}).t()",
            f"m.linspace(-1, 1, 13, dtype={d}).view(13, 1).expand(13, 2)",
            f"m.arange(0, 12, dtype={d}).view(3, 4).t()[1:]",
            f"m.tensor({literal(random_values((2, 3, 4), dtype, 6).tolist())}, dtype={d}).permute(2, 0, 1)",
        ]
    exprs += [
        "m.arange(1200).view(30, 40)", "m.arange(1200.).view(2, 600)", "m.arange(5000)[::3]",
        "m.arange(3000.).view(30, 100) / 7 - 200", "m.arange(-1000, 1000, dtype=m.bfloat16).view(2, 1000)",
        "(m.arange(4000.) * 1e-3).view(4, 1000).t()[::2]",
        "m.arange(24).view(2, 3, 4)", "m.arange(10000.).view(10, 10, 100)",
        "m.arange(24, dtype=m.float64).view(2, 3, 4).transpose(0, 2)",
        "m.arange(6).view(2, 3)[1]", "m.arange(6.).view(2, 3)[:, 1]", "m.arange(6.).view(2, 3)[1, 2]",
        "m.ones(2, 3)[:, :0]", "m.ones(1, 0, 2, dtype=m.int64)", "m.zeros(0, dtype=m.bool)",
        "m.eye(4)[::2]", "m.ones(2, 1).expand(2, 3)[:, 1:]",
        "m.tensor([123456789.0, 1.0])", "m.tensor([0.1, 0.25, 100000.0])", "m.tensor([1e-10, 1.])",
        "m.tensor([-1, 10, -100], dtype=m.int8)", "m.tensor([2**40, -3])",
    ]
    with_options = [
        ("m.arange(12.).view(3, 4) / 7", {"precision": 2}),
        ("m.arange(12.).view(3, 4) / 7", {"precision": 6}),
        ("m.arange(30).view(5, 6)", {"threshold": 5, "edgeitems": 1}),
        ("m.arange(100.) * 1.5", {"linewidth": 40}),
        ("m.tensor([1., 2.5, 100.])", {"sci_mode": True}),
        ("m.tensor([1e-8, 1., 1e8])", {"sci_mode": False}),
        ("m.arange(1001.)", {"profile": "full"}),
        ("m.arange(24.).view(2, 3, 4)", {"profile": "short"}),
    ]
    cases = []
    for expr, options in [(e, {}) for e in exprs] + with_options:
        t = eval(expr, {"m": torch})
        torch.set_printoptions(**options)
        assert str(t) == repr(t)
        cases.append({"expr": expr, "options": options, "repr": repr(t)})
        torch.set_printoptions(profile="default")
    return cases



def dumps(obj):
    """JSON with one case (or table row) per line, so that a diff of the data reads well."""
    if isinstance(obj, dict) and any(isinstance(v, (dict, list)) and len(v) > 8 for v in obj.values()):
        return "{" + ",\n".join(f"{json.dumps(k)}: {dumps(v)}" for k, v in obj.items()) + "}"
    if isinstance(obj, list) and obj and isinstance(obj[0], (dict, list)):
        return "[\n" + ",\n".join(dumps(x) for x in obj) + "]"
    return json.dumps(obj, separators=(",", ":"))


def write(name, data):
    path = os.path.join(HERE, "data", name)
    with open(path, "w") as f:
        f.write(dumps({"torch_version": torch.__version__, **data}) + "\n")
    print(f"wrote {path} ({os.path.getsize(path) // 1024} KiB)")


def cases(exprs):
    return [{"expr": e, **outcome(e, torch)} for e in exprs]


def main():
    torch.set_printoptions(profile="default")
    write("elementwise_torch.json", {"promotion": promotion_table(), "cases": cases(ELEMENTWISE_CASES)})
    write("views_torch.json", {"cases": cases(VIEW_CASES)})
    write("factories_torch.json", {"cases": cases(FACTORY_CASES)})
    write("printing_tensors_torch.json", {"cases": printing_cases()})


if __name__ == "__main__":
    main()
