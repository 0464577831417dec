"""The Model Optimizer's module ``mo.ops.argmax`` (extension authors import it): ArgMax (``ArgMaxOp``)."""
from mo.ops.nn_ops import ArgMax as ArgMaxOp

__all__ = ['ArgMaxOp']
