"""Fetchers: turn one index (or one list of indices) from the sampler into one collated batch.
The same code runs in the main process and in each worker.

Note [A user's __getitem__ is called once per index]
A map-style dataset is read one ``dataset[i]`` at a time and the samples collated, as PyTorch
does, even for a TensorDataset whose rows could be sliced in one go: a user's ``__getitem__``
(logging, augmentation, caching) must see every index. A dataset that wants whole batches
defines ``__getitems__(indices)``, which is called instead.
"""


class _BaseDatasetFetcher:
    def __init__(self, dataset, auto_collation, collate_fn, drop_last):
        self.dataset = dataset
        self.auto_collation = auto_collation
        self.collate_fn = collate_fn
        self.drop_last = drop_last

    def fetch(self, possibly_batched_index):
        raise NotImplementedError()


class _IterableDatasetFetcher(_BaseDatasetFetcher):
    """Reads the dataset's iterator: ``len(index)`` samples a batch (the index itself is only a
    count); StopIteration once the iterator is spent, or on a short last batch with drop_last."""

    def __init__(self, dataset, auto_collation, collate_fn, drop_last):
        super().__init__(dataset, auto_collation, collate_fn, drop_last)
        self.dataset_iter = iter(dataset)
        self.ended = False

    def fetch(self, possibly_batched_index):
        if self.ended:
            raise StopIteration
        if self.auto_collation:
            data = []
            for _ in possibly_batched_index:
                try:
                    data.append(next(self.dataset_iter))
                except StopIteration:
                    self.ended = True
                    break
            if not data or (self.drop_last and len(data) < len(possibly_batched_index)):
                raise StopIteration
        else:
            data = next(self.dataset_iter)
        return self.collate_fn(data)


class _MapDatasetFetcher(_BaseDatasetFetcher):
    """``dataset[i]`` for each index of the batch, then collate_fn over the list.
    See Note [A user's __getitem__ is called once per index]."""

    def __init__(self, dataset, auto_collation, collate_fn, drop_last):
        super().__init__(dataset, auto_collation, collate_fn, drop_last)
        getitems = getattr(dataset, "__getitems__", None)
        self._getitems = getitems if getitems else None
        # Bound once: the per-index loop below is the DataLoader's hottest Python line.
        self._getitem = getattr(dataset, "__getitem__", None)

    def fetch(self, possibly_batched_index):
        if self.auto_collation:
            if self._getitems is not None:
                data = self._getitems(possibly_batched_index)
            else:
                getitem = self._getitem
                data = [getitem(idx) for idx in possibly_batched_index]
        else:
            data = self.dataset[possibly_batched_index]
        return self.collate_fn(data)
