"""Cases of the recurrent and attention layers that run on either library, passed in as `T`
(torch in make_torch_reference_rnn.py, which records their results into
tests/python/data/rnn_torch.json; opscope in test_rnn.py / test_attention.py, which compares).
Neither library is imported here; weights and data come from NumPy so both see the same.
"""
import numpy as np


def error_of(fn):
    """(exception type name, message) of fn(), or None when it does not raise."""
    try:
        fn()
    except Exception as e:  # noqa: BLE001  (any exception is the recorded answer)
        return [type(e).__name__, str(e)]
    return None


# --- reprs --------------------------------------------------------------------------------------

def case_reprs(T):
    nn = T.nn
    modules = [
        nn.LSTM(10, 20, num_layers=2, batch_first=True),
        nn.LSTM(10, 20, proj_size=5, bias=False, dropout=0.5, num_layers=2),
        nn.GRU(3, 4, bidirectional=True),
        nn.RNN(3, 4, nonlinearity="relu"),
        nn.RNN(3, 4),
        nn.LSTMCell(3, 4),
        nn.GRUCell(3, 4, bias=False),
        nn.RNNCell(3, 4, nonlinearity="relu"),
        nn.MultiheadAttention(8, 2),
        nn.MultiheadAttention(8, 2, kdim=3, vdim=5, bias=False),
        nn.TransformerEncoderLayer(8, 2, dim_feedforward=16),
        nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, dim_feedforward=16), 2,
                              norm=nn.LayerNorm(8)),
        nn.TransformerDecoderLayer(8, 2, dim_feedforward=16, batch_first=True),
    ]
    return [repr(m) for m in modules]


def case_parameter_names(T):
    nn = T.nn
    out = {}
    for name, m in [("lstm", nn.LSTM(3, 4, num_layers=2, bidirectional=True, proj_size=2)),
                    ("gru", nn.GRU(3, 4, bias=False)),
                    ("rnn", nn.RNN(3, 4, num_layers=2)),
                    ("lstmcell", nn.LSTMCell(3, 4)),
                    ("mha", nn.MultiheadAttention(8, 2, kdim=3, vdim=5)),
                    ("enc", nn.TransformerEncoderLayer(8, 2, dim_feedforward=16))]:
        out[name] = [[n, list(p.shape)] for n, p in m.named_parameters()]
    return out


# --- errors ------------------------------------------------------------------------------------

def case_errors(T):
    nn = T.nn
    lstm = nn.LSTM(3, 4, num_layers=2)
    gru = nn.GRU(3, 4)
    cell = nn.LSTMCell(3, 4)
    gcell = nn.GRUCell(3, 4)
    mha = nn.MultiheadAttention(8, 2)
    x = T.zeros(5, 2, 3)
    return {
        "lstm_input_size": error_of(lambda: lstm(T.zeros(5, 2, 4))),
        "lstm_input_dim": error_of(lambda: lstm(T.zeros(5, 2, 3, 1))),
        "lstm_h0_shape": error_of(lambda: lstm(x, (T.zeros(2, 3, 4), T.zeros(2, 2, 4)))),
        "lstm_c0_shape": error_of(lambda: lstm(x, (T.zeros(2, 2, 4), T.zeros(1, 2, 4)))),
        "lstm_hx_dims": error_of(lambda: lstm(x, (T.zeros(2, 4), T.zeros(2, 4)))),
        "lstm_unbatched_hx_dims": error_of(lambda: lstm(T.zeros(5, 3), (T.zeros(2, 1, 4), T.zeros(2, 1, 4)))),
        "gru_hx_shape": error_of(lambda: gru(x, T.zeros(1, 3, 4))),
        "gru_hx_dims": error_of(lambda: gru(x, T.zeros(1, 4))),
        "gru_unbatched_hx_dims": error_of(lambda: gru(T.zeros(5, 3), T.zeros(1, 1, 4))),
        "rnn_empty_sequence": error_of(lambda: nn.RNN(3, 4)(T.zeros(0, 2, 3))),
        "lstm_cell_input_size": error_of(lambda: cell(T.zeros(2, 5))),
        "lstm_cell_batch": error_of(lambda: cell(T.zeros(2, 3), (T.zeros(3, 4), T.zeros(3, 4)))),
        "lstm_cell_hidden": error_of(lambda: cell(T.zeros(2, 3), (T.zeros(2, 5), T.zeros(2, 5)))),
        "lstm_cell_3d": error_of(lambda: cell(T.zeros(2, 2, 3))),
        "gru_cell_hidden": error_of(lambda: gcell(T.zeros(2, 3), T.zeros(2, 5))),
        "dropout_range": error_of(lambda: nn.LSTM(3, 4, dropout=1.5)),
        "proj_size_too_big": error_of(lambda: nn.LSTM(3, 4, proj_size=4)),
        "proj_size_gru": error_of(lambda: nn.GRU(3, 4, proj_size=2)),
        "bad_nonlinearity": error_of(lambda: nn.RNN(3, 4, nonlinearity="sigmoid")),
        "mha_divisible": error_of(lambda: nn.MultiheadAttention(7, 2)),
        "mha_query_dims": error_of(lambda: mha(T.zeros(8), T.zeros(8), T.zeros(8))),
        "mha_mask_shape": error_of(lambda: mha(T.zeros(4, 2, 8), T.zeros(5, 2, 8), T.zeros(5, 2, 8),
                                               attn_mask=T.zeros(4, 4))),
        "mha_embed_dim": error_of(lambda: mha(T.zeros(4, 2, 6), T.zeros(5, 2, 6), T.zeros(5, 2, 6))),
        "encoder_activation": error_of(lambda: nn.TransformerEncoderLayer(8, 2, activation="tanh")),
        "pack_unsorted": error_of(lambda: nn.utils.rnn.pack_padded_sequence(x, [2, 4])),
        "pack_zero_length": error_of(lambda: nn.utils.rnn.pack_padded_sequence(x, [2, 0])),
        "pack_lengths_count": error_of(lambda: nn.utils.rnn.pack_padded_sequence(x, [3, 2, 1])),
        "pack_empty": error_of(lambda: nn.utils.rnn.pack_padded_sequence(T.zeros(0, 2), [1, 1])),
        "pack_float_lengths": error_of(lambda: T._pack_padded_sequence(x, T.tensor([2., 1.]), False)),
        "pad_total_length": error_of(lambda: nn.utils.rnn.pad_packed_sequence(
            nn.utils.rnn.pack_padded_sequence(x, [4, 2]), total_length=3)),
        "pad_sequence_empty": error_of(lambda: nn.utils.rnn.pad_sequence([])),
    }


# --- autograd node names ---------------------------------------------------------------------

def node_names(out):
    """The sorted set of grad_fn names reachable from out (AccumulateGrad left out)."""
    seen, kept, names, stack = set(), [], set(), [out.grad_fn]
    while stack:
        g = stack.pop()
        if g is None or id(g) in seen:
            continue
        kept.append(g)  # alive, so that no other node's wrapper reuses its id
        seen.add(id(g))
        if "AccumulateGrad" not in g.name():
            names.add(g.name())
        stack.extend(n for n, _ in g.next_functions)
    return sorted(names)


def case_node_names(T):
    T.manual_seed(0)
    nn = T.nn
    x = T.randn(3, 2, 4)
    out = {}
    out["lstm"] = node_names(nn.LSTM(4, 5)(x)[0])
    out["lstm_proj"] = node_names(nn.LSTM(4, 5, proj_size=3)(x)[0])
    out["gru"] = node_names(nn.GRU(4, 5)(x)[0])
    out["rnn"] = node_names(nn.RNN(4, 5, nonlinearity="relu")(x)[0])
    out["lstm_bidir_h"] = node_names(nn.LSTM(4, 5, bidirectional=True)(x)[1][0])
    out["lstm_cell_c"] = node_names(nn.LSTMCell(4, 5)(x[0])[1])
    out["mha"] = node_names(nn.MultiheadAttention(4, 2)(x, x, x)[0])
    for name, layer in [("rnn", nn.RNN), ("gru", nn.GRU), ("lstm", nn.LSTM)]:
        out[name + "_batch_first_grad_fn"] = layer(4, 5, batch_first=True)(x)[0].grad_fn.name()
    return out


# --- a character-level LSTM language model trained with Adam -------------------------------------

TEXT = ("the quick brown fox jumps over the lazy dog while the small cat sleeps in the warm sun "
        "and the birds sing their songs above the quiet river ") * 3
VOCAB = sorted(set(TEXT))


def char_lm_setup(rng_seed=0, embed=8, hidden=32, seq=16, batch=4):
    """Initial weights and the (input, target) index batches, from NumPy."""
    rng = np.random.default_rng(rng_seed)
    v = len(VOCAB)
    ids = np.array([VOCAB.index(c) for c in TEXT], dtype=np.int64)
    starts = rng.integers(0, len(ids) - seq - 1, size=(6, batch))
    inputs = [np.stack([ids[s:s + seq] for s in row], axis=1) for row in starts]  # (seq, batch)
    targets = [np.stack([ids[s + 1:s + seq + 1] for s in row], axis=1) for row in starts]
    k = 1 / np.sqrt(hidden)
    weights = {
        "embed.weight": rng.standard_normal((v, embed)),
        "lstm.weight_ih_l0": rng.uniform(-k, k, (4 * hidden, embed)),
        "lstm.weight_hh_l0": rng.uniform(-k, k, (4 * hidden, hidden)),
        "lstm.bias_ih_l0": rng.uniform(-k, k, (4 * hidden,)),
        "lstm.bias_hh_l0": rng.uniform(-k, k, (4 * hidden,)),
        "head.weight": rng.uniform(-k, k, (v, hidden)),
        "head.bias": rng.uniform(-k, k, (v,)),
    }
    return weights, inputs, targets


def case_char_lm(T, steps=40):
    """Loss per Adam step of embedding -> LSTM -> linear trained on the batches in turn (float32,
    no dropout, so deterministic)."""
    nn = T.nn
    weights, inputs, targets = char_lm_setup()
    v = len(VOCAB)

    class CharLM(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed = nn.Embedding(v, 8)
            self.lstm = nn.LSTM(8, 32)
            self.head = nn.Linear(32, v)

        def forward(self, x):
            out, _ = self.lstm(self.embed(x))
            return self.head(out)

    model = CharLM()
    with T.no_grad():
        for name, p in model.named_parameters():
            p.copy_(T.tensor(weights[name].astype(np.float32)))
    opt = T.optim.Adam(model.parameters(), lr=0.01)
    losses = []
    for step in range(steps):
        x = T.tensor(inputs[step % len(inputs)])
        y = T.tensor(targets[step % len(targets)])
        opt.zero_grad()
        logits = model(x)
        loss = nn.functional.cross_entropy(logits.reshape(-1, v), y.reshape(-1))
        loss.backward()
        opt.step()
        losses.append(float(loss))
    return losses



def case_packed(T):
    """A bidirectional two-layer LSTM and a GRU over a PackedSequence of unsorted lengths (float64,
    weights from NumPy): the padded outputs, lengths and final states."""
    from_np = lambda a: T.tensor(a, dtype=T.float64)  # noqa: E731
    rng = np.random.default_rng(5)
    x = rng.standard_normal((5, 3, 3))
    lengths = [3, 5, 2]
    out = {}
    for name, m in [("lstm", T.nn.LSTM(3, 4, num_layers=2, bidirectional=True, dtype=T.float64)),
                    ("gru", T.nn.GRU(3, 4, dtype=T.float64))]:
        with T.no_grad():
            for p in m.parameters():
                p.copy_(from_np(rng.uniform(-0.5, 0.5, tuple(p.shape))))
        packed = T.nn.utils.rnn.pack_padded_sequence(from_np(x), lengths, enforce_sorted=False)
        res, hidden = m(packed)
        padded, lens = T.nn.utils.rnn.pad_packed_sequence(res)
        hidden = hidden if isinstance(hidden, tuple) else (hidden,)
        out[name] = {"output": padded.tolist(), "lengths": lens.tolist(), "data": res.data.tolist(),
                     "batch_sizes": res.batch_sizes.tolist(),
                     "hidden": [h.tolist() for h in hidden]}
    return out



def case_attention(T):
    """MultiheadAttention (separate k / v sizes, bool masks, per-head weights), encoder and
    decoder layers (post- and pre-norm, gelu) and a small Transformer, float64 weights from NumPy
    (dropout 0): their outputs."""
    nn = T.nn
    rng = np.random.default_rng(6)
    from_np = lambda a: T.tensor(a, dtype=T.float64)  # noqa: E731

    def filled(m):
        with T.no_grad():
            for p in m.parameters():
                p.copy_(from_np(rng.uniform(-0.5, 0.5, tuple(p.shape))))
        return m

    out = {}
    mha = filled(nn.MultiheadAttention(6, 2, kdim=4, vdim=5, dtype=T.float64))
    q, k, v = from_np(rng.standard_normal((3, 2, 6))), from_np(rng.standard_normal((4, 2, 4))), \
        from_np(rng.standard_normal((4, 2, 5)))
    attn_mask = T.tensor(np.triu(np.ones((3, 4), dtype=bool), 2))
    kpm = T.tensor(np.array([[False, False, False, True], [False, False, False, False]]))
    o, w = mha(q, k, v, attn_mask=attn_mask, key_padding_mask=kpm, average_attn_weights=False)
    out["mha"] = {"output": o.tolist(), "weights": w.tolist()}
    x = from_np(rng.standard_normal((2, 5, 6)))
    enc = filled(nn.TransformerEncoderLayer(6, 2, dim_feedforward=8, dropout=0.0, batch_first=True,
                                            dtype=T.float64))
    enc_pre = filled(nn.TransformerEncoderLayer(6, 2, dim_feedforward=8, dropout=0.0, activation="gelu",
                                                norm_first=True, dtype=T.float64))
    mask = nn.Transformer.generate_square_subsequent_mask(5).to(T.float64)
    out["encoder"] = enc(x, src_key_padding_mask=T.tensor(np.array([[False] * 4 + [True], [False] * 5]))).tolist()
    out["encoder_pre"] = enc_pre(x.transpose(0, 1), src_mask=mask).tolist()
    dec = filled(nn.TransformerDecoderLayer(6, 2, dim_feedforward=8, dropout=0.0, dtype=T.float64))
    tgt = from_np(rng.standard_normal((3, 2, 6)))
    tgt_mask = nn.Transformer.generate_square_subsequent_mask(3).to(T.float64)
    out["decoder"] = dec(tgt, x.transpose(0, 1), tgt_mask=tgt_mask).tolist()
    model = filled(nn.Transformer(d_model=6, nhead=2, num_encoder_layers=1, num_decoder_layers=2,
                                  dim_feedforward=8, dropout=0.0, dtype=T.float64))
    out["transformer"] = model(x.transpose(0, 1), tgt).tolist()
    return out

CASES = {name[len("case_"):]: fn for name, fn in dict(globals()).items() if name.startswith("case_")}
