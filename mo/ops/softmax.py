"""The Model Optimizer's module ``mo.ops.softmax`` (extension authors import it): Softmax and LogSoftmax."""
from mo.ops.nn_ops import LogSoftmax, Softmax

__all__ = ['LogSoftmax', 'Softmax']
