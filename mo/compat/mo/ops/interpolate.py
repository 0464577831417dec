"""The Model Optimizer's module ``mo.ops.interpolate`` (extension authors import it): Interpolate."""
from mo.ops.nn_ops import Interpolate

__all__ = ['Interpolate']
