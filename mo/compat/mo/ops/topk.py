"""The Model Optimizer's module ``mo.ops.topk`` (extension authors import it): TopK."""
from mo.ops.nn_ops import TopK

__all__ = ['TopK']
