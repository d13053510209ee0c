"""The torch functions written in Python over aten ops (torch/functional.py's counterparts, and
the keyword torch's C++ binding handles by hand): ``opscope.unique``, ``opscope.unique_consecutive``,
``opscope.norm``, ``opscope.nonzero(as_tuple=True)``, ``opscope.as_tensor``, ``opscope.einsum``,
``opscope.tensordot``, ``opscope.meshgrid``, ``opscope.cartesian_prod`` and ``opscope.block_diag``.

Each calls the aten op torch 1.13 calls, so a trace reads the same: ``unique`` runs
``aten::_unique2`` (``aten::unique_dim`` with ``dim=``), ``norm`` runs ``aten::frobenius_norm`` for
the default ``p='fro'`` and ``aten::norm`` for a numeric ``p``.

>>> import opscope
>>> opscope.unique(opscope.tensor([3, 1, 3, 2]), return_counts=True)
(tensor([1, 2, 3]), tensor([1, 1, 2]))
>>> opscope.norm(opscope.tensor([[3., 4.]]), dim=1)
tensor([5.])
>>> opscope.einsum("ij,j->i", opscope.ones(2, 3), opscope.arange(3.))
tensor([3., 3.])
>>> opscope.tensordot(opscope.ones(2, 3), opscope.ones(3, 4), dims=1).shape
opscope.Size([2, 4])
"""

import warnings

import opscope
from opscope import _C

__all__ = ["unique", "unique_consecutive", "norm", "nonzero", "as_tensor", "einsum", "tensordot",
           "meshgrid", "cartesian_prod", "block_diag", "cdist"]

_nonzero = _C._VariableFunctions.nonzero  # the schema-derived function (aten::nonzero, .out)
_einsum = _C._VariableFunctions.einsum
_tensordot = _C._VariableFunctions.tensordot


def _selected(output, inverse, counts, return_inverse, return_counts):
    """torch returns the output alone, or a tuple with the parts that were asked for."""
    if not return_inverse and not return_counts:
        return output
    return (output,) + ((inverse,) if return_inverse else ()) + ((counts,) if return_counts else ())


def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """The unique elements of input (of its slices along dim, if given), with optionally the
    index of each element's unique value and the count of each unique value."""
    if dim is not None:
        parts = _C._op_overload("aten::unique_dim")(input, dim, sorted=sorted, return_inverse=return_inverse,
                                                      return_counts=return_counts)
    else:
        parts = _C._op_overload("aten::_unique2")(input, sorted=sorted, return_inverse=return_inverse,
                                                    return_counts=return_counts)
    return _selected(*parts, return_inverse, return_counts)


def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    """Keeps the first element of every run of equal consecutive elements (slices along dim)."""
    parts = _C._op_overload("aten::unique_consecutive")(input, return_inverse=return_inverse,
                                                         return_counts=return_counts, dim=dim)
    return _selected(*parts, return_inverse, return_counts)


def norm(input, p="fro", dim=None, keepdim=False, out=None, dtype=None):
    """torch.norm (deprecated in torch in favour of torch.linalg): the Frobenius norm by default,
    the vector p-norm over dim (all dims when None) for a numeric p."""
    out_kw = {} if out is None else {"out": out}
    if dim is None and out is None and dtype is None and p is not None:
        if p == "fro":
            return _C._op_overload("aten::frobenius_norm.dim")(input, (), keepdim=keepdim)
        if not isinstance(p, str):
            return _C._op_overload("aten::norm.ScalarOpt_dim")(input, p, list(range(input.dim())), keepdim=keepdim)
    dims = [dim] if isinstance(dim, int) else (list(dim) if dim is not None else None)
    if isinstance(p, str):
        if p == "fro":
            if dtype is not None:
                raise ValueError("dtype argument is not supported in frobenius norm")
            dims = list(range(input.dim())) if dims is None else dims
            if out is None:
                return _C._op_overload("aten::frobenius_norm.dim")(input, dims, keepdim=keepdim)
            return opscope.ops.aten.frobenius_norm.out(input, dims, keepdim=keepdim, out=out)
        if p == "nuc":
            if dtype is not None:
                raise ValueError("dtype argument is not supported in nuclear norm")
            if dims is None:
                return _C._VariableFunctions.nuclear_norm(input, keepdim=keepdim, **out_kw)
            return _C._VariableFunctions.nuclear_norm(input, dims, keepdim=keepdim, **out_kw)
        raise RuntimeError(f"only valid string values are 'fro' and 'nuc', found {p}")
    dims = list(range(input.dim())) if dims is None else dims
    if dtype is None:
        return opscope.ops.aten.norm(input, p, dims, keepdim=keepdim, **out_kw)
    return opscope.ops.aten.norm(input, p, dims, keepdim, dtype=dtype, **out_kw)


def nonzero(input, *, out=None, as_tuple=False):
    """The indices of the non-zero elements: an (n, ndim) tensor, or with as_tuple=True one
    1-D tensor per dim (aten::nonzero_numpy), as NumPy's nonzero."""
    if as_tuple:
        return _C._op_overload("aten::nonzero_numpy")(input)
    return _nonzero(input) if out is None else _nonzero(input, out=out)


def _subscript(n):
    """A subscript of einsum's sublist form as its letter: 0-25 are A-Z, 26-51 a-z."""
    if n is Ellipsis:
        return "..."
    if isinstance(n, int) and 0 <= n < 26:
        return chr(ord("A") + n)
    if isinstance(n, int) and 26 <= n < 52:
        return chr(ord("a") + n - 26)
    raise ValueError("einsum(): subscript in subscript list is not within the valid range [0, 52)")


def einsum(*args):
    """einsum(equation, *operands): sums the product of the operands' elements over the
    subscripts the output leaves out (see Note [How einsum decomposes] in
    core/ops/composite/linear.cpp). Also einsum(equation, [operands]) and the sublist form
    einsum(op1, [0, 1], op2, [1, 2], [0, 2])."""
    if len(args) < 2:
        raise ValueError("einsum(): must specify the equation string and at least one operand, "
                         "or at least one operand and its subscripts list")
    if isinstance(args[0], opscope.Tensor):
        equation = ",".join("".join(_subscript(s) for s in sub) for sub in args[1::2])
        if len(args) % 2 == 1:
            equation += "->" + "".join(_subscript(s) for s in args[-1])
            operands = args[:-1:2]
        else:
            operands = args[::2]
    else:
        equation, operands = args[0], args[1:]
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        return einsum(equation, *operands[0])  # the old form: the operands as one list
    if _C._has_torch_function(operands):
        from opscope.overrides import handle_torch_function
        return handle_torch_function(einsum, operands, equation, *operands)
    return _einsum(equation, operands)


def tensordot(a, b, dims=2, out=None):
    """The sum of products of a's and b's elements over the dims given: ``dims=n`` contracts
    a's last n dims with b's first n, ``dims=([1, 0], [0, 1])`` the listed pairs."""
    if _C._has_torch_function_variadic(a, b):
        from opscope.overrides import handle_torch_function
        return handle_torch_function(tensordot, (a, b), a, b, dims=dims, out=out)
    if not isinstance(dims, (tuple, list, opscope.Tensor, int)):
        raise RuntimeError("tensordot expects dims to be int or Tuple[List[int], List[int]] or "
                           f"List[List[int]] containing two lists, but got dims={dims}")
    if isinstance(dims, opscope.Tensor):
        if dims.numel() > 1:
            assert dims.size()[0] == 2
            dims_a, dims_b = dims[0].tolist(), dims[1].tolist()
        else:
            dims = int(dims.item())
    if isinstance(dims, int):
        if dims < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        dims_a, dims_b = list(range(-dims, 0)), list(range(dims))
    elif isinstance(dims, (tuple, list)):
        dims_a, dims_b = dims
    if out is None:
        return _tensordot(a, b, dims_a, dims_b)
    return _tensordot(a, b, dims_a, dims_b, out=out)


_meshgrid_warned = False


def meshgrid(*tensors, indexing=None):
    """Grids from 0-d / 1-D tensors: with n_i elements in tensor i, every result has shape
    (n_0, n_1, ...) (indexing="ij", matrix indexing) or (n_1, n_0, ...) (indexing="xy",
    Cartesian), tensor i's values along its dim (aten::meshgrid: a view + expand of each)."""
    global _meshgrid_warned
    if _C._has_torch_function(tensors):
        from opscope.overrides import handle_torch_function
        return handle_torch_function(meshgrid, tensors, *tensors, indexing=indexing)
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tensors[0]
    if indexing is None:
        if not _meshgrid_warned:  # torch's TORCH_WARN_ONCE
            _meshgrid_warned = True
            warnings.warn("torch.meshgrid: in an upcoming release, it will be required to pass "
                          "the indexing argument.", UserWarning, stacklevel=2)
        return _C._op_overload("aten::meshgrid")(tensors)
    return _C._op_overload("aten::meshgrid.indexing")(tensors, indexing=indexing)


def cartesian_prod(*tensors):
    """Every combination of the elements of 1-D tensors, one per row (itertools.product's
    order); one tensor is returned as it is."""
    if _C._has_torch_function(tensors):
        from opscope.overrides import handle_torch_function
        return handle_torch_function(cartesian_prod, tensors, *tensors)
    return _C._op_overload("aten::cartesian_prod")(tensors)


def block_diag(*tensors):
    """The tensors (0-d, 1-D as one row, or 2-D) as the diagonal blocks of one matrix, zeros
    elsewhere (aten::block_diag)."""
    if _C._has_torch_function(tensors):
        from opscope.overrides import handle_torch_function
        return handle_torch_function(block_diag, tensors, *tensors)
    return _C._op_overload("aten::block_diag")(tensors)


_COMPUTE_MODES = {"use_mm_for_euclid_dist_if_necessary": None, "use_mm_for_euclid_dist": 1,
                  "donot_use_mm_for_euclid_dist": 2}


def cdist(x1, x2, p=2., compute_mode="use_mm_for_euclid_dist_if_necessary"):
    """The p-norm distance between each row of x1 (*, r1, m) and each row of x2 (*, r2, m):
    aten::cdist, whose compute_mode torch's Python takes as a name."""
    if compute_mode not in _COMPUTE_MODES:
        raise ValueError(f"{compute_mode} is not a valid value for compute_mode")
    return _C._VariableFunctions.cdist(x1, x2, p, _COMPUTE_MODES[compute_mode])


def as_tensor(data, dtype=None, device=None):
    """data as a tensor, sharing its memory where it can: a tensor of the asked dtype is returned
    as is (another dtype: converted, keeping its autograd history); a NumPy array of the asked
    dtype shares its memory (as from_numpy); anything else is copied, as opscope.tensor does.
    On another `device` (cuda: initialised as torch does, or its error) the result is a copy
    there."""
    if device is not None:
        device = opscope.device("cuda", device) if isinstance(device, int) else \
            opscope.device(device)
        if device.type == "cuda":
            opscope.cuda._lazy_init()  # without a GPU or the backend: torch's error
        elif device.type != "cpu":
            raise RuntimeError(f"opscope has no {device.type} backend in this build: "
                               "tensors live on the cpu")
    if isinstance(data, opscope.Tensor):
        return data.to(device=device, dtype=dtype)  # data itself when nothing changes
    if type(data).__module__ == "numpy" and type(data).__name__ == "ndarray":
        return opscope.from_numpy(data).to(device=device, dtype=dtype)
    return opscope.tensor(data, dtype=dtype, device=device)


# Every public function here honours __torch_function__ as the C++ ops do (as_tensor takes no
# tensor-like argument: torch leaves it out too). See opscope/overrides.py.
for _name in ("unique", "unique_consecutive", "norm", "nonzero"):
    globals()[_name] = _C._torch_function_wrapper(globals()[_name])
del _name


def _install():
    """opscope.unique ... and the Tensor methods that torch also writes in Python."""
    for name in __all__:
        setattr(opscope, name, globals()[name])

    def tensor_norm(self, p="fro", dim=None, keepdim=False, dtype=None):
        return norm(self, p, dim, keepdim, dtype=dtype)

    def tensor_unique(self, sorted=True, return_inverse=False, return_counts=False, dim=None):
        return unique(self, sorted=sorted, return_inverse=return_inverse, return_counts=return_counts, dim=dim)

    def tensor_unique_consecutive(self, return_inverse=False, return_counts=False, dim=None):
        return unique_consecutive(self, return_inverse=return_inverse, return_counts=return_counts, dim=dim)

    def tensor_nonzero(self, *, as_tuple=False):
        return nonzero(self, as_tuple=as_tuple)

    for name, method in [("norm", tensor_norm), ("unique", tensor_unique), ("nonzero", tensor_nonzero),
                         ("unique_consecutive", tensor_unique_consecutive)]:
        method.__name__ = name
        method.__qualname__ = "Tensor." + name
        method.__module__ = "opscope._tensor"
        method.__doc__ = f"See opscope.{name}."
        setattr(opscope.Tensor, name, _C._torch_function_wrapper(method))
