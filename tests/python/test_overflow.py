"""Hostile sizes, strides, steps, offsets and dims: no crash, no undefined behaviour, no wrong answer.

Every size / stride / index computation a user's number reaches is checked (see Note [Size
arithmetic is checked] in core/runtime/CheckedMath.h). Each case below is one such site, reached
with an int64 near the edge (2**62, 2**63 - 1, -2**63), as a fuzzer found them; UBSan watched them
(`make test-sanitize`). Errors are torch 1.13's: its type and its text, recorded here as literals.
Where torch 1.13 itself overflows — a wrong result, or a message that is an artefact of a
wrapped number — the case says what torch does and checks the right answer instead.
"""
import re

import numpy as np
import pytest

import opscope as torch

B = 2**62
M = 2**63 - 1
N = -(2**63)


def x():
    return torch.arange(6.0).reshape(2, 3)


# (id, call, exception type, torch 1.13's message)
ERRORS = [
    # Factories: the storage size (torch's computeStorageNbytesContiguous / computeStorageNbytes).
    ("empty", lambda: torch.empty(B, B), RuntimeError,
     "Storage size calculation overflowed with sizes=[4611686018427387904, 4611686018427387904]"),
    ("empty_max", lambda: torch.empty(M, 2), RuntimeError,
     "Storage size calculation overflowed with sizes=[9223372036854775807, 2]"),
    ("empty_zero_last", lambda: torch.empty(B, B, 0), RuntimeError,
     "Storage size calculation overflowed with sizes=[4611686018427387904, 4611686018427387904, 0]"),
    ("empty_bytes", lambda: torch.empty(2**61, dtype=torch.float64), RuntimeError,
     "Storage size calculation overflowed with sizes=[2305843009213693952]"),
    ("zeros", lambda: torch.zeros(B, 4), RuntimeError,
     "Storage size calculation overflowed with sizes=[4611686018427387904, 4]"),
    ("ones", lambda: torch.ones(B, B, 0), RuntimeError,
     "Storage size calculation overflowed with sizes=[4611686018427387904, 4611686018427387904, 0]"),
    ("full", lambda: torch.full((B, B), 1.0), RuntimeError,
     "Storage size calculation overflowed with sizes=[4611686018427387904, 4611686018427387904]"),
    ("rand", lambda: torch.rand(B, B), RuntimeError,
     "Storage size calculation overflowed with sizes=[4611686018427387904, 4611686018427387904]"),
    ("randn", lambda: torch.randn(B, B), RuntimeError,
     "Storage size calculation overflowed with sizes=[4611686018427387904, 4611686018427387904]"),
    ("randint", lambda: torch.randint(3, (B, B)), RuntimeError,
     "Storage size calculation overflowed with sizes=[4611686018427387904, 4611686018427387904]"),
    ("new_empty", lambda: x().new_empty((B, 2)), RuntimeError,
     "Storage size calculation overflowed with sizes=[4611686018427387904, 2]"),
    ("new_zeros", lambda: x().new_zeros((B, B)), RuntimeError,
     "Storage size calculation overflowed with sizes=[4611686018427387904, 4611686018427387904]"),
    ("empty_strided", lambda: torch.empty_strided((B, 4), (1, 1)), RuntimeError,
     "Storage size calculation overflowed with sizes=[4611686018427387904, 4] and strides=[1, 1]"),
    ("empty_strided_stride", lambda: torch.empty_strided((3, 3), (B, B)), RuntimeError,
     "Storage size calculation overflowed with sizes=[3, 3] and strides="
     "[4611686018427387904, 4611686018427387904]"),
    ("empty_strided_negative", lambda: torch.empty_strided((2, 2), (-1, 1)), RuntimeError,
     "Storage size calculation overflowed with sizes=[2, 2] and strides=[-1, 1]"),
    ("zeros_negative", lambda: torch.zeros(-1), RuntimeError,
     "Trying to create tensor with negative dimension -1: [-1]"),
    # Views: the element count of the result (torch's safe_compute_numel) and its storage.
    ("view", lambda: x().view(B, B), RuntimeError,
     "shape '[4611686018427387904, 4611686018427387904]' is invalid for input of size 6"),
    ("view_infer", lambda: x().view(-1, B, B), RuntimeError,
     "shape '[-1, 4611686018427387904, 4611686018427387904]' is invalid for input of size 6"),
    ("reshape", lambda: x().reshape(B, B), RuntimeError,
     "shape '[4611686018427387904, 4611686018427387904]' is invalid for input of size 6"),
    ("reshape_max", lambda: x().reshape(M), RuntimeError,
     "shape '[9223372036854775807]' is invalid for input of size 6"),
    ("view_empty", lambda: torch.empty(0).view(B, B), RuntimeError,
     "numel: integer multiplication overflow"),
    ("view_empty_zero_last", lambda: torch.empty(0).view(B, B, 0), RuntimeError,
     "numel: integer multiplication overflow"),
    ("view_empty_infer", lambda: torch.empty(0).view(-1, B, B), RuntimeError,
     "cannot reshape tensor of 0 elements into shape [-1, 4611686018427387904, "
     "4611686018427387904] because the unspecified dimension size -1 can be any value and is "
     "ambiguous"),
    ("view_negative", lambda: x().view(-2, 3), RuntimeError, "invalid shape dimension -2"),
    ("expand", lambda: torch.ones(1, 1).expand(B, B), RuntimeError,
     "numel: integer multiplication overflow"),
    ("expand_zero_last", lambda: torch.ones(1, 1).expand(B, B, 0), RuntimeError,
     "numel: integer multiplication overflow"),
    ("broadcast", lambda: torch.ones(1, 1).expand(B, 1) + torch.ones(1, 1).expand(1, B),
     RuntimeError,
     "Storage size calculation overflowed with sizes=[4611686018427387904, 4611686018427387904]"),
    ("as_strided", lambda: x().as_strided((B, B), (1, 1)), RuntimeError,
     "Storage size calculation overflowed with sizes=[4611686018427387904, 4611686018427387904] "
     "and strides=[1, 1]"),
    ("as_strided_stride", lambda: x().as_strided((2, 2), (B, B)), RuntimeError,
     "Storage size calculation overflowed with sizes=[2, 2] and strides="
     "[4611686018427387904, 4611686018427387904]"),
    ("as_strided_negative_size", lambda: x().as_strided((-1,), (1,)), RuntimeError,
     "Storage size calculation overflowed with sizes=[-1] and strides=[1]"),
    ("as_strided_negative_offset", lambda: x().as_strided((1,), (1,), -1), RuntimeError,
     "Tensor: invalid storage offset -1"),
    ("unfold_size", lambda: x().unfold(1, M, 1), RuntimeError,
     "maximum size for tensor at dimension 1 is 3 but size is 9223372036854775807"),
    ("unfold_step", lambda: x().unfold(1, 2, N), RuntimeError,
     "step is -9223372036854775808 but must be > 0"),
    ("unfold_negative_size", lambda: x().unfold(1, -5, 1), RuntimeError,
     "Storage size calculation overflowed with sizes=[2, 9, -5] and strides=[3, 1, 1]"),
    ("narrow_length", lambda: x().narrow(1, 1, M), RuntimeError,
     "start (1) + length (9223372036854775807) exceeds dimension size (3)."),
    ("narrow_negative_length", lambda: x().narrow(1, 0, N), RuntimeError,
     "start (0) + length (-9223372036854775808) exceeds dimension size (3)."),
    ("narrow_start", lambda: x().narrow(1, B, 1), IndexError,
     "Dimension out of range (expected to be in range of [-3, 2], but got 4611686018427387904)"),
    ("narrow_start_min", lambda: x().narrow(1, N, 1), IndexError,
     "Dimension out of range (expected to be in range of [-3, 2], but got -9223372036854775808)"),
    ("flatten_empty", lambda: torch.empty(0, B, 4, 1).flatten(1, 2), RuntimeError,
     "numel: integer multiplication overflow"),  # torch 1.13: shape [0, 0, 1] (B * 4 wraps to 0)
    # Indices and dims.
    ("index", lambda: x()[B], IndexError,
     "index 4611686018427387904 is out of bounds for dimension 0 with size 2"),
    ("index_min", lambda: x()[N], IndexError,
     "index -9223372036854775808 is out of bounds for dimension 0 with size 2"),
    ("select", lambda: x().select(1, N), IndexError,
     "select(): index -9223372036854775808 out of range for tensor of size [2, 3] at dimension 1"),
    ("select_max", lambda: x().select(1, M), IndexError,
     "select(): index 9223372036854775807 out of range for tensor of size [2, 3] at dimension 1"),
    ("transpose", lambda: x().transpose(0, M), IndexError,
     "Dimension out of range (expected to be in range of [-2, 1], but got 9223372036854775807)"),
    ("transpose_min", lambda: x().transpose(0, N), IndexError,
     "Dimension out of range (expected to be in range of [-2, 1], but got -9223372036854775808)"),
    ("unsqueeze", lambda: x().unsqueeze(N), IndexError,
     "Dimension out of range (expected to be in range of [-3, 2], but got -9223372036854775808)"),
    ("squeeze", lambda: x().squeeze(N), IndexError,
     "Dimension out of range (expected to be in range of [-2, 1], but got -9223372036854775808)"),
    ("flatten", lambda: x().flatten(N), IndexError,
     "Dimension out of range (expected to be in range of [-2, 1], but got -9223372036854775808)"),
    ("permute", lambda: x().permute(0, N), IndexError,
     "Dimension out of range (expected to be in range of [-2, 1], but got -9223372036854775808)"),
    ("movedim", lambda: x().movedim(0, M), IndexError,
     "Dimension out of range (expected to be in range of [-2, 1], but got 9223372036854775807)"),
    ("sum_dim", lambda: x().sum(N), IndexError,
     "Dimension out of range (expected to be in range of [-2, 1], but got -9223372036854775808)"),
    ("cumsum_dim", lambda: x().cumsum(N), IndexError,
     "Dimension out of range (expected to be in range of [-2, 1], but got -9223372036854775808)"),
    ("flip_dim", lambda: x().flip(N), IndexError,
     "Dimension out of range (expected to be in range of [-2, 1], but got -9223372036854775808)"),
    # Splitting.
    ("split", lambda: x().split(N, 1), RuntimeError,
     "split expects split_size be non-negative, but got split_size=-9223372036854775808"),
    ("split_with_sizes", lambda: x().split([B, B], 1), RuntimeError,
     "split_with_sizes expects split_sizes to sum exactly to 3 (input tensor's size at dimension "
     "1), but got split_sizes=[4611686018427387904, 4611686018427387904]"),
    ("chunk", lambda: x().chunk(N), RuntimeError,
     "chunk expects `chunks` to be greater than 0, got: -9223372036854775808"),
    # diag: torch 1.13 says this for M and N (n + |d| wraps to a negative size).
    ("diag_vector", lambda: torch.diag(torch.ones(2), M), RuntimeError,
     "numel: integer multiplication overflow"),
    ("diag_vector_min", lambda: torch.diag(torch.ones(2), N), RuntimeError,
     "numel: integer multiplication overflow"),
    ("diag_matrix", lambda: torch.diag(x(), M), RuntimeError,
     "numel: integer multiplication overflow"),
    ("diag_matrix_min", lambda: torch.diag(x(), N), RuntimeError,
     "numel: integer multiplication overflow"),
    # torch 1.13 wraps the size and prints it: "IntArrayRef contains an int that cannot be
    # represented as a SymInt: -9223372036854775807". opscope: diag's message.
    ("diag_embed", lambda: torch.diag_embed(torch.ones(2), M), RuntimeError,
     "numel: integer multiplication overflow"),
    ("diag_embed_min", lambda: torch.diag_embed(torch.ones(2), N), RuntimeError,
     "numel: integer multiplication overflow"),
    # repeat: torch 1.13 wraps 2 * 2**62 and says "IntArrayRef contains an int that cannot be
    # represented as a SymInt: -9223372036854775808".
    ("repeat", lambda: x().repeat(B, B), RuntimeError, "numel: integer multiplication overflow"),
    ("repeat_zero", lambda: x().repeat(B, 0), RuntimeError,
     "numel: integer multiplication overflow"),
    ("repeat_storage", lambda: torch.ones(1).repeat(B, 4), RuntimeError,
     "Storage size calculation overflowed with sizes=[4611686018427387904, 4]"),
    ("tile", lambda: torch.ones(2).tile((B,)), RuntimeError,
     "numel: integer multiplication overflow"),
    # torch 1.13: "Trying to create tensor with negative dimension -9223372036854775808: [...]"
    # (the sizes' sum wrapped).
    ("cat", lambda: torch.cat([torch.ones(1).expand(M), torch.ones(1)]), RuntimeError,
     "torch.cat(): the result's size: integer addition overflow"),
    # torch 1.13: "IntArrayRef contains an int that cannot be represented as a SymInt:
    # -9223372036854775804" (3 - size wrapped); this is torch 2's message.
    ("unfold_min_size", lambda: x().unfold(1, N, 1), RuntimeError,
     "size is -9223372036854775808 but must be >= 0"),
    # torch 1.13 reads outside the storage and returns garbage (offset * itemsize wraps).
    ("as_strided_offset", lambda: x().as_strided((2,), (1,), M), RuntimeError,
     "setStorage: sizes [2], strides [1], storage offset 9223372036854775807, and itemsize 4 "
     "requiring a storage size of 36893488147419103236 are out of bounds for storage of size 24"),
    # torch 1.13: "Expected !is_symbolic() to be true, but got false." (an internal assert).
    ("as_strided_offset_min", lambda: x().as_strided((1,), (1,), N), RuntimeError,
     "Tensor: invalid storage offset -9223372036854775808"),
    # torch 1.13: "Trying to create tensor with negative dimension -2: [-2]" (the sum wrapped).
    ("repeat_interleave", lambda: torch.repeat_interleave(torch.tensor([M, M])), RuntimeError,
     "repeat_interleave: the repeats sum past 2**63 - 1 (integer addition overflow)"),
    ("repeat_interleave_output_size",
     lambda: torch.repeat_interleave(torch.tensor([M, M]), output_size=2), RuntimeError,
     "allocated size does not match required size"),
]


@pytest.mark.parametrize("call, exc, message", [c[1:] for c in ERRORS], ids=[c[0] for c in ERRORS])
def test_error(call, exc, message):
    with pytest.raises(exc, match=re.escape(message) + "$"):
        call()


def test_allocation_failure_is_an_error():
    # 2**62 bytes: the sizes fit, the allocation fails (torch 1.13: "DefaultCPUAllocator: can't
    # allocate memory: you tried to allocate 4611686018427387904 bytes. ...").
    with pytest.raises(RuntimeError, match="allocate"):
        torch.empty(2**60)


# Results. Where torch 1.13 differs, it overflows; the comment says how.
def test_slice_huge_step():
    t = x()
    # torch 1.13: "as_strided: Negative strides are not supported at the moment" (3 * 2**62
    # wraps); the one row a step of 2**62 reaches is row 0.
    assert t[::B].tolist() == [[0.0, 1.0, 2.0]]
    assert t[B:M:B].shape == (0, 3)
    # torch 1.13: "Storage size calculation overflowed with sizes=[2, -1]" (ceil wraps).
    assert t[:, ::M].tolist() == [[0.0], [3.0]]
    assert t[..., ::M].tolist() == [[0.0], [3.0]]
    t[::B] = 7.0  # the same view, written through
    assert t.tolist() == [[7.0, 7.0, 7.0], [3.0, 4.0, 5.0]]


def test_slice_huge_bounds():
    t = x()
    assert t[B:].shape == (0, 3)
    assert t[M:M].shape == (0, 3)
    assert t[:N].shape == (0, 3)
    # torch 1.13: "Expected !is_symbolic() to be true" for a start of -2**63; Python clamps it.
    assert t[N:].tolist() == t.tolist()
    assert t[None, B:, N:M:M].shape == (1, 0, 1)
    assert torch.ones(1).expand(B)[::3].shape == (1537228672809129302,)


def test_slice_empty_tensor_huge_stride():
    e = torch.empty(0).as_strided((0, 5), (1, B))
    assert e.stride() == (1, B)
    assert e[:, 5:].shape == (0, 0)
    assert e[:, 1:].shape == (0, 4)
    assert e[:, ::3].shape == (0, 2)
    assert e.unsqueeze(1).shape == (0, 1, 5)  # torch 1.13: "Negative strides" (5 * 2**62 wraps)
    assert e.diagonal(0, 0, 1).shape == (0,)


def test_unfold_huge_step():
    t = x()
    assert t.unfold(1, 2, M).tolist() == [[[0.0, 1.0]], [[3.0, 4.0]]]
    assert t.unfold(0, 1, M).tolist() == [[[0.0], [1.0], [2.0]]]


def test_split_and_chunk_huge():
    t = x()
    assert [p.shape for p in t.split(M, 1)] == [(2, 3)]
    # torch 1.13: "split expects split_size be non-negative, but got split_size=-1" (the ceil
    # wraps); ceil(3 / (2**63 - 1)) = 1, so three chunks of one column.
    assert [p.tolist() for p in t.chunk(M, 1)] == [[[0.0], [3.0]], [[1.0], [4.0]], [[2.0], [5.0]]]


def test_diagonal_huge_offsets():
    t = x()
    assert t.diagonal(M).shape == (0,)
    assert t.diagonal(N).shape == (0,)
    assert t.diagonal(B, 0, 1).shape == (0,)


def test_tril_triu_huge_diagonal():
    t = x()
    # torch 1.13 gets the first two wrong (i + k + 1 wraps): tril(2**63 - 1) comes out all zeros,
    # triu(2**63 - 1) keeps row 1.
    assert t.tril(M).tolist() == t.tolist()
    assert t.triu(M).tolist() == [[0.0] * 3] * 2
    assert t.tril(N).tolist() == [[0.0] * 3] * 2
    assert t.triu(N).tolist() == t.tolist()
    for k in (M, N, B, -B):
        a = np.arange(6.0).reshape(2, 3)
        kk = max(min(k, 4), -4)  # numpy's own int64 arithmetic wraps too: the same diagonal
        assert t.tril(k).tolist() == np.tril(a, kk).tolist()
        assert t.triu(k).tolist() == np.triu(a, kk).tolist()


def test_roll_huge_shift():
    a = torch.arange(3)
    # torch 1.13 rolls -2**63 the wrong way (size - shift wraps): [1, 2, 0].
    assert a.roll(N).tolist() == np.roll(np.arange(3), N % 3).tolist() == [2, 0, 1]
    assert a.roll(M).tolist() == np.roll(np.arange(3), M % 3).tolist() == [2, 0, 1]
    assert x().roll(N, 1).tolist() == np.roll(np.arange(6).reshape(2, 3), N % 3, 1).tolist()


def test_empty_tensors_with_huge_sizes():
    assert torch.empty(B, 2, 0).shape == (B, 2, 0)
    assert torch.empty(0, B, B).shape == (0, B, B)
    assert torch.empty(0, B, 4).stride() == (M, 4, 1)  # torch 1.13: (0, 4, 1), 4 * 2**62 wrapped
    assert torch.empty(0).reshape(0, B, B).shape == (0, B, B)
    assert x().new_empty((0, B, B)).shape == (0, B, B)
    assert torch.empty_strided((0, 2), (M, M)).stride() == (M, M)
    assert x().as_strided((0,), (1,), M).shape == (0,)
    assert torch.ones(1, 1).expand(0, B, B).shape == (0, B, B)
    assert torch.eye(M, 0).shape == (M, 0)


def test_arange_huge_bounds():
    # end - start does not fit an int64; the length is counted exactly (torch 1.13's difference
    # wraps to -1, and it returns an empty tensor).
    assert torch.arange(N, M, M).tolist() == [N, -1, M - 1]
    assert torch.arange(M, N, N).tolist() == [M, -1]
    with pytest.raises(RuntimeError, match=re.escape("invalid size, possible overflow?") + "$"):
        torch.arange(N, M, 1)
    with pytest.raises(RuntimeError, match=re.escape("invalid size, possible overflow?") + "$"):
        torch.arange(0, 1e30, 1e-30)
    # torch 1.13: "IntArrayRef contains an int that cannot be represented as a SymInt" (its
    # double length, 2**63, converted to int64).
    with pytest.raises(RuntimeError, match=re.escape(
            "Storage size calculation overflowed with sizes=[9223372036854775807]") + "$"):
        torch.arange(0, M, 1)
    with pytest.raises(RuntimeError, match=re.escape(
            "Storage size calculation overflowed with sizes=[9223372036854775807]") + "$"):
        torch.linspace(0, 1, M)
