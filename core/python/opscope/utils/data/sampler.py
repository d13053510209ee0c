"""Samplers: the order in which a DataLoader reads a map-style dataset (``torch.utils.data.sampler``).

A Sampler is an iterable of indices (or, for BatchSampler, of lists of indices) with a
``__len__``. The random ones draw from an ``opscope.Generator``: the same seed gives the same
order on every run.
"""
from itertools import islice
from typing import Generic, Iterator, List, Optional, Sized, TypeVar

import numpy as np

import opscope

__all__ = [
    "BatchSampler",
    "RandomSampler",
    "Sampler",
    "SequentialSampler",
    "SubsetRandomSampler",
    "WeightedRandomSampler",
]

T_co = TypeVar("T_co", covariant=True)


def _randperm_by_sort(n, generator=None):
    """A uniform permutation of range(n) from `generator`: the order that sorts n random 62-bit
    keys (a tie, which could bias the order, has odds of about n**2 / 2**63)."""
    keys = opscope.randint(0, 2**62, (n,), dtype=opscope.int64, generator=generator)
    return keys.argsort()


# PyTorch's samplers draw with randperm; where opscope has none yet, a sort of random keys.
_randperm = getattr(opscope, "randperm", None) or _randperm_by_sort


def _fresh_generator():
    """A Generator seeded from the default one: what a sampler given no generator draws from,
    so that each epoch gets a new order while manual_seed() still fixes the sequence."""
    seed = int(opscope.empty((), dtype=opscope.int64).random_().item())
    generator = opscope.Generator()
    generator.manual_seed(seed)
    return generator


class Sampler(Generic[T_co]):
    """Base class of samplers: subclasses define ``__iter__`` (the indices) and, where they can,
    ``__len__``. There is deliberately no default ``__len__``: ``len()`` of a sampler without
    one raises TypeError, and ``list(sampler)`` falls back to iterating (PyTorch's NOTE [ Lack
    of Default `__len__` in Python Abstract Base Classes ])."""

    def __init__(self, data_source: Optional[Sized]) -> None:
        pass

    def __iter__(self) -> Iterator[T_co]:
        raise NotImplementedError


class SequentialSampler(Sampler[int]):
    """0, 1, ..., len(data_source) - 1."""

    def __init__(self, data_source: Sized) -> None:
        self.data_source = data_source

    def __iter__(self) -> Iterator[int]:
        return iter(range(len(self.data_source)))

    def __len__(self) -> int:
        return len(self.data_source)


class RandomSampler(Sampler[int]):
    """Indices in random order: a permutation of the dataset (repeated, then cut, when
    num_samples exceeds its length), or with ``replacement=True`` num_samples independent
    draws from [0, len).

    Args:
        data_source: the dataset (its length is read at each iteration).
        replacement: draw with replacement.
        num_samples: how many indices; default len(data_source).
        generator: the opscope.Generator to draw from; default a fresh one seeded from the
            default generator at each iteration.
    """

    def __init__(self, data_source: Sized, replacement: bool = False,
                 num_samples: Optional[int] = None, generator=None) -> None:
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator

        if not isinstance(self.replacement, bool):
            raise TypeError("replacement should be a boolean value, but got "
                            f"replacement={self.replacement}")
        if not isinstance(self.num_samples, int) or self.num_samples <= 0:
            raise ValueError("num_samples should be a positive integer "
                             f"value, but got num_samples={self.num_samples}")

    @property
    def num_samples(self) -> int:
        # The dataset may change size between epochs.
        if self._num_samples is None:
            return len(self.data_source)
        return self._num_samples

    def __iter__(self) -> Iterator[int]:
        n = len(self.data_source)
        generator = self.generator if self.generator is not None else _fresh_generator()
        if self.replacement:
            # In chunks of 32, so that a huge num_samples does not make one huge tensor.
            for _ in range(self.num_samples // 32):
                yield from opscope.randint(high=n, size=(32,), dtype=opscope.int64,
                                           generator=generator).tolist()
            yield from opscope.randint(high=n, size=(self.num_samples % 32,), dtype=opscope.int64,
                                       generator=generator).tolist()
        else:
            for _ in range(self.num_samples // n):
                yield from _randperm(n, generator=generator).tolist()
            yield from _randperm(n, generator=generator).tolist()[:self.num_samples % n]

    def __len__(self) -> int:
        return self.num_samples


class SubsetRandomSampler(Sampler[int]):
    """The given indices, in a random order (a new one each iteration)."""

    def __init__(self, indices, generator=None) -> None:
        self.indices = indices
        self.generator = generator

    def __iter__(self) -> Iterator[int]:
        for i in _randperm(len(self.indices), generator=self.generator).tolist():
            yield self.indices[i]

    def __len__(self) -> int:
        return len(self.indices)


class WeightedRandomSampler(Sampler[int]):
    """num_samples indices of ``[0, len(weights))``, index i drawn with probability proportional
    to ``weights[i]`` (the weights need not sum to one). Without replacement an index is drawn
    at most once, so num_samples may not exceed the number of weights.

    >>> g = opscope.Generator().manual_seed(0)
    >>> sorted(WeightedRandomSampler([0.0, 1.0, 0.0, 1.0], 2, replacement=False, generator=g))
    [1, 3]
    """

    def __init__(self, weights, num_samples: int, replacement: bool = True,
                 generator=None) -> None:
        if not isinstance(num_samples, int) or isinstance(num_samples, bool) or num_samples <= 0:
            raise ValueError("num_samples should be a positive integer "
                             f"value, but got num_samples={num_samples}")
        if not isinstance(replacement, bool):
            raise ValueError("replacement should be a boolean value, but got "
                             f"replacement={replacement}")
        if isinstance(weights, opscope.Tensor):
            weights_tensor = weights.to(opscope.float64)
        else:
            weights_tensor = opscope.from_numpy(np.array(weights, dtype=np.float64))
        if len(weights_tensor.shape) != 1:
            raise ValueError("weights should be a 1d sequence but given "
                             f"weights have shape {tuple(weights_tensor.shape)}")
        self.weights = weights_tensor
        self.num_samples = num_samples
        self.replacement = replacement
        self.generator = generator

    def __iter__(self) -> Iterator[int]:
        yield from _multinomial(self.weights, self.num_samples, self.replacement,
                                self.generator).tolist()

    def __len__(self) -> int:
        return self.num_samples


def _multinomial(weights, num_samples, replacement, generator):
    """``torch.multinomial`` of a 1-d float64 weight vector, with its argument errors.

    With replacement: each draw is the first index whose normalised cumulative weight exceeds a
    uniform [0, 1) number, so a zero weight is never drawn. Without: the num_samples largest of
    w_i / E_i, E_i independent Exp(1) draws (the exponential race; PyTorch's algorithm too).
    """
    w = weights.detach().numpy()
    n = w.shape[0]
    if replacement:
        bad = np.flatnonzero(~(w >= 0) | ~np.isfinite(w))  # checked entry by entry, in order
        if bad.size:
            if not w[bad[0]] >= 0:  # NaN fails this test too
                raise RuntimeError("invalid multinomial distribution (encountering probability entry < 0)")
            raise RuntimeError("invalid multinomial distribution "
                               "(encountering probability entry = infinity or NaN)")
    else:
        if num_samples > n:
            raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without replacement")
        if not (np.all(w < np.inf) and np.all(w >= 0)):
            raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
    total = w.sum()
    if not total > 0:
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    u = opscope.rand(num_samples if replacement else n, dtype=opscope.float64,
                     generator=generator).numpy()
    if replacement:
        cumulative = np.cumsum(w) / total
        picked = np.minimum(np.searchsorted(cumulative, u, side="right"), n - 1)
    else:
        race = w / -np.log1p(-u)  # Exp(1) draws from uniforms; log1p(-u) < 0 for u in [0, 1)
        picked = np.argsort(-race, kind="stable")[:num_samples]
    return opscope.from_numpy(picked.astype(np.int64))


class BatchSampler(Sampler[List[int]]):
    """Groups the indices of another sampler (or any iterable) into lists of batch_size; the
    last list is shorter, or dropped with ``drop_last=True``.

    >>> list(BatchSampler(SequentialSampler(range(10)), batch_size=3, drop_last=False))
    [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9]]
    >>> list(BatchSampler(SequentialSampler(range(10)), batch_size=3, drop_last=True))
    [[0, 1, 2], [3, 4, 5], [6, 7, 8]]
    """

    def __init__(self, sampler, batch_size: int, drop_last: bool) -> None:
        # No isinstance check of sampler: an object with only __getitem__ iterates too.
        if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size <= 0:
            raise ValueError("batch_size should be a positive integer value, "
                             f"but got batch_size={batch_size}")
        if not isinstance(drop_last, bool):
            raise ValueError("drop_last should be a boolean value, but got "
                             f"drop_last={drop_last}")
        self.sampler = sampler
        self.batch_size = batch_size
        self.drop_last = drop_last

    def __iter__(self) -> Iterator[List[int]]:
        # islice pulls one batch at a time from the sampler at C speed, however the sampler
        # makes its indices (a generator may be infinite: only what is used is drawn).
        it = iter(self.sampler)
        size = self.batch_size
        while True:
            batch = list(islice(it, size))
            if len(batch) < size:
                if batch and not self.drop_last:
                    yield batch
                return
            yield batch

    def __len__(self) -> int:
        if self.drop_last:
            return len(self.sampler) // self.batch_size
        return (len(self.sampler) + self.batch_size - 1) // self.batch_size
