"""copy.deepcopy and pickle of tensors, Parameters and modules (tutorials keep
`best_model_wts = copy.deepcopy(model.state_dict())` and DataLoader workers pickle batches), and
Tensor.to's positional non_blocking / copy flags — as torch 1.13 behaves.

    PYTHONPATH=core/python:build/python /usr/bin/python3 -m pytest -q tests/python/test_tensor_copy.py
"""
import copy
import pickle

import numpy as np
import pytest

import opscope
from opscope import nn


def test_deepcopy_owns_its_memory_and_keeps_strides_grad_and_attributes():
    x = opscope.arange(6.0).view(2, 3).t()
    y = copy.deepcopy(x)
    assert y.stride() == x.stride() and y.tolist() == x.tolist()
    assert y.data_ptr() != x.data_ptr()
    w = opscope.ones(3, requires_grad=True)
    (w * 2).sum().backward()
    w.note = {"tag": [1, 2]}
    w2 = copy.deepcopy(w)
    assert w2.is_leaf and w2.requires_grad and w2.grad.tolist() == [2.0, 2.0, 2.0]
    assert w2.grad.data_ptr() != w.grad.data_ptr()
    assert w2.note == w.note and w2.note is not w.note


def test_views_copied_together_stay_views_of_one_copy():
    base = opscope.zeros(4)
    view = base[1:3]
    base2, view2 = copy.deepcopy([base, view])
    base2[1] = 7.0
    assert view2.tolist() == [7.0, 0.0] and base.tolist() == [0.0, 0.0, 0.0, 0.0]


def test_only_leaves_deepcopy_with_torchs_message():
    x = opscope.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match=r"^Only Tensors created explicitly by the user \(graph "
                                           r"leaves\) support the deepcopy protocol at the moment$"):
        copy.deepcopy(x * 2)


def test_deepcopy_of_a_model_and_of_its_state_dict():
    model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4))
    clone = copy.deepcopy(model)
    assert type(clone[0].weight) is nn.Parameter and clone[0].weight.requires_grad
    assert clone[1].running_mean is not model[1].running_mean
    with opscope.no_grad():
        clone[0].weight.fill_(0.0)
    assert model[0].weight.abs().sum().item() > 0
    saved = copy.deepcopy(model.state_dict())
    assert list(saved) == list(model.state_dict())
    assert all(np.array_equal(saved[k].numpy(), v.numpy()) for k, v in model.state_dict().items())


@pytest.mark.parametrize("dtype", [opscope.float32, opscope.float64, opscope.int64, opscope.bool,
                                   opscope.bfloat16, opscope.float16, opscope.uint8])
def test_pickle_round_trip(dtype):
    x = (opscope.arange(12).view(3, 4) % 3).to(dtype).t()
    y = pickle.loads(pickle.dumps(x))
    assert y.dtype == dtype and y.stride() == x.stride() and opscope.equal(x, y)
    p = nn.Parameter(opscope.ones(2))
    q = pickle.loads(pickle.dumps(p))
    assert type(q) is nn.Parameter and q.requires_grad
    empty = pickle.loads(pickle.dumps(opscope.zeros(0, 3)))
    assert empty.shape == (0, 3)
    zero_d = pickle.loads(pickle.dumps(opscope.tensor(2.5)))
    assert zero_d.dim() == 0 and zero_d.item() == 2.5


def test_to_takes_non_blocking_and_copy_positionally():
    x = opscope.ones(2)
    assert x.to("cpu", False) is x
    assert x.to(opscope.float32, False, True) is not x
    assert x.to(opscope.float64, True).dtype == opscope.float64
    with pytest.raises(TypeError):
        x.to(opscope.float64, False, False, False)
