"""``opscope.optim``: torch.optim's optimizers with torch 1.13's update rules, parameter groups,
state, state_dict and printing — SGD, Adam, AdamW, RMSprop, Adagrad, Adadelta, Adamax, NAdam,
RAdam, ASGD, Rprop and LBFGS, one file each as torch.optim files them — and the learning-rate
schedules (lr_scheduler). Each step runs tensor by tensor, over all parameters with the
_foreach_* ops, or fused into one pass over each parameter's memory (see optimizer.py); LBFGS
works on all parameters as one flat vector and needs a closure.

>>> import opscope
>>> w = opscope.nn.Parameter(opscope.tensor([1.0, -2.0]))
>>> opt = opscope.optim.SGD([w], lr=0.1, momentum=0.9)
>>> (w * w).sum().backward()
>>> opt.step()
>>> w
Parameter containing:
tensor([ 0.8000, -1.6000], requires_grad=True)
"""
from .optimizer import Optimizer  # noqa: F401
from .sgd import SGD  # noqa: F401
from .adam import Adam  # noqa: F401
from .adamw import AdamW  # noqa: F401
from .rmsprop import RMSprop  # noqa: F401
from .adagrad import Adagrad  # noqa: F401
from .adadelta import Adadelta  # noqa: F401
from .adamax import Adamax  # noqa: F401
from .nadam import NAdam  # noqa: F401
from .radam import RAdam  # noqa: F401
from .asgd import ASGD  # noqa: F401
from .rprop import Rprop  # noqa: F401
from .lbfgs import LBFGS  # noqa: F401

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adadelta", "Adamax",
           "NAdam", "RAdam", "ASGD", "Rprop", "LBFGS"]

from opscope.optim import lr_scheduler  # noqa: E402,F401  (schedules: opscope/optim/lr_scheduler.py)
