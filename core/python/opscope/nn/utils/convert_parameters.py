"""Parameters as one flat vector and back (for optimizers and analyses that want one vector).

>>> import opscope
>>> from opscope import nn
>>> net = nn.Linear(3, 2)
>>> vec = nn.utils.parameters_to_vector(net.parameters())
>>> vec.shape
torch.Size([8])
>>> nn.utils.vector_to_parameters(opscope.zeros(8), net.parameters())
>>> float(net.weight.abs().sum())
0.0
"""

import opscope

from opscope.nn.modules.module import _typename

__all__ = ["parameters_to_vector", "vector_to_parameters"]


def _check_param_device(param, old_param_device):
    """-1 for the CPU, the GPU index otherwise; TypeError when parameters are on different
    devices."""
    device = param.get_device() if param.is_cuda else -1
    if old_param_device is not None and device != old_param_device:
        raise TypeError("Found two parameters on different devices, this is currently not supported.")
    return device


def parameters_to_vector(parameters):
    """All parameters flattened and concatenated in order: one 1-D tensor (a copy)."""
    param_device = None
    vec = []
    for param in parameters:
        param_device = _check_param_device(param, param_device)
        vec.append(param.view(-1))
    return opscope.cat(vec)


def vector_to_parameters(vec, parameters):
    """Sets each parameter's data to its consecutive slice of vec (reshaped): the parameters then
    share vec's memory."""
    if not isinstance(vec, opscope.Tensor):
        raise TypeError("expected torch.Tensor, but got: {}".format(_typename(vec)))
    param_device = None
    pointer = 0
    for param in parameters:
        param_device = _check_param_device(param, param_device)
        num_param = param.numel()
        param.data = vec[pointer:pointer + num_param].view_as(param).data
        pointer += num_param
