"""The legacy ``Power`` op: ``(scale * x + shift) ** power``.

Old extensions build it with any of ``scale``, ``shift``, ``power``; the back phase lowers it
to Multiply / Add / Power with constant inputs, leaving out the steps that are identities.
"""
import numpy as np

from mo.front.common.partial_infer.elemental import copy_shape_infer
from mo.ops.op import Op
from mo.compat.ops_hook import legacy_op_names


class Power(Op):
    """Element-wise ``(scale * x + shift) ** power`` with scalar attributes."""
    op = 'Power'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {
            'op': 'Power', 'scale': 1.0, 'shift': 0.0, 'power': 1.0,
            'infer': Power.infer, 'in_ports_count': 1, 'out_ports_count': 1,
        }, attrs)

    @staticmethod
    def compute(node, x):
        result = np.power(np.asarray(x) * node.scale + node.shift, node.power)
        return result.astype(np.asarray(x).dtype)

    @staticmethod
    def infer(node):
        copy_shape_infer(node, lambda x: Power.compute(node, x))


# the Model Optimizer's classes of this module path that mo has not (its extractors import them) come from mo.compat
__getattr__ = legacy_op_names(__name__)
