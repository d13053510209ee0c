"""nn.RNN / LSTM / GRU and their cells: outputs against NumPy float64 recurrences with the same
weights (random sizes, batch_first, bidirectional, two layers, projections, unbatched input),
gradients by finite differences, torch 1.13's messages, reprs, parameter names, autograd node
names and the ops each step runs (recorded by make_torch_reference_rnn.py), and a small
character-level language model whose Adam loss curve follows torch's."""
import json
import os

import numpy as np
import pytest

import opscope
import opscope.nn.functional as F
from opscope import nn
from opscope.nn.utils.rnn import (pack_padded_sequence, pack_sequence, pad_packed_sequence,
                                  pad_sequence, unpack_sequence, unpad_sequence)

import rnn_cases
from conftest import record_dispatch

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "data", "rnn_torch.json")) as _f:
    TORCH = json.load(_f)


# --- NumPy references ---------------------------------------------------------------------------

def sigmoid(x):
    return 1 / (1 + np.exp(-x))


def np_cell(mode, x, h, c, w):
    """One step of `mode` in float64; w = (w_ih, w_hh, b_ih, b_hh, w_hr) (None when absent)."""
    w_ih, w_hh, b_ih, b_hh, w_hr = w
    gi = x @ w_ih.T + (0 if b_ih is None else b_ih)
    gh = h @ w_hh.T + (0 if b_hh is None else b_hh)
    if mode == "RNN_TANH":
        return np.tanh(gi + gh), None
    if mode == "RNN_RELU":
        return np.maximum(gi + gh, 0), None
    if mode == "GRU":
        ir, iz, inn = np.split(gi, 3, axis=-1)
        hr, hz, hn = np.split(gh, 3, axis=-1)
        r, z = sigmoid(ir + hr), sigmoid(iz + hz)
        n = np.tanh(inn + r * hn)
        return (1 - z) * n + z * h, None
    i, f, g, o = np.split(gi + gh, 4, axis=-1)
    c2 = sigmoid(f) * c + sigmoid(i) * np.tanh(g)
    h2 = sigmoid(o) * np.tanh(c2)
    if w_hr is not None:
        h2 = h2 @ w_hr.T
    return h2, c2


def np_rnn(module, x, h0, c0=None):
    """The layer stack of `module` (eval mode) on x (T, B, I), h0 / c0 (L*D, B, *), in float64."""
    dirs = 2 if module.bidirectional else 1
    params = {n: p.detach().numpy().astype(np.float64) for n, p in module.named_parameters()}
    layer_in = x
    h_n, c_n = [], []
    for layer in range(module.num_layers):
        outs = []
        for d in range(dirs):
            sfx = f"_l{layer}" + ("_reverse" if d else "")
            w = tuple(params.get(n + sfx) for n in ("weight_ih", "weight_hh", "bias_ih", "bias_hh", "weight_hr"))
            k = layer * dirs + d
            h, c = h0[k], (None if c0 is None else c0[k])
            steps = range(x.shape[0] - 1, -1, -1) if d else range(x.shape[0])
            out = [None] * x.shape[0]
            for t in steps:
                h, c = np_cell(module.mode, layer_in[t], h, c, w)
                out[t] = h
            outs.append(np.stack(out))
            h_n.append(h)
            c_n.append(c)
        layer_in = np.concatenate(outs, axis=-1)
    return layer_in, np.stack(h_n), (None if c0 is None else np.stack(c_n))


def close(actual, expected, rtol=1e-10, atol=1e-10):
    actual = actual.detach().numpy() if isinstance(actual, opscope.Tensor) else actual
    np.testing.assert_allclose(actual, expected, rtol=rtol, atol=atol)


CONFIGS = [
    # (cls, kwargs, (T, B, I, H))
    (nn.LSTM, {}, (5, 3, 4, 6)),
    (nn.LSTM, {"num_layers": 2, "bidirectional": True}, (4, 2, 3, 5)),
    (nn.LSTM, {"batch_first": True, "proj_size": 3, "num_layers": 2}, (6, 2, 4, 5)),
    (nn.LSTM, {"bias": False}, (3, 1, 2, 4)),
    (nn.GRU, {}, (5, 3, 4, 6)),
    (nn.GRU, {"num_layers": 2, "bidirectional": True, "batch_first": True}, (4, 3, 2, 5)),
    (nn.RNN, {}, (5, 2, 3, 4)),
    (nn.RNN, {"nonlinearity": "relu", "num_layers": 2, "bidirectional": True}, (4, 3, 2, 5)),
]


@pytest.mark.parametrize("cls,kwargs,sizes", CONFIGS)
def test_layers_match_numpy(cls, kwargs, sizes):
    opscope.manual_seed(1)
    T_, B, I, H = sizes
    m = cls(I, H, dtype=opscope.float64, **kwargs)
    batch_first = kwargs.get("batch_first", False)
    dirs = 2 if m.bidirectional else 1
    rng = np.random.default_rng(0)
    x = rng.standard_normal((T_, B, I))
    hsize = m.proj_size if getattr(m, "proj_size", 0) else H
    h0 = rng.standard_normal((m.num_layers * dirs, B, hsize))
    c0 = rng.standard_normal((m.num_layers * dirs, B, H))
    xin = opscope.tensor(x.transpose(1, 0, 2) if batch_first else x)
    if cls is nn.LSTM:
        out, (h, c) = m(xin, (opscope.tensor(h0), opscope.tensor(c0)))
        ref_out, ref_h, ref_c = np_rnn(m, x, h0, c0)
        close(c, ref_c)
    else:
        out, h = m(xin, opscope.tensor(h0))
        ref_out, ref_h, _ = np_rnn(m, x, h0)
    if batch_first:
        ref_out = ref_out.transpose(1, 0, 2)
    assert tuple(out.shape) == ref_out.shape and tuple(h.shape) == ref_h.shape
    close(out, ref_out)
    close(h, ref_h)
    print(f"{cls.__name__} {kwargs}: maxdiff {np.abs(out.detach().numpy() - ref_out).max():.2e}")


def test_default_hidden_is_zeros_and_float32():
    opscope.manual_seed(0)
    m = nn.LSTM(3, 4, num_layers=2)
    x = opscope.randn(5, 2, 3)
    out, (h, c) = m(x)
    out2, (h2, c2) = m(x, (opscope.zeros(2, 2, 4), opscope.zeros(2, 2, 4)))
    assert out.dtype == opscope.float32
    close(out, out2.detach().numpy(), 0, 0)
    ref_out, ref_h, ref_c = np_rnn(m, x.numpy().astype(np.float64), np.zeros((2, 2, 4)), np.zeros((2, 2, 4)))
    close(out, ref_out, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("cls", [nn.LSTM, nn.GRU, nn.RNN])
def test_unbatched_input(cls):
    opscope.manual_seed(2)
    m = cls(3, 4, num_layers=2, bidirectional=True, dtype=opscope.float64)
    x = opscope.randn(5, 3, dtype=opscope.float64)
    out, hidden = m(x)
    ref, ref_hidden = m(x.unsqueeze(1))
    assert tuple(out.shape) == (5, 8)
    close(out, ref.squeeze(1).detach().numpy(), 0, 0)
    if cls is nn.LSTM:
        assert tuple(hidden[0].shape) == (4, 4) and tuple(hidden[1].shape) == (4, 4)
        h0 = (opscope.zeros(4, 4, dtype=opscope.float64), opscope.ones(4, 4, dtype=opscope.float64))
        with_hx = m(x, h0)[0]
        close(with_hx, m(x.unsqueeze(1), (h0[0].unsqueeze(1), h0[1].unsqueeze(1)))[0].squeeze(1).detach().numpy(), 0, 0)
    else:
        assert tuple(hidden.shape) == (4, 4)


def test_dropout_between_layers_only_while_training():
    opscope.manual_seed(3)
    m = nn.GRU(3, 4, num_layers=2, dropout=1.0, dtype=opscope.float64)
    x = opscope.randn(4, 2, 3, dtype=opscope.float64)
    out_train, _ = m(x)
    # p = 1 zeroes the second layer's input: it then sees only its own recurrence
    params = {n: p.detach().numpy() for n, p in m.named_parameters()}
    h = np.zeros((2, 4))
    w1 = tuple(params.get(n + "_l1") for n in ("weight_ih", "weight_hh", "bias_ih", "bias_hh", "weight_hr"))
    ref = []
    for _ in range(4):
        h, _c = np_cell("GRU", np.zeros((2, 4)), h, None, w1)
        ref.append(h)
    close(out_train, np.stack(ref))
    m.eval()
    out_eval, _ = m(x)
    close(out_eval, np_rnn(m, x.numpy(), np.zeros((2, 2, 4)))[0])


@pytest.mark.parametrize("cls,mode,chunks", [(nn.LSTMCell, "LSTM", 4), (nn.GRUCell, "GRU", 3),
                                             (nn.RNNCell, "RNN_TANH", 1)])
def test_cells_match_numpy(cls, mode, chunks):
    opscope.manual_seed(4)
    cell = cls(3, 5, dtype=opscope.float64)
    rng = np.random.default_rng(1)
    x, h, c = rng.standard_normal((2, 3)), rng.standard_normal((2, 5)), rng.standard_normal((2, 5))
    w = (cell.weight_ih.detach().numpy(), cell.weight_hh.detach().numpy(), cell.bias_ih.detach().numpy(),
         cell.bias_hh.detach().numpy(), None)
    ref_h, ref_c = np_cell(mode, x, h, c, w)
    if cls is nn.LSTMCell:
        hy, cy = cell(opscope.tensor(x), (opscope.tensor(h), opscope.tensor(c)))
        close(cy, ref_c)
        hy1, cy1 = cell(opscope.tensor(x[0]), (opscope.tensor(h[0]), opscope.tensor(c[0])))  # unbatched
        close(hy1, ref_h[0])
    else:
        hy = cell(opscope.tensor(x), opscope.tensor(h))
        close(cell(opscope.tensor(x[1]), opscope.tensor(h[1])), ref_h[1])
    close(hy, ref_h)
    assert cell.weight_ih.shape == (chunks * 5, 3)


def test_relu_cell_and_no_bias():
    cell = nn.RNNCell(3, 4, bias=False, nonlinearity="relu", dtype=opscope.float64)
    assert cell.bias_ih is None and repr(cell) == "RNNCell(3, 4, bias=False, nonlinearity=relu)"
    x = opscope.randn(2, 3, dtype=opscope.float64)
    ref = np.maximum(x.numpy() @ cell.weight_ih.detach().numpy().T, 0)
    close(cell(x), ref)


def test_init_bounds_and_flatten_parameters():
    m = nn.LSTM(50, 100, num_layers=2, bidirectional=True)
    m.flatten_parameters()
    bound = 1 / np.sqrt(100)
    for name, p in m.named_parameters():
        v = p.detach().numpy()
        assert np.all(np.abs(v) <= bound), name
        assert v.std() > bound / 2, name  # spread over the range, not constant
    assert len(m.all_weights) == 4 and len(m._flat_weights) == 16


def test_double_converts_the_weights_the_op_uses():
    m = nn.LSTM(2, 3).double()
    assert all(w.dtype == opscope.float64 for w in m._flat_weights)
    x = opscope.randn(4, 1, 2, dtype=opscope.float64)
    out, (h, c) = m(x)
    assert out.dtype == opscope.float64
    close(out, np_rnn(m, x.numpy(), np.zeros((1, 1, 3)), np.zeros((1, 1, 3)))[0])


def test_assigning_a_weight_updates_the_flat_list():
    m = nn.GRU(2, 3, dtype=opscope.float64)
    m.weight_hh_l0 = nn.Parameter(opscope.zeros(9, 3, dtype=opscope.float64))
    assert m._flat_weights[1] is m.weight_hh_l0
    x = opscope.randn(3, 1, 2, dtype=opscope.float64)
    out, _ = m(x)
    close(out, np_rnn(m, x.numpy(), np.zeros((1, 1, 3)))[0])


# --- gradients --------------------------------------------------------------------------------

def flat_op(mode):
    return {"LSTM": F._lstm, "GRU": F._gru, "RNN_TANH": F._rnn_tanh, "RNN_RELU": F._rnn_relu}[mode]


@pytest.mark.parametrize("cls,kwargs", [(nn.LSTM, {"bidirectional": True}),
                                        (nn.LSTM, {"proj_size": 2, "num_layers": 2}),
                                        (nn.GRU, {"num_layers": 2}),
                                        (nn.RNN, {"nonlinearity": "tanh", "bidirectional": True}),
                                        (nn.RNN, {"nonlinearity": "relu"})])
def test_gradcheck(cls, kwargs):
    opscope.manual_seed(5)
    m = cls(2, 3, dtype=opscope.float64, **kwargs)
    dirs = 2 if m.bidirectional else 1
    hsize = m.proj_size if getattr(m, "proj_size", 0) else 3
    x = opscope.randn(3, 2, 2, dtype=opscope.float64, requires_grad=True)
    h0 = opscope.randn(m.num_layers * dirs, 2, hsize, dtype=opscope.float64, requires_grad=True)
    c0 = opscope.randn(m.num_layers * dirs, 2, 3, dtype=opscope.float64, requires_grad=True)
    params = [p.detach().clone().requires_grad_() for p in m._flat_weights]
    op = flat_op(m.mode)
    nparams = len(params)

    def fn(x, h0, c0, *ps):
        hx = [h0, c0] if cls is nn.LSTM else h0
        res = op(x, hx, list(ps), m.bias, m.num_layers, 0.0, False, m.bidirectional, False)
        return tuple(res)

    assert opscope.autograd.gradcheck(fn, (x, h0, c0, *params), eps=1e-6, atol=1e-6)
    assert nparams == len(m._flat_weights)

    # and through the module: input and hidden state
    if cls is nn.LSTM:
        assert opscope.autograd.gradcheck(lambda x, h, c: m(x, (h, c))[0], (x, h0, c0))
    else:
        assert opscope.autograd.gradcheck(lambda x, h: m(x, h)[0], (x, h0))


@pytest.mark.parametrize("cls", [nn.LSTMCell, nn.GRUCell, nn.RNNCell])
def test_cell_gradcheck(cls):
    opscope.manual_seed(6)
    cell = cls(2, 3, dtype=opscope.float64)
    x = opscope.randn(2, 2, dtype=opscope.float64, requires_grad=True)
    h = opscope.randn(2, 3, dtype=opscope.float64, requires_grad=True)
    c = opscope.randn(2, 3, dtype=opscope.float64, requires_grad=True)
    if cls is nn.LSTMCell:
        assert opscope.autograd.gradcheck(lambda x, h, c: cell(x, (h, c)), (x, h, c))
    else:
        assert opscope.autograd.gradcheck(lambda x, h: cell(x, h), (x, h))
    # the parameters' gradients
    (cell(x, (h, c))[0] if cls is nn.LSTMCell else cell(x, h)).sum().backward()
    assert all(p.grad is not None for p in cell.parameters())


# --- torch's names, messages and printing -------------------------------------------------------

def test_reprs():
    assert rnn_cases.case_reprs(opscope) == TORCH["reprs"]


def test_parameter_names_and_shapes():
    assert rnn_cases.case_parameter_names(opscope) == TORCH["parameter_names"]


def test_error_messages():
    ours = rnn_cases.case_errors(opscope)
    assert ours == TORCH["errors"]


def test_dropout_warning():
    with pytest.warns(UserWarning, match="non-zero dropout expects num_layers greater than 1"):
        nn.LSTM(3, 4, dropout=0.5)


def test_autograd_node_names():
    ours, expected = rnn_cases.case_node_names(opscope), dict(TORCH["node_names"])
    # Known difference: torch transposes gru / rnn_* batch_first outputs back with transpose_
    # (TransposeBackward1); opscope out of place (TransposeBackward0), as torch's lstm does.
    for name in ("rnn", "gru"):
        assert expected[name + "_batch_first_grad_fn"] == "TransposeBackward1"
        expected[name + "_batch_first_grad_fn"] = "TransposeBackward0"
    assert ours == expected


def direct_children(rec, op):
    """The op names called directly by the first call of `op` (aten::<name>), as torch's
    profiler lists them, restricted to the ops make_torch_reference_rnn.py records."""
    steps = rec.steps
    start = next(i for i, s in enumerate(steps) if s["op"].split(".")[0] == "aten::" + op)
    depth = steps[start]["depth"]
    wanted = {"linear", "unbind", "add_", "unsafe_chunk", "sigmoid_", "tanh_", "tanh", "mul", "mul_",
              "add", "sub", "relu", "stack", "dropout"}
    out = []
    for s in steps[start + 1:]:
        if s["depth"] <= depth:
            break
        name = s["op"].replace("aten::", "").split(".")[0]
        if s["depth"] == depth + 1 and s["kind"] == "call" and name in wanted:
            out.append(name)
    return out


def test_each_step_runs_torchs_ops():
    opscope.manual_seed(0)
    x = opscope.randn(2, 1, 3)
    layers = {"lstm": nn.LSTM(3, 4), "gru": nn.GRU(3, 4), "rnn_tanh": nn.RNN(3, 4)}
    for name, m in layers.items():
        rec = record_dispatch(lambda: m(x))
        assert direct_children(rec, name) == TORCH["step_ops"][name], name
    cell = nn.LSTMCell(3, 4)
    rec = record_dispatch(lambda: cell(x[0]))
    assert direct_children(rec, "lstm_cell") == TORCH["step_ops"]["lstm_cell"]


def test_char_lm_loss_curve_follows_torch():
    losses = rnn_cases.case_char_lm(opscope)
    expected = TORCH["char_lm"]
    diff = np.abs(np.array(losses) - np.array(expected))
    print(f"char LM: {len(losses)} Adam steps, loss {losses[0]:.4f} -> {losses[-1]:.4f}, "
          f"maxdiff vs torch {diff.max():.2e}")
    np.testing.assert_allclose(losses, expected, rtol=2e-4, atol=2e-4)
    assert losses[-1] < 0.6 * losses[0]  # it learned


# --- padding and packing ------------------------------------------------------------------------

def test_pad_sequence():
    seqs = [opscope.randn(3, 2), opscope.randn(1, 2), opscope.randn(4, 2)]
    out = pad_sequence(seqs, padding_value=-1.0)
    assert tuple(out.shape) == (4, 3, 2)
    ref = np.full((4, 3, 2), -1.0, dtype=np.float32)
    for i, s in enumerate(seqs):
        ref[:s.shape[0], i] = s.numpy()
    close(out, ref, 0, 0)
    close(pad_sequence(seqs, batch_first=True), np.where(ref == -1, 0, ref).transpose(1, 0, 2), 0, 0)
    with pytest.raises(RuntimeError, match="Expected iterable"):
        pad_sequence(5)
    with pytest.raises(RuntimeError, match="received an empty list of sequences"):
        pad_sequence([])
    steps = record_dispatch(lambda: pad_sequence(seqs)).steps
    assert steps[0]["op"] == "aten::pad_sequence"  # torch's op, then full / narrow / select / copy_
    assert {"aten::full", "aten::copy_"} <= {s["op"] for s in steps}


def test_pad_sequence_gradient():
    a = opscope.randn(3, dtype=opscope.float64, requires_grad=True)
    b = opscope.randn(2, dtype=opscope.float64, requires_grad=True)
    assert opscope.autograd.gradcheck(lambda a, b: pad_sequence([a, b]), (a, b))


def test_pack_and_unpack_round_trip():
    seqs = [opscope.tensor([1, 2]), opscope.tensor([3]), opscope.tensor([4, 5, 6])]
    padded = pad_sequence(seqs, batch_first=True)
    packed = pack_padded_sequence(padded, [2, 1, 3], batch_first=True, enforce_sorted=False)
    assert packed.data.tolist() == [4, 1, 3, 5, 2, 6]
    assert packed.batch_sizes.tolist() == [3, 2, 1]
    assert packed.sorted_indices.tolist() == [2, 0, 1] and packed.unsorted_indices.tolist() == [1, 2, 0]
    out, lengths = pad_packed_sequence(packed, batch_first=True)
    assert out.tolist() == padded.tolist() and lengths.tolist() == [2, 1, 3]
    assert [s.tolist() for s in unpack_sequence(pack_sequence(seqs, enforce_sorted=False))] == \
        [s.tolist() for s in seqs]
    assert [s.tolist() for s in unpad_sequence(padded, lengths, batch_first=True)] == [s.tolist() for s in seqs]
    with pytest.raises(RuntimeError, match="must be sorted in decreasing order"):
        pack_padded_sequence(padded, [2, 1, 3], batch_first=True)
    with pytest.raises(ValueError, match="Expected total_length to be at least"):
        pad_packed_sequence(packed, total_length=2)


# --- recurrent layers over packed sequences ----------------------------------------------------

def test_packed_layers_match_torch():
    ours = rnn_cases.case_packed(opscope)
    for name, expected in TORCH["packed"].items():
        got = ours[name]
        assert got["lengths"] == expected["lengths"] and got["batch_sizes"] == expected["batch_sizes"]
        close(np.array(got["output"]), np.array(expected["output"]), 1e-12, 1e-12)
        close(np.array(got["data"]), np.array(expected["data"]), 1e-12, 1e-12)
        for h, e in zip(got["hidden"], expected["hidden"]):
            close(np.array(h), np.array(e), 1e-12, 1e-12)


@pytest.mark.parametrize("cls,kwargs", [(nn.LSTM, {"proj_size": 2, "num_layers": 2}),
                                        (nn.GRU, {"bidirectional": True}),
                                        (nn.RNN, {"nonlinearity": "relu", "batch_first": True})])
def test_packed_equals_each_sequence_alone(cls, kwargs):
    opscope.manual_seed(13)
    m = cls(3, 4, dtype=opscope.float64, **kwargs)
    lengths = [2, 5, 1, 4]
    bf = kwargs.get("batch_first", False)
    x = opscope.randn(4, 5, 3, dtype=opscope.float64) if bf else opscope.randn(5, 4, 3, dtype=opscope.float64)
    packed = pack_padded_sequence(x, lengths, batch_first=bf, enforce_sorted=False)
    out, hidden = m(packed)
    padded, lens = pad_packed_sequence(out, batch_first=bf)
    assert lens.tolist() == lengths
    for b, n in enumerate(lengths):
        seq = x[b:b + 1, :n] if bf else x[:n, b:b + 1]
        alone, h_alone = m(seq)
        got = padded[b, :n] if bf else padded[:n, b]
        close(got, (alone[0] if bf else alone[:, 0]).detach().numpy())
        hs = hidden if isinstance(hidden, tuple) else (hidden,)
        hs_alone = h_alone if isinstance(h_alone, tuple) else (h_alone,)
        for h, ha in zip(hs, hs_alone):
            close(h[:, b], ha[:, 0].detach().numpy())


def test_packed_gradcheck():
    opscope.manual_seed(14)
    m = nn.LSTM(2, 3, bidirectional=True, dtype=opscope.float64)
    x = opscope.randn(4, 3, 2, dtype=opscope.float64, requires_grad=True)

    def fn(x):
        out, (h, c) = m(pack_padded_sequence(x, [4, 2, 3], enforce_sorted=False))
        return pad_packed_sequence(out)[0], h, c

    assert opscope.autograd.gradcheck(fn, (x,))


def test_docstring_examples_run():
    import doctest

    import opscope.nn.modules.rnn as rnn_modules
    import opscope.nn.utils.rnn as rnn_utils
    for module in (rnn_modules, rnn_utils):
        result = doctest.testmod(module)
        assert result.failed == 0 and result.attempted > 0, module.__name__
