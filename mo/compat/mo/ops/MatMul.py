"""The Model Optimizer's module ``mo.ops.MatMul`` (extension authors import it): MatMul."""
from mo.ops.matmul import MatMul
from mo.compat.ops_hook import legacy_op_names

__all__ = ['MatMul']


# the Model Optimizer's classes of this module path that mo has not (its extractors import them) come from mo.compat
__getattr__ = legacy_op_names(__name__)
