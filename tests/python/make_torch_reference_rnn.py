"""Records PyTorch 1.13's answers to the cases of tests/python/rnn_cases.py (reprs, parameter
names, error messages, autograd node names, a character-level LSTM's loss curve) into
tests/python/data/rnn_torch.json, which test_rnn.py / test_attention.py compare opscope with.

    /usr/bin/python3 tests/python/make_torch_reference_rnn.py
"""
import json
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rnn_cases  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "rnn_torch.json")


# The ops a recurrent op calls directly, in order, restricted to these (the profiler's parent
# links are not reliable for the short nested ops, which are left out).
STEP_OPS = {"linear", "unbind", "add_", "unsafe_chunk", "sigmoid_", "tanh_", "tanh", "mul", "mul_",
            "add", "sub", "relu", "stack", "dropout"}


def op_children(op_name, fn):
    """The STEP_OPS that aten::<op_name> calls while fn() runs, per torch's profiler."""
    from torch.profiler import profile
    with profile() as prof:
        fn()
    out = []
    for e in prof.events():
        parent = e.cpu_parent
        short = e.name.replace("aten::", "")
        if parent is not None and parent.name == "aten::" + op_name and short in STEP_OPS:
            out.append(short)
    return out


def step_ops():
    torch.manual_seed(0)
    x = torch.randn(2, 1, 3)
    return {
        "lstm": op_children("lstm", lambda: torch.nn.LSTM(3, 4)(x)),
        "gru": op_children("gru", lambda: torch.nn.GRU(3, 4)(x)),
        "rnn_tanh": op_children("rnn_tanh", lambda: torch.nn.RNN(3, 4)(x)),
        "lstm_cell": op_children("lstm_cell", lambda: torch.nn.LSTMCell(3, 4)(x[0])),
    }


def main():
    torch.set_num_threads(1)
    result = {"torch_version": torch.__version__}
    for name, fn in rnn_cases.CASES.items():
        result[name] = fn(torch)
    result["step_ops"] = step_ops()
    with open(OUT, "w") as f:
        json.dump(result, f, indent=1)
        f.write("\n")
    print("wrote", OUT)


if __name__ == "__main__":
    main()
