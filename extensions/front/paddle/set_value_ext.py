"""Paddle's ``set_value`` (classic; PIR's ``set_value`` and ``set_value_with_tensor``): ``x[slices] = value`` as
``paddle.jit.to_static`` writes slice assignment, as a ScatterNDUpdate.

The slices are Python's along ``axes`` (``starts``/``ends``/``steps``: attributes, PIR operands, or classic
``*TensorList`` inputs of one value each), clamped to the dimension as Python clamps them. The value is
``ValueTensor``, else the ``values`` attribute (older programs: ``fp32_values``, ``int64_values``...) of
``shape``; it broadcasts to the slice, whose ``decrease_axes`` (an integer index, ``x[:, 1]``) it lacks.

The formula: the flat index of every element of ``x`` (a Range reshaped to ``x``'s shape) sliced the same way
says where each element of the broadcast value goes in the flattened ``x``.
"""
import numpy as np

from mo.front.common.nn_formulas import I64
from extensions.front.paddle.interp_lowering import as_i64_vector, slot_ports
from mo.front.common.rule import Builder, OpRule
from mo.front.extractor import FrontExtractorOp
from mo.graph.graph import Node
from mo.ops.broadcast import Broadcast
from mo.ops.convert import Convert
from mo.ops.range import Range
from mo.ops.reduce import ReduceProd
from mo.ops.reshape import Reshape
from mo.ops.shapeof import ShapeOf
from mo.ops.slice import Slice
from mo.ops.tensor_ops import ScatterNDUpdate
from mo.ops.unsqueeze import Unsqueeze
from mo.utils.error import Error
from mo.front.paddle.extractor_utils import input_var

#: the typed value attributes of programs older than the ``values`` attribute
_TYPED_VALUES = ('fp32_values', 'fp64_values', 'int32_values', 'int64_values', 'bool_values', 'fp16_values')


class SetValueExtractor(FrontExtractorOp):
    """set_value, set_value_with_tensor -> PaddleSetValue (then ScatterNDUpdate)."""
    op = ['set_value', 'set_value_with_tensor']
    framework = 'paddle'

    @classmethod
    def describe(cls, op):
        return 'ScatterNDUpdate (opset4)'

    @classmethod
    def extract(cls, node):
        attrs = node['pb'].attrs
        name = node.soft_get('name', node.id)
        if attrs.get('none_axes'):
            raise Error('{} "{}": none_axes {} (a None index in the assigned slice) is not supported', node['op'],
                        name, attrs['none_axes'])
        values = list(attrs.get('values') or [])
        if not values:
            for key in _TYPED_VALUES:
                if attrs.get(key):
                    values = list(attrs[key])
                    break
        node.attrs().update({
            'axes': [int(a) for a in attrs.get('axes', [])],
            'starts_attr': [int(v) for v in attrs.get('starts', [])],
            'ends_attr': [int(v) for v in attrs.get('ends', [])],
            'steps_attr': [int(v) for v in attrs.get('steps', [])],
            'decrease_axes': [int(a) for a in attrs.get('decrease_axes', [])],
            'values_attr': [float(v) if not isinstance(v, bool) else v for v in values],
            'values_shape': [int(d) for d in attrs.get('shape', [])],
            'paddle_op': node['op']})
        node['op'] = 'PaddleSetValue'
        return True


class PaddleSetValueLowering(OpRule):
    """PaddleSetValue(Input, ValueTensor, starts, ends, steps) -> ScatterNDUpdate over the flattened input (see
    the module docstring)."""
    op = 'PaddleSetValue'

    def bounds(self, node: Node, b: Builder, which: str):
        """The ``which`` (Starts/Ends/Steps) of the slices: a PIR operand, a classic tensor list, the attribute."""
        ports = slot_ports(node, which)
        if ports:
            return b.op(Convert, [node.in_port(ports[0])], which.lower(), dst_type=np.dtype(I64))
        ports = slot_ports(node, which + 'TensorList')
        if ports:
            return as_i64_vector(b, [node.in_port(p) for p in ports], which.lower())
        values = node[which.lower() + '_attr']
        if which == 'Steps' and not values:
            values = [1] * len(node.axes)
        if len(values) != len(node.axes):
            raise Error('{} "{}": {} {} for axes {}', node.soft_get('paddle_op'), b.name, which.lower(), values,
                        node.axes)
        return b.const(np.array(values, I64), which.lower(), I64)

    def rewrite(self, node: Node, b: Builder):
        x = node.in_port(slot_ports(node, 'Input')[0])
        shape = b.op(ShapeOf, [x], 'shape')
        count = b.op(ReduceProd, [shape, b.const([0], 'count/axis', I64)], 'count', keep_dims=False)
        flat_ids = b.op(Range, [b.const(np.array(0, I64), 'ids/start', I64), count,
                                b.const(np.array(1, I64), 'ids/step', I64)], 'ids', output_type=np.dtype(I64))
        ids = b.op(Reshape, [flat_ids, shape], 'ids_shaped')
        axes = b.const(np.array(node.axes, I64), 'axes', I64)
        picked = b.op(Slice, [ids, self.bounds(node, b, 'Starts'), self.bounds(node, b, 'Ends'),
                              self.bounds(node, b, 'Steps'), axes], 'picked_ids')
        value_ports = slot_ports(node, 'ValueTensor')
        if value_ports:
            value = node.in_port(value_ports[0])
            if node.decrease_axes:  # x[:, 1] = v: v lacks the indexed axis, which the slice keeps as 1
                value = b.op(Unsqueeze, [value, b.const(np.array(sorted(node.decrease_axes), I64),
                                                        'value/axes', I64)], 'value_full_rank')
        elif node.values_attr:
            values = np.array(node.values_attr, np.float64)
            if node.values_shape and int(np.prod(node.values_shape)) == values.size:
                values = values.reshape(node.values_shape)
            value = b.const(values, 'value', np.float64)
        else:
            raise Error('{} "{}" has neither a ValueTensor nor values', node.soft_get('paddle_op'), b.name)
        value = b.op(Convert, [value], 'value_typed', dst_type=self._dtype(node))
        updates = b.op(Broadcast, [value, b.op(ShapeOf, [picked], 'slice_shape')], 'updates')
        flat_x = b.op(Reshape, [x, b.const([-1], 'flat', I64)], 'flat_x')
        indices = b.op(Reshape, [picked, b.const([-1, 1], 'indices/shape', I64)], 'indices')
        flat_updates = b.op(Reshape, [updates, b.const([-1], 'updates/shape', I64)], 'flat_updates')
        scattered = b.op(ScatterNDUpdate, [flat_x, indices, flat_updates], 'scatter')
        return b.op(Reshape, [scattered, shape], 'out')

    @staticmethod
    def _dtype(node: Node):
        """The element type of the assigned tensor, as the program declares it (float32 if it does not)."""
        var = input_var(node, 'Input')
        return np.dtype(var.dtype) if var is not None and var.dtype is not None else np.dtype(np.float32)
