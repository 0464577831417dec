"""Extractors for TensorFlow's bitwise ops and Bitcast.

BitwiseAnd/Or/Xor and Invert are opset13 ops; Bitcast keeps its TF name with its element types (``data_type`` from
``T``, ``dst_type`` from ``type``) for ``bitwise_lowering``. LeftShift and RightShift become the internal
``IntegerShift`` with TF's rule for amounts outside ``[0, bits)``: its CPU kernel clamps them into that range.
"""
import numpy as np

from mo.front.extractor import FrontExtractorOp, opset_type
from mo.front.tf.extractor_utils import tf_dtype_attr
from mo.ops.bitwise import BitwiseAnd, BitwiseNot, BitwiseOr, BitwiseXor, IntegerShift

_OPSET = {'BitwiseAnd': BitwiseAnd, 'BitwiseOr': BitwiseOr, 'BitwiseXor': BitwiseXor, 'Invert': BitwiseNot}

#: TF ops lowered by ``bitwise_lowering``, and what they become
_LOWERED = {
    'Bitcast': 'a folded constant; at run time between types of one width, a Convert between integers and exact '
               'formulas between float16/float32 and integers',
}


class BitwiseExtractor(FrontExtractorOp):
    """BitwiseAnd/Or/Xor, Invert -> BitwiseAnd/Or/Xor, BitwiseNot (opset13)."""
    op = sorted(_OPSET)

    @classmethod
    def describe(cls, op):
        return opset_type(_OPSET[op])

    @classmethod
    def extract(cls, node):
        _OPSET[node.op].update_node_stat(node, {})
        return True


class ShiftExtractor(FrontExtractorOp):
    """LeftShift, RightShift -> IntegerShift (left/right, amounts clamped into [0, bits) as TF's CPU kernel does;
    a right shift of a signed type is arithmetic); ``extensions/middle/bitshift_lowering.py`` writes it."""
    op = ['LeftShift', 'RightShift']

    @classmethod
    def describe(cls, op):
        return 'opset13 formulas of exact steps, the amount clamped into [0, bits) as TF does; >> arithmetic on signed types'

    @classmethod
    def extract(cls, node):
        IntegerShift.update_node_stat(node, {'direction': 'left' if node.op == 'LeftShift' else 'right',
                                             'out_of_range': 'clamp'})
        return True


class BitcastExtractor(FrontExtractorOp):
    """Bitcast: the node keeps its op name and records its element types."""
    op = sorted(_LOWERED)

    @classmethod
    def describe(cls, op):
        return _LOWERED[op]

    @classmethod
    def extract(cls, node):
        node['data_type'] = tf_dtype_attr(node, 'T', np.dtype(np.float32))
        node['dst_type'] = tf_dtype_attr(node, 'type')
        node['in_ports_count'] = 1
        node['out_ports_count'] = 1
        return True
