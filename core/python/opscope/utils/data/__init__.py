"""``opscope.utils.data``: datasets, samplers and the DataLoader, as ``torch.utils.data``.

>>> import opscope
>>> from opscope.utils.data import DataLoader, TensorDataset
>>> ds = TensorDataset(opscope.arange(6.0).reshape(3, 2), opscope.tensor([0, 1, 0]))
>>> x, y = next(iter(DataLoader(ds, batch_size=2)))
>>> x.shape, y
(torch.Size([2, 2]), tensor([0, 1]))
"""
from opscope.utils.data.sampler import (
    BatchSampler,
    RandomSampler,
    Sampler,
    SequentialSampler,
    SubsetRandomSampler,
    WeightedRandomSampler,
)
from opscope.utils.data.dataset import (
    ChainDataset,
    ConcatDataset,
    Dataset,
    IterableDataset,
    Subset,
    TensorDataset,
    random_split,
)
from opscope.utils.data.dataloader import (
    DataLoader,
    _DatasetKind,
    default_collate,
    default_convert,
    get_worker_info,
)

__all__ = [
    "BatchSampler",
    "ChainDataset",
    "ConcatDataset",
    "DataLoader",
    "Dataset",
    "IterableDataset",
    "RandomSampler",
    "Sampler",
    "SequentialSampler",
    "Subset",
    "SubsetRandomSampler",
    "TensorDataset",
    "WeightedRandomSampler",
    "default_collate",
    "default_convert",
    "get_worker_info",
    "random_split",
]
