"""Op-table samples (see tests/python/test_op_table.py) for the recurrent and attention ops
(core/ops/nn.cpp's rnn block): a sequence (T 3, B 2, I 2) with hidden size 3, one layer's
weights, packed data of lengths (3, 1), and query / key / value for attention."""
import opscope
from reference_cases import matrix


def _params(gates):
    # w_ih (G, I), w_hh (G, H), b_ih (G), b_hh (G) of one layer, G = gates * 3
    return lambda: [matrix(3 * gates, 2) / 10, matrix(3 * gates, 3) / 10, matrix(3 * gates) / 10,
                    matrix(3 * gates) / 10]


def _layer(gates, packed=False):
    hx = (lambda: [matrix(1, 2, 3) / 10, matrix(1, 2, 3) / 10]) if gates == 4 else (lambda: matrix(1, 2, 3) / 10)
    args = {"hx": hx, "params": _params(gates), "has_biases": True, "num_layers": 1, "dropout": 0.0,
            "train": False, "bidirectional": False}
    if packed:  # lengths 3 and 1: batch_sizes (2, 1, 1), 4 rows of data
        args.update(data=lambda: matrix(4, 2) / 10, batch_sizes=lambda: opscope.tensor([2, 1, 1]))
    else:
        args.update(input=lambda: matrix(3, 2, 2) / 10, batch_first=False)
    return args


def _cell(gates):
    hx = (lambda: [matrix(2, 3) / 10, matrix(2, 3) / 10]) if gates == 4 else (lambda: matrix(2, 3) / 10)
    return {"input": lambda: matrix(2, 2) / 10, "hx": hx, "w_ih": lambda: matrix(3 * gates, 2) / 10,
            "w_hh": lambda: matrix(3 * gates, 3) / 10}


OVERRIDES = {
    "aten::lstm.input": _layer(4), "aten::gru.input": _layer(3),
    "aten::rnn_tanh.input": _layer(1), "aten::rnn_relu.input": _layer(1),
    "aten::lstm.data": _layer(4, packed=True), "aten::gru.data": _layer(3, packed=True),
    "aten::rnn_tanh.data": _layer(1, packed=True), "aten::rnn_relu.data": _layer(1, packed=True),
    "aten::lstm_cell": _cell(4), "aten::gru_cell": _cell(3),
    "aten::rnn_tanh_cell": _cell(1), "aten::rnn_relu_cell": _cell(1),
    "aten::unsafe_split.Tensor": {"self": lambda: matrix(4, 3), "split_size": 2},
    "aten::unsafe_chunk": {"self": lambda: matrix(4, 3), "chunks": 2},
    "aten::_pack_padded_sequence": {"input": lambda: matrix(3, 2, 2), "lengths": lambda: opscope.tensor([3, 1]),
                                    "batch_first": False},
    "aten::_pad_packed_sequence": {"data": lambda: matrix(4, 2), "batch_sizes": lambda: opscope.tensor([2, 1, 1]),
                                   "batch_first": False, "padding_value": 0.0, "total_length": 3},
    "aten::pad_sequence": {"sequences": lambda: [matrix(3, 2), matrix(1, 2)]},
    "aten::scaled_dot_product_attention": {"query": lambda: matrix(2, 3, 4) / 10,
                                           "key": lambda: matrix(2, 5, 4) / 10,
                                           "value": lambda: matrix(2, 5, 6) / 10},
}
