"""The host side of the training-loop CUDA kernels (core/cuda/kernels/optim.cpp, scan_sort.cpp,
norm_pool.cpp, conv.cpp) on a machine without a GPU, over the fake device of
tests/cuda/fake_device.cpp (preloaded ahead of the CUDA runtime; kernels do not run, device memory
faults on the host): every op, its autograd backward where it has one, and its argument errors run
their checks, allocations, layouts and launches without crashing or reading device memory, and
raise the CPU kernels' messages. Values are test_cuda_optim_ops.py's, test_cuda_scan_sort.py's,
test_cuda_norm_pool.py's and test_cuda_conv.py's work on a GPU.

Skipped without a CUDA build of opscope (OPSCOPE_CUDA=ON), g++, the CUDA headers or the fake.
"""
import fake_cuda
from fake_cuda import needs_fake


pytestmark = needs_fake


def run(fake, code):
    """`code` (after the imports) in a child over the fake device; its stdout lines."""
    return fake_cuda.run(fake, code, timeout=300,
                         preamble=fake_cuda.PREAMBLE + "import opscope.nn.functional as F\n"
                         ).splitlines()


SWEEP = """
def cuda(*shape, dtype=torch.float32):
    return torch.ones(shape, dtype=dtype, device="cuda")
def leaf(t):
    return t.clone().requires_grad_()
x = cuda(3, 4)
xs = [cuda(3, 4), cuda(5), cuda(), cuda(0, 2), cuda(4, 3).t(), cuda(3, 8)[:, ::2],
      cuda(2, dtype=torch.float64)]  # sizes, layouts (dense permuted, stepped), dtypes
ys = [t.clone() for t in xs]
def state():
    return [t.clone() for t in xs]
steps_cpu = [torch.tensor(1.) for _ in xs]
steps_gpu = [torch.tensor(1., device="cuda") for _ in xs]
img, w = cuda(2, 3, 8, 8), cuda(4, 3, 3, 3)
adam = dict(lr=0.1, beta1=0.9, beta2=0.99, weight_decay=0.1, eps=1e-8, maximize=False)
calls = {
    "foreach_add_": lambda: torch._foreach_add_(xs, ys, alpha=0.5),
    "foreach_add": lambda: torch._foreach_add(xs, 1.0),
    "foreach_addcdiv_": lambda: torch._foreach_addcdiv_(xs, ys, ys, value=0.1),
    "foreach_lerp": lambda: torch._foreach_lerp(xs, ys, 0.3),
    "foreach_max": lambda: torch._foreach_maximum_(xs, ys),
    "foreach_sqrt": lambda: torch._foreach_sqrt(xs),
    "foreach_zero_": lambda: torch._foreach_zero_(ys),
    "foreach_many": lambda: torch._foreach_mul_([cuda(3) for _ in range(70)], 2.0),
    "fused_sgd": lambda: torch._fused_sgd_(
        xs, ys, state(), weight_decay=0., momentum=0.9, lr=0.1, dampening=0., nesterov=True,
        maximize=False, is_first_step=True),
    "fused_sgd_nomom": lambda: torch._fused_sgd_(
        xs, ys, [], weight_decay=0., momentum=0., lr=0.1, dampening=0., nesterov=False,
        maximize=False, is_first_step=False),
    "fused_adam_cpu_steps": lambda: torch._fused_adam_(
        xs, ys, state(), state(), state(), steps_cpu, amsgrad=True, **adam),
    "fused_adamw_gpu_steps": lambda: torch._fused_adamw_(
        xs, ys, state(), state(), [], steps_gpu, amsgrad=False, **adam),
    "fused_rmsprop": lambda: torch._fused_rmsprop_(
        xs, ys, state(), state(), state(), lr=0.1, alpha=0.9, eps=1e-8, weight_decay=0.,
        momentum=0.5, centered=True, maximize=False),
    "cumsum": lambda: torch.cumsum(x, 1),
    "cumsum_dim0": lambda: torch.cumsum(x, 0),
    "cumprod_int": lambda: torch.cumprod(cuda(3, 4, dtype=torch.int32), 1),
    "cumsum_0d": lambda: torch.cumsum(cuda(), 0),
    "cumsum_grad": lambda: torch.cumsum(leaf(x), 1).sum().backward(),
    "flip": lambda: torch.flip(x.t(), [0, 1]),
    "sort": lambda: torch.sort(x),
    "sort_dim0_desc": lambda: torch.sort(x, 0, True),
    "sort_0d": lambda: torch.sort(cuda()),
    "sort_empty": lambda: torch.sort(cuda(0, 3)),
    "argsort": lambda: torch.argsort(x.t(), 1),
    "sort_long": lambda: torch.sort(cuda(5000)),
    "topk": lambda: torch.topk(x, 2),
    "topk_dim0": lambda: torch.topk(x, 2, 0, False),
    "topk_grad": lambda: torch.topk(leaf(x), 2)[0].sum().backward(),
    "bn_train": lambda: torch.native_batch_norm(img, cuda(3), cuda(3), cuda(3), cuda(3), True,
                                                0.1, 1e-5),
    "bn_eval": lambda: torch.native_batch_norm(img, None, None, cuda(3), cuda(3), False, 0.1,
                                               1e-5),
    "bn_module": lambda: torch.nn.BatchNorm2d(3).cuda()(leaf(img)).sum().backward(),
    "maxpool": lambda: F.max_pool2d(leaf(img), 2, return_indices=True)[0].sum().backward(),
    "maxpool_pad": lambda: F.max_pool2d(img, 3, 2, 1, 2, ceil_mode=True),
    "avgpool": lambda: F.avg_pool2d(leaf(img), 3, 2, 1, ceil_mode=True,
                                    count_include_pad=False).sum().backward(),
    "conv": lambda: F.conv2d(img, w, cuda(4), 1, 1),
    "conv_grad": lambda: F.conv2d(leaf(img), leaf(w), leaf(cuda(4)), 2, 1).sum().backward(),
    "conv_groups_grad": lambda: F.conv2d(leaf(cuda(2, 4, 6, 6)), leaf(cuda(4, 2, 3, 3)), None,
                                         1, 0, 1, 2).sum().backward(),
    "conv_dilated": lambda: F.conv2d(img, w, None, 1, 2, 2),
    "conv1d_grad": lambda: F.conv1d(leaf(cuda(2, 3, 10)), leaf(cuda(2, 3, 3))).sum().backward(),
}
for name, f in calls.items():
    try:
        f()
        print("ok  ", name)
    except Exception as e:
        print("ERR ", name, type(e).__name__, str(e)[:200])
torch.cuda.synchronize()
print("done")
"""


def test_every_op_runs_its_host_side(fake):
    lines = run(fake, SWEEP)
    assert lines[-1] == "done"
    failed = [line for line in lines if not line.startswith(("ok", "done"))]
    assert not failed, failed
    assert sum(line.startswith("ok") for line in lines) >= 39


ERRORS = """
def cuda(*shape, dtype=torch.float32):
    return torch.ones(shape, dtype=dtype, device="cuda")
x = cuda(3)
long = torch.int64
cases = {
    "mixed_device": lambda: torch._foreach_add_([x, torch.ones(3)], 1.0),
    "int_list": lambda: torch._foreach_add_([cuda(3, dtype=long)], 1),
    "grad_scale": lambda: torch._fused_adam_(
        [x], [x], [x.clone()], [x.clone()], [], [torch.tensor(1.)], lr=0.1, beta1=0.9,
        beta2=0.99, weight_decay=0., eps=1e-8, amsgrad=False, maximize=False,
        grad_scale=cuda()),
    "topk_bool": lambda: torch.topk(cuda(3, dtype=torch.bool), 1),
    "topk_k": lambda: torch.topk(x, 4),
    "cumsum_out_dtype": lambda: torch.cumsum(x, 0, dtype=torch.float64, out=cuda(0)),
    "flip_dup": lambda: torch.flip(x, [0, 0]),
    "bn_eval_no_stats": lambda: torch.native_batch_norm(cuda(2, 3), None, None, None, None,
                                                        False, 0.1, 1e-5),
    "bn_long": lambda: torch.native_batch_norm(cuda(2, 3, dtype=long), None, None, None, None,
                                               True, 0.1, 1e-5),
    "pool_long": lambda: F.max_pool2d(cuda(1, 1, 4, 4, dtype=long), 2),
    "conv_transpose": lambda: F.conv_transpose2d(cuda(1, 3, 5, 5), cuda(3, 2, 3, 3)),
    "conv_long": lambda: F.conv2d(cuda(1, 1, 3, 3, dtype=long), cuda(1, 1, 2, 2, dtype=long)),
    "take": lambda: torch.take(x, cuda(1, dtype=long)),
}
for name, f in cases.items():
    try:
        f()
        print(name + ": no error")
    except Exception as e:
        print(f"{name}: {type(e).__name__}: {str(e)[:150]}")
"""

EXPECTED = {
    "mixed_device": "RuntimeError: Expected all tensors to be on the same device, but found at "
                    "least two devices, cuda:0 and cpu! (when checking argument for _foreach_add_)",
    "int_list": "RuntimeError: _foreach_add_: expected float32 or float64 tensors, but tensor 0 "
                "is int64",
    "grad_scale": "RuntimeError: _fused_adam_: grad_scale and found_inf (AMP's gradient scaling) "
                  "are not supported on CUDA",
    "topk_bool": "RuntimeError: \"topk_out_cuda\" not implemented for 'Bool'",
    "topk_k": "RuntimeError: selected index k out of range",
    "cumsum_out_dtype": "RuntimeError: provided dtype must match dtype of result in cumsum. Got "
                        "Float and Double.",
    "flip_dup": "RuntimeError: dim 0 appears multiple times in the list of dims",
    "bn_eval_no_stats": "RuntimeError: running_mean must be defined in evaluation mode",
    "bn_long": "RuntimeError: \"batch_norm\" not implemented for 'Long'",
    "pool_long": "RuntimeError: \"max_pool2d\" not implemented for 'Long'",
    "conv_transpose": "NotImplementedError: Could not run 'aten::slow_conv_transpose2d' with "
                      "arguments from the 'CUDA' backend.",
    "conv_long": "RuntimeError: \"slow_conv2d_cuda\" not implemented for 'Long'",
    "take": "NotImplementedError: Could not run 'aten::take' with arguments from the 'CUDA' "
            "backend.",
}


def test_argument_errors(fake):
    got = {}
    for line in run(fake, ERRORS):
        name, _, message = line.partition(": ")
        got[name] = message
    for name, want in EXPECTED.items():
        assert got.get(name, "").startswith(want), (name, got.get(name))


def test_a_training_step_never_waits_for_the_device(fake):
    # A GELU / LayerNorm / softmax block trained with AdamW queues its work and returns: no
    # synchronizing call, no copy to the host (the fake device counts both); its backward runs
    # torch's gradient ops (native_layer_norm_backward, gelu / silu / softplus / tanh / sigmoid /
    # mse_loss_backward) on CUDA. (The index-taking ops — nll_loss, embedding, gather,
    # index_select, x[idx] — read a bounds flag back, one wait each, where torch asserts on the
    # device: not in this step.)
    out = run(fake, """
        import ctypes
        fake = ctypes.CDLL(None)
        fake.fakecuda_count.restype = ctypes.c_long
        def counts():
            return [fake.fakecuda_count(k) for k in (b"syncs", b"copies_to_host", b"launches")]
        nn = torch.nn
        model = nn.Sequential(nn.Linear(16, 32), nn.LayerNorm(32), nn.GELU(), nn.Linear(32, 32),
                              nn.SiLU(), nn.Softplus(), nn.Tanh(), nn.LeakyReLU(0.1),
                              nn.ELU(), nn.ReLU6(), nn.Hardswish(), nn.Mish(), nn.Hardsigmoid(),
                              nn.LogSigmoid(), nn.Sigmoid(), nn.Linear(32, 8)).cuda()
        opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
        x, target = torch.ones(4, 16, device="cuda"), torch.zeros(4, 8, device="cuda")
        def step():
            opt.zero_grad()
            F.mse_loss(F.softmax(model(x), -1), target).backward()
            opt.step()
        step()
        before = counts()
        with torch.trace() as t:
            step()
        after = counts()
        print([a - b for a, b in zip(after, before)][:2], after[2] - before[2] > 0)
        print(sorted({s.label for op in t.ops for s in op.steps
                      if s.label.endswith("_backward[CUDA]")}))
        """)
    assert out[0] == "[0, 0] True"
    assert out[1] == str(sorted(["gelu_backward[CUDA]", "native_layer_norm_backward[CUDA]",
                                 "silu_backward[CUDA]", "softplus_backward[CUDA]",
                                 "tanh_backward[CUDA]", "sigmoid_backward[CUDA]",
                                 "leaky_relu_backward[CUDA]", "elu_backward[CUDA]",
                                 "hardtanh_backward[CUDA]", "mse_loss_backward[CUDA]",
                                 "hardswish_backward[CUDA]", "mish_backward[CUDA]",
                                 "hardsigmoid_backward[CUDA]", "log_sigmoid_backward[CUDA]"]))
