"""Recurrent-layer benchmark: opscope vs PyTorch 1.13, side by side in one process.

A measurement, not a test: it prints one table per thread count, with ratios, and always exits 0.

    PYTHONPATH=core/python:build/python /usr/bin/python3 tests/bench/bench_rnn.py [--threads 1,2] [--quick]

Cases (float32, the same weights and data in both libraries), each a training step: forward
through nn.LSTM, sum of the output, backward (parameter gradients accumulate; they are cleared
each call):
1. word-language-model size (PyTorch's examples/word_language_model): seq 35, batch 20,
   input 200, hidden 200, 2 layers.
2. small: seq 16, batch 1, input 32, hidden 64, 1 layer — where per-op overhead dominates.
3. the same sizes, forward only under no_grad (inference).
4. GRU at the word-language-model size, forward + backward.
Target: opscope time <= 1.0x torch's (ratio = opscope / torch, lower is better).

Times are the best of round-robin repeats of short loops (tests/bench/benchlib.py), in ms per call.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "core", "python"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from benchlib import best_per_call, fmt, np, opscope, print_table, ratio, set_threads, torch, verdict  # noqa: E402

CASES = [
    # name, layer, (seq, batch, input, hidden, layers), backward
    ("LSTM wlm fwd+bwd", "LSTM", (35, 20, 200, 200, 2), True),
    ("LSTM small fwd+bwd", "LSTM", (16, 1, 32, 64, 1), True),
    ("LSTM wlm fwd (no_grad)", "LSTM", (35, 20, 200, 200, 2), False),
    ("LSTM small fwd (no_grad)", "LSTM", (16, 1, 32, 64, 1), False),
    ("GRU wlm fwd+bwd", "GRU", (35, 20, 200, 200, 2), True),
]


def train_step(lib, model, x):
    for p in model.parameters():
        p.grad = None
    out, _ = model(x)
    out.sum().backward()


def infer(lib, model, x):
    with lib.no_grad():
        model(x)


def build(lib, layer, sizes, rng_seed=0):
    """The model (weights from NumPy, identical in both libraries) and the input."""
    seq, batch, inp, hidden, layers = sizes
    rng = np.random.default_rng(rng_seed)
    model = getattr(lib.nn, layer)(inp, hidden, num_layers=layers)
    with lib.no_grad():
        for p in model.parameters():
            p.copy_(lib.from_numpy(rng.uniform(-0.07, 0.07, tuple(p.shape)).astype(np.float32)))
    x = lib.from_numpy(rng.standard_normal((seq, batch, inp)).astype(np.float32))
    return model, x


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    repeat = 5 if args.quick else 20
    libs = {"opscope": opscope, "torch": torch}
    for threads in [int(t) for t in args.threads.split(",")]:
        set_threads(threads)
        rows = []
        for name, layer, sizes, backward in CASES:
            stmts = {}
            for lname, lib in libs.items():
                if lib is None:
                    stmts[lname] = None
                    continue
                model, x = build(lib, layer, sizes)
                fn = train_step if backward else infer
                stmts[lname] = ("fn(lib, model, x)", {"fn": fn, "lib": lib, "model": model, "x": x})
            best = best_per_call(stmts, loop_s=0.05, repeat=repeat)
            ours, theirs = best["opscope"], best["torch"]
            r = ratio(ours, theirs)
            rows.append([name, fmt(ours and ours * 1e3), fmt(theirs and theirs * 1e3), fmt(r, 2),
                         verdict(None if r is None else r <= 1.0)])
        print_table(f"recurrent layers, float32, {threads} thread(s): ms per call (best of {repeat})",
                    ["case", "opscope ms", "torch ms", "opscope/torch", "<= 1.0x"], rows,
                    notes=["wlm = seq 35, batch 20, 200 -> 200, 2 layers; small = seq 16, batch 1, 32 -> 64"])


if __name__ == "__main__":
    main()
