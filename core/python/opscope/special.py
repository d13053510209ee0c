"""``opscope.special``: torch.special's functions that opscope has ops for. Each is the aten
``special_*`` op, an alias of the op it names (special_expit -> sigmoid), so a trace reads as
torch's: ``special_expit -> sigmoid``.

>>> import opscope
>>> opscope.special.expit(opscope.tensor([0.0]))
tensor([0.5000])
"""

from opscope import _C

_functions = _C._VariableFunctions

expit = _functions.special_expit
logit = _functions.special_logit
erf = _functions.special_erf
erfc = _functions.special_erfc
erfinv = _functions.special_erfinv
gammaln = _functions.special_gammaln
digamma = _functions.special_digamma
psi = _functions.special_psi
polygamma = _functions.special_polygamma
sinc = _functions.special_sinc
xlogy = _functions.special_xlogy
exp2 = _functions.special_exp2
expm1 = _functions.special_expm1
log1p = _functions.special_log1p
round = _functions.special_round
logsumexp = _functions.special_logsumexp
softmax = _functions.special_softmax
log_softmax = _functions.special_log_softmax
i0 = _functions.special_i0
i0e = _functions.special_i0e
i1 = _functions.special_i1
i1e = _functions.special_i1e

__all__ = ["expit", "logit", "erf", "erfc", "erfinv", "gammaln", "digamma", "psi", "polygamma",
           "sinc", "xlogy", "exp2", "expm1", "log1p", "round", "logsumexp", "softmax", "log_softmax",
           "i0", "i0e", "i1", "i1e"]
