"""The optimizer cases run the same way with torch 1.13 (make_torch_reference_optim.py records them
into data/optim_torch.json) and with opscope (test_optim.py): `T` is the tensor module, torch there
and opscope here, so this file imports neither."""
import os

import numpy as np

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "optim_torch.json")

# (name, class, options)
CASES = [
    ("sgd_plain", "SGD", dict(lr=0.1)),
    ("sgd_momentum_wd", "SGD", dict(lr=0.1, momentum=0.9, weight_decay=0.01)),
    ("sgd_nesterov", "SGD", dict(lr=0.05, momentum=0.8, nesterov=True, weight_decay=0.1)),
    ("sgd_dampening_maximize", "SGD", dict(lr=0.1, momentum=0.9, dampening=0.3, maximize=True)),
    ("adam", "Adam", dict(lr=0.01)),
    ("adam_wd_amsgrad", "Adam", dict(lr=0.02, weight_decay=0.1, amsgrad=True)),
    ("adam_maximize", "Adam", dict(lr=0.01, betas=(0.8, 0.9), eps=1e-6, maximize=True)),
    ("adamw", "AdamW", dict(lr=0.01)),
    ("adamw_amsgrad_maximize", "AdamW", dict(lr=0.02, weight_decay=0.2, amsgrad=True,
                                              maximize=True)),
    ("rmsprop", "RMSprop", dict(lr=0.01)),
    ("rmsprop_centered_momentum", "RMSprop", dict(lr=0.01, alpha=0.9, momentum=0.5,
                                                  centered=True, weight_decay=0.1)),
    ("rmsprop_maximize", "RMSprop", dict(lr=0.01, maximize=True, eps=1e-4)),
    ("adagrad", "Adagrad", dict(lr=0.1)),
    ("adagrad_decay_wd", "Adagrad", dict(lr=0.1, lr_decay=0.05, weight_decay=0.1,
                                         initial_accumulator_value=0.5, maximize=True)),
    ("adadelta", "Adadelta", dict()),
    ("adadelta_wd_maximize", "Adadelta", dict(lr=0.5, rho=0.8, eps=1e-5, weight_decay=0.1,
                                              maximize=True)),
]


def make_params(T, dtype):
    """A (3, 4) weight, a transposed (4, 3).t() one (dense, not contiguous) and a (5,) bias."""
    rs = np.random.RandomState(0)
    a = T.tensor(rs.randn(3, 4), dtype=dtype)
    b = T.tensor(rs.randn(4, 3), dtype=dtype).t()
    c = T.tensor(rs.randn(5), dtype=dtype)
    return [T.nn.Parameter(a), T.nn.Parameter(b), T.nn.Parameter(c)]


def loss_of(T, ps):
    return (ps[0] ** 3).sum() + (ps[1] * ps[1].sin()).sum() + (ps[2] * ps[0][0, 0]).cos().sum()


def take_steps(T, opt, ps, n):
    for _ in range(n):
        opt.zero_grad()
        loss_of(T, ps).backward()
        opt.step()

def packed(sd):
    """A state_dict as JSON: tensors as {"tensor": values, "dtype": name, "shape": sizes}."""
    def conv(v):
        if hasattr(v, "shape") and hasattr(v, "tolist"):
            return {"tensor": v.tolist(), "dtype": str(v.dtype).split(".")[-1],
                    "shape": list(v.shape)}
        if isinstance(v, (list, tuple)):
            return [conv(x) for x in v]
        return v
    return {"state": {str(k): {kk: conv(vv) for kk, vv in s.items()}
                      for k, s in sd["state"].items()},
            "param_groups": [{k: conv(v) for k, v in g.items()} for g in sd["param_groups"]]}

def error_of(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - recording the type and text
        return [type(e).__name__, str(e)]
    return None


def errors(T):
    p = T.nn.Parameter(T.ones(2))
    q = T.nn.Parameter(T.ones(3))
    O = T.optim
    out = {
        "sgd_no_lr": error_of(lambda: O.SGD([p])),
        "sgd_negative_lr": error_of(lambda: O.SGD([p], lr=-1)),
        "sgd_nesterov": error_of(lambda: O.SGD([p], lr=0.1, nesterov=True)),
        "adam_beta": error_of(lambda: O.Adam([p], betas=(1.0, 0.9))),
        "adam_eps": error_of(lambda: O.Adam([p], eps=-1)),
        "adagrad_lr_decay": error_of(lambda: O.Adagrad([p], lr_decay=-1)),
        "adagrad_initial": error_of(lambda: O.Adagrad([p], initial_accumulator_value=-1)),
        "adadelta_rho": error_of(lambda: O.Adadelta([p], rho=1.5)),
        "rmsprop_alpha": error_of(lambda: O.RMSprop([p], alpha=-1)),
        "empty": error_of(lambda: O.SGD([], lr=0.1)),
        "tensor_params": error_of(lambda: O.SGD(p, lr=0.1)),
        "set_params": error_of(lambda: O.SGD({p}, lr=0.1)),
        "non_tensor": error_of(lambda: O.SGD([p, 3], lr=0.1)),
        "non_leaf": error_of(lambda: O.SGD([p * 2], lr=0.1)),
        "two_groups": error_of(lambda: O.SGD([{"params": [p]}, {"params": [p]}], lr=0.1)),
        "group_no_lr": error_of(lambda: O.SGD([{"params": [p]}, {"params": [q]}])),
    }
    sgd1 = O.SGD([p], lr=0.1)
    sgd2 = O.SGD([{"params": [p]}, {"params": [q]}], lr=0.1)
    sgd3 = O.SGD([p, q], lr=0.1)
    out["load_groups"] = error_of(lambda: sgd1.load_state_dict(sgd2.state_dict()))
    out["load_sizes"] = error_of(lambda: sgd1.load_state_dict(sgd3.state_dict()))
    return out
