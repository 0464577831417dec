"""The Model Optimizer's module ``mo.ops.softmax`` (extension authors import it): Softmax and LogSoftmax."""
from mo.ops.nn_ops import LogSoftmax, Softmax
from mo.compat.ops_hook import legacy_op_names

__all__ = ['LogSoftmax', 'Softmax']


# the Model Optimizer's classes of this module path that mo has not (its extractors import them) come from mo.compat
__getattr__ = legacy_op_names(__name__)
