"""opscope.utils.data against torch 1.13: datasets, samplers, collation and the DataLoader
(recorded outcomes in data/data_loader_torch.json, see data_loader_cases.py), then what a
recording cannot show: determinism of seeded orders, tensors crossing to worker processes and
back, and the workers themselves (order, errors, sharding, shutdown) — few and small, since
each starts processes."""
import gc
import json
import os
import pickle
import time
from multiprocessing.reduction import ForkingPickler

import numpy as np
import pytest

import opscope
import opscope.utils.data as data
from opscope.utils.data import (BatchSampler, DataLoader, Dataset, IterableDataset, RandomSampler,
                                 SubsetRandomSampler, TensorDataset, WeightedRandomSampler,
                                 get_worker_info, random_split)

import data_loader_cases as cases

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "data", "data_loader_torch.json")) as f:
    RECORDED = json.load(f)


def test_every_case_is_recorded():
    assert sorted(RECORDED) == sorted(cases.CASES), "rerun make_torch_reference_data.py"


@pytest.mark.parametrize("expr", cases.CASES)
def test_matches_torch(expr):
    expected = RECORDED[expr]
    actual = cases.outcome(expr, opscope, data)
    assert actual == expected, f"\n  torch:   {expected}\n  opscope: {actual}"


def test_import_paths_match_torch():
    import opscope.utils.data.dataloader as dl
    import opscope.utils.data.dataset as ds
    import opscope.utils.data.sampler as sm
    from opscope.utils.data._utils.collate import collate, default_collate_fn_map
    assert opscope.utils.data is data
    assert dl.DataLoader is DataLoader and ds.TensorDataset is TensorDataset
    assert sm.BatchSampler is BatchSampler
    assert default_collate_fn_map[opscope.Tensor]([opscope.ones(2)] * 3).shape == (3, 2)
    assert collate([1, 2], collate_fn_map=default_collate_fn_map).tolist() == [1, 2]


def test_collate_fn_map_extends_default_collate():
    from opscope.utils.data._utils.collate import collate, default_collate_fn_map

    class Box:
        def __init__(self, v):
            self.v = v

    def collate_box(batch, *, collate_fn_map):
        return ("boxes", [b.v for b in batch])

    fn_map = {**default_collate_fn_map, Box: collate_box}
    out = collate([(Box(1), 2), (Box(3), 4)], collate_fn_map=fn_map)
    assert out[0] == ("boxes", [1, 3]) and out[1].tolist() == [2, 4]


def test_default_collate_shares_numpy_memory_and_keeps_tensor_values():
    arrays = [np.arange(3, dtype=np.float32) for _ in range(2)]
    t = data.default_convert(arrays[0])
    arrays[0][0] = 42  # as_tensor shares memory with the array, as in torch
    assert t.tolist()[0] == 42
    x = opscope.randn(4, 5)
    batch = data.default_collate([x[i] for i in range(4)])
    np.testing.assert_array_equal(batch.numpy(), x.numpy())


# ---------------------------------------------------------------------------------------------
# Seeded orders: opscope's own, so checked for determinism and completeness
# ---------------------------------------------------------------------------------------------

def _order(loader):
    return [i for b in loader for i in b[0].tolist()]


def test_shuffle_with_seeded_generator_is_deterministic_and_complete():
    ds = TensorDataset(opscope.arange(50))
    orders = [_order(DataLoader(ds, batch_size=7, shuffle=True,
                                generator=opscope.Generator().manual_seed(123)))
              for _ in range(2)]
    assert orders[0] == orders[1]
    assert sorted(orders[0]) == list(range(50)) and orders[0] != list(range(50))
    other = _order(DataLoader(ds, batch_size=7, shuffle=True,
                              generator=opscope.Generator().manual_seed(124)))
    assert other != orders[0]


def test_shuffle_epochs_differ_and_global_seed_fixes_them():
    ds = TensorDataset(opscope.arange(30))
    loader = DataLoader(ds, batch_size=30, shuffle=True)
    opscope.manual_seed(7)
    first, second = _order(loader), _order(loader)
    assert first != second and sorted(first) == sorted(second) == list(range(30))
    opscope.manual_seed(7)
    assert _order(loader) == first


def test_random_split_seeded():
    parts = [random_split(range(20), [0.25, 0.75], generator=opscope.Generator().manual_seed(1))
             for _ in range(2)]
    assert [list(p) for p in parts[0]] == [list(p) for p in parts[1]]
    assert sorted(list(parts[0][0]) + list(parts[0][1])) == list(range(20))
    assert len(parts[0][0]) == 5


def test_samplers_seeded():
    def g():
        return opscope.Generator().manual_seed(9)
    for make in (lambda: RandomSampler(range(40), generator=g()),
                 lambda: RandomSampler(range(40), replacement=True, num_samples=100, generator=g()),
                 lambda: SubsetRandomSampler(list(range(10, 50)), generator=g()),
                 lambda: WeightedRandomSampler(np.arange(40.0), 30, generator=g()),
                 lambda: WeightedRandomSampler(np.arange(40.0), 30, replacement=False, generator=g())):
        a, b = list(make()), list(make())
        assert a == b
    no_repeat = list(WeightedRandomSampler(np.arange(40.0), 39, replacement=False, generator=g()))
    assert sorted(no_repeat) == list(range(1, 40))  # weight 0 is never drawn


def test_weighted_sampler_frequencies():
    w = [1.0, 0.0, 3.0, 6.0]
    draws = list(WeightedRandomSampler(w, 20000, generator=opscope.Generator().manual_seed(0)))
    freq = np.bincount(draws, minlength=4) / len(draws)
    np.testing.assert_allclose(freq, np.array(w) / 10, atol=0.015)
    assert freq[1] == 0


def test_random_sampler_replacement_is_uniform():
    draws = list(RandomSampler(range(5), replacement=True, num_samples=10000,
                               generator=opscope.Generator().manual_seed(0)))
    freq = np.bincount(draws, minlength=5) / len(draws)
    np.testing.assert_allclose(freq, 0.2, atol=0.02)


def test_getitem_called_once_per_index():
    class Counting(Dataset):
        def __init__(self):
            self.calls = []

        def __len__(self):
            return 10

        def __getitem__(self, i):
            self.calls.append(i)
            return opscope.tensor(float(i))

    ds = Counting()
    batches = list(DataLoader(ds, batch_size=4))
    assert ds.calls == list(range(10))
    assert [b.tolist() for b in batches] == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]


def test_getitems_is_used_when_defined():
    class Batched(Dataset):
        def __len__(self):
            return 5

        def __getitem__(self, i):
            raise AssertionError("__getitems__ should be used")

        def __getitems__(self, indices):
            return [i * 10 for i in indices]

    assert [b.tolist() for b in DataLoader(Batched(), batch_size=2)] == [[0, 10], [20, 30], [40]]


def test_profiler_scope_per_batch():
    loader = DataLoader(TensorDataset(opscope.arange(4)), batch_size=2)
    with opscope.profiler.profile() as prof:
        list(loader)
    names = [e.name for e in prof.events()]
    # One scope per batch and one for the StopIteration call, named as torch's.
    assert names.count("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__") == 3
    assert "aten::stack" in names


# ---------------------------------------------------------------------------------------------
# Tensors across processes
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["bool", "uint8", "int8", "int16", "int32", "int64",
                                   "float16", "bfloat16", "float32", "float64"])
def test_tensor_round_trips_through_forking_pickler(dtype):
    dt = getattr(opscope, dtype)
    base = opscope.arange(24).reshape(4, 6) % 7
    t = base.to(dt).t()[1:]  # non-contiguous
    back = ForkingPickler.loads(ForkingPickler.dumps(t))
    assert back.dtype == dt and back.shape == t.shape and back.tolist() == t.tolist()
    back_empty = ForkingPickler.loads(ForkingPickler.dumps(opscope.zeros(0, 3, dtype=dt)))
    assert back_empty.shape == (0, 3) and back_empty.dtype == dt
    assert ForkingPickler.loads(ForkingPickler.dumps(opscope.tensor(5).to(dt))).shape == ()


def test_pickling_keeps_requires_grad_and_refuses_non_leaves():
    leaf = opscope.ones(3, requires_grad=True)
    back = ForkingPickler.loads(ForkingPickler.dumps(leaf))
    assert back.requires_grad and back.is_leaf
    with pytest.raises(RuntimeError, match="Cowardly refusing to serialize non-leaf tensor"):
        ForkingPickler.dumps(leaf * 2)
    p = opscope.nn.Parameter(opscope.ones(2))
    assert ForkingPickler.loads(ForkingPickler.dumps(p)).requires_grad
    # Plain pickle is Tensor.__reduce_ex__'s, as torch's: a non-leaf comes back as a leaf.
    back = pickle.loads(pickle.dumps(leaf * 2))
    assert back.tolist() == [2.0, 2.0, 2.0] and back.is_leaf and back.requires_grad


# ---------------------------------------------------------------------------------------------
# Worker processes (2 workers, tiny data)
# ---------------------------------------------------------------------------------------------

class WhoLoads(Dataset):
    """Sample i: (i, the worker id that loaded it, its pid, the worker's seed, the dataset's
    offset as set by a worker_init_fn)."""

    def __init__(self, n=8, fail_at=None, exit_at=None):
        self.n, self.fail_at, self.exit_at, self.offset = n, fail_at, exit_at, 0

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        if i == self.fail_at:
            raise ValueError(f"cannot load {i}")
        if i == self.exit_at:
            os._exit(3)
        info = get_worker_info()
        return {"i": i, "worker": info.id, "pid": os.getpid(), "seed": info.seed,
                "offset": self.offset, "x": opscope.full((2,), float(i)).to(opscope.bfloat16),
                "initial_seed": opscope.initial_seed()}


def _set_offset(worker_id):
    info = get_worker_info()
    assert info.id == worker_id and info.num_workers == 2
    info.dataset.offset = 100 * (worker_id + 1)


def test_workers_keep_order_and_shuffle_like_one_process():
    ds = TensorDataset(opscope.arange(30.0).reshape(15, 2), opscope.arange(15))

    def batches(workers):
        loader = DataLoader(ds, batch_size=4, shuffle=True, num_workers=workers,
                            generator=opscope.Generator().manual_seed(3))
        return [(x.tolist(), y.tolist(), x.dtype, y.dtype) for x, y in loader]

    single = batches(0)
    assert batches(2) == single
    assert sorted(i for b in single for i in b[1]) == list(range(15))


def test_worker_info_init_fn_and_seeds():
    loader = DataLoader(WhoLoads(), batch_size=2, num_workers=2, worker_init_fn=_set_offset,
                        prefetch_factor=1)
    out = list(loader)
    assert [b["i"].tolist() for b in out] == [[0, 1], [2, 3], [4, 5], [6, 7]]
    assert [b["worker"].tolist() for b in out] == [[0, 0], [1, 1], [0, 0], [1, 1]]  # round robin
    assert [b["offset"].tolist()[0] for b in out] == [100, 200, 100, 200]
    assert out[0]["x"].dtype == opscope.bfloat16 and out[1]["x"].tolist() == [[2, 2], [3, 3]]
    seeds = {b["worker"].tolist()[0]: b["seed"].tolist()[0] for b in out}
    assert seeds[1] == seeds[0] + 1
    assert all(b["initial_seed"].tolist() == b["seed"].tolist() for b in out)
    assert get_worker_info() is None
    assert len({b["pid"].tolist()[0] for b in out} | {os.getpid()}) == 3


def test_worker_exception_is_reraised_with_worker_id():
    loader = DataLoader(WhoLoads(fail_at=5), batch_size=2, num_workers=2)
    with pytest.raises(ValueError) as err:
        list(loader)
    msg = str(err.value)
    assert msg.startswith("Caught ValueError in DataLoader worker process 0.\n"
                          "Original Traceback (most recent call last):\n")
    assert msg.rstrip().endswith("ValueError: cannot load 5")


def test_worker_that_dies_is_reported():
    loader = DataLoader(WhoLoads(exit_at=3), batch_size=2, num_workers=2)
    t0 = time.monotonic()
    with pytest.raises(RuntimeError, match=r"DataLoader worker \(pid\(s\) \d+\) exited unexpectedly") as err:
        list(loader)
    assert time.monotonic() - t0 < 4  # noticed at once, not after a poll interval
    assert "exited unexpectedly with exit code 3" in str(err.value.__cause__)


class Slow(Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        time.sleep(0.5 if i == 2 else 0)
        return i


def test_timeout():
    with pytest.raises(RuntimeError, match=r"^DataLoader timed out after 0.1 seconds$"):
        list(DataLoader(Slow(), batch_size=1, num_workers=1, timeout=0.1))


class Shards(IterableDataset):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        info = get_worker_info()
        if info is None:
            return iter(range(self.n))
        return iter(range(info.id, self.n, info.num_workers))


def test_iterable_dataset_sharded_by_worker_info():
    out = [b.tolist() for b in DataLoader(Shards(7), batch_size=2, num_workers=2)]
    assert out == [[0, 2], [1, 3], [4, 6], [5]]
    flat = sorted(b.tolist()[0] for b in DataLoader(Shards(5), num_workers=2))
    assert flat == [0, 1, 2, 3, 4]


def test_persistent_workers_survive_epochs():
    loader = DataLoader(WhoLoads(6), batch_size=3, num_workers=2, persistent_workers=True)
    pids = [sorted({p for b in loader for p in b["pid"].tolist()}) for _ in range(2)]
    assert pids[0] == pids[1] and len(pids[0]) == 2
    workers = loader._iterator._workers
    assert all(w.is_alive() for w in workers)
    it = iter(loader)  # an epoch broken off, then a full one
    next(it)
    assert [b["i"].tolist() for b in loader] == [[0, 1, 2], [3, 4, 5]]
    del loader, it
    gc.collect()
    assert not any(w.is_alive() for w in workers)


def test_dropping_an_iterator_early_ends_its_workers():
    it = iter(DataLoader(WhoLoads(40), batch_size=2, num_workers=2))
    next(it)
    workers = it._workers
    t0 = time.monotonic()
    del it
    assert not any(w.is_alive() for w in workers)
    assert time.monotonic() - t0 < 2


def test_iterator_dropped_inside_a_reference_cycle_shuts_down_quickly():
    # Note [Index queues outlive their iterator]
    it = iter(DataLoader(WhoLoads(40, fail_at=3), batch_size=1, num_workers=2))
    with pytest.raises(ValueError):
        list(it)
    workers = it._workers
    cycle = [it]
    cycle.append(cycle)
    del it, cycle
    t0 = time.monotonic()
    gc.collect()
    assert time.monotonic() - t0 < 2
    assert not any(w.is_alive() for w in workers)


def test_unpicklable_batch_is_an_error_not_a_hang():
    loader = DataLoader(WhoLoads(4), batch_size=2, num_workers=1,
                        collate_fn=lambda batch: [lambda: 0])
    with pytest.raises(Exception, match="Caught .* in DataLoader worker process 0"):
        list(loader)


def test_spawn_context():
    loader = DataLoader(TensorDataset(opscope.arange(6.0)), batch_size=4, num_workers=1,
                        multiprocessing_context="spawn")
    assert [b[0].tolist() for b in loader] == [[0, 1, 2, 3], [4, 5]]


def _failing_init(worker_id):
    if worker_id == 1:
        raise KeyError("no config for worker 1")


def test_worker_init_fn_error_answers_the_first_task_of_that_worker():
    loader = DataLoader(WhoLoads(8), batch_size=2, num_workers=2, worker_init_fn=_failing_init,
                        pin_memory=True)
    it = iter(loader)
    assert next(it)["i"].tolist() == [0, 1]  # worker 0's batch comes first
    with pytest.raises(KeyError) as err:
        next(it)
    text = err.value.args[0]
    assert text.startswith("Caught KeyError in DataLoader worker process 1.\nOriginal Traceback")
    assert repr(text) == text  # KeyError's message prints as the traceback, not a quoted line


class TooShort(IterableDataset):
    def __len__(self):
        return 1

    def __iter__(self):
        info = get_worker_info()
        return iter([info.id] if info is not None else [0])


def test_iterable_dataset_length_warning_with_workers():
    loader = DataLoader(TooShort(), batch_size=None, num_workers=2)
    assert len(loader) == 1
    with pytest.warns(UserWarning, match=r"was reported to be 1 .* but 2 samples have been "
                                         r"fetched\. For multiprocessing data-loading"):
        out = sorted(int(x) for x in loader)
    assert out == [0, 1]


@pytest.mark.parametrize("module", ["opscope.utils.data", "opscope.utils.data.dataset",
                                    "opscope.utils.data.sampler", "opscope.utils.data.dataloader",
                                    "opscope.utils.data._utils.collate"])
def test_docstring_examples_run(module):
    import doctest
    import importlib
    mod = importlib.import_module(module)
    failures, tried = doctest.testmod(mod, extraglobs={"np": np, "opscope": opscope})
    assert failures == 0 and tried > 0
