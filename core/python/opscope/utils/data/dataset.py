"""Datasets (``torch.utils.data.dataset``): map-style (``dataset[i]``, usually ``len``) and
iterable-style (``iter(dataset)``), with the ways of combining them.

>>> import opscope
>>> ds = TensorDataset(opscope.arange(6).reshape(3, 2), opscope.tensor([0, 1, 0]))
>>> ds[1]
(tensor([2, 3]), tensor(1))
>>> [len(part) for part in random_split(ds, [2, 1], generator=opscope.Generator().manual_seed(0))]
[2, 1]
"""
import bisect
import itertools
import math
import warnings
from typing import Generic, Iterable, Iterator, List, Sequence, TypeVar

import opscope
from opscope.utils.data.sampler import _randperm

__all__ = [
    "Dataset",
    "IterableDataset",
    "TensorDataset",
    "ConcatDataset",
    "ChainDataset",
    "Subset",
    "random_split",
]

T_co = TypeVar("T_co", covariant=True)
T = TypeVar("T")


class Dataset(Generic[T_co]):
    """A map from keys (usually 0..len-1) to samples: subclasses define ``__getitem__`` and,
    for the default samplers, ``__len__`` (there is deliberately no default; see Sampler).
    ``a + b`` is ``ConcatDataset([a, b])``."""

    def __getitem__(self, index) -> T_co:
        raise NotImplementedError

    def __add__(self, other: "Dataset[T_co]") -> "ConcatDataset[T_co]":
        return ConcatDataset([self, other])


class IterableDataset(Dataset[T_co]):
    """A stream of samples: subclasses define ``__iter__``. With ``num_workers > 0`` every worker
    iterates its own copy, so a dataset that should not yield duplicates splits the work by
    ``get_worker_info()`` (in ``__iter__`` or in the DataLoader's ``worker_init_fn``).
    ``a + b`` is ``ChainDataset([a, b])``."""

    def __iter__(self) -> Iterator[T_co]:
        raise NotImplementedError

    def __add__(self, other: Dataset[T_co]):
        return ChainDataset([self, other])


class TensorDataset(Dataset):
    """Tensors of one length along dim 0; sample i is ``(t[i] for each tensor)``, a tuple."""

    def __init__(self, *tensors) -> None:
        assert all(tensors[0].size(0) == tensor.size(0) for tensor in tensors), \
            "Size mismatch between tensors"
        self.tensors = tensors

    def __getitem__(self, index):
        # Runs once per sample: the usual (inputs, labels) pair is indexed without a loop.
        tensors = self.tensors
        if len(tensors) == 2:
            first, second = tensors
            return (first[index], second[index])
        return tuple([tensor[index] for tensor in tensors])

    def __len__(self):
        return self.tensors[0].size(0)


class ConcatDataset(Dataset[T_co]):
    """Map-style datasets one after another: index i falls in the first dataset whose running
    length (``cumulative_sizes``) exceeds it."""

    @staticmethod
    def cumsum(sequence):
        return list(itertools.accumulate(len(e) for e in sequence))

    def __init__(self, datasets: Iterable[Dataset]) -> None:
        super().__init__()
        self.datasets = list(datasets)
        assert len(self.datasets) > 0, "datasets should not be an empty iterable"
        for d in self.datasets:
            assert not isinstance(d, IterableDataset), "ConcatDataset does not support IterableDataset"
        self.cumulative_sizes = self.cumsum(self.datasets)

    def __len__(self):
        return self.cumulative_sizes[-1]

    def __getitem__(self, idx):
        if idx < 0:
            if -idx > len(self):
                raise ValueError("absolute value of index should not exceed dataset length")
            idx = len(self) + idx
        dataset_idx = bisect.bisect_right(self.cumulative_sizes, idx)
        sample_idx = idx if dataset_idx == 0 else idx - self.cumulative_sizes[dataset_idx - 1]
        return self.datasets[dataset_idx][sample_idx]

    @property
    def cummulative_sizes(self):
        warnings.warn("cummulative_sizes attribute is renamed to "
                      "cumulative_sizes", DeprecationWarning, stacklevel=2)
        return self.cumulative_sizes


class ChainDataset(IterableDataset):
    """Iterable datasets one after another, chained lazily."""

    def __init__(self, datasets: Iterable[Dataset]) -> None:
        super().__init__()
        self.datasets = datasets

    def __iter__(self):
        for d in self.datasets:
            assert isinstance(d, IterableDataset), "ChainDataset only supports IterableDataset"
            yield from d

    def __len__(self):
        total = 0
        for d in self.datasets:
            assert isinstance(d, IterableDataset), "ChainDataset only supports IterableDataset"
            total += len(d)
        return total


class Subset(Dataset[T_co]):
    """The samples of ``dataset`` at ``indices``, in that order."""

    def __init__(self, dataset: Dataset[T_co], indices: Sequence[int]) -> None:
        self.dataset = dataset
        self.indices = indices

    def __getitem__(self, idx):
        if isinstance(idx, list):
            return self.dataset[[self.indices[i] for i in idx]]
        return self.dataset[self.indices[idx]]

    def __len__(self):
        return len(self.indices)


def random_split(dataset, lengths, generator=opscope.default_generator) -> List[Subset]:
    """Splits ``dataset`` into non-overlapping Subsets of the given lengths, by one random
    permutation drawn from ``generator``.

    ``lengths`` may be fractions summing to 1: each split gets floor(fraction * len(dataset))
    samples, and what is left over is handed out one at a time, round-robin from the first.
    """
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        subset_lengths = []
        for i, frac in enumerate(lengths):
            if frac < 0 or frac > 1:
                raise ValueError(f"Fraction at index {i} is not between 0 and 1")
            subset_lengths.append(int(math.floor(len(dataset) * frac)))
        remainder = len(dataset) - sum(subset_lengths)
        for i in range(remainder):
            subset_lengths[i % len(subset_lengths)] += 1
        lengths = subset_lengths
        for i, length in enumerate(lengths):
            if length == 0:
                warnings.warn(f"Length of split at index {i} is 0. "
                              f"This might result in an empty dataset.")

    if sum(lengths) != len(dataset):
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")

    indices = _randperm(sum(lengths), generator=generator).tolist()
    return [Subset(dataset, indices[offset - length:offset])
            for offset, length in zip(itertools.accumulate(lengths), lengths)]
