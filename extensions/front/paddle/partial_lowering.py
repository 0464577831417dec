"""Paddle's partial_concat and partial_sum (``Paddle_partial`` of ``tensor_ext.py``; ops of recommendation models
OpenVINO's Paddle front end maps) as opset ops: both take columns ``[start_index, start_index + length)`` of
each of their 2-D inputs (``length`` -1: to the last column), then concatenate them along the columns or add
them up."""
import numpy as np

from extensions.front.paddle.formulas import I64, attr, slot_ports
from mo.front.common.rule import Builder, OpRule
from mo.front.paddle.extractor_utils import node_name
from mo.graph.graph import Node
from mo.ops.concat import Concat
from mo.ops.elementwise import Add
from mo.ops.slice import Slice
from mo.utils.error import Error

_TO_THE_END = np.iinfo(np.int64).max


def column_range(op: str, name: str, start: int, length: int):
    """``(begin, end)`` of Slice along the columns: a negative start counts from the last column (partial_concat
    does; Paddle's partial_sum reads outside its inputs then, so it is refused); end past the columns when the
    range runs to the end."""
    if start < 0 and op == 'partial_sum':
        raise Error('Paddle partial_sum "{}": start_index {} is negative, which Paddle\'s partial_sum does not '
                    'support (its kernel reads outside the inputs)', name, start)
    if length < 0:
        return start, _TO_THE_END
    end = start + length
    return start, _TO_THE_END if start < 0 <= end else end


class PartialLowering(OpRule):
    """partial_concat = Concat(X_i[:, start:start + length]) along axis 1; partial_sum = the sum of those slices."""
    op = 'Paddle_partial'

    def rewrite(self, node: Node, b: Builder):
        op = node.soft_get('formula', 'partial_concat')
        begin, end = column_range(op, node_name(node), int(attr(node, 'start_index', 0)), int(attr(node, 'length', -1)))
        inputs = slot_ports(node, 'X')
        if not inputs:
            raise Error('Paddle {} "{}" has no inputs', op, node_name(node))
        begin_const = b.const(np.array([begin], I64), 'begin')
        end_const = b.const(np.array([end], I64), 'end')
        step, axes = b.const(np.array([1], I64), 'step'), b.const(np.array([1], I64), 'axes')
        columns = [b.op(Slice, [x, begin_const, end_const, step, axes], 'columns_{}'.format(i))
                   for i, x in enumerate(inputs)]
        if op == 'partial_concat':
            return [b.op(Concat, columns, 'concat', axis=1, in_ports_count=len(columns))]
        total = columns[0]
        for i, part in enumerate(columns[1:], 1):
            total = b.op(Add, [total, part], 'sum_{}'.format(i))
        return [total]
