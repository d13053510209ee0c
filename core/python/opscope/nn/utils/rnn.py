"""Variable-length sequences for the recurrent layers, as torch.nn.utils.rnn: ``pad_sequence``
(a list of (L_i, *) tensors -> one padded (T, B, *) tensor), ``PackedSequence`` with
``pack_padded_sequence`` / ``pad_packed_sequence`` / ``pack_sequence`` / ``unpack_sequence``,
and ``unpad_sequence``.

A PackedSequence holds the steps of B sequences interleaved by time: ``data`` (sum L_i, *) lists
step 0 of every sequence, then step 1 of those that are that long, ...; ``batch_sizes[t]`` says
how many sequences have a step t (sequences sorted by decreasing length; ``sorted_indices``
maps sorted position -> original batch index, ``unsorted_indices`` the inverse).

>>> import opscope
>>> from opscope.nn.utils.rnn import pad_sequence, pack_padded_sequence
>>> padded = pad_sequence([opscope.tensor([1, 2, 3]), opscope.tensor([4, 5])])
>>> padded.T
tensor([[1, 2, 3],
        [4, 5, 0]])
>>> packed = pack_padded_sequence(padded, [3, 2])
>>> packed.data, packed.batch_sizes
(tensor([1, 4, 2, 5, 3]), tensor([2, 2, 1]))
"""

from collections import namedtuple
from collections.abc import Iterable

import opscope
from opscope import _C

__all__ = ["PackedSequence", "invert_permutation", "pack_padded_sequence", "pad_packed_sequence",
           "pad_sequence", "unpad_sequence", "pack_sequence", "unpack_sequence"]


class PackedSequence(namedtuple("PackedSequence", ["data", "batch_sizes", "sorted_indices",
                                                   "unsorted_indices"])):
    """(data, batch_sizes, sorted_indices, unsorted_indices): see the module's docstring. Made by
    pack_padded_sequence / pack_sequence, not by hand."""

    def __new__(cls, data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
        if unsorted_indices is None:
            unsorted_indices = invert_permutation(sorted_indices)
        if batch_sizes is None:  # PackedSequence(tuple_of_four)
            data, batch_sizes, sorted_indices, unsorted_indices = data
        return super().__new__(cls, data, batch_sizes, sorted_indices, unsorted_indices)

    def to(self, *args, **kwargs):
        data = self.data.to(*args, **kwargs)
        if data is self.data:
            return self
        return type(self)(data, self.batch_sizes, self.sorted_indices, self.unsorted_indices)

    def double(self):
        return self.to(dtype=opscope.float64)

    def float(self):
        return self.to(dtype=opscope.float32)

    def long(self):
        return self.to(dtype=opscope.int64)

    @property
    def is_cuda(self):
        return False

    def is_pinned(self):
        return False


def invert_permutation(permutation):
    """The inverse permutation: out[permutation[i]] = i (None stays None)."""
    if permutation is None:
        return None
    output = opscope.empty_like(permutation)
    output.scatter_(0, permutation, opscope.arange(0, permutation.numel()))
    return output


def pack_padded_sequence(input, lengths, batch_first=False, enforce_sorted=True):
    """input (T, B, *) (or (B, T, *) with batch_first) holding B sequences of `lengths` ->
    PackedSequence: aten::_pack_padded_sequence. With enforce_sorted the lengths must decrease;
    otherwise the batch is sorted by length first (sorted_indices records how)."""
    lengths = opscope.as_tensor(lengths, dtype=opscope.int64)
    if enforce_sorted:
        sorted_indices = None
    else:
        lengths, sorted_indices = opscope.sort(lengths, descending=True)
        batch_dim = 0 if batch_first else 1
        input = input.index_select(batch_dim, sorted_indices)
    data, batch_sizes = _C._op_overload("aten::_pack_padded_sequence")(input, lengths, batch_first)
    return PackedSequence(data, batch_sizes, sorted_indices, None)


def pad_packed_sequence(sequence, batch_first=False, padding_value=0.0, total_length=None):
    """The inverse of pack_padded_sequence: -> (padded (T, B, *) or (B, T, *), lengths (B) int64),
    in the original batch order: aten::_pad_packed_sequence."""
    max_seq_length = sequence.batch_sizes.size(0)
    if total_length is not None:
        if total_length < max_seq_length:
            raise ValueError("Expected total_length to be at least the length of the longest "
                             "sequence in input, but got total_length={} and max sequence length "
                             "being {}".format(total_length, max_seq_length))
        max_seq_length = total_length
    padded_output, lengths = _C._op_overload("aten::_pad_packed_sequence")(
        sequence.data, sequence.batch_sizes, batch_first, padding_value, max_seq_length)
    unsorted_indices = sequence.unsorted_indices
    if unsorted_indices is not None:
        batch_dim = 0 if batch_first else 1
        return padded_output.index_select(batch_dim, unsorted_indices), lengths[unsorted_indices]
    return padded_output, lengths


def _pad_sequence(sequences, batch_first, padding_value):
    return _C._op_overload("aten::pad_sequence")(sequences, batch_first, padding_value)


def pad_sequence(sequences, batch_first=False, padding_value=0.0):
    """Tensors (L_i, *) -> (T, B, *) (or (B, T, *)), T = max L_i, padded with padding_value:
    aten::pad_sequence."""
    if not isinstance(sequences, Iterable):
        raise RuntimeError("pad_sequence: Expected iterable for input sequences, but got arg of "
                           f"type: {type(sequences)}")
    return _pad_sequence(tuple(sequences), batch_first, padding_value)


def unpad_sequence(padded_sequences, lengths, batch_first=False):
    """The sequences of a padded batch: (T, B, *) and lengths (B) -> B tensors (L_i, *)."""
    if not batch_first:
        padded_sequences = padded_sequences.transpose(0, 1)
    return [seq[:int(n)] for seq, n in zip(padded_sequences, lengths)]


def pack_sequence(sequences, enforce_sorted=True):
    """Tensors (L_i, *) -> PackedSequence (pad_sequence, then pack_padded_sequence)."""
    lengths = opscope.tensor([v.size(0) for v in sequences])
    return pack_padded_sequence(pad_sequence(sequences), lengths, enforce_sorted=enforce_sorted)


def unpack_sequence(packed_sequences):
    """A PackedSequence -> its sequences, as tensors (L_i, *) in the original order."""
    padded, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded, lengths, batch_first=True)
