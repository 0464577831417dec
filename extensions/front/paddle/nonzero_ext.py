"""Paddle's ``where_index`` (classic) and ``nonzero`` (PIR): the int64 coordinates of the non-zero (true)
elements, one row each in row-major order, ``[count, rank]``: Transpose(NonZero(x)), NonZero giving them one
column each."""
import numpy as np

from extensions.front.onnx.nn_formulas import I64
from mo.front.common.rule import Builder, OpRule
from mo.front.extractor import FrontExtractorOp
from mo.graph.graph import Node
from mo.ops.tensor_ops import NonZero
from mo.ops.transpose import Transpose


class WhereIndexExtractor(FrontExtractorOp):
    """where_index, nonzero -> PaddleWhereIndex (then Transpose(NonZero))."""
    op = ['where_index', 'nonzero']
    framework = 'paddle'

    @classmethod
    def describe(cls, op):
        return 'NonZero (opset3) + Transpose'

    @classmethod
    def extract(cls, node):
        node['paddle_op'] = node['op']
        node['op'] = 'PaddleWhereIndex'
        return True


class PaddleWhereIndexLowering(OpRule):
    """PaddleWhereIndex(x) = Transpose(NonZero(x), [1, 0])."""
    op = 'PaddleWhereIndex'

    def rewrite(self, node: Node, b: Builder):
        port = ((node.soft_get('in_slots', None) or {}).get('Condition') or
                (node.soft_get('in_slots', None) or {}).get('X') or [0])[0]
        found = b.op(NonZero, [node.in_port(port)], 'nonzero', output_type=np.dtype(I64))
        return b.op(Transpose, [found, b.const([1, 0], 'order', I64)], 'rows')
