"""ONNX's Pad (the ``ONNXPad`` nodes ``tensor_ext`` leaves) as opset Pad, or as Gathers for ``wrap``.

Pads are ``[x1_begin, x2_begin, ..., x1_end, x2_end, ...]``: an attribute before opset 11, input 1 from it,
for the axes of input 3 (opset 18; all axes when absent). Negative pads crop.
"""
import numpy as np

from extensions.front.onnx.math_lowering import static_shape
from extensions.front.onnx.tensor_ext import node_name
from extensions.front.onnx.tensor_lowering import constant_input, i64, scalar
from extensions.ops.opset_tensor import ScatterElementsUpdate
from mo.front.common.rule import Builder, OpRule
from mo.front.onnx.extractors.utils import get_onnx_opset_version, onnx_attr
from mo.graph.graph import Node
from mo.ops.broadcast import Broadcast
from mo.ops.convert import Convert, ConvertLike
from mo.ops.elementwise import Add, FloorMod, Maximum, Sub
from mo.ops.gather import Gather
from mo.ops.pad import Pad
from mo.ops.range import Range
from mo.ops.shapeof import ShapeOf
from mo.ops.split import Split
from mo.utils.error import Error

_MODES = {'constant': 'constant', 'reflect': 'reflect', 'edge': 'edge', 'wrap': None}


class PadLowering(OpRule):
    """Pad(x, pads, value, axes; mode) = Pad-1(x, begin, end, value; mode) with begin, end the halves of pads,
    scattered into zeros at ``axes`` when given; mode ``wrap`` (opset 19) = per axis a Gather of x at the
    positions -begin .. n + end - 1 taken modulo n, after cropping (``_wrap``)."""
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
            return self._wrap(node, b, x, None if pads is None else np.ravel(pads).astype(np.int64), axes)
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
    def _wrap(node, b, x, pads, axes):
        """Wrap padding, per padded axis, of x cropped first where a pad is negative (as onnxruntime does; numpy
        takes no negative pads): with c0, c1 the crops, p0, p1 the positive pads and m = n - c0 - c1 the points
        kept, Gather(x, c0 + (Range(-p0, m + p1) mod m), axis), which is numpy's ``wrap`` for pads of any size
        (repeating x where a pad exceeds m).
        Pads known at run time only are read per axis; their count must then be known: the constant axes, or
        the static length of pads or rank of x."""
        count = None if pads is None else pads.size // 2
        if axes is not None:
            count = np.size(axes)
        elif count is None:
            pads_shape, x_shape = static_shape(node.in_port(1)), static_shape(node.in_port(0))
            if pads_shape is not None and len(pads_shape) == 1 and pads_shape[0] >= 0:
                count = pads_shape[0] // 2
            elif x_shape is not None:
                count = len(x_shape)
            else:
                raise Error('Pad "{}": mode wrap with pads known at run time only needs the rank of the input',
                            node_name(node))
        axes = list(range(count)) if axes is None else [int(a) for a in np.ravel(axes)]
        runtime = None if pads is not None else b.op(Convert, [node.in_port(1)], 'pads_i64', dst_type=np.int64)
        for k, axis in enumerate(axes):
            tag = 'axis_{}'.format(axis)
            if pads is not None and pads[k] == 0 and pads[count + k] == 0:
                continue
            added, cut = PadLowering._added_and_cut(b, pads, runtime, k, count, tag)
            size = b.op(Gather, [b.op(ShapeOf, [x], tag + '/shape', output_type=np.int64),
                                 i64(b, axis, tag + '/size_index'), i64(b, 0, tag + '/size_axis')], tag + '/size')
            kept = b.op(Sub, [b.op(Sub, [size, cut[0]], tag + '/after_cut_begin'), cut[1]], tag + '/kept')
            positions = b.op(Range, [b.op(Sub, [i64(b, 0, tag + '/origin'), added[0]], tag + '/start'),
                                     b.op(Add, [kept, added[1]], tag + '/stop'), i64(b, 1, tag + '/step')],
                             tag + '/positions', output_type=np.int64)
            indices = b.op(Add, [b.op(FloorMod, [positions, kept], tag + '/wrapped_positions'), cut[0]],
                           tag + '/indices')
            x = b.op(Gather, [x, indices, i64(b, axis, tag + '/axis')], tag + '/wrapped').out_port(0)
        return x

    @staticmethod
    def _added_and_cut(b, pads, runtime, k: int, count: int, tag: str):
        """``[begin, end]`` pads of axis ``k`` split into what is added (the positive part) and what is cropped
        (the negative part, negated), from the constant ``pads`` or the run-time ``runtime`` ones."""
        if pads is not None:
            ends = (int(pads[k]), int(pads[count + k]))
            return ([i64(b, max(v, 0), tag + '/added_' + which) for v, which in zip(ends, ('begin', 'end'))],
                    [i64(b, max(-v, 0), tag + '/cut_' + which) for v, which in zip(ends, ('begin', 'end'))])
        zero = i64(b, 0, tag + '/zero')
        ends = [b.op(Gather, [runtime, i64(b, index, tag + '/' + which + '_index'),
                              i64(b, 0, tag + '/' + which + '_axis')], tag + '/' + which)
                for index, which in ((k, 'begin'), (count + k, 'end'))]
        return ([b.op(Maximum, [v, zero], tag + '/added_' + which) for v, which in zip(ends, ('begin', 'end'))],
                [b.op(Maximum, [b.op(Sub, [zero, v], tag + '/minus_' + which), zero], tag + '/cut_' + which)
                 for v, which in zip(ends, ('begin', 'end'))])
