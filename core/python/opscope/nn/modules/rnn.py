"""Recurrent layers — ``RNN`` (tanh / relu), ``LSTM`` (optionally projected), ``GRU`` — and their
one-step cells, with torch.nn's interfaces: arguments, parameter names (``weight_ih_l0``,
``bias_hh_l1_reverse``, ...), initialisation U(-1/sqrt(hidden_size), 1/sqrt(hidden_size)),
input checks and messages, and printing.

A layer's forward calls the aten op torch calls (``lstm``, ``gru``, ``rnn_tanh``, ``rnn_relu``;
the cells ``lstm_cell``, ...), whose composite kernel (core/ops/composite/rnn.cpp) runs each time
step as linear / sigmoid_ / tanh_ / mul ops, so a trace shows the recurrence and autograd
differentiates it.

>>> import opscope
>>> from opscope import nn
>>> lstm = nn.LSTM(10, 20, num_layers=2, batch_first=True)
>>> lstm
LSTM(10, 20, num_layers=2, batch_first=True)
>>> out, (h, c) = lstm(opscope.randn(3, 5, 10))
>>> tuple(out.shape), tuple(h.shape), tuple(c.shape)
((3, 5, 20), (2, 3, 20), (2, 3, 20))
"""

import math
import numbers
import warnings

import opscope
from opscope.nn import functional as F
from opscope.nn.modules import Module, Parameter
from opscope.nn.utils.rnn import PackedSequence

__all__ = ["RNNBase", "RNN", "LSTM", "GRU", "RNNCellBase", "RNNCell", "LSTMCell", "GRUCell"]

_GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}


def _init_uniform(module, hidden_size):
    """Every parameter from U(-1/sqrt(hidden_size), 1/sqrt(hidden_size)), in registration order
    (so a seeded module draws what torch's draws)."""
    stdv = 1.0 / math.sqrt(hidden_size) if hidden_size > 0 else 0
    with opscope.no_grad():
        for weight in module.parameters():
            weight.uniform_(-stdv, stdv)


class RNNBase(Module):
    """What RNN, LSTM and GRU share: the per-layer, per-direction parameters
    (w_ih (G, I_l), w_hh (G, H'), b_ih, b_hh (G), w_hr (P, H)), G = gates * hidden_size, the
    checks of the input and hidden shapes, and printing."""

    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True, batch_first=False,
                 dropout=0., bidirectional=False, proj_size=0, device=None, dtype=None):
        super().__init__()
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        num_directions = 2 if bidirectional else 1

        if (not isinstance(dropout, numbers.Number) or isinstance(dropout, bool)
                or not 0 <= dropout <= 1):
            raise ValueError("dropout should be a number in range [0, 1] representing the "
                             "probability of an element being zeroed")
        if dropout > 0 and num_layers == 1:
            warnings.warn("dropout option adds dropout after all but last recurrent layer, so "
                          "non-zero dropout expects num_layers greater than 1, but got "
                          "dropout={} and num_layers={}".format(dropout, num_layers))
        if proj_size < 0:
            raise ValueError("proj_size should be a positive integer or zero to disable projections")
        if proj_size >= hidden_size:
            raise ValueError("proj_size has to be smaller than hidden_size")
        if mode not in _GATES:
            raise ValueError("Unrecognized RNN mode: " + mode)
        gate_size = _GATES[mode] * hidden_size

        self._flat_weights_names = []
        self._all_weights = []
        real_hidden_size = proj_size if proj_size > 0 else hidden_size
        for layer in range(num_layers):
            for direction in range(num_directions):
                layer_input_size = input_size if layer == 0 else real_hidden_size * num_directions
                suffix = "_reverse" if direction == 1 else ""
                shapes = [("weight_ih_l{}{}", (gate_size, layer_input_size)),
                          ("weight_hh_l{}{}", (gate_size, real_hidden_size))]
                if bias:
                    shapes += [("bias_ih_l{}{}", (gate_size,)), ("bias_hh_l{}{}", (gate_size,))]
                if proj_size > 0:
                    shapes += [("weight_hr_l{}{}", (proj_size, hidden_size))]
                names = []
                for pattern, shape in shapes:
                    name = pattern.format(layer, suffix)
                    setattr(self, name, Parameter(opscope.empty(*shape, dtype=dtype)))
                    names.append(name)
                self._flat_weights_names.extend(names)
                self._all_weights.append(names)
        self._flat_weights = [getattr(self, n) for n in self._flat_weights_names]
        self.reset_parameters()

    def __setattr__(self, attr, value):
        names = self.__dict__.get("_flat_weights_names")
        if names is not None and attr in names:
            self._flat_weights[names.index(attr)] = value
        super().__setattr__(attr, value)

    def _apply(self, fn):
        ret = super()._apply(fn)
        self._flat_weights = [getattr(self, n, None) for n in self._flat_weights_names]
        return ret

    def flatten_parameters(self):
        """Accepted for torch compatibility: the weights are always used in place (torch only
        repacks them for cuDNN)."""

    def reset_parameters(self):
        _init_uniform(self, self.hidden_size)

    @property
    def all_weights(self):
        return [[getattr(self, name) for name in names] for names in self._all_weights]

    # --- checks, as torch's -----------------------------------------------------------------
    def check_input(self, input, batch_sizes):
        expected_input_dim = 2 if batch_sizes is not None else 3
        if input.dim() != expected_input_dim:
            raise RuntimeError("input must have {} dimensions, got {}".format(expected_input_dim, input.dim()))
        if self.input_size != input.size(-1):
            raise RuntimeError("input.size(-1) must be equal to input_size. Expected {}, got {}".format(
                self.input_size, input.size(-1)))

    def get_expected_hidden_size(self, input, batch_sizes):
        if batch_sizes is not None:
            mini_batch = int(batch_sizes[0])
        else:
            mini_batch = input.size(0) if self.batch_first else input.size(1)
        num_directions = 2 if self.bidirectional else 1
        size = self.proj_size if self.proj_size > 0 else self.hidden_size
        return (self.num_layers * num_directions, mini_batch, size)

    def check_hidden_size(self, hx, expected_hidden_size, msg="Expected hidden size {}, got {}"):
        if tuple(hx.size()) != tuple(expected_hidden_size):
            raise RuntimeError(msg.format(expected_hidden_size, list(hx.size())))

    def check_forward_args(self, input, hidden, batch_sizes):
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden, self.get_expected_hidden_size(input, batch_sizes))

    def permute_hidden(self, hx, permutation):
        if permutation is None:
            return hx
        return hx.index_select(1, permutation)

    def _split_input(self, input):
        """A PackedSequence's parts, or a tensor input with an unbatched (T, I) one given its batch
        dimension: (input, batch_sizes, sorted_indices, unsorted_indices, max_batch_size,
        is_batched, batch_dim); the last two only mean something for a tensor input."""
        if isinstance(input, PackedSequence):
            input, batch_sizes, sorted_indices, unsorted_indices = input
            return input, batch_sizes, sorted_indices, unsorted_indices, int(batch_sizes[0]), True, None
        is_batched = input.dim() == 3
        batch_dim = 0 if self.batch_first else 1
        if not is_batched:
            input = input.unsqueeze(batch_dim)
        max_batch_size = input.size(0) if self.batch_first else input.size(1)
        return input, None, None, None, max_batch_size, is_batched, batch_dim

    # --- the shared forward of RNN and GRU ----------------------------------------------------
    def _forward_one_state(self, input, hx, op):
        """RNN and GRU: one hidden state (L*D, B, H); unbatched (T, I) input with (L*D, H) hx."""
        orig_input = input
        (input, batch_sizes, sorted_indices, unsorted_indices, max_batch_size, is_batched,
         batch_dim) = self._split_input(input)
        if batch_sizes is None and hx is not None:
            if not is_batched:
                if hx.dim() != 2:
                    raise RuntimeError(
                        f"For unbatched 2-D input, hx should also be 2-D but got {hx.dim()}-D tensor")
                hx = hx.unsqueeze(1)
            elif hx.dim() != 3:
                raise RuntimeError(
                    f"For batched 3-D input, hx should also be 3-D but got {hx.dim()}-D tensor")

        if hx is None:
            num_directions = 2 if self.bidirectional else 1
            hx = opscope.zeros(self.num_layers * num_directions, max_batch_size, self.hidden_size,
                               dtype=input.dtype, device=input.device)
        else:
            hx = self.permute_hidden(hx, sorted_indices)

        self.check_forward_args(input, hx, batch_sizes)
        if batch_sizes is None:
            output, hidden = op(input, hx, self._flat_weights, self.bias, self.num_layers,
                                self.dropout, self.training, self.bidirectional, self.batch_first)
        else:
            output, hidden = F._rnn_packed(self.mode, input, batch_sizes, hx, self._flat_weights,
                                           self.bias, self.num_layers, self.dropout, self.training,
                                           self.bidirectional)
        if isinstance(orig_input, PackedSequence):
            packed = PackedSequence(output, batch_sizes, sorted_indices, unsorted_indices)
            return packed, self.permute_hidden(hidden, unsorted_indices)
        if not is_batched:
            output = output.squeeze(batch_dim)
            hidden = hidden.squeeze(1)
        return output, self.permute_hidden(hidden, unsorted_indices)

    # --- printing -----------------------------------------------------------------------------
    def extra_repr(self):
        s = "{input_size}, {hidden_size}"
        if self.proj_size != 0:
            s += ", proj_size={proj_size}"
        if self.num_layers != 1:
            s += ", num_layers={num_layers}"
        if self.bias is not True:
            s += ", bias={bias}"
        if self.batch_first is not False:
            s += ", batch_first={batch_first}"
        if self.dropout != 0:
            s += ", dropout={dropout}"
        if self.bidirectional is not False:
            s += ", bidirectional={bidirectional}"
        return s.format(**self.__dict__)


class RNN(RNNBase):
    """Elman RNN: h_t = act(x_t W_ih^T + b_ih + h_{t-1} W_hh^T + b_hh), act = tanh or relu
    (``nonlinearity=``)."""

    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        nonlinearity = kwargs.pop("nonlinearity", "tanh")
        if nonlinearity == "tanh":
            mode = "RNN_TANH"
        elif nonlinearity == "relu":
            mode = "RNN_RELU"
        else:
            raise ValueError("Unknown nonlinearity '{}'".format(nonlinearity))
        object.__setattr__(self, "nonlinearity", nonlinearity)
        super().__init__(mode, *args, **kwargs)

    def forward(self, input, hx=None):
        op = F._rnn_tanh if self.mode == "RNN_TANH" else F._rnn_relu
        return self._forward_one_state(input, hx, op)


class GRU(RNNBase):
    """Gated recurrent unit: r, z = sigmoid(...), n = tanh(x W_in^T + b_in + r * (h W_hn^T +
    b_hn)), h' = (1 - z) * n + z * h."""

    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        super().__init__("GRU", *args, **kwargs)

    def forward(self, input, hx=None):
        return self._forward_one_state(input, hx, F._gru)


class LSTM(RNNBase):
    """Long short-term memory: gates i, f, g, o; c' = f * c + i * g, h' = o * tanh(c') (times
    W_hr^T when proj_size > 0). forward(input, (h0, c0)) -> output, (h_n, c_n)."""

    def __init__(self, *args, **kwargs):
        super().__init__("LSTM", *args, **kwargs)

    def get_expected_cell_size(self, input, batch_sizes):
        if batch_sizes is not None:
            mini_batch = int(batch_sizes[0])
        else:
            mini_batch = input.size(0) if self.batch_first else input.size(1)
        num_directions = 2 if self.bidirectional else 1
        return (self.num_layers * num_directions, mini_batch, self.hidden_size)

    def check_forward_args(self, input, hidden, batch_sizes):
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden[0], self.get_expected_hidden_size(input, batch_sizes),
                               "Expected hidden[0] size {}, got {}")
        self.check_hidden_size(hidden[1], self.get_expected_cell_size(input, batch_sizes),
                               "Expected hidden[1] size {}, got {}")

    def permute_hidden(self, hx, permutation):
        if permutation is None:
            return hx
        return hx[0].index_select(1, permutation), hx[1].index_select(1, permutation)

    def forward(self, input, hx=None):
        orig_input = input
        (input, batch_sizes, sorted_indices, unsorted_indices, max_batch_size, is_batched,
         batch_dim) = self._split_input(input)

        if hx is None:
            num_directions = 2 if self.bidirectional else 1
            real_hidden_size = self.proj_size if self.proj_size > 0 else self.hidden_size
            h_zeros = opscope.zeros(self.num_layers * num_directions, max_batch_size,
                                    real_hidden_size, dtype=input.dtype, device=input.device)
            c_zeros = opscope.zeros(self.num_layers * num_directions, max_batch_size,
                                    self.hidden_size, dtype=input.dtype, device=input.device)
            hx = (h_zeros, c_zeros)
        else:
            if batch_sizes is None:
                if is_batched:
                    if hx[0].dim() != 3 or hx[1].dim() != 3:
                        raise RuntimeError("For batched 3-D input, hx and cx should also be 3-D but got "
                                           f"({hx[0].dim()}-D, {hx[1].dim()}-D) tensors")
                else:
                    if hx[0].dim() != 2 or hx[1].dim() != 2:
                        raise RuntimeError("For unbatched 2-D input, hx and cx should also be 2-D but got "
                                           f"({hx[0].dim()}-D, {hx[1].dim()}-D) tensors")
                    hx = (hx[0].unsqueeze(1), hx[1].unsqueeze(1))
            hx = self.permute_hidden(hx, sorted_indices)

        self.check_forward_args(input, hx, batch_sizes)
        if batch_sizes is None:
            output, h_n, c_n = F._lstm(input, list(hx), self._flat_weights, self.bias,
                                       self.num_layers, self.dropout, self.training,
                                       self.bidirectional, self.batch_first)
        else:
            output, h_n, c_n = F._rnn_packed(self.mode, input, batch_sizes, list(hx),
                                             self._flat_weights, self.bias, self.num_layers,
                                             self.dropout, self.training, self.bidirectional)
        hidden = (h_n, c_n)
        if isinstance(orig_input, PackedSequence):
            packed = PackedSequence(output, batch_sizes, sorted_indices, unsorted_indices)
            return packed, self.permute_hidden(hidden, unsorted_indices)
        if not is_batched:
            output = output.squeeze(batch_dim)
            hidden = (hidden[0].squeeze(1), hidden[1].squeeze(1))
        return output, self.permute_hidden(hidden, unsorted_indices)


# --- cells ------------------------------------------------------------------------------------

class RNNCellBase(Module):
    """What the cells share: weight_ih (chunks*H, I), weight_hh (chunks*H, H), bias_ih,
    bias_hh (chunks*H) or None."""

    def __init__(self, input_size, hidden_size, bias, num_chunks, device=None, dtype=None):
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        self.weight_ih = Parameter(opscope.empty(num_chunks * hidden_size, input_size, dtype=dtype))
        self.weight_hh = Parameter(opscope.empty(num_chunks * hidden_size, hidden_size, dtype=dtype))
        if bias:
            self.bias_ih = Parameter(opscope.empty(num_chunks * hidden_size, dtype=dtype))
            self.bias_hh = Parameter(opscope.empty(num_chunks * hidden_size, dtype=dtype))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def reset_parameters(self):
        _init_uniform(self, self.hidden_size)

    def extra_repr(self):
        s = "{input_size}, {hidden_size}"
        if "bias" in self.__dict__ and self.bias is not True:
            s += ", bias={bias}"
        if "nonlinearity" in self.__dict__ and self.nonlinearity != "tanh":
            s += ", nonlinearity={nonlinearity}"
        return s.format(**self.__dict__)

    def _batched(self, input):
        assert input.dim() in (1, 2), \
            f"{type(self).__name__}: Expected input to be 1-D or 2-D but received {input.dim()}-D tensor"
        is_batched = input.dim() == 2
        return (input if is_batched else input.unsqueeze(0)), is_batched

    def _zeros(self, input):
        return opscope.zeros(input.size(0), self.hidden_size, dtype=input.dtype, device=input.device)


class RNNCell(RNNCellBase):
    """One Elman step: h' = act(x W_ih^T + b_ih + h W_hh^T + b_hh)."""

    def __init__(self, input_size, hidden_size, bias=True, nonlinearity="tanh", device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=1, dtype=dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input, hx=None):
        input, is_batched = self._batched(input)
        hx = self._zeros(input) if hx is None else (hx if is_batched else hx.unsqueeze(0))
        if self.nonlinearity == "tanh":
            ret = F._rnn_tanh_cell(input, hx, self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)
        elif self.nonlinearity == "relu":
            ret = F._rnn_relu_cell(input, hx, self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)
        else:
            raise RuntimeError("Unknown nonlinearity: {}".format(self.nonlinearity))
        return ret if is_batched else ret.squeeze(0)


class LSTMCell(RNNCellBase):
    """One LSTM step: (h, c) -> (h', c')."""

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=4, dtype=dtype)

    def forward(self, input, hx=None):
        input, is_batched = self._batched(input)
        if hx is None:
            zeros = self._zeros(input)
            hx = (zeros, zeros)
        elif not is_batched:
            hx = (hx[0].unsqueeze(0), hx[1].unsqueeze(0))
        ret = F._lstm_cell(input, list(hx), self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)
        return ret if is_batched else (ret[0].squeeze(0), ret[1].squeeze(0))


class GRUCell(RNNCellBase):
    """One GRU step: h -> h'."""

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=3, dtype=dtype)

    def forward(self, input, hx=None):
        input, is_batched = self._batched(input)
        hx = self._zeros(input) if hx is None else (hx if is_batched else hx.unsqueeze(0))
        ret = F._gru_cell(input, hx, self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)
        return ret if is_batched else ret.squeeze(0)
