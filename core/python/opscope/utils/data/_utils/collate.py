"""Collation: how the samples a DataLoader fetched become one batch (``default_collate``), and
how one sample is converted when batching is off (``default_convert``).

``default_collate`` follows the type of the batch's first element:

    opscope.Tensor             -> stacked along a new dim 0
    NumPy array                -> as tensors, then stacked (arrays of str / object: TypeError)
    NumPy scalar               -> one tensor of the scalars' dtype
    float / int (and bool)     -> float64 / int64 (bool) tensor
    str / bytes                -> the list, unchanged
    Mapping                    -> the same mapping type, each key collated
    namedtuple                 -> the same namedtuple, each field collated
    other Sequence             -> transposed, each position collated: a list for tuples (as
                                  PyTorch does, for backward compatibility), else the same type

``collate_fn_map`` lets a user add a type: an exact type match wins, then the first key the
element is an instance of, in insertion order.
"""
import collections.abc
import re

import numpy as np

import opscope

# NumPy dtype strings of str (S, a, U) and object (O) arrays: these are not numbers.
np_str_obj_array_pattern = re.compile(r"[SaUO]")

string_classes = (str, bytes)

default_collate_err_msg_format = (
    "default_collate: batch must contain tensors, numpy arrays, numbers, "
    "dicts or lists; found {}")


def _as_tensor(data):
    """``torch.as_tensor`` for what collation meets: a tensor as is, a NumPy array sharing its
    memory where from_numpy can, else copied; NumPy scalars (or a list of them) keep their dtype."""
    if isinstance(data, opscope.Tensor):
        return data
    if isinstance(data, np.ndarray):
        try:
            return opscope.from_numpy(data)
        except (TypeError, ValueError, RuntimeError):  # e.g. negative strides, byte-swapped
            return opscope.from_numpy(np.ascontiguousarray(data, dtype=data.dtype.newbyteorder("=")))
    return opscope.from_numpy(np.array(data))


def default_convert(data):
    """Converts each NumPy array (and NumPy scalar) in ``data`` into a tensor, going into
    mappings, namedtuples and sequences; everything else is returned unchanged. The DataLoader's
    ``collate_fn`` when batching is off (``batch_size=None``).

    >>> default_convert([np.array([0, 1]), 2])
    [tensor([0, 1]), 2]
    """
    elem_type = type(data)
    if isinstance(data, opscope.Tensor):
        return data
    if elem_type.__module__ == "numpy" and elem_type.__name__ not in ("str_", "string_", "bytes_"):
        if elem_type.__name__ == "ndarray" and np_str_obj_array_pattern.search(data.dtype.str):
            return data
        return _as_tensor(data)
    if isinstance(data, collections.abc.Mapping):
        try:
            return elem_type({key: default_convert(data[key]) for key in data})
        except TypeError:  # a mapping type that cannot be built from a dict
            return {key: default_convert(data[key]) for key in data}
    if isinstance(data, tuple) and hasattr(data, "_fields"):  # namedtuple
        return elem_type(*(default_convert(d) for d in data))
    if isinstance(data, tuple):
        return [default_convert(d) for d in data]  # a list, as PyTorch returns
    if isinstance(data, collections.abc.Sequence) and not isinstance(data, string_classes):
        try:
            return elem_type([default_convert(d) for d in data])
        except TypeError:  # e.g. range cannot be built from a list
            return [default_convert(d) for d in data]
    return data


def collate(batch, *, collate_fn_map=None):
    """Collates ``batch`` (a list of samples) by the type of its first element, with the
    per-type functions of ``collate_fn_map``; see the table at the top of this module."""
    elem = batch[0]
    elem_type = type(elem)

    if collate_fn_map is not None:
        fn = collate_fn_map.get(elem_type)
        if fn is not None:
            return fn(batch, collate_fn_map=collate_fn_map)
        for collate_type in collate_fn_map:
            if isinstance(elem, collate_type):
                return collate_fn_map[collate_type](batch, collate_fn_map=collate_fn_map)

    if isinstance(elem, collections.abc.Mapping):
        try:
            return elem_type({key: collate([d[key] for d in batch], collate_fn_map=collate_fn_map)
                              for key in elem})
        except TypeError:  # a mapping type that cannot be built from a dict
            return {key: collate([d[key] for d in batch], collate_fn_map=collate_fn_map)
                    for key in elem}
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):  # namedtuple
        return elem_type(*(collate(samples, collate_fn_map=collate_fn_map)
                           for samples in zip(*batch)))
    if isinstance(elem, collections.abc.Sequence):
        if len(set(map(len, batch))) != 1:  # one pass at C speed; runs once per batch
            raise RuntimeError("each element in list of batch should be of equal size")
        transposed = list(zip(*batch))
        if isinstance(elem, tuple):
            return [collate(samples, collate_fn_map=collate_fn_map) for samples in transposed]
        try:
            return elem_type([collate(samples, collate_fn_map=collate_fn_map)
                              for samples in transposed])
        except TypeError:  # e.g. range cannot be built from a list
            return [collate(samples, collate_fn_map=collate_fn_map) for samples in transposed]

    raise TypeError(default_collate_err_msg_format.format(elem_type))


def collate_tensor_fn(batch, *, collate_fn_map=None):
    """Tensors of one shape -> one tensor with the batch as its new dim 0."""
    return opscope.stack(batch, 0)


def collate_numpy_array_fn(batch, *, collate_fn_map=None):
    """NumPy arrays -> tensors (sharing memory), then collated as tensors."""
    elem = batch[0]
    if np_str_obj_array_pattern.search(elem.dtype.str) is not None:
        raise TypeError(default_collate_err_msg_format.format(elem.dtype))
    return collate([_as_tensor(b) for b in batch], collate_fn_map=collate_fn_map)


def collate_numpy_scalar_fn(batch, *, collate_fn_map=None):
    """NumPy scalars -> one 1-d tensor of their dtype."""
    return _as_tensor(batch)


def collate_float_fn(batch, *, collate_fn_map=None):
    """Python floats -> float64, whatever the default dtype (as PyTorch does)."""
    return opscope.tensor(batch, dtype=opscope.float64)


def collate_int_fn(batch, *, collate_fn_map=None):
    """Python ints -> int64 (bools -> bool, since bool is an int)."""
    return opscope.tensor(batch)


def collate_str_fn(batch, *, collate_fn_map=None):
    """Strings and bytes stay a list."""
    return batch


default_collate_fn_map = {
    opscope.Tensor: collate_tensor_fn,
    np.ndarray: collate_numpy_array_fn,  # and np.memmap, a subclass
    (np.bool_, np.number, np.object_): collate_numpy_scalar_fn,  # not NumPy's string scalars
    float: collate_float_fn,
    int: collate_int_fn,
    string_classes: collate_str_fn,
}


def default_collate(batch):
    """Puts a list of samples into one batch: tensors gain an outer batch dim, numbers become
    tensors, containers are collated position by position (table at the top of this module).
    The DataLoader's ``collate_fn`` when batching is on.

    >>> default_collate([0, 1, 2, 3])
    tensor([0, 1, 2, 3])
    >>> default_collate([{'A': 0, 'B': 1}, {'A': 100, 'B': 100}])
    {'A': tensor([  0, 100]), 'B': tensor([  1, 100])}
    >>> default_collate([(0, 1), (2, 3)])
    [tensor([0, 2]), tensor([1, 3])]
    """
    return collate(batch, collate_fn_map=default_collate_fn_map)
