"""Cases for opscope.utils.data, recorded under torch 1.13 and replayed under opscope.

A case is a Python expression in which ``m`` is the tensor module, ``data`` its
``utils.data`` and the names of PRELUDE (small datasets, a namedtuple) are defined; its
outcome is what ``describe`` makes of the value (nested containers, tensors as dtype / shape /
values), or the exception's type and message, plus the text of any warnings. Messages are
normalised: ``torch.utils.data`` / ``opscope.utils.data`` read ``{data}``, object addresses
``0x?``, this machine's CPU count ``{ncpu}``.

make_torch_reference_data.py writes data/data_loader_torch.json; test_data.py compares.
Orders drawn from a seeded generator are opscope's own, so cases that shuffle describe
something order-free (sorted indices, counts, lengths).
"""
import math
import os
import re
import warnings

import numpy as np

PRELUDE = '''
import collections, itertools, pickle
Point = collections.namedtuple("Point", ["x", "y"])

class Sq(data.Dataset):
    def __init__(self, n): self.n = n
    def __len__(self): return self.n
    def __getitem__(self, i): return i * i

class Arr(data.Dataset):
    def __len__(self): return 3
    def __getitem__(self, i): return np.full(2, i, dtype=np.float32)

class Stream(data.IterableDataset):
    def __init__(self, n): self.n = n
    def __iter__(self): return iter(range(self.n))

class StreamLen(Stream):
    def __len__(self): return self.n

class Lies(Stream):
    def __len__(self): return 1

def run(loader): return [b for b in loader]
def flat(loader): return sorted(int(i) for b in loader for i in b)
def gen(seed): return m.Generator().manual_seed(seed)
def split_lengths(*args, **kw): return [len(s) for s in data.random_split(*args, **kw)]
def split_union(*args, **kw): return sorted(i for s in data.random_split(*args, **kw) for i in s)
def counts(it): return sorted(collections.Counter(it).values())
def attrs(dl): return (dl.batch_size, dl.drop_last, dl.num_workers, dl.timeout,
                       dl.prefetch_factor, dl.pin_memory, dl.persistent_workers,
                       type(dl.sampler).__name__, type(dl.batch_sampler).__name__,
                       dl.collate_fn.__name__, dl.generator is None)
'''

CASES = [
    # default_collate: tensors, numbers, NumPy, strings, containers
    "data.default_collate([0, 1, 2, 3])",
    "data.default_collate([0.5, 1.0])",
    "data.default_collate([True, False])",
    "data.default_collate(['a', 'b'])",
    "data.default_collate([b'a', b'b'])",
    "data.default_collate([{'A': 0, 'B': 1}, {'A': 100, 'B': 100}])",
    "data.default_collate([collections.OrderedDict(a=1.5), collections.OrderedDict(a=2.5)])",
    "data.default_collate([Point(0, 0), Point(1, 1)])",
    "data.default_collate([(0, 1), (2, 3)])",
    "data.default_collate([[0, 1], [2, 3]])",
    "data.default_collate([range(2), range(2)])",
    "data.default_collate([m.tensor([1., 2.]), m.tensor([3., 4.])])",
    "data.default_collate([m.tensor(1), m.tensor(2)])",
    "data.default_collate([m.tensor([1, 2], dtype=m.uint8), m.tensor([3, 4], dtype=m.uint8)])",
    "data.default_collate([m.ones(2, 3, dtype=m.float64), m.zeros(2, 3, dtype=m.float64)])",
    "data.default_collate([m.ones(2, dtype=m.bfloat16), m.zeros(2, dtype=m.bfloat16)])",
    "data.default_collate([m.arange(6).reshape(2, 3).t(), m.arange(6).reshape(2, 3).t()])",
    "data.default_collate([np.array([1, 2], dtype=np.int32), np.array([3, 4], dtype=np.int32)])",
    "data.default_collate([np.array([1.5]), np.array([2.5])])",
    "data.default_collate([np.arange(4, dtype=np.float32)[::2], np.arange(4, dtype=np.float32)[1::2]])",
    "data.default_collate([np.float32(1), np.float32(2)])",
    "data.default_collate([np.int16(1), np.int16(2)])",
    "data.default_collate([np.float64(1.25), np.float64(2)])",
    "data.default_collate([np.bool_(True), np.bool_(False)])",
    "data.default_collate([(m.zeros(2), 1, 'a', 0.5), (m.ones(2), 2, 'b', 1.5)])",
    "data.default_collate([{'x': m.tensor([1]), 'y': [1, 2]}, {'x': m.tensor([2]), 'y': [3, 4]}])",
    "data.default_collate([{'a': np.float64(1.0)}, {'a': np.float64(2.0)}])",
    "data.default_collate([np.array(['a']), np.array(['b'])])",
    "data.default_collate([np.array([None]), np.array([None])])",
    "data.default_collate([object(), object()])",
    "data.default_collate([None, None])",
    "data.default_collate([[0, 1], [2]])",
    "data.default_collate([m.zeros(2), m.zeros(3)])",
    # default_convert
    "data.default_convert(0)",
    "data.default_convert('abc')",
    "data.default_convert(np.array([0, 1]))",
    "data.default_convert(np.float64(2.5))",
    "data.default_convert(np.array(['a']))",
    "data.default_convert(Point(np.array(0), np.array(0)))",
    "data.default_convert(Point(0, 0))",
    "data.default_convert([np.array([0, 1]), np.array([2, 3])])",
    "data.default_convert((np.int64(3), 'a'))",
    "data.default_convert({'k': np.zeros(2, np.float32)})",
    "data.default_convert(m.tensor([1, 2]))",
    # datasets
    "data.TensorDataset(m.arange(6).reshape(3, 2), m.tensor([1, 0, 1]))[1]",
    "len(data.TensorDataset(m.arange(6).reshape(3, 2), m.tensor([1, 0, 1])))",
    "data.TensorDataset(m.arange(6).reshape(3, 2))[-1]",
    "data.TensorDataset(m.zeros(3), m.zeros(4))",
    "(lambda d: ([d[i] for i in range(5)], d[-1], len(d), d.cumulative_sizes))(data.ConcatDataset([Sq(3), Sq(2)]))",
    "data.ConcatDataset([Sq(3), Sq(2)])[-6]",
    "data.ConcatDataset([Sq(3), Sq(2)])[5]",
    "data.ConcatDataset([])",
    "data.ConcatDataset([Stream(2)])",
    "data.ConcatDataset([Sq(3), Sq(2)]).cummulative_sizes",
    "(lambda d: (type(d).__name__, len(d), d[3]))(Sq(2) + Sq(3))",
    "list(data.ChainDataset([Stream(2), Stream(3)]))",
    "len(data.ChainDataset([StreamLen(2), StreamLen(3)]))",
    "len(data.ChainDataset([Stream(2)]))",
    "list(data.ChainDataset([Sq(2)]))",
    "(lambda d: (type(d).__name__, list(d)))(Stream(2) + Stream(3))",
    "(lambda s: ([s[i] for i in range(3)], len(s)))(data.Subset(Sq(10), [1, 3, 5]))",
    "data.Subset(data.TensorDataset(m.arange(10)), [1, 3, 5])[[0, 2]]",
    "data.Dataset()[0]",
    "len(data.Dataset())",
    "iter(data.IterableDataset())",
    "len(Stream(3))",
    # random_split
    "split_lengths(range(10), [3, 7], generator=gen(0))",
    "split_union(range(10), [3, 7], generator=gen(0))",
    "split_lengths(range(10), [0.3, 0.7], generator=gen(0))",
    "split_lengths(range(10), [0.33, 0.33, 0.34], generator=gen(0))",
    "split_lengths(range(5), [0.5, 0.5])",
    "split_lengths(range(7), [0.1, 0.1, 0.8])",
    "split_lengths(range(3), [0.0, 1.0])",
    "split_union(range(11), [0.2, 0.3, 0.5], generator=gen(3))",
    "split_lengths(range(10), [4, 7])",
    "split_lengths(range(10), [1.5, -0.5])",
    "split_lengths(range(10), [0.3, 0.3])",
    "split_lengths(range(0), [0, 0])",
    "[type(s).__name__ for s in data.random_split(range(4), [2, 2])]",
    # samplers
    "(list(data.SequentialSampler(range(4))), len(data.SequentialSampler(range(4))))",
    "data.RandomSampler(range(5), replacement=1)",
    "data.RandomSampler(range(5), num_samples=0)",
    "data.RandomSampler(range(5), num_samples=-1)",
    "data.RandomSampler(range(5), num_samples=2.5)",
    "data.RandomSampler(range(0))",
    "data.RandomSampler(range(5)).num_samples",
    "len(data.RandomSampler(range(5), num_samples=12))",
    "sorted(data.RandomSampler(range(5), generator=gen(0)))",
    "counts(data.RandomSampler(range(5), num_samples=12, generator=gen(1)))",
    "len(list(data.RandomSampler(range(5), num_samples=3)))",
    "(lambda s: (len(s), all(0 <= i < 5 for i in s)))(list(data.RandomSampler(range(5), replacement=True, num_samples=70, generator=gen(2))))",
    "len(list(data.RandomSampler(range(5), replacement=True)))",
    "(sorted(data.SubsetRandomSampler([10, 20, 30], generator=gen(0))), len(data.SubsetRandomSampler([10, 20, 30])))",
    "sorted(data.SubsetRandomSampler(range(3, 9)))",
    "data.WeightedRandomSampler([1.0, 2.0], 0)",
    "data.WeightedRandomSampler([1.0, 2.0], True)",
    "data.WeightedRandomSampler([1.0, 2.0], 2.0)",
    "data.WeightedRandomSampler([1.0, 2.0], 2, replacement=1)",
    "data.WeightedRandomSampler([[1.0, 2.0]], 1)",
    "data.WeightedRandomSampler(m.tensor([1.0, 2.0]), 3).weights",
    "data.WeightedRandomSampler([1, 2, 3], 3).weights",
    "(lambda w: (w.num_samples, w.replacement, len(w)))(data.WeightedRandomSampler([1.0, 2.0], 7, False))",
    "sorted(set(data.WeightedRandomSampler([0.0, 1.0, 0.0, 2.0], 60, generator=gen(0))))",
    "len(list(data.WeightedRandomSampler([0.0, 1.0, 0.0, 2.0], 60)))",
    "sorted(data.WeightedRandomSampler([0.0, 1.0, 0.0, 1.0], 2, replacement=False, generator=gen(1)))",
    "sorted(data.WeightedRandomSampler([0.5, 1.0, 3.0], 3, replacement=False))",
    "list(data.WeightedRandomSampler([], 2))",
    "list(data.WeightedRandomSampler([1.0, -1.0], 1))",
    "list(data.WeightedRandomSampler([1.0, float('nan')], 1))",
    "list(data.WeightedRandomSampler([1.0, float('inf')], 1))",
    "list(data.WeightedRandomSampler([0.0, 0.0], 1))",
    "list(data.WeightedRandomSampler([1.0, 2.0], 3, replacement=False))",
    "list(data.WeightedRandomSampler([1.0, -2.0], 1, replacement=False))",
    "list(data.WeightedRandomSampler([0.0, 0.0], 1, replacement=False))",
    "list(data.WeightedRandomSampler([], 1, replacement=False))",
    "list(data.BatchSampler(data.SequentialSampler(range(10)), 3, False))",
    "list(data.BatchSampler(data.SequentialSampler(range(10)), 3, True))",
    "(len(data.BatchSampler(range(10), 3, False)), len(data.BatchSampler(range(10), 3, True)))",
    "(len(data.BatchSampler(range(9), 3, False)), len(data.BatchSampler(range(9), 3, True)))",
    "list(data.BatchSampler(range(5), 2, False))",
    "list(data.BatchSampler([], 2, False))",
    "list(data.BatchSampler(range(2), 5, True))",
    "data.BatchSampler(range(5), 0, False)",
    "data.BatchSampler(range(5), True, False)",
    "data.BatchSampler(range(5), 2.5, False)",
    "data.BatchSampler(range(5), '3', False)",
    "data.BatchSampler(range(5), 2, 1)",
    "data.Sampler()",
    "iter(data.Sampler(None))",
    "len(data.Sampler(None))",
    # DataLoader: batching
    "run(data.DataLoader(Sq(5), batch_size=2))",
    "run(data.DataLoader(Sq(5), batch_size=2, drop_last=True))",
    "(len(data.DataLoader(Sq(5), batch_size=2)), len(data.DataLoader(Sq(5), batch_size=2, drop_last=True)))",
    "run(data.DataLoader(Sq(3)))",
    "run(data.DataLoader(Sq(3), batch_size=None))",
    "len(data.DataLoader(Sq(3), batch_size=None))",
    "run(data.DataLoader(Arr(), batch_size=None))",
    "run(data.DataLoader(Arr(), batch_size=2))",
    "run(data.DataLoader(Sq(3), batch_size=2, collate_fn=lambda b: b))",
    "run(data.DataLoader(Sq(4), sampler=[2, 0]))",
    "run(data.DataLoader(Sq(4), batch_size=3, sampler=data.SequentialSampler(range(4))))",
    "run(data.DataLoader(Sq(4), batch_sampler=[[0, 1], [3]]))",
    "len(data.DataLoader(Sq(4), batch_sampler=[[0, 1], [3]]))",
    "run(data.DataLoader(data.TensorDataset(m.arange(6.).reshape(3, 2), m.tensor([1, 0, 1])), batch_size=2))",
    "run(data.DataLoader(data.TensorDataset(m.arange(4)), batch_size=None))",
    "run(data.DataLoader(Sq(5), batch_size=2, pin_memory=True))",
    "(lambda dl: (run(dl), run(dl)))(data.DataLoader(Sq(3), batch_size=2))",
    "flat(data.DataLoader(Sq(9), batch_size=4, shuffle=True))",
    "flat(data.DataLoader(Sq(9), batch_size=4, shuffle=True, generator=gen(5)))",
    "(lambda it: (len(it), next(it), len(it)))(iter(data.DataLoader(Sq(5), batch_size=2)))",
    "attrs(data.DataLoader(Sq(3)))",
    "attrs(data.DataLoader(Sq(3), batch_size=None))",
    "attrs(data.DataLoader(Sq(3), shuffle=True, generator=gen(0), drop_last=True, batch_size=2))",
    "attrs(data.DataLoader(Sq(3), batch_sampler=[[0, 1]]))",
    "attrs(data.DataLoader(Stream(3), batch_size=2))",
    "attrs(data.DataLoader(Sq(3), num_workers=1, prefetch_factor=3, persistent_workers=True, timeout=2.5))",
    "data.DataLoader(Sq(3)).collate_fn is data.default_collate",
    "data.DataLoader(Sq(3), batch_size=None).collate_fn is data.default_convert",
    # DataLoader: argument errors
    "data.DataLoader(Sq(3), num_workers=-1)",
    "data.DataLoader(Sq(3), timeout=-1)",
    "data.DataLoader(Sq(3), prefetch_factor=3)",
    "data.DataLoader(Sq(3), persistent_workers=True)",
    "data.DataLoader(Sq(3), sampler=[0], shuffle=True)",
    "data.DataLoader(Sq(3), batch_sampler=[[0]], batch_size=2)",
    "data.DataLoader(Sq(3), batch_sampler=[[0]], shuffle=True)",
    "data.DataLoader(Sq(3), batch_sampler=[[0]], sampler=[0])",
    "data.DataLoader(Sq(3), batch_sampler=[[0]], drop_last=True)",
    "data.DataLoader(Sq(3), batch_size=None, drop_last=True)",
    "data.DataLoader(Sq(3), batch_size=0)",
    "data.DataLoader(Sq(3), multiprocessing_context='spawn')",
    "data.DataLoader(Sq(3), num_workers=2, multiprocessing_context='bogus')",
    "data.DataLoader(Sq(3), num_workers=2, multiprocessing_context=3)",
    "data.DataLoader(Sq(3), num_workers=2, multiprocessing_context='spawn').multiprocessing_context.get_start_method()",
    "setattr(data.DataLoader(Sq(3)), 'batch_size', 3)",
    "setattr(data.DataLoader(Sq(3)), 'sampler', [0])",
    "setattr(data.DataLoader(Sq(3)), 'num_workers', 0)",
    "data.DataLoader(Sq(3), num_workers=1000)",
    "run(data.DataLoader(Sq(3), pin_memory_device='cuda'))",
    "pickle.dumps(iter(data.DataLoader(Sq(3))))",
    "len(data.DataLoader(Sq(3), batch_size=2).batch_sampler)",
    # DataLoader over an IterableDataset
    "run(data.DataLoader(Stream(5), batch_size=2))",
    "run(data.DataLoader(Stream(5), batch_size=2, drop_last=True))",
    "run(data.DataLoader(Stream(3), batch_size=None))",
    "run(data.DataLoader(Stream(3)))",
    "run(data.DataLoader(Stream(0), batch_size=2))",
    "(len(data.DataLoader(StreamLen(5), batch_size=2)), len(data.DataLoader(StreamLen(5), batch_size=2, drop_last=True)), len(data.DataLoader(StreamLen(5), batch_size=None)))",
    "len(data.DataLoader(Stream(5)))",
    "data.DataLoader(Stream(5), shuffle=True)",
    "data.DataLoader(Stream(5), shuffle=False).batch_size",
    "data.DataLoader(Stream(5), sampler=[0])",
    "data.DataLoader(Stream(5), batch_sampler=[[0]])",
    "(lambda dl: (len(dl), run(dl)))(data.DataLoader(Lies(3), batch_size=None))",
    "run(data.DataLoader(Lies(3), batch_size=None))",
    "run(data.DataLoader(data.ChainDataset([Stream(2), Stream(3)]), batch_size=3))",
    # printing
    "repr(data.DataLoader(Sq(2)))",
    "repr(iter(data.DataLoader(Sq(2))))",
    "repr(data.SequentialSampler(range(2)))",
    "repr(data.BatchSampler(range(2), 1, False))",
    "repr(data.TensorDataset(m.zeros(2)))",
    "repr(data.get_worker_info())",
]


def _dtype_name(dtype):
    return str(dtype).replace("torch.", "")


def describe(value, m, text=str):
    """A JSON-able picture of a case's value: containers keep their type's name; strings pass
    through `text` (normalise)."""
    if isinstance(value, m.Tensor):
        return {"tensor": _dtype_name(value.dtype), "shape": list(value.shape),
                "values": value.tolist()}
    if isinstance(value, np.ndarray):
        return {"ndarray": value.dtype.str, "values": value.tolist()}
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return {"namedtuple": type(value).__name__, "items": [describe(v, m, text) for v in value]}
    if isinstance(value, (list, tuple)):
        return {type(value).__name__: [describe(v, m, text) for v in value]}
    if isinstance(value, dict):
        return {"mapping": type(value).__name__,
                "items": [[k, describe(v, m, text)] for k, v in value.items()]}
    if isinstance(value, float) and math.isnan(value):
        return {"float": "nan"}
    if isinstance(value, str):
        return {"str": text(value)}
    if isinstance(value, (bool, int, float, bytes, type(None))):
        return {type(value).__name__: value if not isinstance(value, bytes) else value.decode()}
    return {"object": type(value).__name__}


def normalise(text, data_module_name):
    text = text.replace(data_module_name, "{data}")
    text = re.sub(r"0x[0-9a-fA-F]+", "0x?", text)
    try:
        ncpu = len(os.sched_getaffinity(0))
        text = text.replace(f"current system is {ncpu},", "current system is {ncpu},")
    except (AttributeError, OSError):
        pass
    return text


def outcome(expr, m, data):
    """Evaluates one case with tensor module m and its utils.data; describes the outcome."""
    scope = {"m": m, "data": data, "np": np, "__name__": "cases"}
    exec(PRELUDE, scope)  # noqa: S102 - our own test data
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            value = eval(expr, scope)  # noqa: S307
            result = {"value": describe(value, m, lambda t: normalise(t, data.__name__))}
        except Exception as e:  # noqa: BLE001 - the exception is the outcome
            result = {"error": type(e).__name__, "message": normalise(str(e), data.__name__)}
    notes = [normalise(str(w.message), data.__name__) for w in caught
             if not issubclass(w.category, DeprecationWarning) or "cummulative" in str(w.message)]
    if notes:
        result["warnings"] = notes
    return result
