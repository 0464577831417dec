"""Paddle's tensor-array ops on an array held as one tensor, its elements stacked on a new axis 0 (what a Loop's
scan output is: ``array_scan.py``; what ``array_static.py`` makes of writes at constant indexes):

* ``tensor_array_to_tensor`` / PIR ``array_to_tensor`` -> Out: the elements stacked on ``axis`` (``use_stack``)
  or concatenated on it; OutIndex (int32): each element's size along ``axis`` (1 each when stacked);
* ``lod_array_length`` / PIR ``array_length`` -> the element count, int64 ``[1]``;
* ``read_from_array`` / PIR ``array_read`` and ``slice_array_dense`` (``outs[k]``) -> the element at index ``I``
  (negative: from the end, as Paddle's kernel counts it);
* PIR ``slice_array`` (``outs[a:b]``) -> the elements ``Starts`` to ``Ends``, an array again;
* ``create_array`` (an empty array) must have been consumed by the rules that build arrays; one still read
  afterwards is an array used in a way mo does not convert, reported by ``PaddleArrayLeftCheck``.
"""
import numpy as np

from extensions.front.paddle.formulas import I64, attr, port
from mo.front.common.replacement import FrontReplacementPattern
from mo.front.common.rule import Builder, OpRule
from mo.front.common.stacked_formulas import stacked_to_joined
from mo.front.extractor import FrontExtractorOp
from mo.graph.graph import Graph, Node
from mo.ops.broadcast import Broadcast
from mo.ops.convert import Convert
from mo.ops.gather import Gather
from mo.ops.reshape import Reshape
from mo.ops.shapeof import ShapeOf
from mo.ops.slice import Slice
from mo.utils.error import Error

#: Paddle op type -> the internal op of this module
INTERNAL = {'tensor_array_to_tensor': 'PaddleArrayToTensor', 'array_to_tensor': 'PaddleArrayToTensor',
            'lod_array_length': 'PaddleArrayLength', 'array_length': 'PaddleArrayLength',
            'read_from_array': 'PaddleArrayRead', 'array_read': 'PaddleArrayRead',
            'slice_array_dense': 'PaddleArrayRead', 'slice_array': 'PaddleArraySlice',
            'write_to_array': 'PaddleArrayWrite', 'array_write': 'PaddleArrayWrite',
            'create_array': 'PaddleCreateArray'}


#: what each internal op becomes, for the op tables
_BECOMES = {'PaddleArrayToTensor': 'the stacked array moved (Transpose) or merged (Reshape) to the axis',
            'PaddleArrayLength': 'the stacked array\'s first dimension (ShapeOf, Slice)',
            'PaddleArrayRead': 'Gather on the stacked array\'s axis 0',
            'PaddleArraySlice': 'Slice of the stacked array\'s axis 0',
            'PaddleArrayWrite': 'in a while: the Loop\'s scan output; outside: Concat of the elements written at '
                                'constant indexes',
            'PaddleCreateArray': 'an empty array (Loop scan output, or the first of constant-index writes)'}


class PaddleArrayExtractor(FrontExtractorOp):
    """The tensor-array ops -> ``PaddleArray*`` (see the module docstring)."""
    op = sorted(INTERNAL)
    framework = 'paddle'

    @classmethod
    def describe(cls, op):
        return 'Tensor array: ' + _BECOMES[INTERNAL[op]]

    @classmethod
    def extract(cls, node):
        node['paddle_op'] = node.op
        node['op'] = INTERNAL[node.op]
        return True


def _sizes(b: Builder, stacked, tag: str):
    return b.op(ShapeOf, [stacked], tag, output_type=np.dtype(I64))


def _count(b: Builder, stacked, tag: str):
    """The element count of the stacked array, int64 ``[1]``."""
    return b.op(Slice, [_sizes(b, stacked, tag + '/sizes'), b.const([0], tag + '/begin', I64),
                        b.const([1], tag + '/end', I64), b.const([1], tag + '/step', I64)], tag)


class PaddleArrayToTensorLowering(OpRule):
    """tensor_array_to_tensor(X) -> Out: the elements stacked or concatenated on ``axis``; OutIndex: their sizes
    along it."""
    op = 'PaddleArrayToTensor'

    def rewrite(self, node: Node, b: Builder):
        stacked = port(node, 'X')
        axis, use_stack = int(attr(node, 'axis', 0)), bool(attr(node, 'use_stack', False))
        out = stacked_to_joined(b, stacked, axis, use_stack, 'joined')
        count = _count(b, stacked, 'count')
        if use_stack:
            size = b.const(np.array(1, np.int32), 'one', np.int32)
        else:  # the element's size along the axis: axis 1 + axis of the stacked tensor (negative: from the end)
            dim = b.op(Gather, [_sizes(b, stacked, 'sizes'), b.const(axis + 1 if axis >= 0 else axis, 'dim', I64),
                                b.const(0, 'dim_axis', I64)], 'element_size')
            size = b.op(Convert, [dim], 'element_size_i32', dst_type=np.dtype(np.int32))
        index = b.op(Broadcast, [size, count], 'out_index')
        return [out, index]


class PaddleArrayLengthLowering(OpRule):
    """lod_array_length(X) = the first dimension of the stacked array, int64 ``[1]``."""
    op = 'PaddleArrayLength'

    def rewrite(self, node: Node, b: Builder):
        return [_count(b, port(node, 'X'), 'length')]


class PaddleArrayReadLowering(OpRule):
    """read_from_array(X, I) = Gather(stacked X, I as a scalar, axis 0)."""
    op = 'PaddleArrayRead'

    def rewrite(self, node: Node, b: Builder):
        index = b.op(Reshape, [b.op(Convert, [port(node, 'I')], 'index_i64', dst_type=np.dtype(I64)),
                               b.const(np.zeros([0], I64), 'scalar', I64)], 'index')
        return [b.op(Gather, [port(node, 'X'), index, b.const(0, 'axis', I64)], 'read')]


class PaddleArraySliceLowering(OpRule):
    """slice_array(X, Starts, Ends) = Slice of the stacked array on axis 0."""
    op = 'PaddleArraySlice'

    def rewrite(self, node: Node, b: Builder):
        bounds = [b.op(Reshape, [b.op(Convert, [port(node, slot)], slot + '_i64', dst_type=np.dtype(I64)),
                                 b.const([1], slot + '_shape', I64)], slot) for slot in ('Starts', 'Ends')]
        return [b.op(Slice, [port(node, 'X')] + bounds + [b.const([1], 'step', I64)], 'slice')]


class PaddleArrayLeftCheck(FrontReplacementPattern):
    """An array op no rule could make a tensor of (a write at a computed index outside a loop, an array read
    inside a loop that writes it...): one error naming it, not an unconvertible op further on."""
    enabled = True

    def find_and_replace_pattern(self, graph: Graph):
        for node in graph.get_op_nodes():
            if node.soft_get('op') not in ('PaddleCreateArray', 'PaddleArrayWrite'):
                continue
            if node.soft_get('op') == 'PaddleCreateArray' and not any(
                    node.is_out_port_connected(p) for p in node.out_ports()):
                graph.remove_node(node.id)
                continue
            readers = sorted({d.node.soft_get('name', d.node.id) for p in node.out_ports()
                              if node.is_out_port_connected(p) for d in node.out_port(p).get_destinations()})
            raise Error('Paddle tensor array "{}" ({}) is used in a way mo does not convert (read by {}): mo '
                        'converts arrays appended to once per iteration of a while loop, and arrays written at '
                        'constant indexes outside loops', node.soft_get('name', node.id), node.paddle_op,
                        ', '.join(readers) or 'nothing')
