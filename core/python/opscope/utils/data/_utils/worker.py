"""The loop each DataLoader worker process runs, and ``get_worker_info``.

A worker reads ``(task id, indices)`` from its own index queue, fetches and collates that batch
and puts ``(task id, batch)`` on the result queue shared by all workers; the main process puts
the batches back in task order. An exception becomes an ExceptionWrapper, raised again in the
main process. ``None`` on the index queue ends the loop; so does the death of the main process
(checked every MP_STATUS_CHECK_INTERVAL seconds while idle).
"""
import multiprocessing.queues
import os
import queue
import random
from dataclasses import dataclass
from typing import Optional

import numpy as np

import opscope
from opscope.utils.data._utils import MP_STATUS_CHECK_INTERVAL, ExceptionWrapper


class ManagerWatchdog:
    """Tells a worker whether the process that started it is still alive: an orphan is
    re-parented, so its parent pid changes."""

    def __init__(self):
        self.manager_pid = os.getppid()
        self.manager_dead = False

    def is_alive(self):
        if not self.manager_dead:
            self.manager_dead = os.getppid() != self.manager_pid
        return not self.manager_dead


_worker_info = None


class _ResultQueue(multiprocessing.queues.Queue):
    """The queue workers put batches on. A Queue pickles in a background thread, where a batch
    that does not pickle would only be printed and dropped, and the main process would wait for
    it forever; this one sends the pickling error in the batch's place instead (the hook
    concurrent.futures' process pool overrides for the same reason)."""

    def __init__(self, ctx):
        super().__init__(ctx=ctx)
        self._worker_id = None  # set in the worker, for the error's "where"

    def __getstate__(self):
        return super().__getstate__() + (self._worker_id,)

    def __setstate__(self, state):
        super().__setstate__(state[:-1])
        self._worker_id = state[-1]

    def _on_queue_feeder_error(self, e, obj):
        if isinstance(obj, tuple) and len(obj) == 2 and isinstance(obj[0], int):
            wrapped = ExceptionWrapper((type(e), e, e.__traceback__),
                                       where=f"in DataLoader worker process {self._worker_id}")
            self.put((obj[0], wrapped))
        else:
            super()._on_queue_feeder_error(e, obj)


class WorkerInfo:
    """What ``get_worker_info()`` returns in a worker: ``id``, ``num_workers``, ``seed`` and
    ``dataset`` (this process's copy). Read-only once built."""

    __initialized = False

    def __init__(self, **kwargs):
        for k, v in kwargs.items():
            setattr(self, k, v)
        self.__keys = tuple(kwargs.keys())
        self.__initialized = True

    def __setattr__(self, key, val):
        if self.__initialized:
            raise RuntimeError(f"Cannot assign attributes to {self.__class__.__name__} objects")
        return super().__setattr__(key, val)

    def __repr__(self):
        items = ", ".join(f"{k}={getattr(self, k)}" for k in self.__keys)
        return f"{self.__class__.__name__}({items})"


def get_worker_info():
    """In a DataLoader worker process: a WorkerInfo (id, num_workers, seed, dataset) — use it in
    an IterableDataset's ``__iter__`` or a ``worker_init_fn`` to give each worker its own share
    of the data. In the main process: None."""
    return _worker_info


@dataclass(frozen=True)
class _IterableDatasetStopIteration:
    """A worker's IterableDataset iterator is spent."""
    worker_id: int


@dataclass(frozen=True)
class _ResumeIteration:
    """Persistent workers: start a new epoch (a fresh fetcher over the dataset)."""
    seed: Optional[int] = None


def _seed_worker(base_seed, worker_id):
    """Seeds Python's, opscope's and NumPy's global generators of one worker: base_seed +
    worker_id, and for NumPy the SeedSequence of (worker_id, the seed's two 32-bit halves, 0),
    the same states PyTorch gives NumPy in its workers."""
    seed = base_seed + worker_id
    random.seed(seed)
    opscope.manual_seed(seed)
    entropy = [worker_id, base_seed & 0xFFFFFFFF, base_seed >> 32, 0]
    np.random.seed(np.random.SeedSequence(entropy).generate_state(4))
    return seed


def _worker_loop(dataset_kind, dataset, index_queue, data_queue, done_event,
                 auto_collation, collate_fn, drop_last, base_seed, init_fn, worker_id,
                 num_workers, persistent_workers, shared_seed):
    from opscope.utils.data.dataloader import _DatasetKind

    global _worker_info
    if isinstance(data_queue, _ResultQueue):
        data_queue._worker_id = worker_id
    try:
        # One intra-op thread per worker, as PyTorch does: the workers already use the cores,
        # and an OpenMP pool inherited through fork() must not be woken in the child.
        opscope.set_num_threads(1)
        seed = _seed_worker(base_seed, worker_id)
        _worker_info = WorkerInfo(id=worker_id, num_workers=num_workers, seed=seed,
                                  dataset=dataset)

        init_exception = None
        fetcher = None
        try:
            if init_fn is not None:
                init_fn(worker_id)
            fetcher = _DatasetKind.create_fetcher(dataset_kind, dataset, auto_collation,
                                                  collate_fn, drop_last)
        except Exception:
            # Sent as the answer to this worker's first task.
            init_exception = ExceptionWrapper(where=f"in DataLoader worker process {worker_id}")

        iteration_end = False  # an IterableDataset's iterator is spent
        watchdog = ManagerWatchdog()
        while watchdog.is_alive():
            try:
                r = index_queue.get(timeout=MP_STATUS_CHECK_INTERVAL)
            except queue.Empty:
                continue
            if isinstance(r, _ResumeIteration):
                data_queue.put((r, None))
                iteration_end = False
                fetcher = _DatasetKind.create_fetcher(dataset_kind, dataset, auto_collation,
                                                      collate_fn, drop_last)
                continue
            if r is None:
                break
            if done_event.is_set() or iteration_end:
                continue  # drain what is left until the None
            idx, index = r
            if init_exception is not None:
                data = init_exception
                init_exception = None
            else:
                try:
                    data = fetcher.fetch(index)
                except Exception as e:
                    if isinstance(e, StopIteration) and dataset_kind == _DatasetKind.Iterable:
                        data = _IterableDatasetStopIteration(worker_id)
                        iteration_end = True
                    else:
                        data = ExceptionWrapper(where=f"in DataLoader worker process {worker_id}")
            data_queue.put((idx, data))
            del data, idx, index, r
    except KeyboardInterrupt:
        pass  # the main process gets its own KeyboardInterrupt
    if done_event.is_set():
        data_queue.cancel_join_thread()
        data_queue.close()
