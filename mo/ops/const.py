"""Const: a tensor known at conversion time."""
import numpy as np

from mo.ops.op import Op


class Const(Op):
    """Produces its ``value`` (a numpy array) on output 0."""
    op = 'Const'

    def __init__(self, graph, attrs: dict = None):
        attrs = dict(attrs or {})
        if 'value' in attrs and attrs['value'] is not None:
            attrs['value'] = np.asarray(attrs['value'])
            attrs.setdefault('shape', np.array(attrs['value'].shape, dtype=np.int64))
            attrs.setdefault('data_type', attrs['value'].dtype)
        super().__init__(graph, {
            'type': 'Const', 'op': 'Const', 'version': 'opset1',
            'infer': Const.infer, 'type_infer': Const.type_infer, 'in_ports_count': 0, 'out_ports_count': 1,
        }, attrs)

    def add_node(self, attrs: dict = None):
        node = super().add_node(attrs)
        if self.graph.stage != 'front' and node.has_valid('value'):
            node.out_port(0).data.set_value(node.value)  # middle phase: the value lives on the data node
        return node

    def backend_attrs(self):
        return ['element_type', 'shape', 'offset', 'size']

    @staticmethod
    def infer(node):
        node.out_port(0).data.set_value(node.value)

    @staticmethod
    def type_infer(node):
        """The output's element type is the value's (or ``data_type`` when the value is not kept)."""
        dtype = node.value.dtype if node.has_valid('value') else node.soft_get('data_type', None)
        if dtype is not None:
            node.out_port(0).data.set_data_type(dtype)


class PackedNibbleConst(Op):
    """A 4-bit (int4/uint4) constant kept as the bytes that hold it: ``packed_nibbles`` (uint8, two codes a byte, the
    first in the low bits: the IR's own form, often a view of the model file), the codes' ``shape`` and
    ``data_type``. It has no value to fold with; what reads it is a Convert that is never folded (compressed
    weights). Written as a Const."""
    op = 'PackedNibbleConst'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {
            'type': 'Const', 'op': 'PackedNibbleConst', 'version': 'opset1',
            'infer': PackedNibbleConst.infer, 'type_infer': PackedNibbleConst.type_infer,
            'in_ports_count': 0, 'out_ports_count': 1,
        }, attrs)

    def backend_attrs(self):
        return ['element_type', 'shape', 'offset', 'size']

    @staticmethod
    def infer(node):
        node.out_port(0).data.set_shape(np.array(node.shape, dtype=np.int64))

    @staticmethod
    def type_infer(node):
        node.out_port(0).data.set_data_type(node.data_type)


def feed_constant(node, idx: int, value, name: str):
    """Connect a new Const holding ``value``, called ``name``, to input ``idx`` of ``node``; return it."""
    const = Const(node.graph, {'name': name, 'value': value}).create_node()
    const.out_port(0).connect(node.in_port(idx))
    return const


def set_const_value(const, value):
    """Give Const node ``const`` (and the tensor it writes) a new value; its framework tensor names
    named the old value and are dropped."""
    value = np.asarray(value)
    const.out_port(0).remove_tensor_names()
    const['value'] = value
    const['shape'] = np.array(value.shape, dtype=np.int64)
    const['data_type'] = value.dtype
    if const.graph.stage != 'front':
        const.out_port(0).data.set_value(value)
