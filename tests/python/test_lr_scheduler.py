"""opscope.optim.lr_scheduler against torch 1.13: every schedule's rates (and momentum / beta1
where a schedule moves it) step by step, recorded from torch (make_torch_reference_lr.py ->
data/lr_scheduler_torch.json; cases in lr_scheduler_cases.py), the errors, the warnings, and
state_dict round trips.

    PYTHONPATH=core/python:build/python /usr/bin/python3 -m pytest -q tests/python/test_lr_scheduler.py
"""
import json
import os
import warnings

import pytest

import opscope
import lr_scheduler_cases as cases

S = opscope.optim.lr_scheduler
with open(os.path.join(os.path.dirname(__file__), "data", "lr_scheduler_torch.json")) as f:
    TORCH = json.load(f)


@pytest.mark.parametrize("name", sorted(cases.CASES))
def test_the_schedule_is_torchs_to_the_last_bit(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = cases.run(opscope, name)
    # Same recurrences, same float operations: equal, not just close.
    assert got == TORCH["runs"][name]


@pytest.mark.parametrize("text", cases.ERRORS)
def test_errors_are_torchs(text):
    assert cases.error_of(opscope, text) == TORCH["errors"][text]


def sgd():
    return cases.make_optimizer(opscope, "SGD")


def test_stepping_the_scheduler_before_the_optimizer_warns_as_torch():
    opt = sgd()
    sched = S.StepLR(opt, 2)
    with pytest.warns(UserWarning, match=r"Detected call of `lr_scheduler.step\(\)` before `optimizer.step\(\)`"):
        sched.step()
    opt = sgd()
    sched = S.StepLR(opt, 2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        opt.step()
        sched.step()
        assert sched.get_last_lr() == [0.1, 0.05]
    with pytest.warns(UserWarning, match="please use `get_last_lr\\(\\)`"):
        sched.get_lr()
    opt = sgd()
    sched = S.StepLR(opt, 2)
    opt.step = lambda: None  # replaced after the scheduler wrapped it
    with pytest.warns(UserWarning, match="Seems like `optimizer.step\\(\\)` has been overridden"):
        sched.step()


def test_an_explicit_epoch_uses_the_closed_form_and_warns():
    opt = sgd()
    sched = S.StepLR(opt, step_size=2, gamma=0.5)
    opt.step()
    with pytest.warns(UserWarning, match="The epoch parameter in `scheduler.step\\(\\)` was not necessary"):
        sched.step(5)
    assert sched.get_last_lr() == [0.1 * 0.25, 0.05 * 0.25]


def test_state_dict_round_trip_resumes_the_schedule():
    opt = sgd()
    sched = S.CosineAnnealingLR(opt, T_max=6)
    for _ in range(3):
        opt.step()
        sched.step()
    state = sched.state_dict()
    assert "optimizer" not in state and state["last_epoch"] == 3 and state["T_max"] == 6
    opt2 = sgd()
    for g, g2 in zip(opt.param_groups, opt2.param_groups):
        g2["lr"] = g["lr"]
    sched2 = S.CosineAnnealingLR(opt2, T_max=6)
    sched2.load_state_dict(state)
    for _ in range(4):
        opt.step(); sched.step()
        opt2.step(); sched2.step()
        assert sched2.get_last_lr() == sched.get_last_lr()


def test_lambda_state_keeps_callable_objects_not_functions():
    class Warmup:
        def __init__(self):
            self.steps = 4

        def __call__(self, epoch):
            return min(1.0, (epoch + 1) / self.steps)

    opt = sgd()
    sched = S.LambdaLR(opt, [Warmup(), lambda e: 1.0])
    state = sched.state_dict()
    assert state["lr_lambdas"] == [{"steps": 4}, None]
    state["lr_lambdas"][0]["steps"] = 2
    sched.load_state_dict(state)
    assert sched.lr_lambdas[0].steps == 2


def test_plateau_state_and_verbose(capsys):
    opt = sgd()
    sched = S.ReduceLROnPlateau(opt, patience=0, verbose=True)
    sched.step(1.0)
    sched.step(2.0)
    assert capsys.readouterr().out == ("Epoch 00002: reducing learning rate of group 0 to 1.0000e-02.\n"
                                       "Epoch 00002: reducing learning rate of group 1 to 5.0000e-03.\n")
    state = sched.state_dict()
    assert state["best"] == 1.0 and state["last_epoch"] == 2
    again = S.ReduceLROnPlateau(sgd())
    again.load_state_dict(state)
    assert again.is_better(0.5, again.best) and again.patience == 0
