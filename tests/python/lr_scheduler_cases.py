"""Learning-rate schedules run the same way with torch 1.13 (make_torch_reference_lr.py records
them into data/lr_scheduler_torch.json) and with opscope (test_lr_scheduler.py): `m` is the tensor
module, `opt` the optimizer the case builds over two parameter groups, `S` m.optim.lr_scheduler."""

# name: (optimizer, scheduler, steps). Each step is optimizer.step() then scheduler.step(); the
# recording is every group's lr (and momentum / beta1 where the schedule moves it) after each.
CASES = {
    "step": ("SGD", "S.StepLR(opt, step_size=3, gamma=0.5)", 10),
    "multistep": ("SGD", "S.MultiStepLR(opt, milestones=[2, 5, 5, 8], gamma=0.3)", 10),
    "exponential": ("SGD", "S.ExponentialLR(opt, gamma=0.9)", 12),
    "cosine": ("SGD", "S.CosineAnnealingLR(opt, T_max=5, eta_min=0.001)", 23),
    "lambda": ("SGD", "S.LambdaLR(opt, lr_lambda=[lambda e: 0.95 ** e, lambda e: 1 / (e + 1)])", 8),
    "multiplicative": ("SGD", "S.MultiplicativeLR(opt, lr_lambda=lambda e: 0.9)", 8),
    "constant": ("SGD", "S.ConstantLR(opt, factor=0.25, total_iters=4)", 8),
    "linear": ("SGD", "S.LinearLR(opt, start_factor=0.2, end_factor=0.9, total_iters=6)", 9),
    "polynomial": ("SGD", "S.PolynomialLR(opt, total_iters=6, power=2.0)", 9),
    "sequential": ("SGD", "S.SequentialLR(opt, [S.LinearLR(opt, start_factor=0.1, total_iters=3), "
                          "S.ExponentialLR(opt, gamma=0.8)], milestones=[3])", 10),
    "chained": ("SGD", "S.ChainedScheduler([S.ConstantLR(opt, factor=0.5, total_iters=3), "
                       "S.ExponentialLR(opt, gamma=0.9)])", 8),
    "onecycle_sgd": ("SGD", "S.OneCycleLR(opt, max_lr=[0.5, 0.05], total_steps=20)", 20),
    "onecycle_adam_linear_3phase": ("Adam", "S.OneCycleLR(opt, max_lr=0.01, epochs=3, steps_per_epoch=5, "
                                            "anneal_strategy='linear', three_phase=True, pct_start=0.25)", 15),
    "cyclic_triangular2": ("SGD", "S.CyclicLR(opt, base_lr=0.01, max_lr=0.1, step_size_up=3, "
                                  "step_size_down=2, mode='triangular2')", 16),
    "cyclic_exp_range": ("SGD", "S.CyclicLR(opt, base_lr=[0.01, 0.02], max_lr=0.1, step_size_up=4, "
                                "mode='exp_range', gamma=0.9)", 12),
    "warm_restarts": ("SGD", "S.CosineAnnealingWarmRestarts(opt, T_0=3, T_mult=2, eta_min=0.01)", 16),
    "plateau": ("SGD", "S.ReduceLROnPlateau(opt, mode='min', factor=0.5, patience=1, cooldown=1, "
                       "min_lr=[0.01, 0.0])", 12),
}

# The metric ReduceLROnPlateau is stepped with, per step.
PLATEAU_METRICS = [1.0, 0.9, 0.95, 0.95, 0.7, 0.8, 0.8, 0.8, 0.8, 0.5, 0.6, 0.6]

# Errors: constructor calls and what torch raises.
ERRORS = [
    "S.StepLR(object(), 2)",
    "S.ConstantLR(opt, factor=2.0)",
    "S.LinearLR(opt, start_factor=-0.1)",
    "S.LambdaLR(opt, lr_lambda=[lambda e: 1.0])",
    "S.OneCycleLR(opt, max_lr=0.1)",
    "S.OneCycleLR(opt, max_lr=0.1, total_steps=0)",
    "S.OneCycleLR(opt, max_lr=0.1, total_steps=10, pct_start=1)",
    "S.OneCycleLR(opt, max_lr=0.1, total_steps=10, anneal_strategy='exp')",
    "S.CosineAnnealingWarmRestarts(opt, T_0=0)",
    "S.ReduceLROnPlateau(opt, factor=1.0)",
    "S.ReduceLROnPlateau(opt, mode='best')",
    "S.CyclicLR(opt, 0.1, 1.0, mode='sine')",
    "S.StepLR(opt, 2, last_epoch=3)",
    "S.SequentialLR(opt, [S.StepLR(opt, 2)], milestones=[3])",
]


def make_optimizer(m, kind):
    """Two parameter groups with different rates."""
    a = m.nn.Parameter(m.ones(2))
    b = m.nn.Parameter(m.ones(3))
    groups = [{"params": [a]}, {"params": [b], "lr": 0.05}]
    if kind == "Adam":
        return m.optim.Adam(groups, lr=0.1)
    return m.optim.SGD(groups, lr=0.1, momentum=0.9)


def run(m, name):
    kind, make, steps = CASES[name]
    opt = make_optimizer(m, kind)
    S = m.optim.lr_scheduler
    sched = eval(make, {"S": S, "opt": opt})
    rows = []
    for i in range(steps):
        opt.step()
        if name == "plateau":
            sched.step(PLATEAU_METRICS[i])
        else:
            sched.step()
        row = []
        for g in opt.param_groups:
            row.append(g["lr"])
            if "momentum" in g:
                row.append(g["momentum"])
            if "betas" in g:
                row.append(g["betas"][0])
        rows.append(row)
    return rows


def error_of(m, text):
    opt = make_optimizer(m, "SGD")
    try:
        eval(text, {"S": m.optim.lr_scheduler, "opt": opt})
    except Exception as e:  # noqa: BLE001 — the outcome recorded is the exception
        return [type(e).__name__, str(e)]
    return None
