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
    ("adamax", "Adamax", dict()),
    ("adamax_wd", "Adamax", dict(lr=0.02, weight_decay=0.05)),
    ("adamax_wd_maximize", "Adamax", dict(lr=0.05, betas=(0.8, 0.99), eps=1e-4, weight_decay=0.1,
                                          maximize=True)),
    ("nadam", "NAdam", dict(lr=0.01)),
    ("nadam_wd_decay", "NAdam", dict(lr=0.02, betas=(0.8, 0.9), eps=1e-6, weight_decay=0.1,
                                     momentum_decay=0.01)),
    # torch 1.13's foreach=True computes another momentum product (nadam.py's Note)
    ("nadam_foreach", "NAdam", dict(lr=0.02, weight_decay=0.1, foreach=True)),
    ("radam", "RAdam", dict(lr=0.01)),
    ("radam_wd_betas", "RAdam", dict(lr=0.02, betas=(0.8, 0.9), eps=1e-4, weight_decay=0.1)),
    # torch 1.13's foreach=True leaves eps out (radam.py's Note); a large eps shows it
    ("radam_foreach", "RAdam", dict(lr=0.02, eps=1e-2, weight_decay=0.1, foreach=True)),
    ("asgd", "ASGD", dict()),
    ("asgd_averaging_wd", "ASGD", dict(lr=0.05, lambd=0.01, alpha=0.5, t0=0.5,
                                       weight_decay=0.1)),
    ("asgd_maximize", "ASGD", dict(lr=0.02, t0=0, maximize=True)),
    ("rprop", "Rprop", dict()),
    ("rprop_etas_sizes", "Rprop", dict(lr=0.5, etas=(0.3, 1.5), step_sizes=(1e-3, 0.6))),
    ("rprop_maximize", "Rprop", dict(lr=0.3, maximize=True)),
    ("lbfgs", "LBFGS", dict()),
    ("lbfgs_strong_wolfe", "LBFGS", dict(line_search_fn="strong_wolfe")),
    ("lbfgs_short_history", "LBFGS", dict(lr=0.5, max_iter=5, history_size=3)),
    ("lbfgs_strong_wolfe_short", "LBFGS", dict(line_search_fn="strong_wolfe", max_iter=6,
                                                history_size=2, tolerance_grad=1e-5)),
]

# Steps before the checkpoint and after it (default: 2 and 1): RAdam's rectified steps begin at
# step 6.
STEPS = {"RAdam": (5, 2)}


def steps_of(cls_name):
    """A case's steps before its checkpoint and after it."""
    return STEPS.get(cls_name, (2, 1))


# Optimizers whose step() takes a closure (LBFGS): their cases minimize bounded_loss_of (LBFGS
# runs many iterations per step, and loss_of has no minimum) over contiguous parameters (LBFGS
# flattens gradients with view(-1), which a transposed parameter's gradient refuses, as torch).
CLOSURE = {"LBFGS"}

# Cases recorded and compared in float64 only: LBFGS run to convergence, where float32's rounding
# decides after which iteration it stops.
FLOAT64_ONLY = {"lbfgs", "lbfgs_strong_wolfe"}


def make_params(T, dtype, contiguous=False):
    """A (3, 4) weight, a transposed (4, 3).t() one (dense, not contiguous; with contiguous=True
    copied into a contiguous tensor, the same values) and a (5,) bias."""
    rs = np.random.RandomState(0)
    a = T.tensor(rs.randn(3, 4), dtype=dtype)
    b = T.tensor(rs.randn(4, 3), dtype=dtype).t()
    if contiguous:
        b = b.contiguous()
    c = T.tensor(rs.randn(5), dtype=dtype)
    return [T.nn.Parameter(a), T.nn.Parameter(b), T.nn.Parameter(c)]


def params_for(T, cls_name, dtype):
    return make_params(T, dtype, contiguous=cls_name in CLOSURE)


def loss_of(T, ps):
    return (ps[0] ** 3).sum() + (ps[1] * ps[1].sin()).sum() + (ps[2] * ps[0][0, 0]).cos().sum()


def bounded_loss_of(T, ps):
    """A loss with minima (for LBFGS): a double well, a tilted parabola, loss_of's coupling."""
    return (((ps[0] ** 2 - 1) ** 2).sum() + (ps[1] ** 2 + ps[1].sin()).sum()
            + (ps[2] * ps[0][0, 0]).cos().sum() + 0.1 * (ps[2] ** 2).sum())


def take_steps(T, opt, ps, n):
    for _ in range(n):
        opt.zero_grad()
        loss_of(T, ps).backward()
        opt.step()


def take_closure_steps(T, opt, ps, n):
    """n steps of an optimizer that re-evaluates the loss through a closure (LBFGS)."""
    def closure():
        opt.zero_grad()
        loss = bounded_loss_of(T, ps)
        loss.backward()
        return loss
    for _ in range(n):
        opt.step(closure)


def advance(T, cls_name, opt, ps, n):
    """n steps of a case's optimizer, with a closure where its step() takes one."""
    (take_closure_steps if cls_name in CLOSURE else take_steps)(T, opt, ps, n)


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


# Optimizers and options run on a group whose parameters are at different steps (uneven_steps),
# with foreach=None (torch 1.13's for-loop) and foreach=True: where the per-parameter scalars
# differ, the foreach paths fall back to loops; ASGD's torch 1.13 foreach=True uses the first
# parameter's eta for all (asgd.py's Note).
UNEVEN = [("Adamax", dict(lr=0.05, weight_decay=0.1)), ("NAdam", dict(lr=0.05)),
          ("RAdam", dict(lr=0.05, weight_decay=0.1)), ("ASGD", dict(lr=0.05, t0=1)),
          ("Rprop", dict(lr=0.05))]


def uneven_steps(T, cls_name, options):
    """Six steps of a float64 group of two parameters, the second joining at the second step (no
    gradient before): at the last, RAdam's first parameter takes a rectified step and its second
    does not. Returns both parameters' values."""
    rs = np.random.RandomState(1)
    p = T.nn.Parameter(T.tensor(rs.randn(4), dtype=T.float64))
    q = T.nn.Parameter(T.tensor(rs.randn(3), dtype=T.float64))
    opt = getattr(T.optim, cls_name)([p, q], **options)
    for i in range(6):
        opt.zero_grad()
        loss = (p ** 3).sum() + (p[0] * p[1]).sin()
        if i > 0:
            loss = loss + (q * q.sin()).sum() + (q[0] * p[0]).cos()
        loss.backward()
        opt.step()
    return [np.asarray(t.detach().tolist(), dtype=np.float64).tolist() for t in (p, q)]


# (key, class, constructor options) of the recorded reprs: two groups, the second with lr=0.5
# (LBFGS takes one group only).
REPRS = [("SGD", "SGD", dict(lr=0.1)), ("Adam", "Adam", {}), ("AdamW", "AdamW", {}),
         ("RMSprop", "RMSprop", {}), ("Adagrad", "Adagrad", {}), ("Adadelta", "Adadelta", {}),
         ("Adamax", "Adamax", {}), ("NAdam", "NAdam", {}), ("RAdam", "RAdam", {}),
         ("ASGD", "ASGD", {}), ("Rprop", "Rprop", {}), ("LBFGS", "LBFGS", {}),
         ("LBFGS_strong_wolfe", "LBFGS", dict(line_search_fn="strong_wolfe", max_iter=4))]


def repr_of(T, cls_name, options):
    p = T.nn.Parameter(T.ones(2))
    q = T.nn.Parameter(T.ones(3))
    groups = [{"params": [p]}]
    if cls_name not in CLOSURE:
        groups.append({"params": [q], "lr": 0.5})
    return repr(getattr(T.optim, cls_name)(groups, **options))


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
        "adamax_beta1": error_of(lambda: O.Adamax([p], betas=(0.9, 1.0))),
        "adamax_weight_decay": error_of(lambda: O.Adamax([p], weight_decay=-0.5)),
        "nadam_lr": error_of(lambda: O.NAdam([p], lr=-0.01)),
        "nadam_momentum_decay": error_of(lambda: O.NAdam([p], momentum_decay=-1e-3)),
        "radam_eps": error_of(lambda: O.RAdam([p], eps=-1e-8)),
        "radam_beta0": error_of(lambda: O.RAdam([p], betas=(-0.1, 0.9))),
        "asgd_lr": error_of(lambda: O.ASGD([p], lr=-1)),
        "asgd_weight_decay": error_of(lambda: O.ASGD([p], weight_decay=-0.1)),
        "rprop_lr": error_of(lambda: O.Rprop([p], lr=-1)),
        "rprop_etas": error_of(lambda: O.Rprop([p], etas=(1.5, 2.0))),
        "rprop_etaplus": error_of(lambda: O.Rprop([p], etas=(0.5, 1.0))),
        "lbfgs_groups": error_of(lambda: O.LBFGS([{"params": [p]}, {"params": [q]}])),
    }
    out.update(lbfgs_step_errors(T))
    sgd1 = O.SGD([p], lr=0.1)
    sgd2 = O.SGD([{"params": [p]}, {"params": [q]}], lr=0.1)
    sgd3 = O.SGD([p, q], lr=0.1)
    out["load_groups"] = error_of(lambda: sgd1.load_state_dict(sgd2.state_dict()))
    out["load_sizes"] = error_of(lambda: sgd1.load_state_dict(sgd3.state_dict()))
    return out


def lbfgs_step_errors(T):
    """LBFGS.step's errors: no closure; a line search other than strong_wolfe; a transposed
    parameter, whose gradient view(-1) refuses."""
    def closure_of(opt, ps):
        def closure():
            opt.zero_grad()
            loss = sum((x * x).sum() for x in ps)
            loss.backward()
            return loss
        return closure

    def step(ps, **options):
        opt = T.optim.LBFGS(ps, **options)
        opt.step(closure_of(opt, ps))

    p = T.nn.Parameter(T.ones(2))
    w = T.nn.Parameter(T.ones(3, 2).t())
    return {
        "lbfgs_no_closure": error_of(lambda: T.optim.LBFGS([p]).step()),
        "lbfgs_line_search": error_of(lambda: step([p], line_search_fn="backtracking")),
        "lbfgs_transposed": error_of(lambda: step([p, w])),
    }
