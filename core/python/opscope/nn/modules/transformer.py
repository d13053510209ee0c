"""Attention and the Transformer — ``MultiheadAttention``, ``TransformerEncoderLayer`` /
``TransformerEncoder``, ``TransformerDecoderLayer`` / ``TransformerDecoder`` and ``Transformer`` —
with torch 1.13's interfaces, parameter names, initialisation and printing.

Their forwards take torch 1.13's general ("slow") path: F.multi_head_attention_forward's linear /
bmm / softmax / baddbmm ops, which a trace shows one by one (torch switches to a fused
_native_multi_head_attention in some inference settings; the values agree).

>>> import opscope
>>> from opscope import nn
>>> mha = nn.MultiheadAttention(8, 2, batch_first=True)
>>> x = opscope.randn(3, 5, 8)
>>> out, weights = mha(x, x, x)
>>> tuple(out.shape), tuple(weights.shape)
((3, 5, 8), (3, 5, 5))
"""

import copy
import math

import opscope
from opscope.nn import functional as F
from opscope.nn import modules as _modules
from opscope.nn.modules import Dropout, LayerNorm, Linear, Module, Parameter

__all__ = ["MultiheadAttention", "TransformerEncoderLayer", "TransformerEncoder",
           "TransformerDecoderLayer", "TransformerDecoder", "Transformer"]


def _fans(t):
    """(fan_in, fan_out) of a weight: dims 1 and 0 times the receptive field (dims 2:)."""
    receptive = 1
    for s in t.shape[2:]:
        receptive *= s
    return t.shape[1] * receptive, t.shape[0] * receptive


def _xavier_uniform_(t, gain=1.0):
    fan_in, fan_out = _fans(t)
    bound = gain * math.sqrt(6.0 / float(fan_in + fan_out))
    with opscope.no_grad():
        return t.uniform_(-bound, bound)


def _xavier_normal_(t, gain=1.0):
    fan_in, fan_out = _fans(t)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    with opscope.no_grad():
        return t.normal_(0, std)


class NonDynamicallyQuantizableLinear(Linear):
    """MultiheadAttention's out_proj: a Linear under the name torch prints."""


class MultiheadAttention(Module):
    """Attention over num_heads heads of embed_dim // num_heads: query (L, N, E) (or (N, L, E)
    with batch_first, or unbatched (L, E)), key (S, N, kdim), value (S, N, vdim) -> output
    (L, N, E) and the attention weights (N, L, S) averaged over heads (need_weights)."""

    def __init__(self, embed_dim, num_heads, dropout=0., bias=True, add_bias_kv=False,
                 add_zero_attn=False, kdim=None, vdim=None, batch_first=False, device=None,
                 dtype=None):
        super().__init__()
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.num_heads = num_heads
        self.dropout = dropout
        self.batch_first = batch_first
        self.head_dim = embed_dim // num_heads
        assert self.head_dim * num_heads == self.embed_dim, "embed_dim must be divisible by num_heads"

        if not self._qkv_same_embed_dim:
            self.q_proj_weight = Parameter(opscope.empty(embed_dim, embed_dim, dtype=dtype))
            self.k_proj_weight = Parameter(opscope.empty(embed_dim, self.kdim, dtype=dtype))
            self.v_proj_weight = Parameter(opscope.empty(embed_dim, self.vdim, dtype=dtype))
            self.register_parameter("in_proj_weight", None)
        else:
            self.in_proj_weight = Parameter(opscope.empty(3 * embed_dim, embed_dim, dtype=dtype))
            self.register_parameter("q_proj_weight", None)
            self.register_parameter("k_proj_weight", None)
            self.register_parameter("v_proj_weight", None)
        if bias:
            self.in_proj_bias = Parameter(opscope.empty(3 * embed_dim, dtype=dtype))
        else:
            self.register_parameter("in_proj_bias", None)
        self.out_proj = NonDynamicallyQuantizableLinear(embed_dim, embed_dim, bias=bias, dtype=dtype)
        if add_bias_kv:
            self.bias_k = Parameter(opscope.empty(1, 1, embed_dim, dtype=dtype))
            self.bias_v = Parameter(opscope.empty(1, 1, embed_dim, dtype=dtype))
        else:
            self.bias_k = self.bias_v = None
        self.add_zero_attn = add_zero_attn
        self._reset_parameters()

    def _reset_parameters(self):
        if self._qkv_same_embed_dim:
            _xavier_uniform_(self.in_proj_weight)
        else:
            _xavier_uniform_(self.q_proj_weight)
            _xavier_uniform_(self.k_proj_weight)
            _xavier_uniform_(self.v_proj_weight)
        if self.in_proj_bias is not None:
            with opscope.no_grad():
                self.in_proj_bias.fill_(0.)
                self.out_proj.bias.fill_(0.)
        if self.bias_k is not None:
            _xavier_normal_(self.bias_k)
        if self.bias_v is not None:
            _xavier_normal_(self.bias_v)

    def forward(self, query, key, value, key_padding_mask=None, need_weights=True, attn_mask=None,
                average_attn_weights=True):
        is_batched = query.dim() == 3
        if key_padding_mask is not None:
            if key_padding_mask.dtype != opscope.bool and not key_padding_mask.is_floating_point():
                raise AssertionError("only bool and floating types of key_padding_mask are supported")
        if self.batch_first and is_batched:
            # (N, L, E) -> (L, N, E), keeping `query is key is value` for the packed projection
            if key is value:
                if query is key:
                    query = key = value = query.transpose(1, 0)
                else:
                    query, key = [x.transpose(1, 0) for x in (query, key)]
                    value = key
            else:
                query, key, value = [x.transpose(1, 0) for x in (query, key, value)]

        separate = not self._qkv_same_embed_dim
        attn_output, attn_output_weights = F.multi_head_attention_forward(
            query, key, value, self.embed_dim, self.num_heads, self.in_proj_weight,
            self.in_proj_bias, self.bias_k, self.bias_v, self.add_zero_attn, self.dropout,
            self.out_proj.weight, self.out_proj.bias, training=self.training,
            key_padding_mask=key_padding_mask, need_weights=need_weights, attn_mask=attn_mask,
            use_separate_proj_weight=separate,
            q_proj_weight=self.q_proj_weight if separate else None,
            k_proj_weight=self.k_proj_weight if separate else None,
            v_proj_weight=self.v_proj_weight if separate else None,
            average_attn_weights=average_attn_weights)
        if self.batch_first and is_batched:
            return attn_output.transpose(1, 0), attn_output_weights
        return attn_output, attn_output_weights


def _attention_block(attn, dropout, x, mem, attn_mask, key_padding_mask):
    """The layers' attention sublayer: attn(x, mem, mem) without the weights, then dropout."""
    x = attn(x, mem, mem, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
             need_weights=False)[0]
    return dropout(x)


def _feed_forward_block(layer, dropout, x):
    """The layers' feed-forward sublayer: linear2(dropout(activation(linear1(x)))), then dropout."""
    x = layer.linear2(layer.dropout(layer.activation(layer.linear1(x))))
    return dropout(x)


def _get_activation_fn(activation):
    if activation == "relu":
        return F.relu
    if activation == "gelu":
        return F.gelu
    raise RuntimeError("activation should be relu/gelu, not {}".format(activation))


def _get_clones(module, n):
    # looked up on use: nn.modules' containers are imported after this file's classes
    return _modules.ModuleList([copy.deepcopy(module) for _ in range(n)])


class TransformerEncoderLayer(Module):
    """Self-attention then a feed-forward block (linear, activation, dropout, linear), each with
    dropout, a residual connection and LayerNorm — after the block (post-norm) or before it
    (norm_first)."""

    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation=F.relu,
                 layer_norm_eps=1e-5, batch_first=False, norm_first=False, device=None, dtype=None):
        super().__init__()
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first,
                                            dtype=dtype)
        self.linear1 = Linear(d_model, dim_feedforward, dtype=dtype)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, dtype=dtype)
        self.norm_first = norm_first
        self.norm1 = LayerNorm(d_model, eps=layer_norm_eps, dtype=dtype)
        self.norm2 = LayerNorm(d_model, eps=layer_norm_eps, dtype=dtype)
        self.dropout1 = Dropout(dropout)
        self.dropout2 = Dropout(dropout)
        if isinstance(activation, str):
            activation = _get_activation_fn(activation)
        self.activation_relu_or_gelu = 1 if activation is F.relu else 2 if activation is F.gelu else 0
        self.activation = activation

    def forward(self, src, src_mask=None, src_key_padding_mask=None):
        x = src
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), src_mask, src_key_padding_mask)
            x = x + self._ff_block(self.norm2(x))
        else:
            x = self.norm1(x + self._sa_block(x, src_mask, src_key_padding_mask))
            x = self.norm2(x + self._ff_block(x))
        return x

    def _sa_block(self, x, attn_mask, key_padding_mask):
        return _attention_block(self.self_attn, self.dropout1, x, x, attn_mask, key_padding_mask)

    def _ff_block(self, x):
        return _feed_forward_block(self, self.dropout2, x)


class TransformerEncoder(Module):
    """num_layers copies of encoder_layer applied in turn, then `norm` if given."""

    def __init__(self, encoder_layer, num_layers, norm=None, enable_nested_tensor=True, mask_check=True):
        super().__init__()
        self.layers = _get_clones(encoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm
        self.enable_nested_tensor = enable_nested_tensor
        self.mask_check = mask_check

    def forward(self, src, mask=None, src_key_padding_mask=None):
        if src_key_padding_mask is not None:
            if src_key_padding_mask.dtype != opscope.bool and not src_key_padding_mask.is_floating_point():
                raise AssertionError("only bool and floating types of key_padding_mask are supported")
        output = src
        for mod in self.layers:
            output = mod(output, src_mask=mask, src_key_padding_mask=src_key_padding_mask)
        if self.norm is not None:
            output = self.norm(output)
        return output


class TransformerDecoderLayer(Module):
    """Self-attention over tgt, attention to the encoder's memory, then the feed-forward block,
    each with dropout, a residual connection and LayerNorm (post- or pre-norm)."""

    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation=F.relu,
                 layer_norm_eps=1e-5, batch_first=False, norm_first=False, device=None, dtype=None):
        super().__init__()
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first,
                                            dtype=dtype)
        self.multihead_attn = MultiheadAttention(d_model, nhead, dropout=dropout,
                                                 batch_first=batch_first, dtype=dtype)
        self.linear1 = Linear(d_model, dim_feedforward, dtype=dtype)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, dtype=dtype)
        self.norm_first = norm_first
        self.norm1 = LayerNorm(d_model, eps=layer_norm_eps, dtype=dtype)
        self.norm2 = LayerNorm(d_model, eps=layer_norm_eps, dtype=dtype)
        self.norm3 = LayerNorm(d_model, eps=layer_norm_eps, dtype=dtype)
        self.dropout1 = Dropout(dropout)
        self.dropout2 = Dropout(dropout)
        self.dropout3 = Dropout(dropout)
        if isinstance(activation, str):
            activation = _get_activation_fn(activation)
        self.activation = activation

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None):
        x = tgt
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), tgt_mask, tgt_key_padding_mask)
            x = x + self._mha_block(self.norm2(x), memory, memory_mask, memory_key_padding_mask)
            x = x + self._ff_block(self.norm3(x))
        else:
            x = self.norm1(x + self._sa_block(x, tgt_mask, tgt_key_padding_mask))
            x = self.norm2(x + self._mha_block(x, memory, memory_mask, memory_key_padding_mask))
            x = self.norm3(x + self._ff_block(x))
        return x

    def _sa_block(self, x, attn_mask, key_padding_mask):
        return _attention_block(self.self_attn, self.dropout1, x, x, attn_mask, key_padding_mask)

    def _mha_block(self, x, mem, attn_mask, key_padding_mask):
        return _attention_block(self.multihead_attn, self.dropout2, x, mem, attn_mask,
                                key_padding_mask)

    def _ff_block(self, x):
        return _feed_forward_block(self, self.dropout3, x)


class TransformerDecoder(Module):
    """num_layers copies of decoder_layer applied in turn, then `norm` if given."""

    def __init__(self, decoder_layer, num_layers, norm=None):
        super().__init__()
        self.layers = _get_clones(decoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None):
        output = tgt
        for mod in self.layers:
            output = mod(output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                         tgt_key_padding_mask=tgt_key_padding_mask,
                         memory_key_padding_mask=memory_key_padding_mask)
        if self.norm is not None:
            output = self.norm(output)
        return output


class Transformer(Module):
    """The encoder-decoder model of "Attention Is All You Need": encoder(src) is the memory the
    decoder attends to while reading tgt. Weights of 2+ dims are xavier_uniform_."""

    def __init__(self, d_model=512, nhead=8, num_encoder_layers=6, num_decoder_layers=6,
                 dim_feedforward=2048, dropout=0.1, activation=F.relu, custom_encoder=None,
                 custom_decoder=None, layer_norm_eps=1e-5, batch_first=False, norm_first=False,
                 device=None, dtype=None):
        super().__init__()
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            encoder_layer = TransformerEncoderLayer(d_model, nhead, dim_feedforward, dropout,
                                                    activation, layer_norm_eps, batch_first,
                                                    norm_first, dtype=dtype)
            encoder_norm = LayerNorm(d_model, eps=layer_norm_eps, dtype=dtype)
            self.encoder = TransformerEncoder(encoder_layer, num_encoder_layers, encoder_norm)
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            decoder_layer = TransformerDecoderLayer(d_model, nhead, dim_feedforward, dropout,
                                                    activation, layer_norm_eps, batch_first,
                                                    norm_first, dtype=dtype)
            decoder_norm = LayerNorm(d_model, eps=layer_norm_eps, dtype=dtype)
            self.decoder = TransformerDecoder(decoder_layer, num_decoder_layers, decoder_norm)
        self._reset_parameters()
        self.d_model = d_model
        self.nhead = nhead
        self.batch_first = batch_first

    def forward(self, src, tgt, src_mask=None, tgt_mask=None, memory_mask=None,
                src_key_padding_mask=None, tgt_key_padding_mask=None, memory_key_padding_mask=None):
        is_batched = src.dim() == 3
        if not self.batch_first and src.size(1) != tgt.size(1) and is_batched:
            raise RuntimeError("the batch number of src and tgt must be equal")
        if self.batch_first and src.size(0) != tgt.size(0) and is_batched:
            raise RuntimeError("the batch number of src and tgt must be equal")
        if src.size(-1) != self.d_model or tgt.size(-1) != self.d_model:
            raise RuntimeError("the feature number of src and tgt must be equal to d_model")
        memory = self.encoder(src, mask=src_mask, src_key_padding_mask=src_key_padding_mask)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                            tgt_key_padding_mask=tgt_key_padding_mask,
                            memory_key_padding_mask=memory_key_padding_mask)

    @staticmethod
    def generate_square_subsequent_mask(sz, device="cpu"):
        """(sz, sz) float mask: -inf above the diagonal (position i sees 0..i), 0 elsewhere."""
        return opscope.triu(opscope.full((sz, sz), float("-inf")), diagonal=1)

    def _reset_parameters(self):
        for p in self.parameters():
            if p.dim() > 1:
                _xavier_uniform_(p)
