"""The Model Optimizer's module ``mo.ops.ReduceOps`` (extension authors import it): The reductions (``ReduceMean``, ``ReduceSum``, ... ``ReduceAnd``/``ReduceOr``)."""
from mo.ops.reduce import (Reduce, ReduceLogicalAnd, ReduceLogicalOr, ReduceMax, ReduceMean, ReduceMin,
                           ReduceProd, ReduceSum)

ReduceAnd = ReduceLogicalAnd
ReduceOr = ReduceLogicalOr

__all__ = ['Reduce', 'ReduceAnd', 'ReduceOr', 'ReduceLogicalAnd', 'ReduceLogicalOr', 'ReduceMax', 'ReduceMean',
           'ReduceMin', 'ReduceProd', 'ReduceSum']
