"""The Model Optimizer's module ``mo.ops.MatMul`` (extension authors import it): MatMul."""
from mo.ops.matmul import MatMul

__all__ = ['MatMul']
