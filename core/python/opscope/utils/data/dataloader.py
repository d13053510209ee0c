"""DataLoader (``torch.utils.data.dataloader``): batches from a dataset, in the main process or
in worker processes.

One iteration, as PyTorch does it:

    sampler ──indices──▶ BatchSampler ──[i, j, ...]──▶ fetcher: collate_fn([dataset[i], ...])
                                                          │
                         main process (num_workers=0)  ◀──┘  or, with workers:
    index queue of worker k ──(task, indices)──▶ worker k ──(task, batch)──▶ result queue
                                                          ──▶ main: batches back in task order

With workers the main process keeps ``prefetch_factor * num_workers`` tasks out, sending them
round-robin; a batch that arrives early waits until those before it are returned. A worker's
exception is raised again in the main process as ``Caught <Type> in DataLoader worker process
<k>``, a dead worker as "DataLoader worker (pid(s) ...) exited unexpectedly". Workers stop when
the iterator ends or is dropped (``None`` on each index queue, then join, then terminate), or,
with ``persistent_workers=True``, when the DataLoader goes away.
"""
import itertools
import multiprocessing
import multiprocessing.connection
import os
import signal
import warnings
from typing import Generic, Optional, TypeVar

import opscope
from opscope import _C
from opscope.utils.data import _utils
from opscope.utils.data._utils import MP_STATUS_CHECK_INTERVAL, ExceptionWrapper
from opscope.utils.data._utils.collate import default_collate, default_convert
from opscope.utils.data._utils.worker import get_worker_info
from opscope.utils.data.dataset import IterableDataset
from opscope.utils.data.sampler import BatchSampler, RandomSampler, Sampler, SequentialSampler

__all__ = ["DataLoader", "get_worker_info", "default_collate", "default_convert"]

T_co = TypeVar("T_co", covariant=True)


class _DatasetKind:
    Map = 0
    Iterable = 1

    @staticmethod
    def create_fetcher(kind, dataset, auto_collation, collate_fn, drop_last):
        if kind == _DatasetKind.Map:
            return _utils.fetch._MapDatasetFetcher(dataset, auto_collation, collate_fn, drop_last)
        return _utils.fetch._IterableDatasetFetcher(dataset, auto_collation, collate_fn, drop_last)


class _InfiniteConstantSampler(Sampler):
    """None forever: the "indices" of an IterableDataset, which ignores them. Infinite, not
    len(dataset), because with workers each copy of the dataset may yield any number of
    samples."""

    def __init__(self):
        super().__init__(None)

    def __iter__(self):
        while True:
            yield None


class DataLoader(Generic[T_co]):
    """Iterates over ``dataset`` in batches.

    Args:
        dataset: a map-style Dataset (``dataset[i]``) or an IterableDataset.
        batch_size: samples per batch (default 1); None turns batching off: each sample is
            passed through ``default_convert`` alone.
        shuffle: a new random order each epoch (map-style only); draws from ``generator``.
        sampler: the order of the indices (excludes shuffle).
        batch_sampler: yields whole lists of indices (excludes batch_size, shuffle, sampler,
            drop_last).
        num_workers: worker processes that load batches (0: the main process does).
        collate_fn: list of samples -> batch; default ``default_collate``.
        pin_memory: accepted; without CUDA the batches come back unchanged, as in PyTorch.
        drop_last: drop a last batch shorter than batch_size.
        timeout: seconds to wait for a worker's batch before RuntimeError (0: forever).
        worker_init_fn: called with the worker id in each worker, after seeding.
        multiprocessing_context: a start method name ("fork", "spawn", ...) or a context.
        generator: the opscope.Generator for shuffling and the workers' base seed.
        prefetch_factor: batches each worker loads ahead (only with workers).
        persistent_workers: keep the workers between epochs.
        pin_memory_device: accepted, as pin_memory.

    >>> import opscope
    >>> from opscope.utils.data import TensorDataset
    >>> loader = DataLoader(TensorDataset(opscope.arange(5)), batch_size=2)
    >>> [b[0].tolist() for b in loader]
    [[0, 1], [2, 3], [4]]
    """

    __initialized = False

    def __init__(self, dataset, batch_size: Optional[int] = 1, shuffle: Optional[bool] = None,
                 sampler=None, batch_sampler=None, num_workers: int = 0, collate_fn=None,
                 pin_memory: bool = False, drop_last: bool = False, timeout: float = 0,
                 worker_init_fn=None, multiprocessing_context=None, generator=None,
                 *, prefetch_factor: int = 2, persistent_workers: bool = False,
                 pin_memory_device: str = ""):
        if num_workers < 0:
            raise ValueError("num_workers option should be non-negative; "
                             "use num_workers=0 to disable multiprocessing.")
        if timeout < 0:
            raise ValueError("timeout option should be non-negative")
        if num_workers == 0 and prefetch_factor != 2:
            raise ValueError("prefetch_factor option could only be specified in multiprocessing."
                             "let num_workers > 0 to enable multiprocessing.")
        assert prefetch_factor > 0
        if persistent_workers and num_workers == 0:
            raise ValueError("persistent_workers option needs num_workers > 0")

        self.dataset = dataset
        self.num_workers = num_workers
        self.prefetch_factor = prefetch_factor
        self.pin_memory = pin_memory
        self.pin_memory_device = pin_memory_device
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.multiprocessing_context = multiprocessing_context

        # The dataset's kind is checked before the samplers, so that an IterableDataset user
        # learns first that custom samplers do not apply to it.
        if isinstance(dataset, IterableDataset):
            self._dataset_kind = _DatasetKind.Iterable
            if shuffle not in {False, None}:
                raise ValueError("DataLoader with IterableDataset: expected unspecified "
                                 f"shuffle option, but got shuffle={shuffle}")
            if sampler is not None:
                raise ValueError("DataLoader with IterableDataset: expected unspecified "
                                 f"sampler option, but got sampler={sampler}")
            if batch_sampler is not None:
                raise ValueError("DataLoader with IterableDataset: expected unspecified "
                                 f"batch_sampler option, but got batch_sampler={batch_sampler}")
        else:
            shuffle = bool(shuffle)
            self._dataset_kind = _DatasetKind.Map

        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")

        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive "
                                 "with batch_size, shuffle, sampler, and drop_last")
            batch_size = None
            drop_last = False
        elif batch_size is None:
            if drop_last:
                raise ValueError("batch_size=None option disables auto-batching "
                                 "and is mutually exclusive with drop_last")

        if sampler is None:
            if self._dataset_kind == _DatasetKind.Iterable:
                sampler = _InfiniteConstantSampler()
            elif shuffle:
                sampler = RandomSampler(dataset, generator=generator)
            else:
                sampler = SequentialSampler(dataset)

        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)

        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self.generator = generator

        if collate_fn is None:
            collate_fn = default_collate if self._auto_collation else default_convert
        self.collate_fn = collate_fn
        self.persistent_workers = persistent_workers

        self.__initialized = True
        self._IterableDataset_len_called = None  # see __len__
        self._iterator = None

        self.check_worker_number_rationality()

    def _get_iterator(self):
        if self.num_workers == 0:
            return _SingleProcessDataLoaderIter(self)
        self.check_worker_number_rationality()
        return _MultiProcessingDataLoaderIter(self)

    @property
    def multiprocessing_context(self):
        return self.__multiprocessing_context

    @multiprocessing_context.setter
    def multiprocessing_context(self, multiprocessing_context):
        if multiprocessing_context is not None:
            if self.num_workers > 0:
                if isinstance(multiprocessing_context, (str, bytes)):
                    valid_start_methods = multiprocessing.get_all_start_methods()
                    if multiprocessing_context not in valid_start_methods:
                        raise ValueError(
                            "multiprocessing_context option should specify a valid start method "
                            f"in {valid_start_methods!r}, but got "
                            f"multiprocessing_context={multiprocessing_context!r}")
                    multiprocessing_context = multiprocessing.get_context(multiprocessing_context)
                if not isinstance(multiprocessing_context, multiprocessing.context.BaseContext):
                    raise TypeError("multiprocessing_context option should be a valid context "
                                    "object or a string specifying the start method, but got "
                                    f"multiprocessing_context={multiprocessing_context}")
            else:
                raise ValueError("multiprocessing_context can only be used with "
                                 "multi-process loading (num_workers > 0), but got "
                                 f"num_workers={self.num_workers}")
        self.__multiprocessing_context = multiprocessing_context

    def __setattr__(self, attr, val):
        if self.__initialized and attr in (
                "batch_size", "batch_sampler", "sampler", "drop_last", "dataset",
                "persistent_workers"):
            raise ValueError(f"{attr} attribute should not be set after "
                             f"{self.__class__.__name__} is initialized")
        super().__setattr__(attr, val)

    def __iter__(self):
        """A new iterator each time; with persistent workers, the one iterator, reset."""
        if self.persistent_workers and self.num_workers > 0:
            if self._iterator is None:
                self._iterator = self._get_iterator()
            else:
                self._iterator._reset(self)
            return self._iterator
        return self._get_iterator()

    @property
    def _auto_collation(self):
        return self.batch_sampler is not None

    @property
    def _index_sampler(self):
        """What the fetcher reads: the batch sampler when batching, else the sampler."""
        return self.batch_sampler if self._auto_collation else self.sampler

    def __len__(self) -> int:
        """Batches per epoch: from the (batch) sampler; for an IterableDataset from its own
        ``len`` (TypeError if it has none), remembered so that an iterator yielding more
        warns."""
        if self._dataset_kind == _DatasetKind.Iterable:
            length = self._IterableDataset_len_called = len(self.dataset)
            if self.batch_size is not None:
                if self.drop_last:
                    length = length // self.batch_size
                else:
                    length = -(-length // self.batch_size)
            return length
        return len(self._index_sampler)

    def check_worker_number_rationality(self):
        """Warns when num_workers exceeds the CPUs this process may run on."""
        if not self.num_workers:
            return
        suggest, cpuset_checked = None, False
        if hasattr(os, "sched_getaffinity"):
            try:
                suggest, cpuset_checked = len(os.sched_getaffinity(0)), True
            except Exception:
                pass
        if suggest is None:
            suggest = os.cpu_count()
        if suggest is not None and self.num_workers <= suggest:
            return
        if suggest is not None:
            detail = (f"Our suggested max number of worker in current system is {suggest}"
                      f"{'' if cpuset_checked else ' (`cpuset` is not taken into account)'}, "
                      "which is smaller than what this DataLoader is going to create.")
        else:
            detail = "DataLoader is not able to compute a suggested max number of worker in current system."
        warnings.warn(
            f"This DataLoader will create {self.num_workers} worker processes in total. {detail} "
            "Please be aware that excessive worker creation might get DataLoader running slow "
            "or even freeze, lower the worker number to avoid potential slowness/freeze if "
            "necessary.")


class _BaseDataLoaderIter:
    def __init__(self, loader: DataLoader) -> None:
        self._dataset = loader.dataset
        self._shared_seed = None
        self._dataset_kind = loader._dataset_kind
        self._IterableDataset_len_called = loader._IterableDataset_len_called
        self._auto_collation = loader._auto_collation
        self._drop_last = loader.drop_last
        self._index_sampler = loader._index_sampler
        self._num_workers = loader.num_workers
        self._prefetch_factor = loader.prefetch_factor
        if loader.pin_memory_device and not loader.pin_memory:
            warnings.warn("pin memory device is set and pin_memory flag is not used then device "
                          "pinned memory won't be usedplease set pin_memory to true, if you "
                          "need to use the device pin memory")
        # Pinned memory is for copies to CUDA; opscope has none, so, like PyTorch without
        # CUDA, pin_memory=True changes nothing.
        self._pin_memory = False
        self._timeout = loader.timeout
        self._collate_fn = loader.collate_fn
        self._sampler_iter = iter(self._index_sampler)
        # Drawn even without workers (it seeds them), so that a loader's generator advances the
        # same way whatever num_workers is.
        self._base_seed = opscope.empty((), dtype=opscope.int64).random_(
            generator=loader.generator).item()
        self._persistent_workers = loader.persistent_workers
        self._num_yielded = 0
        self._profile_name = f"enumerate(DataLoader)#{self.__class__.__name__}.__next__"

    def __iter__(self):
        return self

    def _reset(self, loader, first_iter=False):
        self._sampler_iter = iter(self._index_sampler)
        self._num_yielded = 0
        self._IterableDataset_len_called = loader._IterableDataset_len_called

    def _next_index(self):
        return next(self._sampler_iter)  # may raise StopIteration

    def _next_data(self):
        raise NotImplementedError

    def __next__(self):
        # Each batch is a record_function scope in traces and profiles, named as PyTorch's.
        scope = _C._record_function_enter(self._profile_name)
        try:
            data = self._next_data()
        finally:
            _C._record_function_exit(scope, self._profile_name)
        self._num_yielded += 1
        if self._IterableDataset_len_called is not None and \
                self._dataset_kind == _DatasetKind.Iterable and \
                self._num_yielded > self._IterableDataset_len_called:
            msg = (f"Length of IterableDataset {self._dataset} was reported to be "
                   f"{self._IterableDataset_len_called} (when accessing len(dataloader)), but "
                   f"{self._num_yielded} samples have been fetched. ")
            if self._num_workers > 0:
                msg += ("For multiprocessing data-loading, this could be caused by not properly "
                        "configuring the IterableDataset replica at each worker. Please see "
                        "https://pytorch.org/docs/stable/data.html#torch.utils.data.IterableDataset "
                        "for examples.")
            warnings.warn(msg)
        return data

    def __len__(self) -> int:
        return len(self._index_sampler)

    def __getstate__(self):
        raise NotImplementedError("{} cannot be pickled", self.__class__.__name__)


class _SingleProcessDataLoaderIter(_BaseDataLoaderIter):
    def __init__(self, loader):
        super().__init__(loader)
        assert self._timeout == 0
        assert self._num_workers == 0
        self._dataset_fetcher = _DatasetKind.create_fetcher(
            self._dataset_kind, self._dataset, self._auto_collation, self._collate_fn,
            self._drop_last)

    def _next_data(self):
        index = self._next_index()  # may raise StopIteration
        return self._dataset_fetcher.fetch(index)  # may raise StopIteration


# Note [Index queues outlive their iterator]
# An iterator dropped inside a reference cycle (an exception's traceback holds the frame that
# held it) is finalised by the garbage collector, which runs the weakref callbacks of the
# cycle's objects before any __del__. Each multiprocessing Queue has such a callback: it stops
# the queue's feeder thread. __del__'s ``None`` to each worker would then never be sent, and
# shutdown would wait out each join timeout. The queues are therefore also held here, by the
# iterator's id, until its shutdown is done.
_index_queues_of = {}


def _death_of(worker):
    """PyTorch's SIGCHLD message for a worker that is gone: its signal or its exit code."""
    code = worker.exitcode
    if code is not None and code < 0:
        try:
            name = signal.strsignal(-code)
        except ValueError:
            name = f"signal {-code}"
        return RuntimeError(f"DataLoader worker (pid {worker.pid}) is killed by signal: {name}. ")
    return RuntimeError(f"DataLoader worker (pid {worker.pid}) exited unexpectedly with exit code "
                        f"{code}. Details are lost due to multiprocessing. Rerunning with "
                        "num_workers=0 may give better error trace.")


class _MultiProcessingDataLoaderIter(_BaseDataLoaderIter):
    """Iterates once over the dataset with worker processes (see the module docstring).

    Bookkeeping: task ids count up from 0 (``_send_idx`` next to send, ``_rcvd_idx`` next to
    return); ``_task_info[id]`` is ``(worker,)`` while outstanding and ``(worker, batch)`` once
    the batch came early; ``_workers_status[k]`` is False once worker k may get no more tasks.
    """

    def __init__(self, loader):
        super().__init__(loader)
        self._prefetch_factor = loader.prefetch_factor
        assert self._num_workers > 0
        assert self._prefetch_factor > 0

        context = loader.multiprocessing_context
        if context is None:
            context = multiprocessing.get_context()
        self._worker_init_fn = loader.worker_init_fn

        self._worker_result_queue = _utils.worker._ResultQueue(context)
        self._worker_pids_set = False
        self._shutdown = False
        self._workers_done_event = context.Event()

        self._index_queues = []
        self._workers = []
        for i in range(self._num_workers):
            index_queue = context.Queue()
            index_queue.cancel_join_thread()  # exiting never waits on tasks not yet sent
            w = context.Process(
                target=_utils.worker._worker_loop,
                args=(self._dataset_kind, self._dataset, index_queue,
                      self._worker_result_queue, self._workers_done_event,
                      self._auto_collation, self._collate_fn, self._drop_last,
                      self._base_seed, self._worker_init_fn, i, self._num_workers,
                      self._persistent_workers, self._shared_seed))
            w.daemon = True  # multiprocessing ends them at interpreter exit
            w.start()
            self._index_queues.append(index_queue)
            self._workers.append(w)

        self._data_queue = self._worker_result_queue
        _index_queues_of[id(self)] = self._index_queues  # Note [Index queues outlive their iterator]
        self._worker_pids_set = True
        self._reset(loader, first_iter=True)

    def _reset(self, loader, first_iter=False):
        super()._reset(loader, first_iter)
        self._send_idx = 0
        self._rcvd_idx = 0
        self._task_info = {}
        self._tasks_outstanding = 0  # tasks whose batch has not arrived
        self._workers_status = [True] * self._num_workers
        self._worker_queue_idx_cycle = itertools.cycle(range(self._num_workers))
        if not first_iter:
            # Persistent workers: every worker acknowledges the new epoch; batches of the old
            # one still on their way are dropped.
            for idx in range(self._num_workers):
                self._index_queues[idx].put(_utils.worker._ResumeIteration(self._shared_seed))
            pending = self._num_workers
            while pending > 0:
                return_idx, return_data = self._get_data()
                if isinstance(return_idx, _utils.worker._ResumeIteration):
                    assert return_data is None
                    pending -= 1
        for _ in range(self._prefetch_factor * self._num_workers):
            self._try_put_index()

    def _try_get_data(self, timeout=MP_STATUS_CHECK_INTERVAL):
        """(True, item) from the result queue, or (False, None) after `timeout` seconds.

        Waits on the queue's pipe and on each active worker's process sentinel at once, so a
        worker that dies is noticed at once (PyTorch installs a SIGCHLD handler for this),
        after any batches it sent before dying."""
        reader = self._data_queue._reader
        sentinels = {w.sentinel: k for k, w in enumerate(self._workers)
                     if self._workers_status[k]}
        ready = multiprocessing.connection.wait([reader, *sentinels], timeout)
        if reader in ready:
            return True, self._data_queue.get()
        failed = []
        for sentinel in ready:
            k = sentinels[sentinel]
            w = self._workers[k]
            w.join(timeout=0)  # reap it, so that exitcode is known
            if self._workers_status[k] and not w.is_alive():
                failed.append(w)
                self._mark_worker_as_unavailable(k)
        if failed:
            pids = ", ".join(str(w.pid) for w in failed)
            raise RuntimeError(f"DataLoader worker (pid(s) {pids}) exited unexpectedly") \
                from _death_of(failed[0])
        return False, None

    def _get_data(self):
        if self._timeout > 0:
            success, data = self._try_get_data(self._timeout)
            if success:
                return data
            raise RuntimeError(f"DataLoader timed out after {self._timeout} seconds")
        while True:
            success, data = self._try_get_data()
            if success:
                return data

    def _next_data(self):
        while True:
            # Skip the tasks of workers that ended (an IterableDataset's spent copies); stop
            # when nothing is left.
            while self._rcvd_idx < self._send_idx:
                info = self._task_info[self._rcvd_idx]
                worker_id = info[0]
                if len(info) == 2 or self._workers_status[worker_id]:
                    break
                del self._task_info[self._rcvd_idx]
                self._rcvd_idx += 1
            else:
                if not self._persistent_workers:
                    self._shutdown_workers()
                raise StopIteration

            if len(self._task_info[self._rcvd_idx]) == 2:  # arrived earlier
                data = self._task_info.pop(self._rcvd_idx)[1]
                return self._process_data(data)

            assert not self._shutdown and self._tasks_outstanding > 0
            idx, data = self._get_data()
            self._tasks_outstanding -= 1
            if self._dataset_kind == _DatasetKind.Iterable and \
                    isinstance(data, _utils.worker._IterableDatasetStopIteration):
                if self._persistent_workers:
                    self._workers_status[data.worker_id] = False
                else:
                    self._mark_worker_as_unavailable(data.worker_id)
                self._try_put_index()
                continue

            if idx != self._rcvd_idx:
                self._task_info[idx] += (data,)  # early: keep it for its turn
            else:
                del self._task_info[idx]
                return self._process_data(data)

    def _try_put_index(self):
        assert self._tasks_outstanding < self._prefetch_factor * self._num_workers
        try:
            index = self._next_index()
        except StopIteration:
            return
        for _ in range(self._num_workers):  # the next active worker, if any
            worker_queue_idx = next(self._worker_queue_idx_cycle)
            if self._workers_status[worker_queue_idx]:
                break
        else:
            return
        self._index_queues[worker_queue_idx].put((self._send_idx, index))
        self._task_info[self._send_idx] = (worker_queue_idx,)
        self._tasks_outstanding += 1
        self._send_idx += 1

    def _process_data(self, data):
        self._rcvd_idx += 1
        self._try_put_index()
        if isinstance(data, ExceptionWrapper):
            data.reraise()
        return data

    def _mark_worker_as_unavailable(self, worker_id, shutdown=False):
        """Sends worker `worker_id` its None (it ends its loop) and gives it no more tasks."""
        assert self._workers_status[worker_id] or (self._persistent_workers and shutdown)
        self._index_queues[worker_id].put(None)
        self._workers_status[worker_id] = False
        assert self._workers_done_event.is_set() == shutdown

    def _shutdown_workers(self):
        """Ends the workers: done event, None to each, join (MP_STATUS_CHECK_INTERVAL seconds
        each at most), then terminate any still alive. Idempotent; skipped while the
        interpreter exits, when multiprocessing ends the daemonic workers itself."""
        if _utils is None or _utils.python_exit_status is True or _utils.python_exit_status is None:
            return
        if self._shutdown:
            return
        self._shutdown = True
        try:
            self._workers_done_event.set()
            for worker_id in range(len(self._workers)):
                if self._persistent_workers or self._workers_status[worker_id]:
                    self._mark_worker_as_unavailable(worker_id, shutdown=True)
            for w in self._workers:
                w.join(timeout=MP_STATUS_CHECK_INTERVAL)
            for q in self._index_queues:
                q.cancel_join_thread()
                q.close()
            self._worker_result_queue.cancel_join_thread()
            self._worker_result_queue.close()
        finally:
            if self._worker_pids_set:
                _index_queues_of.pop(id(self), None)
                self._worker_pids_set = False
            for w in self._workers:
                if w.is_alive():
                    w.terminate()
                    w.join()

    def __del__(self):
        if getattr(self, "_workers", None) is not None:
            self._shutdown_workers()
