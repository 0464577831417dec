"""The legacy ``Eltwise`` op of the Model Optimizer's first IR versions.

Old extensions build ``Eltwise(graph, dict(operation='sum'))``; the back phase lowers each one
to the opset op of the same meaning (Add, Multiply, Maximum, ...), so it never reaches the IR.
"""
import functools

import numpy as np

from mo.front.common.partial_infer.elemental import eltwise_infer
from mo.ops.op import Op
from mo.utils.error import Error

#: legacy ``operation`` -> (opset type, numpy function)
OPERATIONS = {
    'sum': ('Add', np.add),
    'mul': ('Multiply', np.multiply),
    'max': ('Maximum', np.maximum),
    'min': ('Minimum', np.minimum),
    'sub': ('Subtract', np.subtract),
    'div': ('Divide', np.divide),
    'pow': ('Power', np.power),
}


class Eltwise(Op):
    """An n-ary element-wise ``operation`` over its inputs, applied left to right."""
    op = 'Eltwise'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {
            'op': 'Eltwise', 'operation': 'sum', 'infer': Eltwise.infer, 'in_ports_count': 2, 'out_ports_count': 1,
        }, attrs)
        if self.attrs['operation'] not in OPERATIONS:
            raise Error('Eltwise "{}": unknown operation "{}" (known: {})', self.attrs.get('name', ''),
                        self.attrs['operation'], ', '.join(sorted(OPERATIONS)))

    @staticmethod
    def infer(node):
        fn = OPERATIONS[node.operation][1]
        eltwise_infer(node, lambda *values: functools.reduce(
            lambda a, b: fn(a, b).astype(np.result_type(a, b)), values))
