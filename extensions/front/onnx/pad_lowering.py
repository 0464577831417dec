"""ONNX's Pad (the ``ONNXPad`` nodes ``tensor_ext`` leaves) as opset Pad, or as Slices and Concats for ``wrap``.

Pads are ``[x1_begin, x2_begin, ..., x1_end, x2_end, ...]``: an attribute before opset 11, input 1 from it,
for the axes of input 3 (opset 18; all axes when absent). Negative pads crop.
"""
import numpy as np

from extensions.front.onnx.tensor_ext import node_name
from extensions.front.onnx.tensor_lowering import INT64_MAX, constant_input, i64, scalar
from extensions.ops.onnx_tensor import ConvertLike, ScatterElementsUpdate
from mo.front.common.rule import Builder, OpRule
from mo.front.onnx.extractors.utils import get_onnx_opset_version, onnx_attr
from mo.graph.graph import Node
from mo.ops.broadcast import Broadcast
from mo.ops.concat import Concat
from mo.ops.pad import Pad
from mo.ops.shapeof import ShapeOf
from mo.ops.slice import Slice
from mo.ops.split import Split
from mo.utils.error import Error

_MODES = {'constant': 'constant', 'reflect': 'reflect', 'edge': 'edge', 'wrap': None}


class PadLowering(OpRule):
    """Pad(x, pads, value, axes; mode) = Pad-1(x, begin, end, value; mode) with begin, end the halves of pads,
    scattered into zeros at ``axes`` when given; mode ``wrap`` (opset 19) = per axis
    Concat(x[-begin:], x, x[:end]) after cropping, for constant pads."""
    op = 'ONNXPad'

    def rewrite(self, node: Node, b: Builder):
        mode = onnx_attr(node, 'mode', 's', b'constant').decode()
        if mode not in _MODES:
            raise Error('Pad "{}": unknown mode "{}"', node_name(node), mode)
        old = get_onnx_opset_version(node) < 11
        x = node.in_port(0).get_source()
        if old:
            pads, axes = np.array(onnx_attr(node, 'paddings' if get_onnx_opset_version(node) < 2 else 'pads', 'ints'),
                                  dtype=np.int64), None
        else:
            pads, axes = constant_input(node, 1), constant_input(node, 3)
            if node.is_in_port_connected(3) and axes is None and mode == 'wrap':
                raise Error('Pad "{}": mode wrap needs constant axes', node_name(node))
        if mode == 'wrap':
            if pads is None:
                raise Error('Pad "{}": mode wrap needs constant pads', node_name(node))
            return self._wrap(b, x, np.ravel(pads).astype(np.int64), axes)
        begin, end = self._begin_end(node, b, x, pads, axes, old)
        value = None
        if mode == 'constant':
            if old:
                value = b.op(ConvertLike, [b.const(np.float32(onnx_attr(node, 'value', 'f', 0.0)), 'value_f'), x],
                             'value')
            elif node.is_in_port_connected(2):
                value = scalar(b, node.in_port(2), 'value')
        return b.op(Pad, [x, begin, end, value], 'pad', pad_mode=_MODES[mode])

    @staticmethod
    def _begin_end(node, b, x, pads, axes, old):
        """The pads_begin and pads_end inputs of Pad-1, one entry per axis of x."""
        if pads is not None and not node.is_in_port_connected(3):
            pads = np.ravel(pads).astype(np.int64)
            half = pads.size // 2
            return i64(b, pads[:half], 'pads_begin'), i64(b, pads[half:], 'pads_end')
        source = node.in_port(1).get_source() if not old else i64(b, pads, 'pads')
        halves = b.op(Split, [source, i64(b, 0, 'split_axis')], 'halves', num_splits=2)
        if not node.is_in_port_connected(3):
            return halves.out_port(0), halves.out_port(1)
        rank = b.op(ShapeOf, [b.op(ShapeOf, [x], 'shape', output_type=np.int64)], 'rank', output_type=np.int64)
        zeros = b.op(Broadcast, [i64(b, 0, 'zero'), rank], 'zeros', mode='numpy')
        axes_source = node.in_port(3).get_source()
        full = []
        for port, suffix in ((0, 'pads_begin'), (1, 'pads_end')):
            part = b.op(ConvertLike, [halves.out_port(port), zeros], suffix + '/i64')
            full.append(b.op(ScatterElementsUpdate, [zeros, axes_source, part, i64(b, 0, suffix + '/axis')], suffix))
        return full

    @staticmethod
    def _wrap(b, x, pads, axes):
        half = pads.size // 2
        axes = list(range(half)) if axes is None else [int(a) for a in np.ravel(axes)]
        one = i64(b, [1], 'one')
        for axis, before, after in zip(axes, pads[:half], pads[half:]):
            tag = 'axis_{}'.format(axis)
            on_axis = i64(b, [axis], tag + '/axes')
            if before < 0 or after < 0:  # crop first
                x = b.op(Slice, [x, i64(b, [max(-before, 0)], tag + '/crop_start'),
                                 i64(b, [after if after < 0 else INT64_MAX], tag + '/crop_stop'), one, on_axis],
                         tag + '/cropped').out_port(0)
            parts = []
            if before > 0:
                parts.append(b.op(Slice, [x, i64(b, [-before], tag + '/tail_start'), i64(b, [INT64_MAX], tag + '/end'),
                                          one, on_axis], tag + '/tail'))
            parts.append(x)
            if after > 0:
                parts.append(b.op(Slice, [x, i64(b, [0], tag + '/head_start'), i64(b, [after], tag + '/head_stop'),
                                          one, on_axis], tag + '/head'))
            if len(parts) > 1:
                x = b.op(Concat, parts, tag + '/wrapped', axis=axis, in_ports_count=len(parts)).out_port(0)
        return x
