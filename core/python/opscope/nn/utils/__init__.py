"""``opscope.nn.utils``: gradient clipping (clip_grad.py), parameters as one flat vector
(convert_parameters.py) and, in rnn.py, packed sequences — as torch.nn.utils."""

from opscope.nn.utils.clip_grad import clip_grad_norm, clip_grad_norm_, clip_grad_value_  # noqa: F401
from opscope.nn.utils.convert_parameters import parameters_to_vector, vector_to_parameters  # noqa: F401
from opscope.nn.utils import rnn  # noqa: F401,E402
