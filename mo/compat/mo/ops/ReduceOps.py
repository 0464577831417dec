"""The Model Optimizer's module ``mo.ops.ReduceOps`` (extension authors import it): the reductions (``ReduceMean``,
``ReduceSum``, ... ``ReduceAnd``/``ReduceOr``)."""
from mo.ops.reduce import (Reduce, ReduceAnd, ReduceLogicalAnd, ReduceLogicalOr, ReduceMax, ReduceMean, ReduceMin,
                           ReduceOr, ReduceProd, ReduceSum)
from mo.compat.ops_hook import legacy_op_names

__all__ = ['Reduce', 'ReduceAnd', 'ReduceOr', 'ReduceLogicalAnd', 'ReduceLogicalOr', 'ReduceMax', 'ReduceMean',
           'ReduceMin', 'ReduceProd', 'ReduceSum']


# the Model Optimizer's classes of this module path that mo has not (its extractors import them) come from mo.compat
__getattr__ = legacy_op_names(__name__)
