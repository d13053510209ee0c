"""Record what PyTorch 1.13 does with convolutions and pooling, for tests/python/test_conv.py.

    /usr/bin/python3 tests/python/make_torch_reference_conv.py

Writes data/conv_torch.json: the outcome (values, or an exception's type and message) of each
case in CASES evaluated with ``m = torch`` (see reference_cases.py), the autograd node of each
op, the modules' reprs, and the loss curve of the LeNet training run of conv_training.py.
"""
import json
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import conv_training  # noqa: E402
from reference_cases import outcome  # noqa: E402

Z = "m.zeros"
CASES = [
    # --- convolution: shapes, errors ---
    "F.conv2d(m.zeros(2,3), m.zeros(4,3,3,3))",
    "F.conv2d(m.zeros(2,5,8,8), m.zeros(4,3,3,3))",
    "F.conv2d(m.zeros(2,3,2,2), m.zeros(4,3,3,3))",
    "F.conv2d(m.zeros(2,6,8,8), m.zeros(3,3,3,3), groups=2)",
    "F.conv2d(m.zeros(2,6,8,8), m.zeros(2,3,3,3), groups=4)",
    "F.conv2d(m.zeros(2,3,8,8), m.zeros(4,3,3,3), m.zeros(5))",
    "F.conv2d(m.zeros(2,3,8,8), m.zeros(4,3,3,3), padding=-1)",
    "F.conv2d(m.zeros(2,3,8,8), m.zeros(4,3,3,3), stride=0)",
    "F.conv2d(m.zeros(2,3,8,8), m.zeros(4,3,3,3), dilation=0)",
    "F.conv2d(m.zeros(2,3,8,8), m.zeros(4,3,3,3), padding='same', stride=2)",
    "F.conv2d(m.zeros(2,3,8,8), m.zeros(4,3,3,3), padding='full')",
    "F.conv2d(m.zeros(2,3,8,8), m.zeros(4,3,3,3,dtype=m.float64))",
    "F.conv2d(m.zeros(2,3,8,8), m.zeros(4,3,3,3), m.zeros(4,dtype=m.float64))",
    "F.conv2d(m.zeros(2,3,8,8), m.zeros(4,3,3,3), groups=0)",
    "F.conv1d(m.zeros(2,3,8), m.zeros(4,3,3,3))",
    "F.conv1d(m.zeros(2,3,8), m.zeros(4,3,3), stride=[1,1])",
    "F.conv1d(m.zeros(2,3,2), m.zeros(4,3,3))",
    "F.conv_transpose2d(m.zeros(2,5,4,4), m.zeros(3,2,3,3))",
    "F.conv_transpose2d(m.zeros(2,3,4,4), m.zeros(3,2,3,3), m.zeros(3))",
    "F.conv_transpose2d(m.zeros(2,3,4,4), m.zeros(3,2,3,3), output_padding=-1)",
    "F.conv2d(m.zeros(0,3,8,8), m.zeros(4,3,3,3)).shape",
    "F.conv2d(m.zeros(3,8,8), m.zeros(4,3,3,3)).shape",
    "F.conv2d(m.zeros(1,3,8,8), m.zeros(4,3,3,3), padding='same').shape",
    "F.conv2d(m.zeros(1,3,8,7), m.zeros(4,3,4,2), padding='same', dilation=(1,3)).shape",
    "F.conv2d(m.zeros(1,3,8,8), m.zeros(4,3,3,3), padding='valid').shape",
    "F.conv_transpose2d(m.zeros(2,3,4,5), m.zeros(3,2,3,3), stride=2, padding=1, output_padding=1).shape",
    "F.conv_transpose1d(m.zeros(3,4), m.zeros(3,2,3), stride=3).shape",
    # --- convolution: values on small integer-valued inputs (exact in float32) ---
    "F.conv2d(m.arange(32.).view(1,2,4,4), m.arange(36.).view(2,2,3,3) - 17, m.tensor([1., -1.]), padding=1)",
    "F.conv2d(m.arange(32.).view(1,2,4,4), m.arange(8.).view(2,1,2,2), stride=2, groups=2)",
    "F.conv_transpose2d(m.arange(8.).view(1,2,2,2), m.arange(24.).view(2,3,2,2), stride=2)",
    # --- pooling: errors, shapes, values ---
    "F.max_pool2d(m.zeros(2,3,4,4), 0)",
    "F.max_pool2d(m.zeros(2,3,4,4), 2, padding=2)",
    "F.max_pool2d(m.zeros(2,3,4,4), 2, stride=0)",
    "F.max_pool2d(m.zeros(2,3,1,1), 2)",
    "F.max_pool2d(m.zeros(3,4), 2)",
    "F.max_pool2d(m.zeros(2,3,4,4), [2,2,2])",
    "F.max_pool2d(m.zeros(2,3,4,4), 2, dilation=0)",
    "F.max_pool2d(m.zeros(1,3,5,5,dtype=m.int64), 2)",
    "F.max_pool2d(m.zeros(0,3,4,4), 2).shape",
    "F.avg_pool2d(m.zeros(2,3,4,4), 2, divisor_override=0)",
    "F.avg_pool2d(m.zeros(2,3,4,4), 2, padding=2)",
    "F.avg_pool2d(m.zeros(2,3,1,1), 2)",
    "F.max_pool1d(m.zeros(2,3,4,4), 2)",
    "F.max_pool1d(m.zeros(2,3,4,4), 2, return_indices=True)",
    "F.max_pool1d(m.zeros(2,3,4), 2, padding=2)",
    "F.avg_pool1d(m.zeros(3,4,5,6), 2)",
    "F.avg_pool1d(m.zeros(3,4,5), [2,2])",
    "F.adaptive_avg_pool2d(m.zeros(2,3), 2)",
    "F.adaptive_avg_pool2d(m.zeros(2,0,4,4), 2)",
    "F.adaptive_avg_pool2d(m.zeros(2,3,4,4), (2,2,2))",
    "F.adaptive_avg_pool1d(m.zeros(2,3,4,4), 2)",
    "F.adaptive_avg_pool2d(m.zeros(2,3,5,7), (None, 3)).shape",
    "F.max_pool2d(m.arange(50.).view(2,1,5,5), 2, ceil_mode=True, return_indices=True)",
    "F.max_pool2d(m.arange(50.).view(2,1,5,5).flip(-1), 3, stride=2, padding=1, dilation=1, ceil_mode=True)",
    "F.max_pool2d(m.arange(49.).view(1,7,7), 2, stride=1, dilation=2, return_indices=True)",
    "F.avg_pool2d(m.arange(50.).view(2,1,5,5), 3, stride=2, padding=1, ceil_mode=True, count_include_pad=False)",
    "F.avg_pool2d(m.arange(50.).view(2,1,5,5), 3, stride=2, padding=1, ceil_mode=True)",
    "F.avg_pool2d(m.arange(50.).view(2,1,5,5), 2, divisor_override=3)",
    "F.avg_pool1d(m.arange(10.).view(1,2,5), 2, ceil_mode=True)",
    "F.adaptive_avg_pool2d(m.arange(70.).view(2,5,7), (3, 4))",
    "F.adaptive_max_pool2d(m.arange(70.).view(2,5,7).flip(-1), (3, 4), return_indices=True)",
    "F.adaptive_avg_pool1d(m.arange(14.).view(2,7), 3)",
    "F.adaptive_max_pool1d(m.arange(14.).view(2,7), 3)",
    "F.max_pool1d(m.arange(14.).view(2,7), 3, stride=2, ceil_mode=True)",
    "F.max_pool2d(m.tensor([[[float('nan'), 1.], [float('nan'), 2.]]]), 2, return_indices=True)[1]",
    "F.max_pool2d(m.tensor([[[float('nan'), 1., 0.], [float('nan'), 2., 0.]]]), (2, 2), 1, return_indices=True)[1]",
    "F.adaptive_max_pool2d(m.tensor([[[float('nan'), 1.], [float('nan'), 2.]]]), 1, return_indices=True)[1]",
    "F.conv2d(m.arange(2*3*4*5.).view(2,3,4,5) % 7, m.arange(16*3*3*3.).view(16,3,3,3) % 5 - 2, stride=(2,1)).sum((0,2,3))",
]

GRAD_FNS = {
    "conv2d": "F.conv2d(m.ones(1,1,4,4,requires_grad=True), m.ones(1,1,2,2))",
    "conv2d_unbatched": "F.conv2d(m.ones(1,4,4,requires_grad=True), m.ones(1,1,2,2))",
    "conv1d": "F.conv1d(m.ones(1,1,4,requires_grad=True), m.ones(1,1,2))",
    "conv_transpose2d": "F.conv_transpose2d(m.ones(1,1,4,4,requires_grad=True), m.ones(1,1,2,2))",
    "max_pool2d": "F.max_pool2d(m.ones(1,1,4,4,requires_grad=True), 2)",
    "avg_pool2d": "F.avg_pool2d(m.ones(1,1,4,4,requires_grad=True), 2)",
    "adaptive_avg_pool2d": "F.adaptive_avg_pool2d(m.ones(1,1,4,4,requires_grad=True), 3)",
    "adaptive_avg_pool2d_1": "F.adaptive_avg_pool2d(m.ones(1,1,4,4,requires_grad=True), 1)",
    "adaptive_max_pool2d": "F.adaptive_max_pool2d(m.ones(1,1,4,4,requires_grad=True), 3)",
    "max_pool1d": "F.max_pool1d(m.ones(1,1,4,requires_grad=True), 2)",
}

REPRS = [
    "m.nn.Conv2d(1, 6, 5)",
    "m.nn.Conv2d(16, 33, (3, 5), stride=(2, 1), padding=(4, 2), dilation=(3, 1))",
    "m.nn.Conv2d(4, 8, 3, padding='same', groups=2, bias=False, padding_mode='reflect')",
    "m.nn.Conv1d(16, 33, 3, stride=2)",
    "m.nn.Conv1d(4, 4, 3, padding='valid', padding_mode='circular')",
    "m.nn.ConvTranspose2d(16, 33, 3, stride=2, output_padding=1)",
    "m.nn.ConvTranspose1d(4, 2, 3)",
    "m.nn.MaxPool2d(2)",
    "m.nn.MaxPool2d((3, 2), stride=(2, 1), ceil_mode=True, return_indices=True)",
    "m.nn.MaxPool1d(3, stride=2)",
    "m.nn.AvgPool2d(2)",
    "m.nn.AvgPool2d((3, 2), stride=(2, 1), padding=1, count_include_pad=False)",
    "m.nn.AvgPool1d(3)",
    "m.nn.AdaptiveAvgPool2d((5, 7))",
    "m.nn.AdaptiveAvgPool2d(1)",
    "m.nn.AdaptiveAvgPool1d(5)",
    "m.nn.AdaptiveMaxPool2d((None, 7))",
    "m.nn.AdaptiveMaxPool1d(3)",
]
MODULE_ERRORS = [
    "m.nn.Conv2d(4, 6, 3, groups=4)",
    "m.nn.Conv2d(4, 6, 3, groups=0)",
    "m.nn.Conv2d(4, 6, 3, padding='full')",
    "m.nn.Conv2d(4, 6, 3, padding='same', stride=2)",
    "m.nn.Conv2d(4, 6, 3, padding_mode='mirror')",
    "m.nn.ConvTranspose2d(4, 6, 3, padding_mode='reflect')",
    "m.nn.ConvTranspose2d(2, 3, 3, stride=2)(m.zeros(1, 2, 4, 4), output_size=(20, 20))",
    "m.nn.ConvTranspose2d(2, 3, 3, stride=2)(m.zeros(1, 2, 4, 4), output_size=(10, 10)).shape",
    "m.nn.Conv2d(2, 3, 3, padding=1, padding_mode='reflect', bias=False)(m.zeros(1, 2, 4, 4)).shape",
]


def main():
    env = {"F": torch.nn.functional}
    out = {
        "cases": {c: outcome(c, torch, **env) for c in CASES},
        "grad_fns": {e: type(eval(e, {"m": torch, **env}).grad_fn).__name__ for e in GRAD_FNS.values()},
        "reprs": {c: outcome(f"repr({c})", torch) for c in REPRS},
        "module_errors": {c: outcome(c, torch) for c in MODULE_ERRORS},
        "training_losses": conv_training.train(torch),
    }
    path = os.path.join(HERE, "data", "conv_torch.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1)
    print("wrote", path)


if __name__ == "__main__":
    main()
