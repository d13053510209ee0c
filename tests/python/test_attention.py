"""F.scaled_dot_product_attention, nn.MultiheadAttention and the Transformer layers: outputs
against NumPy float64 attention with the same weights (masks, batch_first, kdim / vdim,
unbatched input), gradients by finite differences, and torch's reprs / messages / node names
(recorded by make_torch_reference_rnn.py into data/rnn_torch.json)."""
import json
import os

import numpy as np
import pytest

import opscope
import opscope.nn.functional as F
from opscope import nn

import rnn_cases

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "data", "rnn_torch.json")) as _f:
    TORCH = json.load(_f)

f64 = opscope.float64


def np_softmax(x):
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def np_sdpa(q, k, v, mask=None, scale=None):
    scale = 1 / np.sqrt(q.shape[-1]) if scale is None else scale
    s = q @ np.swapaxes(k, -1, -2) * scale
    if mask is not None:
        s = s + (np.where(mask, 0.0, -np.inf) if mask.dtype == bool else mask)
    return np_softmax(s) @ v


def close(actual, expected, rtol=1e-10, atol=1e-10):
    actual = actual.detach().numpy() if isinstance(actual, opscope.Tensor) else actual
    np.testing.assert_allclose(actual, expected, rtol=rtol, atol=atol)


# --- scaled_dot_product_attention --------------------------------------------------------------

@pytest.mark.parametrize("shape_q,shape_kv", [((2, 3, 5, 4), (2, 3, 7, 4)), ((5, 4), (6, 4)),
                                              ((2, 1, 4), (2, 3, 4))])
def test_sdpa_matches_numpy(shape_q, shape_kv):
    rng = np.random.default_rng(0)
    q, k = rng.standard_normal(shape_q), rng.standard_normal(shape_kv)
    v = rng.standard_normal(shape_kv[:-1] + (3,))
    out = F.scaled_dot_product_attention(opscope.tensor(q), opscope.tensor(k), opscope.tensor(v))
    close(out, np_sdpa(q, k, v))
    out = F.scaled_dot_product_attention(opscope.tensor(q), opscope.tensor(k), opscope.tensor(v), scale=0.3)
    close(out, np_sdpa(q, k, v, scale=0.3))


def test_sdpa_masks():
    rng = np.random.default_rng(1)
    q, k, v = (rng.standard_normal((2, 4, 3)) for _ in range(3))
    bool_mask = rng.random((4, 4)) > 0.3
    np.fill_diagonal(bool_mask, True)  # every query sees a key
    float_mask = rng.standard_normal((2, 4, 4))
    Q, K, V = (opscope.tensor(a) for a in (q, k, v))
    close(F.scaled_dot_product_attention(Q, K, V, attn_mask=opscope.tensor(bool_mask)),
          np_sdpa(q, k, v, bool_mask))
    close(F.scaled_dot_product_attention(Q, K, V, attn_mask=opscope.tensor(float_mask)),
          np_sdpa(q, k, v, float_mask))
    causal = np.tril(np.ones((4, 4), dtype=bool))
    close(F.scaled_dot_product_attention(Q, K, V, is_causal=True), np_sdpa(q, k, v, causal))
    with pytest.raises(RuntimeError, match="Explicit attn_mask should not be set"):
        F.scaled_dot_product_attention(Q, K, V, attn_mask=opscope.tensor(bool_mask), is_causal=True)


def test_sdpa_dropout_and_gradcheck():
    q, k, v = (opscope.randn(2, 3, 4, dtype=f64, requires_grad=True) for _ in range(3))
    assert opscope.autograd.gradcheck(lambda q, k, v: F.scaled_dot_product_attention(q, k, v), (q, k, v))
    mask = opscope.randn(3, 3, dtype=f64)
    assert opscope.autograd.gradcheck(
        lambda q, k, v: F.scaled_dot_product_attention(q, k, v, attn_mask=mask), (q, k, v))
    opscope.manual_seed(0)
    dropped = F.scaled_dot_product_attention(q, k, v, dropout_p=0.5)
    assert not np.allclose(dropped.detach().numpy(), F.scaled_dot_product_attention(q, k, v).detach().numpy())


# --- MultiheadAttention -------------------------------------------------------------------------

def np_mha(m, query, key, value, attn_mask=None, key_padding_mask=None):
    """torch's multi-head attention in float64: (L, N, E) inputs -> (output, averaged weights)."""
    E, H = m.embed_dim, m.num_heads
    hd = E // H
    p = {n: t.detach().numpy() for n, t in m.named_parameters()}
    if m._qkv_same_embed_dim:
        wq, wk, wv = np.split(p["in_proj_weight"], 3)
    else:
        wq, wk, wv = p["q_proj_weight"], p["k_proj_weight"], p["v_proj_weight"]
    bq, bk, bv = np.split(p["in_proj_bias"], 3) if "in_proj_bias" in p else (0, 0, 0)
    q, k, v = query @ wq.T + bq, key @ wk.T + bk, value @ wv.T + bv
    L, N, _ = q.shape
    S = k.shape[0]
    heads = lambda t: t.reshape(t.shape[0], N * H, hd).transpose(1, 0, 2)  # noqa: E731
    q, k, v = heads(q), heads(k), heads(v)
    s = q @ k.transpose(0, 2, 1) / np.sqrt(hd)
    if attn_mask is not None:
        s = s + (np.where(attn_mask, -np.inf, 0.0) if attn_mask.dtype == bool else attn_mask)
    if key_padding_mask is not None:
        kpm = np.repeat(key_padding_mask[:, None, None, :], H, axis=1).reshape(N * H, 1, S)
        s = np.where(kpm, -np.inf, s)
    w = np_softmax(s)
    out = (w @ v).transpose(1, 0, 2).reshape(L, N, E)
    out = out @ p["out_proj.weight"].T + p.get("out_proj.bias", 0)
    return out, w.reshape(N, H, L, S).mean(1)


@pytest.mark.parametrize("kwargs", [{}, {"kdim": 3, "vdim": 5}, {"bias": False}, {"batch_first": True}])
def test_mha_matches_numpy(kwargs):
    opscope.manual_seed(7)
    m = nn.MultiheadAttention(8, 2, dtype=f64, **kwargs)
    rng = np.random.default_rng(2)
    q = rng.standard_normal((4, 3, 8))
    k = rng.standard_normal((5, 3, m.kdim))
    v = rng.standard_normal((5, 3, m.vdim))
    ref_out, ref_w = np_mha(m, q, k, v)
    bf = kwargs.get("batch_first", False)
    t = (lambda a: opscope.tensor(a.transpose(1, 0, 2))) if bf else opscope.tensor
    out, w = m(t(q), t(k), t(v))
    close(out, ref_out.transpose(1, 0, 2) if bf else ref_out)
    close(w, ref_w)
    _, per_head = m(t(q), t(k), t(v), average_attn_weights=False)
    assert tuple(per_head.shape) == (3, 2, 4, 5)
    out2, none = m(t(q), t(k), t(v), need_weights=False)
    assert none is None
    close(out2, out.detach().numpy(), 0, 0)


def test_mha_self_attention_masks_and_unbatched():
    opscope.manual_seed(8)
    m = nn.MultiheadAttention(6, 3, dtype=f64)
    rng = np.random.default_rng(3)
    x = rng.standard_normal((4, 2, 6))
    X = opscope.tensor(x)
    bool_mask = np.triu(np.ones((4, 4), dtype=bool), 1)
    kpm = np.array([[False, False, False, True], [False, False, False, False]])
    out, w = m(X, X, X, attn_mask=opscope.tensor(bool_mask), key_padding_mask=opscope.tensor(kpm))
    ref_out, ref_w = np_mha(m, x, x, x, bool_mask, kpm)
    close(out, ref_out)
    close(w, ref_w)
    float_mask = nn.Transformer.generate_square_subsequent_mask(4)
    assert float_mask.tolist()[0] == [0.0, float("-inf"), float("-inf"), float("-inf")]
    out_f, _ = m(X, X, X, attn_mask=float_mask.to(f64))
    close(out_f, np_mha(m, x, x, x, np.triu(np.full((4, 4), -np.inf), 1))[0])
    # unbatched (L, E)
    out1, w1 = m(X[:, 0], X[:, 0], X[:, 0])
    ref1, refw1 = np_mha(m, x[:, :1], x[:, :1], x[:, :1])
    close(out1, ref1[:, 0])
    close(w1, refw1[0])


def test_mha_gradcheck():
    opscope.manual_seed(9)
    m = nn.MultiheadAttention(4, 2, dtype=f64)
    x = opscope.randn(3, 2, 4, dtype=f64, requires_grad=True)
    assert opscope.autograd.gradcheck(lambda x: m(x, x, x)[0], (x,))
    m(x, x, x)[0].sum().backward()
    assert all(p.grad is not None for p in m.parameters())


# --- Transformer layers ---------------------------------------------------------------------------

def np_layer_norm(x, w, b, eps):
    mu = x.mean(-1, keepdims=True)
    var = x.var(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * w + b


@pytest.mark.parametrize("norm_first,activation", [(False, "relu"), (True, "gelu")])
def test_encoder_layer_matches_numpy(norm_first, activation):
    from math import erf
    opscope.manual_seed(10)
    layer = nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, dropout=0.0, activation=activation,
                                       norm_first=norm_first, dtype=f64)
    rng = np.random.default_rng(4)
    x = rng.standard_normal((5, 3, 8))
    p = {n: t.detach().numpy() for n, t in layer.named_parameters()}
    act = (lambda a: np.maximum(a, 0)) if activation == "relu" else \
        np.vectorize(lambda a: 0.5 * a * (1 + erf(a / np.sqrt(2))))
    ln1 = lambda a: np_layer_norm(a, p["norm1.weight"], p["norm1.bias"], 1e-5)  # noqa: E731
    ln2 = lambda a: np_layer_norm(a, p["norm2.weight"], p["norm2.bias"], 1e-5)  # noqa: E731
    sa = lambda a: np_mha(layer.self_attn, a, a, a)[0]  # noqa: E731

    def ff(a):
        return act(a @ p["linear1.weight"].T + p["linear1.bias"]) @ p["linear2.weight"].T + p["linear2.bias"]

    if norm_first:
        y = x + sa(ln1(x))
        ref = y + ff(ln2(y))
    else:
        y = ln1(x + sa(x))
        ref = ln2(y + ff(y))
    close(layer(opscope.tensor(x)), ref, rtol=1e-9, atol=1e-9)


def test_encoder_stack_and_gradcheck():
    opscope.manual_seed(11)
    layer = nn.TransformerEncoderLayer(4, 2, dim_feedforward=8, dropout=0.0, batch_first=True, dtype=f64)
    enc = nn.TransformerEncoder(layer, 2, norm=nn.LayerNorm(4, dtype=f64))
    assert enc.layers[0] is not enc.layers[1] and enc.layers[0] is not layer
    x = opscope.randn(2, 3, 4, dtype=f64, requires_grad=True)
    y = enc(x)
    h = x
    for mod in enc.layers:
        h = mod(h)
    close(y, enc.norm(h).detach().numpy(), 0, 0)
    assert opscope.autograd.gradcheck(lambda x: enc(x), (x,))


def test_transformer_forward_and_checks():
    opscope.manual_seed(12)
    model = nn.Transformer(d_model=8, nhead=2, num_encoder_layers=1, num_decoder_layers=1,
                           dim_feedforward=16, dropout=0.0, dtype=f64)
    src, tgt = opscope.randn(5, 2, 8, dtype=f64), opscope.randn(3, 2, 8, dtype=f64)
    mask = nn.Transformer.generate_square_subsequent_mask(3).to(f64)
    out = model(src, tgt, tgt_mask=mask)
    memory = model.encoder(src)
    close(out, model.decoder(tgt, memory, tgt_mask=mask).detach().numpy(), 0, 0)
    assert tuple(out.shape) == (3, 2, 8)
    with pytest.raises(RuntimeError, match="the batch number of src and tgt must be equal"):
        model(src, opscope.randn(3, 1, 8, dtype=f64))
    with pytest.raises(RuntimeError, match="the feature number of src and tgt must be equal to d_model"):
        model(opscope.randn(5, 2, 6, dtype=f64), opscope.randn(3, 2, 6, dtype=f64))


def test_reprs_and_names_match_torch():
    # reprs / parameter names / errors / node names are shared with test_rnn (one recording)
    names = rnn_cases.case_parameter_names(opscope)
    assert names["mha"] == TORCH["parameter_names"]["mha"]
    assert names["enc"] == TORCH["parameter_names"]["enc"]
    assert rnn_cases.case_node_names(opscope)["mha"] == TORCH["node_names"]["mha"]


def test_docstring_examples_run():
    import doctest

    import opscope.nn.modules.transformer as transformer
    result = doctest.testmod(transformer)
    assert result.failed == 0 and result.attempted > 0


def test_layers_match_torch():
    ours = rnn_cases.case_attention(opscope)
    expected = TORCH["attention"]
    for key in ("encoder", "encoder_pre", "decoder", "transformer"):
        close(np.array(ours[key]), np.array(expected[key]), 1e-12, 1e-12)
    for key in ("output", "weights"):
        close(np.array(ours["mha"][key]), np.array(expected["mha"][key]), 1e-12, 1e-12)
