"""Bitcast: the bits of each element read as another element type of the same width (TF's Bitcast between types
of one width, ONNX's BitCast).

An internal op: OpenVINO has no op that reinterprets bits, so ``extensions/middle/bitcast_lowering.py`` writes it
with opset13 ops once the input's element type is known. A constant input folds (numpy's ``view``).
"""
import numpy as np

from mo.front.common.partial_infer.elemental import copy_shape_infer
from mo.ops.op import Op
from mo.utils.error import Error


class Bitcast(Op):
    """Input 0: any tensor; output 0: the same shape, element type ``dst_type`` (a numpy dtype of the same width)."""
    op, type = 'Bitcast', None

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {
            'type': None, 'op': 'Bitcast', 'infer': Bitcast.infer, 'type_infer': Bitcast.type_infer,
            'in_ports_count': 1, 'out_ports_count': 1,
        }, attrs)

    @staticmethod
    def infer(node):
        dst_type = np.dtype(node.dst_type)

        def view(value):
            value = np.ascontiguousarray(value)
            if value.dtype.itemsize != dst_type.itemsize:
                raise Error('Bitcast "{}": {} and {} differ in width', node.soft_get('name', node.id), value.dtype,
                            dst_type)
            return value.view(dst_type)
        copy_shape_infer(node, view)

    @staticmethod
    def type_infer(node):
        node.out_port(0).data.set_data_type(node.dst_type)
