"""Tensor.is_contiguous(memory_format=...) as torch 1.13 answers it: channels_last asks for NHWC
order (4-D only; size-1 dims take any stride), and the argument is keyword-only and typed."""
import pytest

import opscope as torch


def test_row_major_tensors_are_not_channels_last_unless_c_is_trivial():
    assert not torch.ones(2, 3).is_contiguous(memory_format=torch.channels_last)
    assert not torch.ones(2, 3, 4, 5).is_contiguous(memory_format=torch.channels_last)
    assert not torch.ones(2, 3, 4, 5, 6).is_contiguous(memory_format=torch.channels_last)
    assert torch.ones(1, 3, 1, 1).is_contiguous(memory_format=torch.channels_last)
    assert torch.ones(2, 1, 4, 5).is_contiguous(memory_format=torch.channels_last)


def test_an_nhwc_permutation_is_channels_last_and_not_contiguous():
    x = torch.ones(2, 4, 5, 3).permute(0, 3, 1, 2)  # NHWC memory seen as NCHW
    assert x.shape == (2, 3, 4, 5) and x.stride() == (60, 1, 15, 3)
    assert x.is_contiguous(memory_format=torch.channels_last)
    assert not x.is_contiguous()
    assert not x.is_contiguous(memory_format=torch.contiguous_format)
    assert not x[:, :, :, ::2].is_contiguous(memory_format=torch.channels_last)


def test_the_default_and_the_other_formats_read_as_row_major():
    y = torch.ones(2, 3, 4, 5)
    assert y.is_contiguous(memory_format=torch.contiguous_format)
    assert y.is_contiguous(memory_format=torch.preserve_format)
    assert not y.transpose(0, 1).is_contiguous()


def test_bad_arguments_say_what_was_expected():
    with pytest.raises(TypeError, match="argument 'memory_format' must be torch.memory_format, "
                                        "not int"):
        torch.ones(2).is_contiguous(memory_format=3)
    with pytest.raises(TypeError):
        torch.ones(2).is_contiguous(torch.channels_last)  # keyword-only, as in torch
    with pytest.raises(TypeError, match=r"takes 0 positional arguments but 1 was given"):
        torch.ones(2).is_contiguous(torch.channels_last)
    with pytest.raises(TypeError, match="unexpected keyword argument 'foo'"):
        torch.ones(2).is_contiguous(foo=1)


def test_assert_and_numel_take_part_in_torch_function():
    class P:
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            return func.__name__

    assert torch.numel(P()) == "numel"
    assert torch.is_floating_point(P()) == "is_floating_point"
    assert torch._assert(P(), "message") == "_assert"
    torch._assert(True, "fine")
    with pytest.raises(AssertionError, match="boom"):
        torch._assert(False, "boom")
