"""The Model Optimizer's ``concat_infer``: Concat's shape and value inference (axis from ``node.axis``)."""
from mo.ops.concat import Concat

concat_infer = Concat.infer

__all__ = ['concat_infer']
