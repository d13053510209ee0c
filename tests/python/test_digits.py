"""A small MLP trained on scikit-learn's digits with opscope reaches the accuracy PyTorch reaches
with the same initial weights, data order and hyper-parameters (tests/python/digits_mlp.py).

PyTorch's run is recorded in data/digits_torch.json by
``tests/bench/bench_digits.py --write-reference`` (the tests never import torch); this test
trains the same model with opscope and compares, printing the differences.

    PYTHONPATH=core/python /usr/bin/python3 -m pytest -q tests/python/test_digits.py
"""
import doctest
import json
import os

import numpy as np

import opscope
import digits_mlp  # imports sklearn: part of tools/setup.sh, so its absence is a failure
from conftest import assert_close, remember_difference

REFERENCE = os.path.join(os.path.dirname(__file__), "data", "digits_torch.json")

# Per-epoch mean losses: both libraries run the same float32 program, but their kernels sum in
# different orders (gemm blocking, reductions), so each step differs by a few float32 ulps and
# the 43 steps of an epoch feed those differences forward. Over 20 epochs (860 SGD steps) the
# measured largest relative difference is ~1e-6; 1e-4 leaves a 100x margin while still catching
# any real difference in a formula (a wrong gradient or update moves the losses by percents).
LOSS_RTOL = 1e-4

# Test accuracy: a test image whose two largest logits are within rounding of each other may be
# classified differently by two runs that differ by float32 rounding alone. Allow two such images
# of the test split (2 / 449 = 0.45%); in practice opscope reproduces torch's accuracy exactly.
ACCURACY_MARGIN_IMAGES = 2


def load_reference():
    with open(REFERENCE) as f:
        return json.load(f)


def test_digits_mlp_reaches_pytorchs_accuracy():
    reference = load_reference()
    assert reference["hyper"] == digits_mlp.HYPER, (
        "digits_mlp.HYPER changed: run tests/bench/bench_digits.py --write-reference")
    x_train, _, x_test, _ = digits_mlp.load_data()
    assert len(x_test) == reference["test_size"] and len(x_train) + len(x_test) == 1797

    threads = opscope.get_num_threads()
    opscope.set_num_threads(1)  # the reference was recorded at 1 thread; results do not depend on it
    try:
        result = digits_mlp.train(opscope)
    finally:
        opscope.set_num_threads(threads)

    losses, want = np.array(result["losses"]), np.array(reference["losses"])
    print("epoch  opscope loss  torch loss  rel. diff")
    for epoch, (a, b) in enumerate(zip(losses, want), 1):
        print(f"{epoch:5d}  {a:12.7f}  {b:10.7f}  {abs(a - b) / b:9.1e}")
    print(f"test accuracy: opscope {result['accuracy']:.4f}, torch {reference['torch']} "
          f"{reference['accuracy']:.4f}")
    assert_close(losses, want, rtol=LOSS_RTOL, atol=0.0, what="per-epoch training loss vs torch",
                 family="digits MLP losses")
    margin = ACCURACY_MARGIN_IMAGES / reference["test_size"]
    remember_difference("digits MLP accuracy", abs(result["accuracy"] - reference["accuracy"]))
    assert result["accuracy"] >= reference["accuracy"] - margin, (result["accuracy"], reference)
    assert losses[-1] < 0.1 * losses[0]  # it learned (and so did torch: the losses agree)


def test_digits_mlp_docstring_example():
    failures, tried = doctest.testmod(digits_mlp)
    assert tried > 0 and failures == 0
