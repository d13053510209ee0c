"""ShapeProp: run a GraphModule on example inputs and keep, on every node, what its value was.

After ``ShapeProp(gm).propagate(*inputs)`` each node that produced a tensor (or a structure of
tensors) has ``node.meta['tensor_meta']``: a TensorMetadata (shape, dtype, requires_grad,
stride, memory_format, is_quantized, qparams), in the same structure; every node has
``node.meta['type']``, the type of its value. As torch.fx.passes.shape_prop (PyTorch 1.13).
"""
import traceback
from typing import Any, Dict, NamedTuple, Optional, Tuple

import opscope
from opscope.fx.interpreter import Interpreter
from opscope.fx.node import map_aggregate

__all__ = ["TensorMetadata", "ShapeProp"]


class TensorMetadata(NamedTuple):
    shape: Any                  # opscope.Size
    dtype: Any                  # opscope.dtype
    requires_grad: bool
    stride: Tuple[int, ...]
    memory_format: Optional[Any]
    is_quantized: bool
    qparams: Dict[str, Any]


def _extract_tensor_metadata(t):
    memory_format = None
    for query in (opscope.contiguous_format, opscope.channels_last):
        # channels_last is a 4-d layout: torch answers False for other ranks without looking.
        if query is opscope.channels_last and t.dim() != 4:
            continue
        if t.is_contiguous(memory_format=query):
            memory_format = query
            break
    # opscope has no quantized tensors: is_quantized is always False, qparams empty.
    return TensorMetadata(t.shape, t.dtype, t.requires_grad, t.stride(), memory_format,
                          False, {})


class ShapeProp(Interpreter):
    """An Interpreter that records each node's value metadata (see the module docstring)."""

    def run_node(self, n):
        try:
            result = super().run_node(n)
        except Exception:
            traceback.print_exc()
            raise RuntimeError(f"ShapeProp error for: node={n.format_node()} with meta={n.meta}")
        found_tensor = False

        def extract(obj):
            nonlocal found_tensor
            if isinstance(obj, opscope.Tensor):
                found_tensor = True
                return _extract_tensor_metadata(obj)
            return obj

        meta = map_aggregate(result, extract)
        if found_tensor:
            n.meta["tensor_meta"] = meta
        n.meta["type"] = type(result)
        return result

    def propagate(self, *args):
        """Run the graph on args (recording metadata); returns the graph's result."""
        return super().run(*args)
