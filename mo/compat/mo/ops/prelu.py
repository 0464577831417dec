"""The Model Optimizer's module ``mo.ops.prelu`` (extension authors import it): PReLU."""
from mo.ops.nn_ops import PRelu as PReLU

__all__ = ['PReLU']
